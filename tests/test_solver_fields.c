/* The solver's fields by name (src/case/solver_arrays.h, src/step/fields.h): the table is
 * consistent for every material count (each name within its store, no two names live in one
 * phase on one array) and allocates no more than 3 + 6 + nmat arrays; a table whose names
 * overlap, or a name too large for its store, is refused with a line naming them; the
 * swaps with the state move arrays and never names; and the check a debug build makes as
 * each phase begins catches two live names on one array, a live name on one of the state's
 * arrays, and a name without an array.  Arrays here are addresses in a buffer: nothing is
 * allocated or read. */
#include <check.h>
#include <string.h>

#include "src/step/fields.h"
#include "tests/test_support.h"

typedef struct {
  efsi_fields fields;
} holder;

/* The table for nmat materials laid out on stand-in arrays (distinct addresses). */
static double stand_in[SOLVER_MAX_ARRAYS];
static void lay_out(holder *h, int nmat)
{
  char err[256];
  ck_assert_msg(fields_layout(&h->fields, nmat, 0, 0, err, sizeof err) == 0, "%s", err);
  for (int i = 0; i < h->fields.count; i++) h->fields.array[i] = &stand_in[i];
}

/* A state of nmat materials on stand-in arrays of its own, in state_arrays' order. */
static double state_stand_in[4 + EFSI_MAX_MATERIALS + 6];
typedef struct {
  double *u, *v, *w, *p, *phi[EFSI_MAX_MATERIALS], *b[6];
  int nmat;
} fake_state;
static void fake_state_init(fake_state *s, int nmat)
{
  double *next = state_stand_in;
  s->nmat = nmat;
  s->u = next++;
  s->v = next++;
  s->w = next++;
  s->p = next++;
  for (int m = 0; m < nmat; m++) s->phi[m] = next++;
  for (int t = 0; t < 6; t++) s->b[t] = nmat > 0 ? next++ : NULL;
}
static int fake_state_arrays(const fake_state *s, double *list[])
{
  int n = 0;
  list[n++] = s->u;
  list[n++] = s->v;
  list[n++] = s->w;
  list[n++] = s->p;
  for (int m = 0; m < s->nmat; m++) list[n++] = s->phi[m];
  if (s->nmat > 0)
    for (int t = 0; t < 6; t++) list[n++] = s->b[t];
  return n;
}

static void assert_phase_clean(const holder *h, const fake_state *s, int phase)
{
  double *state[4 + EFSI_MAX_MATERIALS + 6];
  const int n = fake_state_arrays(s, state);
  char err[256];
  ck_assert_msg(fields_check_phase(&h->fields, phase, state, n, err, sizeof err) == 0,
                "phase %s: %s", fields_phase_name(phase), err);
}

static int field_id(const efsi_field_row *rows, const char *name)
{
  for (int i = 0; i < SOLVER_FIELD_COUNT; i++)
    if (strcmp(rows[i].name, name) == 0) return i;
  ck_abort_msg("no solver field %s", name);
  return -1;
}

START_TEST(table_is_consistent_for_every_material_count)
{
  /* the budget: v*'s three, the six the stress, the fluxes, B^{N+1} and dp take in turn,
   * one a material; efsi --check's bytes per cell count these */
  ck_assert_int_eq(SOLVER_MAX_ARRAYS, 3 + 6 + EFSI_MAX_MATERIALS + 1 + EFSI_MAX_MATERIALS);
  for (int case_ = 0; case_ < 2 * (EFSI_MAX_MATERIALS + 1) * (EFSI_MAX_MATERIALS + 1); case_++) {
    /* with a viscosity contrast (one array more: its excess viscosity) only with a solid;
     * with up to nmat membranes, one array each (their levels' next values) */
    const int nmat = case_ % (EFSI_MAX_MATERIALS + 1);
    const int viscous = case_ / (EFSI_MAX_MATERIALS + 1) % 2;
    const int levels = case_ / (2 * (EFSI_MAX_MATERIALS + 1));
    if ((viscous && nmat == 0) || levels > nmat) continue;
    efsi_store_row stores[SOLVER_STORES];
    efsi_field_row rows[SOLVER_FIELD_COUNT];
    fields_table(nmat, viscous, levels, stores, rows);
    char err[256] = "";
    ck_assert_msg(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                     sizeof err) == 0, "nmat %d: %s", nmat, err);
    int arrays = 0;
    for (int s = 0; s < SOLVER_STORES; s++) arrays += stores[s].arrays;
    ck_assert_int_eq(arrays, solver_array_count(nmat, viscous, levels));
    ck_assert_int_eq(solver_array_count(nmat, viscous, levels), 3 + 6 + nmat + viscous + levels);
    ck_assert_int_eq(rows[field_id(rows, "level_next")].components, levels);
    /* each name's store holds it, and every name is live somewhere */
    for (int i = 0; i < SOLVER_FIELD_COUNT; i++) {
      if (rows[i].components == 0) continue;
      ck_assert_int_le(rows[i].first + rows[i].components, stores[rows[i].store].arrays);
      ck_assert_uint_ne(rows[i].live, 0);
    }
    /* what the step needs of each name */
    ck_assert_int_eq(rows[field_id(rows, "v_star")].components, 3);
    ck_assert_int_eq(rows[field_id(rows, "stress")].components, 6);
    ck_assert_int_eq(rows[field_id(rows, "b_next")].components, nmat > 0 ? 6 : 0);
    ck_assert_int_eq(rows[field_id(rows, "phi_next")].components, nmat);
    ck_assert_int_eq(rows[field_id(rows, "phi_flux")].components, nmat > 0 ? 4 : 0);
    ck_assert_int_eq(rows[field_id(rows, "div_star")].components, 1);
    ck_assert_int_eq(rows[field_id(rows, "dp")].components, 1);
  }
}
END_TEST

START_TEST(overlapping_names_are_refused)
{
  efsi_store_row stores[SOLVER_STORES];
  efsi_field_row rows[SOLVER_FIELD_COUNT];
  char err[256] = "";
  /* D* in the first work array with a solid: B^{N+1} takes all six while the sums of D*
   * travel */
  fields_table(2, 0, 0, stores, rows);
  rows[field_id(rows, "div_star")].store = STORE_work;
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 1);
  ck_assert_msg(strstr(err, "b_next") && strstr(err, "div_star") && strstr(err, "TENSOR")
                && strstr(err, "array 0 of work"), "%s", err);
  /* dp on D*'s array without a solid: both live in SMAC's projection */
  fields_table(0, 0, 0, stores, rows);
  rows[field_id(rows, "dp")].first = 0;
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 1);
  ck_assert_msg(strstr(err, "div_star") && strstr(err, "dp") && strstr(err, "SMAC"), "%s",
                err);
  /* the stress live on while phi's face fluxes are formed over its first four */
  fields_table(1, 0, 0, stores, rows);
  rows[field_id(rows, "stress")].live |= LIVE(FRACTIONS);
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 1);
  ck_assert_msg(strstr(err, "stress") && strstr(err, "phi_flux") && strstr(err, "FRACTIONS"),
                "%s", err);
  /* names that share an array in different phases only are fine: p_next and dp */
  fields_table(1, 0, 0, stores, rows);
  ck_assert_int_eq(rows[field_id(rows, "p_next")].first, rows[field_id(rows, "dp")].first);
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 0);
}
END_TEST

START_TEST(names_beyond_their_store_are_refused)
{
  efsi_store_row stores[SOLVER_STORES];
  efsi_field_row rows[SOLVER_FIELD_COUNT];
  char err[256] = "";
  fields_table(1, 0, 0, stores, rows);
  rows[field_id(rows, "stress")].components = 7;
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 1);
  ck_assert_msg(strstr(err, "stress: arrays 0 to 6 of work, which has 6"), "%s", err);
  /* a material's worth of phi^{N+1} more than the store has */
  fields_table(3, 0, 0, stores, rows);
  rows[field_id(rows, "phi_next")].components = 4;
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 1);
  ck_assert_msg(strstr(err, "phi_next: arrays 0 to 3 of next, which has 3"), "%s", err);
  /* a name live in no phase */
  fields_table(1, 0, 0, stores, rows);
  rows[field_id(rows, "dp")].live = 0;
  ck_assert_int_eq(fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, rows, err,
                                      sizeof err), 1);
  ck_assert_msg(strstr(err, "dp: live in no phase"), "%s", err);
}
END_TEST

START_TEST(layout_follows_the_table)
{
  holder h;
  /* with a solid, D* in phi^N's first array, dp and p^{N+1} in the second of work */
  lay_out(&h, 2);
  ck_assert_int_eq(h.fields.count, 11);
  ck_assert_ptr_eq(FIELD(&h, v_star), &stand_in[0]);
  ck_assert_ptr_eq(FIELDS(&h, v_star)[2], &stand_in[2]);
  ck_assert_ptr_eq(FIELD(&h, v_n), &stand_in[0]);
  ck_assert_ptr_eq(FIELD(&h, stress), &stand_in[3]);
  ck_assert_ptr_eq(FIELDS(&h, b_next)[5], &stand_in[8]);
  ck_assert_ptr_eq(FIELDS(&h, phi_flux)[3], &stand_in[6]);
  ck_assert_ptr_eq(FIELD(&h, sum_g_phi), &stand_in[9]);
  ck_assert_ptr_eq(FIELDS(&h, phi_next)[1], &stand_in[10]);
  ck_assert_ptr_eq(FIELD(&h, div_star), &stand_in[9]);
  ck_assert_ptr_eq(FIELD(&h, dp), &stand_in[4]);
  ck_assert_ptr_eq(FIELD(&h, p_next), &stand_in[4]);
  ck_assert_ptr_eq(FIELD(&h, div_v), &stand_in[3]);
  /* without one, D* in the first of work and the solid's names without arrays */
  lay_out(&h, 0);
  ck_assert_int_eq(h.fields.count, 9);
  ck_assert_ptr_eq(FIELD(&h, div_star), &stand_in[3]);
  ck_assert_ptr_eq(FIELD(&h, dp), &stand_in[4]);
  ck_assert_ptr_null(FIELD(&h, sum_g_phi));
  ck_assert_ptr_null(FIELD(&h, phi_next));
  ck_assert_ptr_null(FIELD(&h, b_next));
}
END_TEST

/* The step's swaps in its order, each phase checked as it begins: a swap moves arrays
 * between a name and the state, the names stay where the table put them. */
static void step_through(int nmat, int smac)
{
  holder h;
  fake_state s;
  lay_out(&h, nmat);
  fake_state_init(&s, nmat);
  double *const u0 = s.u, *const p0 = s.p, *const v_star0 = FIELD(&h, v_star);
  double *const b0 = s.b[0], *const work0 = FIELD(&h, stress);
  double *const phi0 = s.phi[0], *const next0 = FIELD(&h, phi_next);
  assert_phase_clean(&h, &s, PHASE_MOMENTUM);
  assert_phase_clean(&h, &s, PHASE_FRACTIONS);
  if (nmat > 0) {
    double **phi[EFSI_MAX_MATERIALS];
    for (int m = 0; m < nmat; m++) phi[m] = &s.phi[m];
    FIELDS_SWAP(&h, phi_next, phi);
    ck_assert_ptr_eq(s.phi[0], next0);
    ck_assert_ptr_eq(FIELD(&h, phi_next), phi0);
  }
  double **const velocity[3] = {&s.u, &s.v, &s.w};
  FIELDS_SWAP(&h, v_star, velocity);
  ck_assert_ptr_eq(s.u, v_star0);
  ck_assert_ptr_eq(FIELD(&h, v_star), u0);
  assert_phase_clean(&h, &s, PHASE_DIVERGENCE);
  /* D* in the array phi^N left, which is the state's no more */
  ck_assert_ptr_eq(FIELD(&h, div_star), nmat > 0 ? phi0 : work0);
  assert_phase_clean(&h, &s, PHASE_TENSOR);
  if (nmat > 0) {
    double **b[6];
    for (int t = 0; t < 6; t++) b[t] = &s.b[t];
    FIELDS_SWAP(&h, b_next, b);
    ck_assert_ptr_eq(s.b[0], work0);
    ck_assert_ptr_eq(FIELD(&h, b_next), b0);
  }
  assert_phase_clean(&h, &s, PHASE_BANDS);
  assert_phase_clean(&h, &s, smac ? PHASE_SMAC : PHASE_ACM);
  if (!smac) {
    double *const p_next = FIELD(&h, p_next);
    double **const p[1] = {&s.p};
    FIELDS_SWAP(&h, p_next, p);
    ck_assert_ptr_eq(s.p, p_next);
    ck_assert_ptr_eq(FIELD(&h, p_next), p0);
    ck_assert_ptr_eq(FIELD(&h, dp), p0);   /* the same array, another phase */
  }
  assert_phase_clean(&h, &s, PHASE_BETWEEN);
  /* and a second step from there */
  assert_phase_clean(&h, &s, PHASE_MOMENTUM);
  assert_phase_clean(&h, &s, PHASE_FRACTIONS);
}

START_TEST(swaps_move_arrays_not_names)
{
  for (int nmat = 0; nmat <= 3; nmat++) {
    step_through(nmat, 0);
    step_through(nmat, 1);
  }
}
END_TEST

START_TEST(phase_check_catches_shared_arrays)
{
  holder h;
  fake_state s;
  char err[256] = "";
  double *state[4 + EFSI_MAX_MATERIALS + 6];
  lay_out(&h, 2);
  fake_state_init(&s, 2);
  int n = fake_state_arrays(&s, state);
  /* dp pointed at D*'s array: SMAC's projection would solve in place of its right-hand
   * side; the ACM's phase, where dp is not live, is fine */
  FIELD(&h, dp) = FIELD(&h, div_star);
  ck_assert_int_eq(fields_check_phase(&h.fields, PHASE_SMAC, state, n, err, sizeof err), 1);
  ck_assert_msg(strstr(err, "div_star[0] and dp[0] share an array in phase SMAC"), "%s", err);
  /* p_next is dp's array: the ACM's phase now has div_star and p_next on one */
  ck_assert_int_eq(fields_check_phase(&h.fields, PHASE_ACM, state, n, err, sizeof err), 1);
  ck_assert_msg(strstr(err, "div_star[0] and p_next[0]"), "%s", err);
  ck_assert_int_eq(fields_check_phase(&h.fields, PHASE_BETWEEN, state, n, err, sizeof err), 0);
  /* a name on one of the state's arrays: a swap done by hand, half-way */
  lay_out(&h, 2);
  FIELDS(&h, b_next)[4] = s.b[4];
  ck_assert_int_eq(fields_check_phase(&h.fields, PHASE_TENSOR, state, n, err, sizeof err), 1);
  ck_assert_msg(strstr(err, "b_next[4] is one of the state's arrays in phase TENSOR"), "%s",
                err);
  /* two components of one name on one array */
  lay_out(&h, 2);
  FIELDS(&h, v_star)[2] = FIELDS(&h, v_star)[0];
  ck_assert_int_eq(fields_check_phase(&h.fields, PHASE_MOMENTUM, state, n, err, sizeof err),
                   1);
  ck_assert_msg(strstr(err, "v_star[0] and v_star[2] share an array in phase MOMENTUM"), "%s",
                err);
  /* a live name without an array */
  lay_out(&h, 2);
  FIELDS(&h, phi_next)[1] = NULL;
  ck_assert_int_eq(fields_check_phase(&h.fields, PHASE_FRACTIONS, state, n, err, sizeof err),
                   1);
  ck_assert_msg(strstr(err, "phi_next[1] has no array in phase FRACTIONS"), "%s", err);
}
END_TEST

static Suite *solver_fields_suite(void)
{
  Suite *s = suite_create("solver_fields");
  TCase *tc = tcase_create("table");
  tcase_add_test(tc, table_is_consistent_for_every_material_count);
  tcase_add_test(tc, overlapping_names_are_refused);
  tcase_add_test(tc, names_beyond_their_store_are_refused);
  tcase_add_test(tc, layout_follows_the_table);
  tcase_add_test(tc, swaps_move_arrays_not_names);
  tcase_add_test(tc, phase_check_catches_shared_arrays);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, solver_fields_suite); }
