/* Initial state of the solid (docs/bodies.md): the body families (rbc, platelet) and
 * single bodies (sphere, ellipsoid) of the case, the vessel wall and the voxel geometry,
 * turned into the volume fraction of each material; B = I; one tracer per body at its
 * centroid. */
#ifndef EFSI_INIT_SOLID_H
#define EFSI_INIT_SOLID_H

#include <stddef.h>

#include "src/bodies/seeding.h"
#include "src/case/case.h"
#include "src/case/config.h"
#include "decomp/decomp.h"
#include "src/case/state.h"
#include "src/bodies/tracers.h"

/* The case's bodies in the form bodies.h takes: families, singles and the region. */
typedef struct {
  efsi_seeding seeding;
  efsi_body_family family[EFSI_MAX_FAMILIES];
  int nfam;
  efsi_body single[3];       /* sphere, ellipsoid, the RBC at rbc.center */
  int nsingle;
  long total;                /* bodies of all kinds */
  efsi_seeding_report report;  /* how the families were seeded */
  efsi_packed packed;        /* a random packing's bodies near this rank (case_bodies_place) */
} efsi_case_bodies;

/* Build and validate the case's bodies (cheap, MPI-free, before any allocation): bodies
 * that do not fit or overlap, and a voxel file whose variable, type or size does not fit
 * the case, are refused with a one-line message naming the key or file.  A random packing
 * is only planned here.  Returns nonzero on refusal. */
int case_bodies(const efsi_case *cs, efsi_case_bodies *cb, char *err, size_t errlen);

/* Collective, after case_bodies, on the run's process grid: make the random packing that
 * case_bodies planned (nothing for a lattice) and keep the bodies near this rank's block.
 * A packing that cannot reach the requested count or fraction is refused, naming the key
 * and what it reached, with the same message on every rank; returns nonzero then. */
int case_bodies_place(const efsi_config *c, efsi_case_bodies *cb, const efsi_decomp *d,
                      char *err, size_t errlen);
void case_bodies_free(efsi_case_bodies *cb);

/* Collective.  Volume fractions of the owned cells (halos are left to the caller's
 * exchange), and the tracers of the bodies whose centre this rank owns (a random packing
 * not yet placed by case_bodies_place is made here, and dropped after).  The voxel file is
 * read here: returns nonzero with the same message on every rank when it is refused. */
int init_solid(const efsi_case *cs, const efsi_case_bodies *cb, const efsi_decomp *d,
               efsi_state *s, efsi_tracers *t, char *err, size_t errlen);

/* "rbc", "platelet", "sphere", "ellipsoid": tracer kinds as bodies.csv writes them. */
extern const char *const body_kind_names[BODY_KINDS];

#endif
