/* The ranks of a distributed random packing (docs/bodies.md, "Random packing"): a body
 * belongs to the rank whose box of the process grid holds its centre; the neighbours of a
 * rank are the ranks whose boxes lie within a reach of its own; one exchange per sweep with
 * them hands the bodies that left a box over to their new rank and sends copies of the
 * bodies near each neighbour's box.  Who holds a body changes only who computes it: the
 * packing is the same on any process grid. */
#ifndef EFSI_PACKING_RANKS_H
#define EFSI_PACKING_RANKS_H

#include <mpi.h>

#include "decomp/decomp.h"

/* A body as the packing holds and sends it. */
typedef struct {
  double c[3];             /* centre, in [0, L) along periodic axes */
  double frame[3][3];      /* rows: the body's axes in lab coordinates */
  long id;                 /* 0 .. N-1, family by family */
  int family;
  int moved;               /* centre or frame changed by the last sweep's move */
} packing_body;

/* A growing array of bodies. */
typedef struct {
  packing_body *b;
  long n, cap;
} packing_list;

void packing_list_push(packing_list *list, const packing_body *b);
void packing_list_free(packing_list *list);

typedef struct {
  MPI_Comm comm;                /* the process grid's Cartesian communicator */
  int rank;
  int dims[3], coords[3], periodic[3];
  double length[3], width[3];   /* the region, and one rank's box along each axis */
  double reach;                 /* neighbours: ranks whose boxes lie within reach */
  int n;                        /* neighbours (self excluded), in ascending rank */
  int *neighbor;                /* their ranks */
  int (*at)[3];                 /* and coordinates */
} packing_ranks;

/* This rank's neighbours within reach on the process grid of d (collective-free).  A rank's
 * box along axis a is [c w_a, (c + 1) w_a), w_a = length_a / dims_a. */
void packing_ranks_create(packing_ranks *pr, const efsi_decomp *d, const double length[3],
                          const int periodic[3], double reach);
void packing_ranks_free(packing_ranks *pr);

/* Does this rank's box hold centre c (the rank that owns the body)? */
int packing_owns(const packing_ranks *pr, const double c[3]);

/* Is c within `reach` of the box at process-grid coordinates `at`, along every axis
 * (nearest periodic image)? */
int packing_near_box(const packing_ranks *pr, const int at[3], const double c[3], double reach);

/* Collective over the neighbours.  The bodies this rank owned before a move: `stay` still
 * in its box, `leave` gone out of it (each to its new rank, which must be a neighbour).
 * Every one of them within `reach` of a neighbour's box is copied to it (and a leaver within
 * reach of this box is kept as a copy here).  Out: the bodies handed over to this rank
 * (`arrived`) and the copies of others' bodies near its box (`copies`), both emptied first,
 * in the neighbours' order. */
void packing_exchange(const packing_ranks *pr, const packing_body *stay, long nstay,
                      const packing_body *leave, long nleave, double reach,
                      packing_list *arrived, packing_list *copies);

#endif
