/* Fields files for analysis and visualisation: NetCDF-4, CF-1.8, every variable at cell
 * centres on dimensions (z, y, x), the velocity averaged from the faces to the centres. */
#ifndef EFSI_FIELDS_H
#define EFSI_FIELDS_H

#include "decomp.h"
#include "state.h"

/* Collective.  Writes path (through a temporary name, renamed when complete): coordinates
 * x, y, z at cell centres; u, v, w at cell centres, u_c(i) = (u(i) + u(i+1))/2 and the
 * same along y and z, which reads the velocity halo at the high side, so the velocity halo
 * (width >= 1, walls included) must be valid; p; phi_<material> for each material; bxx,
 * byy, bzz, bxy, bxz, byz when there are materials; global attributes Conventions, title,
 * source, case, step and time. */
void fields_write(const char *path, const efsi_state *s, const efsi_decomp *d,
                  const char *case_name);

#endif
