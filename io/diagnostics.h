/* diagnostics.csv: one row of scalar diagnostics per output.diagnostics_every steps, with
 * a header row; numbers in %.17g so rows of a restarted run compare bitwise.  After the
 * fixed columns come, in a case with a vessel (a material named wall), the five lumen
 * columns, then one volume_<material> column per material of the case, then the shape
 * columns (centroid and second moments of phi) of each material. */
#ifndef EFSI_DIAGNOSTICS_H
#define EFSI_DIAGNOSTICS_H

#include <stddef.h>

#include "base/limits.h"
#include "io/csv.h"

/* The shape of each material from the moments of its volume fraction: the centroid and
 * the second moments about it per volume, M_ab = int phi (x_a - c_a)(x_b - c_b) / int phi. */
enum {
  SHAPE_CENTROID_X = 0, SHAPE_CENTROID_Y, SHAPE_CENTROID_Z, SHAPE_MOMENT_XX, SHAPE_MOMENT_YY,
  SHAPE_MOMENT_ZZ, SHAPE_MOMENT_XY, SHAPE_MOMENT_XZ, SHAPE_MOMENT_YZ, SHAPE_COUNT
};

/* The columns of diagnostics.csv, in this order and with these names; then, with a vessel,
 * the lumen's (diagnostics_lumen_header); then material_volume[m] as volume_<name of
 * material m> for every material, then for every
 * material material_shape[m][c] as centroid_x_<name> .. centroid_z_<name>,
 * moment_xx_<name> .. moment_yz_<name> (the SHAPE_ order). */
typedef struct {
  long step;
  double time, dt, beta, gamma, mach, div_rms, div_max, kinetic_energy, elastic_energy,
         solid_volume, flow_rate, wall_shear, u_max, detB_min, detB_max, wall_seconds;
  double lumen_flow_rate, tube_hematocrit, discharge_hematocrit, lumen_wall_shear_mean,
         lumen_wall_shear_max;
  double material_volume[EFSI_MAX_MATERIALS];
  double material_shape[EFSI_MAX_MATERIALS][SHAPE_COUNT];
} efsi_diagnostics;

/* The names of the shape columns without the material, in the SHAPE_ order. */
extern const char *const diagnostics_shape_columns[SHAPE_COUNT];

/* The fixed columns of the header row, without the newline, and the lumen's columns. */
extern const char diagnostics_header[];
extern const char diagnostics_lumen_header[];

/* The table of one output directory: its columns and its open file. */
typedef struct {
  efsi_csv csv;
  int n_materials, lumen;
  /* the fixed columns, the lumen's, then volume_<material> for each material, then the
   * shape columns of each material */
  char header[256 + EFSI_MAX_MATERIALS * (1 + SHAPE_COUNT) * (EFSI_MATERIAL_NAME + 13)];
} efsi_diagnostics_table;

/* The columns of a case with nmat materials (names): one volume_<name> column each and the
 * shape columns of each; with a material named wall (the vessel's) the lumen columns before
 * them.  The table is closed. */
void diagnostics_table(efsi_diagnostics_table *t, int nmat,
                       const char names[][EFSI_MATERIAL_NAME]);

/* Rank 0 only.  Opens dir/diagnostics.csv: a new file with the header row, or, when
 * restart_step >= 0 and the file exists, the same file keeping only the rows with
 * step <= restart_step (rewritten through a temporary file) and appending after them.
 * Returns nonzero with a one-line message naming the file on failure. */
int diagnostics_open(efsi_diagnostics_table *t, const char *dir, long restart_step,
                     char *err, size_t errlen);

/* Rank 0 only.  Appends one row and flushes it; an I/O error stops the run, naming the
 * file. */
void diagnostics_write(efsi_diagnostics_table *t, const efsi_diagnostics *row);

/* Rank 0 only. */
void diagnostics_close(efsi_diagnostics_table *t);

#endif
