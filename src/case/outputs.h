/* The fields a run writes (docs/output.md, "Selective outputs"): the fields files with the
 * fields output.fields names, compressed as output.deflate and output.quantize say; a box
 * of the grid taken every few cells ([box]: box_NNNNNNNN.nc); planes ([slices]:
 * slices_NNNNNNNN.nc); and running time averages ([average]: average.nc), their sums kept
 * where the kernels run and carried by the restart files, so that a continued run's
 * average is the uninterrupted run's. */
#ifndef EFSI_OUTPUTS_H
#define EFSI_OUTPUTS_H

#include "decomp/decomp.h"
#include "io/snapshot.h"
#include "src/case/backend.h"
#include "src/case/case.h"
#include "src/case/state.h"
#include "stencils/kernels.h"

typedef struct efsi_outputs efsi_outputs;

/* The outputs of case cs on this rank's block g; the sums of the averages are fields of
 * backend b (device memory on a GPU), zero. */
efsi_outputs *outputs_create(const efsi_case *cs, const efsi_grid *g, const efsi_backend *b);
void outputs_free(efsi_outputs *o);

/* How many fields the averages of configuration c with materials m sum (0: none): the
 * arrays outputs_create allocates for them, as case_memory counts them. */
int outputs_average_arrays(const efsi_config *c, const efsi_materials *m);

/* What efsi --check counts of the outputs (docs/output.md; uncompressed: deflate and
 * quantization only shrink them): the fields the fields files hold, and the bytes over
 * steps steps of the box, slices and average files and of bodies.nc (bodies of them, at
 * output.bodies_every), *files the number of such files. */
int outputs_fields_count(const efsi_case *cs);
double outputs_plan_bytes(const efsi_case *cs, double steps, long bodies, long *files);

/* Collective: the fields file at path of the host state s (output.fields, output.deflate,
 * output.quantize). */
void outputs_write_fields(efsi_outputs *o, const char *path, efsi_state *s,
                          const efsi_decomp *d);

/* Is the box (the slices) file due after step, the run's last when last? */
int outputs_box_due(const efsi_outputs *o, long step, int last);
int outputs_slices_due(const efsi_outputs *o, long step, int last);

/* Collective: dir/box_NNNNNNNN.nc, dir/slices_NNNNNNNN.nc of the host state s. */
void outputs_write_box(efsi_outputs *o, const char *dir, efsi_state *s, const efsi_decomp *d);
void outputs_write_slices(efsi_outputs *o, const char *dir, efsi_state *s, const efsi_decomp *d);

/* Is the state s a sample of the averages: a step of average.sample_every, at
 * average.start or later, not in the sums already? */
int outputs_sample_due(const efsi_outputs *o, const efsi_state *s);

/* Adds the state s (the backend's, halos valid for the velocity at the high side) to the
 * sums when it is a sample (outputs_sample_due).  Returns whether it did. */
int outputs_sample(efsi_outputs *o, const efsi_state *s, const efsi_kernels *k);

/* At the end of a run that reached it, after its last restart file: the last step is a
 * sample of the last average.nc too when it is not one of the sums already (and is at
 * average.start or later), so that average.nc covers the run to its end; the restart
 * files carry the sums of the cadence's steps alone, so that a run continued past that
 * end (a raised time.end_time) averages what the uninterrupted run does. */
void outputs_sample_end(efsi_outputs *o, const efsi_state *s, const efsi_kernels *k);

/* Collective: dir/average.nc, the averages of the samples so far (nothing without one). */
void outputs_write_average(efsi_outputs *o, const char *dir, const efsi_decomp *d,
                           const char *case_name, const char *run_id);

/* The restart file's part: the sums (host copies, downloaded first on a GPU) appended to
 * snap as variables average_sum_<field>, and the window as its numbers.  For reading,
 * outputs_restart_fields before restart_read (the sums optional), then outputs_restart_read:
 * a file with the sums of this case's averages (the same fields, sample_every and start)
 * continues them; any other starts a new window at the restart (said on stderr by rank 0). */
void outputs_restart_fields(efsi_outputs *o, efsi_snapshot *snap);
void outputs_restart_read(efsi_outputs *o, const efsi_snapshot *snap, int rank);

/* Collective: the state's restart file in dir with the running sums of o's averages (o may
 * be NULL: the state alone, as state_write_restart), and reading one back: nonzero on every
 * rank with a one-line message when it cannot be read (io/restart.h). */
void outputs_write_restart(efsi_outputs *o, const char *dir, efsi_state *s,
                           const efsi_decomp *d, long n_tracers, const efsi_tracer *tracers);
int outputs_read_restart(efsi_outputs *o, const char *path, efsi_state *s,
                         const efsi_decomp *d, char *err, size_t errlen);

#endif
