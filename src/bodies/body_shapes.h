/* Each body's share of its material's volume fraction and the shape of that share
 * (docs/tracers.md, "Body shapes"): the cells of material m with phi_m > 0 belong to the
 * body of m whose tracer is nearest (periodic distances, within the kind's reach), and per
 * body
 *   volume      V = sum phi dV
 *   centroid    c = x_t + sum phi (x - x_t) dV / V          (x - x_t the nearest image)
 *   moments     M_ab = sum phi (x_a - c_a)(x_b - c_b) dV / V
 * Each rank works on its owned cells with copies of the tracers near its block; the sums
 * are taken in fixed point (an integer per term and body), so they do not depend on the
 * order of the cells, the threads or the process grid: the same bits on any number of
 * ranks.  They meet, with the tracers themselves, on the rank that writes the body's slab
 * of bodies.nc (bodies by id in equal contiguous shares, rank order). */
#ifndef EFSI_BODY_SHAPES_H
#define EFSI_BODY_SHAPES_H

#include "base/grid.h"
#include "base/tracer.h"
#include "decomp/decomp.h"
#include "io/bodies_nc.h"
#include "src/case/case.h"
#include "stencils/shapes.h"

typedef struct efsi_body_shapes efsi_body_shapes;

/* The bodies of a case (total of them, ids 0 .. total-1) on decomposition d (kept by
 * pointer) with this rank's block g: each kind's material and reach (twice the bounding
 * radius of the kind's shape, plus two cells: a cell farther than that from every tracer
 * of its material belongs to no body). */
efsi_body_shapes *body_shapes_create(const efsi_case *cs, const efsi_decomp *d,
                                     const efsi_grid *g, long total);
void body_shapes_free(efsi_body_shapes *s);

/* Of a kind of body in this case: its material's index in the state (-1: the case has
 * none of that kind) and its reach. */
int body_shapes_material(const efsi_body_shapes *s, int kind);
double body_shapes_reach(const efsi_body_shapes *s, int kind);

/* The bodies rank r writes: ids first .. first + count - 1. */
void body_shapes_share(const efsi_body_shapes *s, int rank, long *first, long *count);

/* Collective.  The records of this rank's share (body_shapes_share) at this moment, from the
 * local tracers (positions and velocities as given: interpolate first) and the volume
 * fractions phi (host arrays of the state's materials, owned cells read); valid until the
 * next call.  Every body must have its tracer on exactly one rank (stops the run
 * otherwise, naming the body). */
const efsi_body_record *body_shapes_compute(efsi_body_shapes *s, const efsi_tracer *local,
                                            long nlocal, double *const phi[]);

#endif
