/* diagnostics.csv and the output directory: the header columns are exactly the documented
 * ones (then, with a vessel, the lumen's, then one volume_<material> per material, then the
 * shape columns of each); rows round-trip bitwise through %.17g; a restart keeps the rows up
 * to its step and appends after them; output_prepare refuses a directory that holds a
 * previous run. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/diagnostics.h"
#include "tests/test_support.h"
#include "io/output.h"

/* The documented column names, spelled out here independently of diagnostics.c. */
static const char *const column[] = {
  "step", "time", "dt", "beta", "gamma", "mach", "div_rms", "div_max", "kinetic_energy",
  "elastic_energy", "solid_volume", "flow_rate", "wall_shear", "u_max", "detB_min",
  "detB_max", "wall_seconds"};
enum { NCOLUMNS = sizeof column / sizeof column[0] };
/* The lumen's columns, with a vessel (a material named wall). */
static const char *const lumen_column[] = {
  "lumen_flow_rate", "tube_hematocrit", "discharge_hematocrit", "lumen_wall_shear_mean",
  "lumen_wall_shear_max"};
enum { NLUMEN = sizeof lumen_column / sizeof lumen_column[0] };

static char *make_temp_dir(void)
{
  char *dir = strdup("/tmp/efsi-test-diagnostics-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  return dir;
}

static void remove_tree(const char *dir)
{
  char command[4200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(command), 0);
}

/* Materials of the case in the test, and whether one is the wall (diagnostics_table sets
 * the same), and the table. */
static int nmat, lumen;
static efsi_diagnostics_table table;

/* A row whose every value depends on the step and seed, with all 17 significant digits. */
static efsi_diagnostics row_of(long step, double seed)
{
  efsi_diagnostics r;
  double *values = &r.time;
  r.step = step;
  for (int c = 0; c < NCOLUMNS - 1; c++) values[c] = seed * (step + 1) / (3.0 + c) - 1e-7 * c;
  double *tube = &r.lumen_flow_rate;
  for (int c = 0; c < NLUMEN; c++) tube[c] = seed * (step + 2) / (11.0 + c);
  for (int m = 0; m < EFSI_MAX_MATERIALS; m++) r.material_volume[m] = seed * step / (7.0 + m);
  for (int m = 0; m < EFSI_MAX_MATERIALS; m++)
    for (int c = 0; c < SHAPE_COUNT; c++)
      r.material_shape[m][c] = seed * (step - 3) / (11.0 + m + 0.1 * c);
  return r;
}

/* Read diagnostics.csv of dir: header into header, rows into rows; returns the row count. */
static int read_csv(const char *dir, char *header, size_t len, efsi_diagnostics *rows, int max)
{
  char path[4200], line[4096];
  snprintf(path, sizeof path, "%s/diagnostics.csv", dir);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_ptr_nonnull(fgets(header, (int)len, f));
  header[strcspn(header, "\n")] = '\0';
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    ck_assert_int_lt(n, max);
    char *at = line, *end;
    rows[n].step = strtol(at, &end, 10);
    double *values = &rows[n].time;
    for (int c = 0; c < NCOLUMNS - 1; c++) {
      ck_assert_int_eq(*end, ',');
      at = end + 1;
      values[c] = strtod(at, &end);
      ck_assert_ptr_ne(end, at);
    }
    double *tube = &rows[n].lumen_flow_rate;
    for (int c = 0; c < NLUMEN && lumen; c++) {
      ck_assert_int_eq(*end, ',');
      at = end + 1;
      tube[c] = strtod(at, &end);
      ck_assert_ptr_ne(end, at);
    }
    for (int m = 0; m < nmat; m++) {
      ck_assert_int_eq(*end, ',');
      at = end + 1;
      rows[n].material_volume[m] = strtod(at, &end);
      ck_assert_ptr_ne(end, at);
    }
    for (int m = 0; m < nmat; m++)
      for (int c = 0; c < SHAPE_COUNT; c++) {
        ck_assert_int_eq(*end, ',');
        at = end + 1;
        rows[n].material_shape[m][c] = strtod(at, &end);
        ck_assert_ptr_ne(end, at);
      }
    ck_assert_int_eq(*end, '\n');
    n++;
  }
  fclose(f);
  return n;
}

static int same_row(const efsi_diagnostics *a, const efsi_diagnostics *b)
{
  return a->step == b->step && memcmp(&a->time, &b->time, (NCOLUMNS - 1) * sizeof(double)) == 0
      && (!lumen || memcmp(&a->lumen_flow_rate, &b->lumen_flow_rate,
                           NLUMEN * sizeof(double)) == 0)
      && memcmp(a->material_volume, b->material_volume, nmat * sizeof(double)) == 0
      && memcmp(a->material_shape, b->material_shape, nmat * sizeof a->material_shape[0]) == 0;
}

static void write_rows(const char *dir, long restart_step, long first, long last, double seed)
{
  char err[512] = "";
  ck_assert_msg(diagnostics_open(&table, dir, restart_step, err, sizeof err) == 0, "%s", err);
  for (long step = first; step <= last; step += 10) {
    efsi_diagnostics r = row_of(step, seed);
    diagnostics_write(&table, &r);
  }
  diagnostics_close(&table);
}

START_TEST(header_columns_are_exact)
{
  char *dir = make_temp_dir();
  write_rows(dir, -1, 0, 0, 1.0);
  char header[4096], expected[4096] = "";
  efsi_diagnostics rows[4];
  ck_assert_int_eq(read_csv(dir, header, sizeof header, rows, 4), 1);
  for (int c = 0; c < NCOLUMNS; c++) {
    if (c) strcat(expected, ",");
    strcat(expected, column[c]);
  }
  ck_assert_str_eq(header, expected);
  ck_assert_str_eq(diagnostics_header, expected);
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(rows_round_trip_bitwise)
{
  char *dir = make_temp_dir();
  write_rows(dir, -1, 0, 90, 0.7071067811865476);
  char header[4096];
  efsi_diagnostics rows[16];
  ck_assert_int_eq(read_csv(dir, header, sizeof header, rows, 16), 10);
  for (int n = 0; n < 10; n++) {
    efsi_diagnostics expected = row_of(10L * n, 0.7071067811865476);
    ck_assert(same_row(&rows[n], &expected));
  }
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(restart_keeps_rows_up_to_its_step)
{
  char *dir = make_temp_dir();
  write_rows(dir, -1, 0, 50, 1.0);          /* the first run went on to step 50 */
  write_rows(dir, 30, 40, 70, 2.0);         /* restarted from step 30 */
  char header[4096], temp[4200];
  efsi_diagnostics rows[16];
  ck_assert_int_eq(read_csv(dir, header, sizeof header, rows, 16), 8);
  ck_assert_str_eq(header, diagnostics_header);
  for (int n = 0; n < 8; n++) {
    long step = 10L * n;
    efsi_diagnostics expected = row_of(step, step <= 30 ? 1.0 : 2.0);
    ck_assert_msg(same_row(&rows[n], &expected), "row %d (step %ld) differs", n, step);
  }
  snprintf(temp, sizeof temp, "%s/diagnostics.csv.tmp", dir);
  ck_assert_int_ne(access(temp, F_OK), 0);
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(restart_drops_a_row_cut_short)
{
  char *dir = make_temp_dir(), path[4200];
  write_rows(dir, -1, 0, 20, 1.0);
  snprintf(path, sizeof path, "%s/diagnostics.csv", dir);
  FILE *f = fopen(path, "a");
  fputs("30,0.25,0.0", f);                  /* a crash in the middle of a row */
  fclose(f);
  write_rows(dir, 100, 30, 30, 3.0);
  char header[4096];
  efsi_diagnostics rows[8];
  ck_assert_int_eq(read_csv(dir, header, sizeof header, rows, 8), 4);
  efsi_diagnostics expected = row_of(30, 3.0);
  ck_assert(same_row(&rows[3], &expected));
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(restart_without_file_starts_one)
{
  char *dir = make_temp_dir();
  write_rows(dir, 30, 40, 40, 1.0);
  char header[4096];
  efsi_diagnostics rows[4];
  ck_assert_int_eq(read_csv(dir, header, sizeof header, rows, 4), 1);
  ck_assert_str_eq(header, diagnostics_header);
  ck_assert_int_eq(rows[0].step, 40);
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(foreign_header_is_refused)
{
  char *dir = make_temp_dir(), path[4200], err[512] = "";
  snprintf(path, sizeof path, "%s/diagnostics.csv", dir);
  FILE *f = fopen(path, "w");
  fputs("step,time\n10,1\n", f);
  fclose(f);
  ck_assert_int_ne(diagnostics_open(&table, dir, 10, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, path));
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(material_columns_follow)
{
  static const char names[2][EFSI_MATERIAL_NAME] = {"rbc", "wall"};
  char *dir = make_temp_dir(), header[4096], expected[4096], err[512] = "";
  nmat = 2;
  lumen = 1;
  diagnostics_table(&table, nmat, names);
  write_rows(dir, -1, 0, 30, 1.5);
  efsi_diagnostics rows[8];
  ck_assert_int_eq(read_csv(dir, header, sizeof header, rows, 8), 4);
  /* with the wall, the lumen's columns come first */
  int at = snprintf(expected, sizeof expected, "%s", diagnostics_header);
  for (int c = 0; c < NLUMEN; c++)
    at += snprintf(expected + at, sizeof expected - (size_t)at, ",%s", lumen_column[c]);
  snprintf(expected + at, sizeof expected - (size_t)at, ",volume_rbc,volume_wall");
  /* the shape columns, spelled out here independently of diagnostics.c */
  static const char *const shape[] = {"centroid_x", "centroid_y", "centroid_z", "moment_xx",
                                      "moment_yy", "moment_zz", "moment_xy", "moment_xz",
                                      "moment_yz"};
  ck_assert_int_eq(sizeof shape / sizeof shape[0], SHAPE_COUNT);
  for (int m = 0; m < 2; m++)
    for (int c = 0; c < SHAPE_COUNT; c++) {
      strcat(expected, ",");
      strcat(expected, shape[c]);
      strcat(expected, m ? "_wall" : "_rbc");
    }
  ck_assert_str_eq(header, expected);
  for (int n = 0; n < 4; n++) {
    efsi_diagnostics want = row_of(10L * n, 1.5);
    ck_assert(same_row(&rows[n], &want));
  }
  /* A restart of a case with other materials cannot continue this file. */
  lumen = 0;
  diagnostics_table(&table, 1, names);
  ck_assert_int_ne(diagnostics_open(&table, dir, 10, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "diagnostics.csv"));
  remove_tree(dir);
  free(dir);
}
END_TEST

/* Each test starts from a fluid-only case. */
static void fluid_only(void)
{
  nmat = lumen = 0;
  diagnostics_table(&table, 0, NULL);
}

/* Two tables at once (two output directories in one process) write each its own file: the
 * table is an object, no state is shared. */
START_TEST(two_tables_at_once)
{
  static const char names[1][EFSI_MATERIAL_NAME] = {"rbc"};
  char *a = make_temp_dir(), *b = make_temp_dir(), err[512] = "";
  efsi_diagnostics_table ta, tb;
  diagnostics_table(&ta, 0, NULL);
  diagnostics_table(&tb, 1, names);
  ck_assert_msg(diagnostics_open(&ta, a, -1, err, sizeof err) == 0, "%s", err);
  ck_assert_msg(diagnostics_open(&tb, b, -1, err, sizeof err) == 0, "%s", err);
  for (long step = 0; step <= 20; step += 10) {
    efsi_diagnostics ra = row_of(step, 1.0), rb = row_of(step, 2.0);
    diagnostics_write(&ta, &ra);
    diagnostics_write(&tb, &rb);
  }
  diagnostics_close(&tb);
  diagnostics_close(&ta);
  char header[4096];
  efsi_diagnostics rows[8];
  ck_assert_int_eq(read_csv(a, header, sizeof header, rows, 8), 3);
  ck_assert_str_eq(header, diagnostics_header);
  efsi_diagnostics want = row_of(20, 1.0);
  ck_assert(same_row(&rows[2], &want));
  nmat = 1;
  ck_assert_int_eq(read_csv(b, header, sizeof header, rows, 8), 3);
  ck_assert_ptr_nonnull(strstr(header, ",volume_rbc,centroid_x_rbc"));
  want = row_of(20, 2.0);
  ck_assert(same_row(&rows[2], &want));
  nmat = 0;
  remove_tree(a);
  remove_tree(b);
  free(a);
  free(b);
}
END_TEST

/* ---- the output directory ---- */

static int entries(const char *dir)
{
  int n = 0;
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  for (struct dirent *e = readdir(d); e; e = readdir(d)) n++;
  closedir(d);
  return n;
}

static void touch(const char *dir, const char *name)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fclose(f);
}

START_TEST(prepare_creates_parents)
{
  char *dir = make_temp_dir(), nested[4200], err[512] = "";
  struct stat st;
  snprintf(nested, sizeof nested, "%s/a/b/run", dir);
  ck_assert_msg(output_prepare(nested, 0, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(stat(nested, &st), 0);
  ck_assert(S_ISDIR(st.st_mode));
  /* nothing but . and .. and the folder's claim, run.json (io/run_record.h) */
  ck_assert_int_eq(entries(nested), 3);
  char claim[4300];
  snprintf(claim, sizeof claim, "%s/run.json", nested);
  ck_assert_int_eq(stat(claim, &st), 0);
  ck_assert(S_ISREG(st.st_mode));
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(prepare_refuses_previous_output)
{
  static const char *const previous[] = {"diagnostics.csv", "fields_00000120.nc",
                                         "restart_00000007.nc", "restart_00000009.nc.tmp"};
  for (int n = 0; n < 4; n++) {
    char *dir = make_temp_dir(), err[512] = "";
    touch(dir, "notes.txt");
    ck_assert_msg(output_prepare(dir, 0, err, sizeof err) == 0, "%s", err);
    touch(dir, previous[n]);
    int before = entries(dir);
    ck_assert_int_ne(output_prepare(dir, 0, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, dir));
    ck_assert_ptr_nonnull(strstr(err, "already holds efsi output"));
    ck_assert_ptr_nonnull(strstr(err, "--restart"));
    ck_assert_int_eq(entries(dir), before);
    ck_assert_msg(output_prepare(dir, 1, err, sizeof err) == 0, "%s", err);
    remove_tree(dir);
    free(dir);
  }
}
END_TEST

START_TEST(prepare_refuses_a_file)
{
  char *dir = make_temp_dir(), path[4200], err[512] = "";
  touch(dir, "plain");
  snprintf(path, sizeof path, "%s/plain", dir);
  ck_assert_int_ne(output_prepare(path, 0, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, path));
  remove_tree(dir);
  free(dir);
}
END_TEST

START_TEST(path_has_eight_digits)
{
  char path[64];
  ck_assert_int_eq(output_path(path, sizeof path, "out/run", "fields", 120), 0);
  ck_assert_str_eq(path, "out/run/fields_00000120.nc");
  ck_assert_int_eq(output_path(path, sizeof path, "o", "restart", 123456789), 0);
  ck_assert_str_eq(path, "o/restart_123456789.nc");
  ck_assert_int_ne(output_path(path, 10, "out", "fields", 1), 0);
}
END_TEST

static Suite *diagnostics_suite(void)
{
  Suite *s = suite_create("diagnostics");
  const TTest *csv[] = {header_columns_are_exact, rows_round_trip_bitwise,
                        restart_keeps_rows_up_to_its_step, restart_drops_a_row_cut_short,
                        restart_without_file_starts_one, foreign_header_is_refused,
                        material_columns_follow, two_tables_at_once, NULL};
  tcase_add_checked_fixture(test_case_add(s, "diagnostics.csv", 0, csv), fluid_only, NULL);
  const TTest *dir[] = {prepare_creates_parents, prepare_refuses_previous_output,
                        prepare_refuses_a_file, path_has_eight_digits, NULL};
  test_case_add(s, "output directory", 0, dir);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, diagnostics_suite); }
