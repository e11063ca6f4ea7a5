/* Deformable bodies at the start of a run: seeding of RBC / platelet families on a
 * lattice with random displacement and rotation (each rank generating only the bodies near
 * its block), or, where the lattice cannot place them or a family keeps to a radial band, a
 * random packing (src/bodies/packing.h) distributed over the ranks; single bodies at given
 * centres; the queries for the bodies near a block.  Reproducible and identical on any
 * number of ranks.  Their volume fractions are drawn by stencils/draw.h.  Planning and the
 * lattice are MPI-free; a packing (bodies_pack) is collective. */
#ifndef EFSI_BODIES_H
#define EFSI_BODIES_H

#include <stddef.h>

#include "base/grid.h"
#include "decomp/decomp.h"
#include "stencils/draw.h"
#include "stencils/shapes.h"

#define EFSI_MAX_FAMILIES 8

typedef struct {
  int kind;
  int material;
  long count;              /* count or fraction given, the other 0 */
  double fraction;         /* of the region (the box, or the lumen when there is a vessel) */
  double size[3];
  int orientation;         /* 0 random, 1/2/3: symmetry axis along x/y/z */
  double band[2];          /* with a vessel: the centres' distance from the axis, fractions of
                              the lumen radius, kept in [band[0], band[1]]; {0, 0} or {0, 1}:
                              anywhere */
} efsi_body_family;

typedef struct {
  double length[3];
  int cells[3];
  int periodic[3];         /* from the boundary types; a wall keeps bodies one cell off */
  unsigned long seed;      /* init.seed */
  int vessel;              /* tube along x, centred in y-z, lumen = the region */
  double vessel_diameter;
} efsi_seeding;

/* The frame of a body whose symmetry axis (body z) lies along lab axis orientation
 * (ORIENT_X, _Y, _Z of src/case/config.h): x_b = frame . (p - center). */
void body_aligned_frame(int orientation, double frame[3][3]);

/* How the families were seeded: their bodies and the fraction of the region they fill (the
 * tube hematocrit in a lumen), and, for a random packing (once bodies_pack has run), its
 * cost and the order of the RBCs' axes. */
typedef struct {
  int packed;                          /* 0: lattice, 1: random packing */
  long count[EFSI_MAX_FAMILIES];
  double fraction[EFSI_MAX_FAMILIES];  /* count x body volume / region volume */
  long sweeps;                         /* of the packing (0: not packed yet) */
  double seconds;                      /* its wall-clock time, the longest over the ranks */
  double cpu_seconds;                  /* the busiest rank's CPU time computing (packing.h) */
  double order;                        /* nematic order of the randomly oriented RBCs' axes */
  int ranks;                           /* the ranks that packed */
  long most_bodies;                    /* the most bodies one rank held, own and copies */
} efsi_seeding_report;

/* Validate the families and singles against the region and count the bodies (MPI-free,
 * cheap: nothing is allocated that grows with the number of bodies).  The lattice is only
 * planned; a random packing is left to bodies_pack.  *total = seeded + nsingle; the seeded
 * bodies have ids 0 .. *total - nsingle - 1, single j has id *total - nsingle + j.  report
 * (may be NULL) says how.  On error returns nonzero with a one-line message naming the key
 * (rbc.hematocrit, platelet.count, platelet.radial_band, sphere.center, ...) and the
 * limit. */
int bodies_seed(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, long *total, efsi_seeding_report *report,
                char *err, size_t errlen);

/* The bodies of a random packing kept on one rank: every one whose bounding sphere comes
 * within the margin of the rank's box of the process grid, the box so widened, id order. */
typedef struct {
  int done;                /* 1: packed (0: no packing, or not yet) */
  efsi_body *body;         /* centres in the box [0, L) */
  long n;
  double lo[3], hi[3];     /* the box whose bodies are all here */
} efsi_packed;

/* Collective over d->comm.  When the plan of bodies_seed is a random packing: pack on the
 * process grid of d (the same bodies on any), keep in *out the bodies near this rank's box
 * widened by margin (packed_free it), and add the packing's cost to report (may be NULL).
 * Nothing to do (returns 0, out->done = 0) for a lattice.  Refuses, with the same one-line
 * message on every rank, a packing that jams (naming the key and the fraction or count it
 * reached) and a single body that overlaps a packed one. */
int bodies_pack(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const efsi_decomp *d, double margin,
                efsi_packed *out, efsi_seeding_report *report, char *err, size_t errlen);
void packed_free(efsi_packed *packed);

/* The estimated seconds of the random packing that bodies_seed plans, on the process grid
 * dims (docs/bodies.md, "Cost": measured on the development machine); 0 for a lattice or an
 * input bodies_seed refuses. */
double bodies_pack_estimate(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                            const int dims[3]);

/* The bodies (seeded and single) whose bounding sphere intersects the box [lo, hi], with
 * centres shifted to every periodic image that does (a body may appear once per image).
 * Lattice: work proportional to the lattice sites in and near the box (packed may be NULL);
 * packing: the bodies of packed, which must serve the box.  *out is malloc'ed (free() it);
 * returns nonzero when the input is invalid (bodies_seed says why) or the packing is not
 * there or does not reach the box. */
int bodies_near(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const efsi_packed *packed,
                const double lo[3], const double hi[3], efsi_body **out, long *n);

#endif
