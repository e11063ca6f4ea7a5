/* Voxel geometry: a NetCDF file with a cell-centred variable on the case grid, dimensions
 * (z, y, x) of lengths (Nz, Ny, Nx): `phi` (floating point, a volume fraction in [0, 1],
 * one material) or `label` (integer, 0 = fluid, k >= 1 = the k-th material of
 * voxels.modulus).  Each rank reads only its own block. */
#ifndef EFSI_VOXELS_H
#define EFSI_VOXELS_H

#include <stddef.h>

#include "base/grid.h"

/* The two kinds of voxel variable (voxels.variable). */
enum { VOXELS_PHI = 0, VOXELS_LABEL = 1 };

/* Check the file's header against the case before anything is allocated: the variable
 * exists, has the right type and the dimensions (z, y, x) of lengths (Nz, Ny, Nx).  Returns
 * nonzero with a one-line message naming the file and what is wrong. */
int voxels_check(const char *path, int variable, const int global_n[3], char *err,
                 size_t errlen);

/* One process: voxels_check and every value, read one z-plane at a time (phi in [0, 1],
 * whole labels 0..nlabels): a damaged file or a NaN is refused before the fields are
 * allocated.  Same contract as voxels_check. */
int voxels_validate(const char *path, int variable, int nlabels, const int global_n[3],
                    char *err, size_t errlen);

/* Fill the owned cells of phi[0] (VOXELS_PHI) or phi[0..nlabels-1] (VOXELS_LABEL).
 * Returns nonzero with a one-line message naming the file, the variable and what is
 * wrong (missing, wrong type, wrong dimensions or sizes, values out of range). */
int voxels_read(const char *path, int variable, int nlabels, const efsi_grid *g,
                double *const phi[], char *err, size_t errlen);

#endif
