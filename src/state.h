/* The solver state on one rank: staggered velocity, pressure, and (when the case has
 * solids) the volume fraction of each material and the left Cauchy-Green tensor B. */
#ifndef EFSI_STATE_H
#define EFSI_STATE_H

#include "config.h"
#include "grid.h"

#define EFSI_MATERIAL_NAME 32

enum { BXX = 0, BYY, BZZ, BXY, BXZ, BYZ };

typedef struct {
  efsi_grid grid;
  double *u, *v, *w;         /* velocity on west, south, bottom faces */
  double *p;                 /* pressure deviation, cell centres, <p> = 0 */
  int nmat;                  /* materials in use (0 = fluid only) */
  char material[EFSI_MAX_MATERIALS][EFSI_MATERIAL_NAME];  /* "rbc", "wall", ... */
  double *phi[EFSI_MAX_MATERIALS];
  double *b[6];              /* Bxx, Byy, Bzz, Bxy, Bxz, Byz; NULL when nmat == 0 */
  long step;                 /* steps taken since the start of the run's history */
  double time;
  double drive_force;        /* current body force per volume in +x */
} efsi_state;

/* Allocate the fields of a state on grid g with nmat materials (named) and set
 * v = 0, p = 0, phi = 0, B = I.  Returns nonzero when memory runs out. */
int state_alloc(efsi_state *s, const efsi_grid *g, int nmat, const char *const *names);
/* The state of a case: its materials (config_materials) in their order. */
int state_alloc_case(efsi_state *s, const efsi_grid *g, const efsi_config *c);
void state_free(efsi_state *s);

#endif
