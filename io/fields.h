/* Fields files for analysis and visualisation: NetCDF-4, CF-1.8, every variable at cell
 * centres on dimensions (z, y, x), the velocity averaged from the faces to the centres. */
#ifndef EFSI_FIELDS_H
#define EFSI_FIELDS_H

#include "decomp/decomp.h"
#include "io/snapshot.h"

/* Collective.  Writes path (through a temporary name, renamed when complete): coordinates
 * time (one value: the snapshot's), x, y, z at cell centres, then every field of the
 * snapshot in its order on (time, z, y, x), a face-centred one averaged to the centres,
 * u_c(i) = (u(i) + u(i+1))/2 (so its halo at the high side, walls included, must be
 * valid); global attributes Conventions, title, source, case, step, time, run_id,
 * boundary_y and boundary_z ("wall" or "periodic"). */
void fields_write(const char *path, const efsi_snapshot *s, const efsi_decomp *d,
                  const char *case_name);

#endif
