/* Initial state of a new run: v = 0, p = 0 (and B = I), or the Taylor-Green vortex
 * u = U sin(2 pi x/Lx) cos(2 pi z/Lz), w = -U (Lz/Lx) cos(2 pi x/Lx) sin(2 pi z/Lz), v = 0,
 * sampled at each component's own face points (discretely divergence-free when Nx = Nz
 * and Lx/Nx = Lz/Nz). */
#ifndef EFSI_INIT_H
#define EFSI_INIT_H

#include "src/case/config.h"
#include "src/case/state.h"

/* Owned points only; the caller fills halos. */
void init_flow(const efsi_config *c, efsi_state *s);

#endif
