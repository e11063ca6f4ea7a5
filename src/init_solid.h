/* Initial state of the solid (docs/bodies.md): the body families (rbc, platelet) and
 * single bodies (sphere, ellipsoid) of the case, the vessel wall and the voxel geometry,
 * turned into the volume fraction of each material; B = I; one tracer per body at its
 * centroid. */
#ifndef EFSI_INIT_SOLID_H
#define EFSI_INIT_SOLID_H

#include <stddef.h>

#include "src/seeding.h"
#include "src/config.h"
#include "decomp/decomp.h"
#include "src/state.h"
#include "src/tracers.h"

/* The case's bodies in the form bodies.h takes: families, singles and the region. */
typedef struct {
  efsi_seeding seeding;
  efsi_body_family family[EFSI_MAX_FAMILIES];
  int nfam;
  efsi_body single[3];       /* sphere, ellipsoid, the RBC at rbc.center */
  int nsingle;
  long total;                /* bodies of all kinds */
  efsi_seeding_report report;  /* how the families were seeded */
} efsi_case_bodies;

/* Build and validate the case's bodies (cheap, before any allocation): bodies that do not
 * fit, overlap or cannot be placed at the requested count or fraction, and a voxel file
 * whose variable, type or size does not fit the case, are refused with a one-line message
 * naming the key or file.  Returns nonzero on refusal. */
int case_bodies(const efsi_config *c, efsi_case_bodies *cb, char *err, size_t errlen);

/* Collective.  Volume fractions of the owned cells (halos are left to the caller's
 * exchange), and the tracers of the bodies whose centre this rank owns.  The voxel file is
 * read here: returns nonzero with the same message on every rank when it is refused. */
int init_solid(const efsi_config *c, const efsi_case_bodies *cb, const efsi_decomp *d,
               efsi_state *s, efsi_tracers *t, char *err, size_t errlen);

/* "rbc", "platelet", "sphere", "ellipsoid": tracer kinds as bodies.csv writes them. */
extern const char *const body_kind_names[BODY_KINDS];

#endif
