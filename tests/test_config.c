/* The case file: the defaults are the ones docs/case-file.md states, a full case parses to
 * its values, overrides replace values, and every class of bad input is refused with one
 * line naming the file (or the --set), the line number and the key. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/case/config.h"
#include "tests/test_support.h"

#define FILE_NAME "cases/x.ini"
/* A case of five lines with the values of grid.cells (line 2), grid.length (line 3) and
 * time.steps (line 5); an appended line is line 6. */
#define CASE_TEXT(cells, length, steps) \
  "[grid]\ncells = " cells "\nlength = " length "\n[time]\nsteps = " steps "\n"
#define MINIMAL CASE_TEXT("8 8 8", "1 1 1", "10")

#define STARTS(text, prefix) (strncmp(text, prefix, strlen(prefix)) == 0)

static efsi_config c;
static char err[1024];

static int parse(const char *text, const char *const *overrides, int n)
{
  err[0] = '\0';
  return config_parse(&c, FILE_NAME, text, overrides, n, err, sizeof err);
}

START_TEST(documented_defaults)
{
  /* For every key whose default the reference gives as a value, setting that value
   * explicitly must change nothing. */
  FILE *doc = fopen(EFSI_TOP_SRCDIR "/docs/case-file.md", "r");
  ck_assert_ptr_nonnull(doc);
  efsi_config plain;
  ck_assert_int_eq(parse(MINIMAL, NULL, 0), 0);
  memcpy(&plain, &c, sizeof c);   /* padding included: memcmp below */
  char row[2048];
  int checked = 0;
  while (fgets(row, sizeof row, doc)) {
    char key[64], type[64], value[64];
    if (sscanf(row, "| `%63[^`]` | %63[^|]| `%63[^`]` |", key, type, value) != 3) continue;
    char override[160], model[160] = "";
    snprintf(override, sizeof override, "%s=%s", key, value);
    /* a parameter of a model other than the families' default (neo-hookean): against the
     * family with that model, the first the row's "allowed" names */
    const char *models = strstr(row, "; model ");
    char allowed[160] = "";   /* the row's models, up to the column's end */
    if (models) sscanf(models, "%159[^|]", allowed);
    if (models && !strstr(allowed, "neo-hookean")) {
      char word[64], section[64];
      if (sscanf(models, "; model %63[a-z-]", word) == 1 &&
          sscanf(key, "%63[^.]", section) == 1)
        snprintf(model, sizeof model, "%s.model=%s", section, word);
    }
    const char *ov[] = {model, override};
    const int first = model[0] ? 0 : 1;
    /* (a family that naming its model puts in use, the sphere, needs keys of its own) */
    if (parse(MINIMAL, ov + first, 1 - first) != 0) continue;
    efsi_config base;
    memcpy(&base, &c, sizeof c);
    if (parse(MINIMAL, ov + first, 2 - first) != 0 && model[0] && strstr(err, "is in use"))
      continue;
    ck_assert_msg(parse(MINIMAL, ov + first, 2 - first) == 0, "%s: %s", override, err);
    /* the values, not the record of where they came from */
    ck_assert_msg(memcmp(&c, &base, offsetof(efsi_config, where)) == 0,
                  "%s is not the default", override);
    checked++;
  }
  fclose(doc);
  ck_assert_int_ge(checked, 20);
  /* and the ones the code and the design name directly */
  ck_assert_int_eq(plain.boundary[0], BOUNDARY_PERIODIC);
  ck_assert_int_eq(plain.boundary[1], BOUNDARY_WALL);
  ck_assert_int_eq(plain.boundary[2], BOUNDARY_PERIODIC);
  ck_assert(plain.dt_auto && plain.safety == 0.5 && !plain.unsafe);
  ck_assert(plain.density == 1 && plain.viscosity == 1 && plain.seed == 1);
  ck_assert(plain.phi_transport == PHI_THINC && plain.thinc_steepness == 3.5);
  ck_assert(plain.end_time < 0 && plain.diagnostics_every == 10);
  ck_assert(plain.wall_limit == 0 && plain.progress_seconds == 10);
  /* time.wall_limit: seconds, or hours:minutes:seconds with any number of hours */
  const char *limits[] = {"time.wall_limit=5400", "time.wall_limit=01:30:00",
                          "time.wall_limit=1:30:00", "time.wall_limit=0:00:09.5"};
  const double seconds[] = {5400, 5400, 5400, -1};
  for (int m = 0; m < 4; m++) {
    const int bad = parse(MINIMAL, &limits[m], 1);
    ck_assert_msg(seconds[m] < 0 ? bad : !bad && c.wall_limit == seconds[m], "%s", limits[m]);
  }
  const char *long_job[] = {"time.wall_limit=100:00:00"};
  ck_assert(parse(MINIMAL, long_job, 1) == 0 && c.wall_limit == 360000);
  ck_assert_str_eq(plain.name, "x");
  ck_assert_str_eq(plain.file, FILE_NAME);
  ck_assert(parse("[grid]\ncells = 8 8 8\nlength = 1 1 1\n[time]\nend_time = 2\n", NULL,
                  0) == 0 && c.steps == -1 && c.end_time == 2);
  config_parse(&c, "runs/deep/poiseuille.ini", MINIMAL, NULL, 0, err, sizeof err);
  ck_assert_str_eq(c.name, "poiseuille");
}
END_TEST

START_TEST(full_case)
{
  const char *text =
      "\xEF\xBB\xBF# every key\n"
      "[case]\nname = couette-2\n"
      "[grid]\n"
      "cells = 16 32 8   # Nx Ny Nz\n"
      "length: 2 4 1.5e0 ; Lx Ly Lz\n"
      "ranks = 2 0 1\n"
      "\n"
      "  # an indented comment is a comment\n"
      "[boundary]\ny = wall\nz = wall\ny_lo_u = -1\ny_hi_u = 1.5\nz_lo_u = 0.25\n"
      "z_hi_u = -2e-1\nwall_omega = 6.25\n"
      "[fluid]\ndensity = 1.025\nviscosity = 3.5e-3\n"
      "[drive]\nmode = flowrate\npressure_gradient = 4\nbulk_velocity = 0.125\n"
      "[pressure]\nmethod = smac\n"
      "[time]\ndt = 1e-4\nsafety = 1\nunsafe = yes\nsteps = 0\nend_time = 7.5\n"
      "[solid]\nphi_transport = weno5\nthinc_steepness = 2.5\n"
      "[init]\nseed = 4294967297\ninterface_width = 1.5\nflow = taylor-green\n"
      "flow_amplitude = -0.5\n"
      "[output]\nfields_every = 100\ndiagnostics_every = 0\nrestart_every = 5000\n"
      "[performance]\npeak_gflops = 3456.5\n"
      "[rbc]\n";
  ck_assert_msg(parse(text, NULL, 0) == 0, "%s", err);
  ck_assert_str_eq(c.name, "couette-2");
  ck_assert(c.cells[0] == 16 && c.cells[1] == 32 && c.cells[2] == 8);
  ck_assert(c.length[0] == 2 && c.length[1] == 4 && c.length[2] == 1.5);
  ck_assert(c.ranks[0] == 2 && c.ranks[1] == 0 && c.ranks[2] == 1);
  ck_assert(c.boundary[0] == BOUNDARY_PERIODIC && c.boundary[1] == BOUNDARY_WALL &&
            c.boundary[2] == BOUNDARY_WALL);
  ck_assert(c.wall_u[1][0] == -1 && c.wall_u[1][1] == 1.5 && c.wall_u[2][0] == 0.25 &&
            c.wall_u[2][1] == -0.2 && c.wall_omega == 6.25);
  ck_assert(c.density == 1.025 && c.viscosity == 3.5e-3);
  ck_assert(c.drive_mode == DRIVE_FLOWRATE && c.pressure_gradient == 4 &&
            c.bulk_velocity == 0.125);
  ck_assert_int_eq(c.pressure_method, PRESSURE_SMAC);
  ck_assert(!c.dt_auto && c.dt == 1e-4 && c.safety == 1 && c.unsafe);
  ck_assert(c.steps == 0 && c.end_time == 7.5);
  ck_assert(c.seed == 4294967297UL && c.interface_width == 1.5);
  ck_assert(c.phi_transport == PHI_WENO5 && c.thinc_steepness == 2.5);
  ck_assert(c.init_flow == INIT_TAYLOR_GREEN && c.flow_amplitude == -0.5);
  ck_assert(c.fields_every == 100 && c.diagnostics_every == 0 && c.restart_every == 5000);
  ck_assert(c.peak_gflops == 3456.5);
}
END_TEST

START_TEST(overrides_replace_values)
{
  const char *text = MINIMAL "[fluid]\nviscosity = 2\n[time]\n";
  const char *ov[] = {"fluid.viscosity=0.5", " grid.cells = 4 6 10 ", "time.dt=auto",
                      "time.end_time=3", "fluid.density=2", "fluid.density=5"};
  ck_assert_msg(parse(text, ov, 6) == 0, "%s", err);
  ck_assert(c.viscosity == 0.5 && c.density == 5 && c.dt_auto && c.end_time == 3);
  ck_assert(c.cells[0] == 4 && c.cells[1] == 6 && c.cells[2] == 10 && c.steps == 10);
  /* an override may supply a required key, or the last word on the time step */
  const char *ov2[] = {"grid.length=1 2 3", "time.dt=0.01", "time.unsafe=1"};
  ck_assert_msg(parse("[grid]\ncells = 3 3 3\n[time]\nsteps=1\n", ov2, 3) == 0, "%s", err);
  ck_assert(c.length[2] == 3 && !c.dt_auto && c.dt == 0.01 && c.unsafe);
}
END_TEST

/* --set section.key= removes a key: it takes its default again and counts as not given, so
 * a case of rbc.count switches to rbc.hematocrit without an edited copy. */
START_TEST(empty_override_removes_a_key)
{
  const char *text = MINIMAL "[rbc]\ncount = 3\n[time]\ndt = 0.01\n[case]\nname = mine\n";
  const char *both[] = {"rbc.hematocrit=0.1"};
  ck_assert_int_ne(parse(text, both, 1), 0);
  ck_assert_msg(strstr(err, "give rbc.count or rbc.hematocrit, not both"), "%s", err);
  const char *switched[] = {"rbc.count=", "rbc.hematocrit=0.1", "time.dt=", "case.name="};
  ck_assert_msg(parse(text, switched, 4) == 0, "%s", err);
  ck_assert(c.rbc_count == 0 && c.rbc_hematocrit == 0.1);
  ck_assert(c.dt_auto && c.dt == 0);
  ck_assert_str_eq(c.name, "x");   /* case.name's default: the file's name */
  ck_assert_str_eq(config_where(&c, "rbc.count"), FILE_NAME);
  ck_assert_str_eq(config_where(&c, "rbc.hematocrit"), "--set rbc.hematocrit=0.1");
  /* a required key removed is missing, and an empty value in the file is still refused */
  const char *no_cells[] = {"grid.cells="};
  ck_assert_int_ne(parse(MINIMAL, no_cells, 1), 0);
  ck_assert_msg(strstr(err, "grid.cells: required key is missing"), "%s", err);
  ck_assert_int_ne(parse(MINIMAL "[fluid]\nviscosity =\n", NULL, 0), 0);
  ck_assert_msg(STARTS(err, FILE_NAME ":7: fluid.viscosity: expected"), "%s", err);
  /* removed and given again: the last word counts */
  const char *again[] = {"fluid.viscosity=", "fluid.viscosity=3"};
  ck_assert(parse(MINIMAL "[fluid]\nviscosity = 2\n", again, 2) == 0 && c.viscosity == 3);
}
END_TEST

/* config_where answers from the configuration it is given, not from the last parse. */
START_TEST(where_belongs_to_each_configuration)
{
  static efsi_config first;
  ck_assert_int_eq(config_parse(&first, "a.ini", MINIMAL "[grid]\nranks = 1 1 1\n", NULL, 0,
                                err, sizeof err), 0);
  const char *ov[] = {"grid.ranks=2 1 1"};
  ck_assert_int_eq(config_parse(&c, "b.ini", MINIMAL, ov, 1, err, sizeof err), 0);
  ck_assert_str_eq(config_where(&first, "grid.ranks"), "a.ini:7");
  ck_assert_str_eq(config_where(&first, "grid.cells"), "a.ini:2");
  ck_assert_str_eq(config_where(&c, "grid.ranks"), "--set grid.ranks=2 1 1");
  ck_assert_str_eq(config_where(&c, "fluid.density"), "b.ini");
  ck_assert_str_eq(config_where(&c, "no.such"), "b.ini");
}
END_TEST

typedef struct {
  const char *text;
  const char *override;   /* NULL: none */
  const char *where;      /* the message starts with this */
  const char *key;        /* and then names this key */
} bad_case;

static const bad_case bad_cases[] = {
  {MINIMAL "[gird]\ncells = 1 1 1\n", NULL, FILE_NAME ":7: ", "gird.cells: unknown section"},
  {MINIMAL "[fluid]\nviscoity = 1\n", NULL, FILE_NAME ":7: ", "fluid.viscoity: unknown key"},
  {MINIMAL "[fluid]\nviscosity = abc\n", NULL, FILE_NAME ":7: ", "fluid.viscosity: expected"},
  {MINIMAL "[fluid]\nviscosity = 1e3x\n", NULL, FILE_NAME ":7: ", "fluid.viscosity: "},
  {MINIMAL "[fluid]\n\ndensity = nan\n", NULL, FILE_NAME ":8: ", "fluid.density: "},
  {MINIMAL "[fluid]\ndensity = inf\n", NULL, FILE_NAME ":7: ", "fluid.density: "},
  {MINIMAL "[fluid]\ndensity = 1.5.2\n", NULL, FILE_NAME ":7: ", "fluid.density: "},
  {MINIMAL "[fluid]\ndensity = 0x10\n", NULL, FILE_NAME ":7: ", "fluid.density: "},
  {MINIMAL "[fluid]\nviscosity = 0\n", NULL, FILE_NAME ":7: ", "fluid.viscosity: "},
  {MINIMAL "[fluid]\ndensity = -1\n", NULL, FILE_NAME ":7: ", "fluid.density: "},
  {MINIMAL "[fluid]\ndensity = 1 2\n", NULL, FILE_NAME ":7: ", "fluid.density: "},
  {CASE_TEXT("8 8", "1 1 1", "10"), NULL, FILE_NAME ":2: ",
   "grid.cells: expected three positive integers, got \"8 8\""},
  {CASE_TEXT("8 8 8 8", "1 1 1", "10"), NULL, FILE_NAME ":2: ", "grid.cells: "},
  {CASE_TEXT("64 -3 64", "1 1 1", "10"), NULL, FILE_NAME ":2: ",
   "grid.cells: expected three positive integers, got \"64 -3 64\""},
  {CASE_TEXT("8.0 8 8", "1 1 1", "10"), NULL, FILE_NAME ":2: ", "grid.cells: "},
  {CASE_TEXT("8 8 8", "1 0 1", "10"), NULL, FILE_NAME ":3: ",
   "grid.length: expected three positive numbers"},
  {"[grid]\nlength = 1 1 1\n[time]\nsteps = 10\n", NULL, FILE_NAME ": ",
   "grid.cells: required key is missing"},
  {"[grid]\ncells = 8 8 8\n[time]\nsteps = 10\n", NULL, FILE_NAME ": ",
   "grid.length: required key is missing"},
  {"[grid]\ncells = 8 8 8\nlength = 1 1 1\n", NULL, FILE_NAME ": ", "time.steps: required"},
  {MINIMAL "[boundary]\ny = wal\n", NULL, FILE_NAME ":7: ", "boundary.y: expected wall or"},
  {MINIMAL "[boundary]\nz_lo_u = 1\n", NULL, FILE_NAME ":7: ", "boundary.z_lo_u: wall speed"},
  {MINIMAL "[boundary]\ny_hi_u = 2\n", "boundary.y=periodic", FILE_NAME ":7: ",
   "boundary.y_hi_u: wall speed 2"},
  {MINIMAL "[grid]\ncells = 4 4 4\n", NULL, FILE_NAME ":7: ", "grid.cells: duplicate key"},
  {"[grid]\ncells = 8 8 8\n  4 4 4\nlength = 1 1 1\n[time]\nsteps = 10\n", NULL, FILE_NAME ":3: ",
   "grid.cells: duplicate key: this indented line"},
  {MINIMAL "[rbc]\ncount = 3\nhematocrit = 0.1\n", NULL, FILE_NAME ":8: ",
   "rbc.hematocrit: give rbc.count or rbc.hematocrit, not both"},
  {MINIMAL "[voxels]\nfile = a.nc\n", NULL, FILE_NAME ": ", "voxels.modulus: required key"},
  {MINIMAL, "rbc.hematocrit=1.2", "--set rbc.hematocrit=1.2: ", "rbc.hematocrit: expected"},
  {MINIMAL "[platelet]\ncount = 3\n", NULL, FILE_NAME ": ", "platelet.modulus: required"},
  /* the materials (src/case/material_models.h) */
  {MINIMAL "[rbc]\nmodel = elastic\n", NULL, FILE_NAME ":7: ",
   "rbc.model: expected a material model: neo-hookean fluid membrane, got \"elastic\""},
  {MINIMAL "[sphere]\ncenter = 0.5 0.5 0.5\nradius = 0.25\n", NULL, FILE_NAME ": ",
   "sphere.modulus: required key is missing (the sphere's shear modulus G, model "
   "neo-hookean)"},
  {MINIMAL "[vessel]\nmodulus = 1\n", NULL, FILE_NAME ": ",
   "vessel.shape: vessel.diameter or the wall's material given, but vessel.shape is none"},
  /* a membrane: its parameters, and only on a body's shape */
  {MINIMAL "[sphere]\ncenter = 0.5 0.5 0.5\nradius = 0.25\nmodel = membrane\n", NULL,
   FILE_NAME ": ", "sphere.surface_modulus: required key is missing (the sphere's surface "
   "shear modulus G_s (force per length), model membrane)"},
  {MINIMAL "[sphere]\ncenter = 0.5 0.5 0.5\nradius = 0.25\nmodel = membrane\nmodulus = 1\n"
   "surface_modulus = 1\n", NULL, FILE_NAME ":10: ", "sphere.modulus: not a parameter of "
   "sphere.model = membrane (a parameter of neo-hookean)"},
  {MINIMAL "[sphere]\ncenter = 0.5 0.5 0.5\nradius = 0.25\nmodel = membrane\n"
   "surface_modulus = 1\nlaw = hooke\n", NULL, FILE_NAME ":11: ", "sphere.law: expected the "
   "membrane's law: skalak or neo-hookean, got \"hooke\""},
  {MINIMAL "[sphere]\ncenter = 0.5 0.5 0.5\nradius = 0.25\nmodel = membrane\n"
   "surface_modulus = 1\nlaw = neo-hookean\ndilatation = 2\n", NULL, FILE_NAME ":12: ",
   "sphere.dilatation: a parameter of the Skalak law, not of sphere.law = neo-hookean"},
  {MINIMAL "[boundary]\nz = wall\n[vessel]\nshape = tube\ndiameter = 0.5\nmodel = membrane\n",
   NULL, FILE_NAME ":11: ", "vessel.model: a membrane needs a body's shape for its level"},
  {MINIMAL "[voxels]\nfile = a.nc\nmodel = membrane\n", NULL, FILE_NAME ":8: ",
   "voxels.model: a membrane needs a body's shape for its level"},
  /* the tweezers' pull: on the one membrane RBC at rbc.center, in its disc's plane */
  {MINIMAL "[rbc]\nstretch = 0.1\n", NULL, FILE_NAME ":7: ", "rbc.stretch: pulls the one "
   "RBC at rbc.center, a membrane: set rbc.center and rbc.model = membrane"},
  {MINIMAL "[rbc]\ncenter = 0.5 0.5 0.5\norientation = x\nmodel = membrane\n"
   "surface_modulus = 1\nstretch = 0.1\n", NULL, FILE_NAME ": ", "rbc.stretch_axis: the "
   "pull is along the disc's plane: an axis other than rbc.orientation"},
  {MINIMAL "[rbc]\ncenter = 0.5 0.5 0.5\norientation = y\nmodel = membrane\n"
   "surface_modulus = 1\nstretch = 0.1\nstretch_contact = 9\n", NULL, FILE_NAME ":12: ",
   "rbc.stretch_contact: the contact patches (9 across) must be smaller than the RBC"},
  /* a study file given to efsi: the driver its comments name */
  {"# studies/weak-scaling-study runs/x.ini\n[study]\nname = x\n", NULL, FILE_NAME ":3: ",
   "study.name: [study] makes cases/x.ini a study file, not a case: run it with its driver, "
   "studies/weak-scaling-study cases/x.ini"},
  {MINIMAL "[rbc]\ncenter = 0.5 0.5 0.5\norientation = y\ncount = 2\n", NULL, FILE_NAME ":7: ",
   "rbc.center: one RBC at rbc.center, or"},
  {MINIMAL "[rbc]\ncenter = 0.5 0.5 0.5\n", NULL, FILE_NAME ":7: ",
   "rbc.center: the RBC at rbc.center needs its symmetry axis"},
  {MINIMAL "[sphere]\nradius = 1\n", NULL, FILE_NAME ": ", "sphere.center: required"},
  {MINIMAL "[vessel]\nshape = tube\ndiameter = 0.5\nmodulus = 1\n", NULL,
   FILE_NAME ":7: ", "vessel.shape: a tube is anchored by the box walls"},
  {MINIMAL "[voxels]\nfile = a.nc\nmodulus = 1 2\n", NULL, FILE_NAME ":8: ",
   "voxels.modulus: voxels.variable = phi is one material"},
  {MINIMAL "[rbc]\norientation = diagonal\n", NULL, FILE_NAME ":7: ", "rbc.orientation"},
  {MINIMAL, "fluid.viscosity", "--set fluid.viscosity: ", "--set: expected section.key="},
  {MINIMAL, "viscosity=1", "--set viscosity=1: ", "--set: expected section.key=value"},
  {MINIMAL, ".viscosity=1", "--set .viscosity=1: ", "--set: expected"},
  /* found by tests/fuzz/run.sh config: a dot only in the value read memory before the text */
  {MINIMAL, "viscosity=0.5", "--set viscosity=0.5: ", "--set: expected section.key=value"},
  {MINIMAL "[time]\nwall_limit = 0\n", NULL, FILE_NAME ":7: ", "time.wall_limit: expected"},
  {MINIMAL "[time]\nwall_limit = 1:60:00\n", NULL, FILE_NAME ":7: ", "time.wall_limit: "},
  {MINIMAL "[time]\nwall_limit = 1:00\n", NULL, FILE_NAME ":7: ", "time.wall_limit: "},
  {MINIMAL "[time]\nwall_limit = 1::00\n", NULL, FILE_NAME ":7: ", "time.wall_limit: "},
  {MINIMAL "[time]\nwall_limit = -1:00:00\n", NULL, FILE_NAME ":7: ", "time.wall_limit: "},
  {MINIMAL "[output]\nprogress_seconds = -1\n", NULL, FILE_NAME ":7: ",
   "output.progress_seconds: "},
  {MINIMAL, "time.safety=2", "--set time.safety=2: ", "time.safety: expected a number in"},
  {MINIMAL, "time.dt=0", "--set time.dt=0: ", "time.dt: expected auto or"},
  {MINIMAL, "fluid.visc=1", "--set fluid.visc=1: ", "fluid.visc: unknown key"},
  {MINIMAL "garbage\n", NULL, FILE_NAME ":6: ", "syntax error"},
  {MINIMAL "[fluid\ndensity = 2\n", NULL, FILE_NAME ":6: ", "syntax error"},
  {"name = x\n" MINIMAL, NULL, FILE_NAME ":1: ", "name: key outside any [section]"},
  {MINIMAL "[time]\nend_time = 0\n", NULL, FILE_NAME ":7: ", "time.end_time: "},
  {CASE_TEXT("8 8 8", "1 1 1", "-1"), NULL, FILE_NAME ":5: ",
   "time.steps: expected an integer >= 0"},
  {MINIMAL "[time]\nunsafe = maybe\n", NULL, FILE_NAME ":7: ", "time.unsafe: "},
  {MINIMAL "[init]\nseed = -1\n", NULL, FILE_NAME ":7: ", "init.seed: "},
  {MINIMAL "[init]\nflow = vortex\n", NULL, FILE_NAME ":7: ", "init.flow: "},
  {MINIMAL "[init]\nflow = couette\n", "boundary.y=periodic", FILE_NAME ":7: ",
   "init.flow: couette is the flow between the y walls"},
  {MINIMAL "[init]\ninterface_width = -0.5\n", NULL, FILE_NAME ":7: ",
   "init.interface_width: "},
  {MINIMAL "[solid]\nphi_transport = vof\n", NULL, FILE_NAME ":7: ",
   "solid.phi_transport: expected weno5 or thinc"},
  {MINIMAL "[solid]\nthinc_steepness = 0\n", NULL, FILE_NAME ":7: ",
   "solid.thinc_steepness: expected a number in (0, 50]"},
  {MINIMAL "[output]\nrestart_every = -2\n", NULL, FILE_NAME ":7: ", "output.restart_every"},
  {MINIMAL "[performance]\npeak_gflops = -1\n", NULL, FILE_NAME ":7: ",
   "performance.peak_gflops"},
  {MINIMAL "[case]\nname = a/b\n", NULL, FILE_NAME ":7: ", "case.name: "},
  {MINIMAL "[drive]\nmode = flowrate\n", NULL, FILE_NAME ": ", "drive.bulk_velocity: required"},
  {MINIMAL "[drive]\nbulk_velocity = 1\n", NULL, FILE_NAME ":7: ", "drive.bulk_velocity: "},
  {CASE_TEXT("8 1 8", "1 1 1", "10"), NULL, FILE_NAME ":2: ",
   "grid.cells: y needs at least 3 cells"},
  {MINIMAL, "grid.cells=8 1 8", "--set grid.cells=8 1 8: ", "grid.cells: y needs at least 3"},
  /* the output keys: field lists against the case's fields, the box, the planes */
  {MINIMAL "[output]\nfields = u phi_rbc\n", NULL, FILE_NAME ":7: ",
   "output.fields: 'phi_rbc' is not a field of this case (its fields: u v w p)"},
  {MINIMAL "[average]\nfields = all u\n", NULL, FILE_NAME ":7: ",
   "average.fields: all stands alone"},
  {MINIMAL "[slices]\nfields = u u\n", NULL, FILE_NAME ":7: ", "slices.fields: 'u' is named twice"},
  {MINIMAL "[box]\nfields = u,v\n", NULL, FILE_NAME ":7: ", "box.fields: expected all, or names"},
  {MINIMAL "[output]\ndeflate = 10\n", NULL, FILE_NAME ":7: ", "output.deflate: expected an integer in 0..9"},
  {MINIMAL "[slices]\nquantize = 16\n", NULL, FILE_NAME ":7: ", "slices.quantize: expected"},
  {MINIMAL "[slices]\nevery = 10\n", NULL, FILE_NAME ":7: ", "slices.every: no plane is given"},
  {MINIMAL "[slices]\nz = 0.5 1.5\n", NULL, FILE_NAME ":7: ", "slices.z: 1.5 is beyond the box"},
  {MINIMAL "[slices]\nx = 0.5 -1\n", NULL, FILE_NAME ":7: ", "slices.x: expected 1 to 16 positions"},
  {MINIMAL "[box]\nlo = 0 0.97 0\n", NULL, FILE_NAME ":7: ",
   "box.lo: y from 0.97 to 1 holds no cell centre (h = 0.125)"},
  {MINIMAL "[box]\nhi = 1 2 1\n", NULL, FILE_NAME ":7: ", "box.hi: y = 2 is beyond the box"},
  {MINIMAL "[box]\nstride = 1 0 1\n", NULL, FILE_NAME ":7: ", "box.stride: expected three positive"},
  {MINIMAL "[average]\nsample_every = -1\n", NULL, FILE_NAME ":7: ", "average.sample_every: "},
  {MINIMAL "[output]\nbodies_csv = maybe\n", NULL, FILE_NAME ":7: ",
   "output.bodies_csv: expected auto, yes or no"},
  {MINIMAL "[output]\nbodies_every = -2\n", NULL, FILE_NAME ":7: ", "output.bodies_every: "},
};

START_TEST(bad_input_is_refused)
{
  const bad_case *b = &bad_cases[_i];
  const char *ov[] = {b->override};
  int rc = parse(b->text, ov, b->override ? 1 : 0);
  ck_assert_msg(rc != 0, "case %d accepted", _i);
  ck_assert_msg(strncmp(err, b->where, strlen(b->where)) == 0 &&
                strncmp(err + strlen(b->where), b->key, strlen(b->key)) == 0,
                "case %d: message \"%s\", wanted \"%s%s...\"", _i, err, b->where, b->key);
  ck_assert_msg(strchr(err, '\n') == NULL, "case %d: message is not one line", _i);
}
END_TEST

/* An unknown section's message lists every section once. */
START_TEST(unknown_section_lists_each_section_once)
{
  ck_assert(parse(MINIMAL "[gird]\ncells = 1 1 1\n", NULL, 0) != 0);
  const char *list = strstr(err, "(sections: ");
  ck_assert_msg(list != NULL, "message \"%s\"", err);
  list += strlen("(sections: ");
  char names[64][32];
  int count = 0;
  for (const char *at = list; *at && *at != ')' && count < 64;) {
    size_t n = strcspn(at, ",)");
    ck_assert(n > 0 && n < sizeof names[0]);
    memcpy(names[count], at, n);
    names[count][n] = '\0';
    for (int m = 0; m < count; m++)
      ck_assert_msg(strcmp(names[m], names[count]) != 0, "[%s] named twice in \"%s\"",
                    names[count], err);
    count++;
    at += n;
    if (*at == ',') at += 2;   /* ", " */
  }
  ck_assert_int_ge(count, 10);
}
END_TEST

/* The output keys as read: a field list kept as written, the planes as numbers, the
 * compression's levels, a box of its corners and strides. */
START_TEST(output_keys_as_read)
{
  const char *text = MINIMAL "[rbc]\ncount = 1\n[output]\nfields = u phi_rbc\ndeflate = 4\n"
                     "quantize = 3\nbodies_every = 7\nbodies_csv = no\n[slices]\nevery = 5\n"
                     "x = 0.25 0.75 0.5\nfields = all\n[box]\nevery = 0\nlo = 0.25 0 0\n"
                     "hi = 0.75 1 1\nstride = 2 1 3\n[average]\nsample_every = 4\nstart = 0.5\n"
                     "fields = u v w p phi_rbc bxx\n";
  ck_assert_msg(parse(text, NULL, 0) == 0, "%s", err);
  ck_assert_str_eq(c.fields_list, "u phi_rbc");
  ck_assert(c.fields_deflate == 4 && c.fields_quantize == 3);
  ck_assert(c.bodies_every == 7 && c.bodies_csv == BODIES_CSV_NO);
  ck_assert(c.slices.every == 5 && c.slice_at[0].n == 3 && c.slice_at[0].value[2] == 0.5);
  ck_assert(c.slice_at[1].n == 0 && c.slice_at[2].n == 0);
  ck_assert(c.box.every == 0 && c.box_lo[0] == 0.25 && c.box_hi[0] == 0.75);
  ck_assert(c.box_stride[0] == 2 && c.box_stride[2] == 3);
  ck_assert(c.average_every == 4 && c.average_start == 0.5);
  ck_assert_str_eq(c.average_fields, "u v w p phi_rbc bxx");
  /* not given: the diagnostics' cadence, bodies.csv for small runs, no box or slices */
  ck_assert_int_eq(parse(MINIMAL, NULL, 0), 0);
  ck_assert(c.bodies_every == BODIES_EVERY_DIAGNOSTICS && c.bodies_csv == BODIES_CSV_AUTO);
  ck_assert(c.box.every == -1 && c.slices.every == -1 && c.average_every == 0);
  ck_assert(isnan(c.box_hi[1]));
  /* sixteen planes, and not seventeen */
  const char *sixteen[] = {"slices.y=0 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.65 0.7 0.75"};
  ck_assert_msg(parse(MINIMAL, sixteen, 1) == 0 && c.slice_at[1].n == 16, "%s", err);
  const char *seventeen[] = {"slices.y=0 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.65 0.7 0.75 0.8"};
  ck_assert(parse(MINIMAL, seventeen, 1) != 0 && strstr(err, "slices.y: expected 1 to 16"));
}
END_TEST

START_TEST(overlong_line_is_refused)
{
  char text[8192];
  snprintf(text, sizeof text, "%s[case]\nname = %05000d\n", MINIMAL, 7);
  ck_assert_int_ne(parse(text, NULL, 0), 0);
  ck_assert_msg(STARTS(err, FILE_NAME ":7: line: longer than"), "%s", err);
}
END_TEST

START_TEST(ranks_against_grid_and_rank_count)
{
  /* grid.ranks on line 4 of the file */
  const char *text = "[grid]\ncells = 12 8 8\nlength = 1 1 1\nranks = %s\n[time]\nsteps=1\n";
  char case_text[256];
  snprintf(case_text, sizeof case_text, text, "3 2 1");
  ck_assert_msg(parse(case_text, NULL, 0) == 0, "%s", err);
  ck_assert_int_eq(config_validate_ranks(&c, 6, err, sizeof err), 0);
  ck_assert_int_ne(config_validate_ranks(&c, 8, err, sizeof err), 0);
  ck_assert_msg(STARTS(err, FILE_NAME ":4: grid.ranks: 3 x 2 x 1 = 6") &&
                strstr(err, " 8 "), "%s", err);

  snprintf(case_text, sizeof case_text, text, "1 3 1");     /* 3 does not divide 8 cells */
  ck_assert_msg(parse(case_text, NULL, 0) == 0, "%s", err);
  ck_assert_int_ne(config_validate_ranks(&c, 3, err, sizeof err), 0);
  ck_assert_msg(STARTS(err, FILE_NAME ":4: grid.ranks: 3 ranks in y") &&
                strstr(err, "8 cells"), "%s", err);

  snprintf(case_text, sizeof case_text, text, "4 0 0");     /* partial: 4 must divide */
  ck_assert_msg(parse(case_text, NULL, 0) == 0, "%s", err);
  ck_assert_int_eq(config_validate_ranks(&c, 8, err, sizeof err), 0);
  ck_assert_int_ne(config_validate_ranks(&c, 6, err, sizeof err), 0);
  ck_assert_msg(STARTS(err, FILE_NAME ":4: grid.ranks: "), "%s", err);

  snprintf(case_text, sizeof case_text, text, "0 0 0");     /* MPI_Dims_create decides */
  const char *ov[] = {"grid.ranks=2 2 2"};
  ck_assert_msg(parse(case_text, NULL, 0) == 0, "%s", err);
  ck_assert_int_eq(config_validate_ranks(&c, 7, err, sizeof err), 0);
  ck_assert_msg(parse(case_text, ov, 1) == 0, "%s", err);
  ck_assert_int_ne(config_validate_ranks(&c, 4, err, sizeof err), 0);
  ck_assert_msg(STARTS(err, "--set grid.ranks=2 2 2: grid.ranks: "), "%s", err);
}
END_TEST

static Suite *config_suite(void)
{
  Suite *s = suite_create("config");
  const TTest *tests[] = {documented_defaults, full_case, overrides_replace_values,
                          overlong_line_is_refused, ranks_against_grid_and_rank_count,
                          empty_override_removes_a_key, where_belongs_to_each_configuration,
                          output_keys_as_read, unknown_section_lists_each_section_once,
                          NULL};
  TCase *tc = test_case_add(s, "case file", 0, tests);
  tcase_add_loop_test(tc, bad_input_is_refused, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, config_suite); }
