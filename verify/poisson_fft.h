/* Exact solver of the compact 7-point Poisson problem lap(x) = rhs on cell centres, for the
 * SMAC verification path: x periodic, y and z periodic or wall (even reflection, i.e.
 * homogeneous Neumann), any process grid.  Real transforms in x and z (and y when periodic),
 * a tridiagonal solve along y at a wall; the singular zero mode is fixed by <x> = 0.
 * Plans are made once with FFTW_ESTIMATE, so a given process grid gives bitwise the same
 * answer on every run.  See docs/smac.md. */
#ifndef EFSI_POISSON_FFT_H
#define EFSI_POISSON_FFT_H

#include "decomp/decomp.h"
#include "base/grid.h"

typedef struct efsi_poisson efsi_poisson;

/* Transposes, FFTW plans, eigenvalues and work arrays for the grid g of decomposition d
 * (boundary types from d->periodic).  Collective on d->comm. */
efsi_poisson *poisson_create(const efsi_grid *g, const efsi_decomp *d);

/* x <- the zero-mean solution of lap(x) = rhs.  rhs and x are fields of grid g (owned cells
 * read and written, halos untouched; they may be the same array).  rhs must have zero
 * mean up to round-off: its mean is not used.  Collective. */
void poisson_solve(efsi_poisson *ps, const double *rhs, double *x);

void poisson_free(efsi_poisson *ps);

/* What poisson_create allocates, about: the packed block, the pencil, the transposes' two
 * buffers, the Thomas coefficients at a y wall and FFTW's plans, six fields' worth of owned
 * cells (tests/test_memory_mpi measures it). */
double poisson_host_bytes(const efsi_grid *g);

#endif
