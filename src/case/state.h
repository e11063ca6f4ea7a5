/* The solver state on one rank: staggered velocity, pressure, and (when the case has
 * solids) the volume fraction of each material and the left Cauchy-Green tensor B. */
#ifndef EFSI_STATE_H
#define EFSI_STATE_H

#include "base/grid.h"
#include "base/limits.h"
#include "base/tensor.h"
#include "base/tracer.h"
#include "decomp/decomp.h"
#include "io/snapshot.h"
#include "src/case/backend.h"
#include "src/case/case.h"
#include "src/case/config.h"
#include "src/case/materials.h"

enum { STATE_MAX_OWN = EFSI_MAX_OWN_FIELDS };

typedef struct {
  efsi_grid grid;
  double *u, *v, *w;         /* velocity on west, south, bottom faces */
  double *p;                 /* pressure deviation, cell centres, <p> = 0 */
  int nmat;                  /* materials in use (0 = fluid only) */
  char material[EFSI_MAX_MATERIALS][EFSI_MATERIAL_NAME];  /* "rbc", "wall", ... */
  double *phi[EFSI_MAX_MATERIALS];
  double *b[6];              /* Bxx, Byy, Bzz, Bxy, Bxz, Byz; NULL when nmat == 0 */
  int model[EFSI_MAX_MATERIALS];   /* each material's model (src/case/material_models.h) */
  double *own[STATE_MAX_OWN];      /* the fields the materials' models hold besides phi_m
                                      (MATERIAL_FIELDS), material by material */
  long step;                 /* steps taken since the start of the run's history */
  double time;
  double drive_force;        /* current body force per volume in +x */
  char run_id[SNAPSHOT_RUN_ID_LEN];   /* the run's history, written into its output files */
} efsi_state;

/* The state's arrays, in one list: u, v, w, p, then with a solid every phi_m, the six
 * components of B, and the fields of the materials' models.  Allocation, copies, output
 * and the exchange all walk this list: state_arrays gives the addresses of the pointers,
 * state_exchanged the fields the state's halo exchange carries (all but p, in the same
 * order); each returns how many.  For a case's materials, before any state exists:
 * state_array_count. */
enum { STATE_MAX_ARRAYS = 4 + EFSI_MAX_MATERIALS + 6 + STATE_MAX_OWN };
int state_arrays(efsi_state *s, double **list[STATE_MAX_ARRAYS]);
int state_exchanged(efsi_state *s, double *fields[STATE_MAX_ARRAYS]);
/* u, v, w, p; with nmat > 0 materials every phi_m and B's six; the models' own fields */
static inline int state_count(int nmat, int own) { return 4 + (nmat > 0 ? nmat + 6 : 0) + own; }
static inline int state_array_count(const efsi_materials *m)
{
  return state_count(m->count, materials_own_fields(m));
}
static inline int state_exchanged_count(const efsi_materials *m)
{
  return state_array_count(m) - 1;
}
/* The first of material m's own fields in s->own (the fields of the materials before it
 * come first). */
static inline int state_own_first(const efsi_state *s, int m)
{
  return models_own_fields(s->model, m);
}

/* How many arrays the state s holds (state_arrays' count, s unchanged). */
int state_held_arrays(const efsi_state *s);

/* Allocate the fields of a state on grid g with nmat materials (named, of the neo-Hookean
 * model) and set v = 0, p = 0, phi = 0, B = I.  Returns nonzero when nmat is outside
 * 0..EFSI_MAX_MATERIALS; running out of memory stops the run. */
int state_alloc(efsi_state *s, const efsi_grid *g, int nmat, const char *const *names);
/* The state of a case: its materials in their order, with their models' fields at their
 * values at rest. */
int state_alloc_case(efsi_state *s, const efsi_grid *g, const efsi_case *cs);
void state_free(efsi_state *s);

/* A state of the case's materials (on grid g, when not NULL) without fields: what the
 * output files would name (state_snapshot), before any field exists. */
void state_shell(efsi_state *s, const efsi_grid *g, const efsi_case *cs);

/* A state with the grid and materials of host whose fields the backend's kernels read
 * (device memory on a GPU), uninitialised; freed by state_free_on.  Returns 0. */
int state_alloc_like(efsi_state *s, const efsi_state *host, const efsi_backend *b);
void state_free_on(efsi_state *s, const efsi_backend *b);

/* Every field (halos included) and step, time and drive force from one state to the other:
 * upload = 1 host -> backend, 0 backend -> host (a copy in place on the CPU). */
void state_transfer(efsi_state *backend_state, efsi_state *host, const efsi_backend *b,
                    int upload);

/* The state's arrays as the output files name them: the velocities as stored (restart) or
 * averaged to the cell centres (centred = 1, fields files), p, phi_<material>, bxx .. byz;
 * step, time, drive force and the material list.  The snapshot points into s. */
void state_snapshot(efsi_state *s, int centred, efsi_snapshot *out);

/* Collective: the fields file at path (io/fields.h) and the restart file in dir
 * (io/restart.h) of s; a restart file holds the n body tracers given on rank 0 (with the
 * running sums of the averages: outputs_write_restart, src/case/outputs.h). */
void state_write_fields(const char *path, efsi_state *s, const efsi_decomp *d,
                        const char *case_name);
void state_write_restart(const char *dir, efsi_state *s, const efsi_decomp *d, long n_tracers,
                         const efsi_tracer *tracers);

/* Collective: is the restart file at path one for this case on grid g (io/restart.h,
 * restart_check)?  Nothing is allocated. */
int state_check_restart(const char *path, const efsi_case *cs, const efsi_grid *g,
                        const efsi_decomp *d, char *err, size_t errlen);

/* Collective: fill s (allocated for the case on this process grid) from a restart file, or
 * return nonzero on every rank with a one-line message (io/restart.h). */
int state_read_restart(const char *path, efsi_state *s, const efsi_decomp *d, char *err,
                       size_t errlen);
/* The step, time, drive force and run id of a restart file read into snap. */
void state_from_restart(efsi_state *s, const efsi_snapshot *snap);

#endif
