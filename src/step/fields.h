/* The solver's fields by name.  The table (src/case/solver_arrays.h: SOLVER_ARRAYS, the
 * stores; SOLVER_FIELDS, the names) says which arrays each name spans and in which phases
 * of the step it is live.  FIELD(sv, name) is a name's first array and FIELDS(sv, name)
 * the list of its arrays, read afresh at each use: a swap with the state's arrays
 * (FIELDS_SWAP) moves arrays, never names, so nothing is pointed again after it.  The
 * table is checked when the solver is made (fields_layout: every name within its store,
 * no two names live in one phase on one array); a debug build (configure --enable-debug,
 * EFSI_DEBUG) checks the arrays themselves as each phase begins (fields_check_phase). */
#ifndef EFSI_FIELDS_H
#define EFSI_FIELDS_H

#include <stddef.h>
#include <stdio.h>

#include "src/case/solver_arrays.h"

typedef struct {
  const char *name;
  int arrays;
} efsi_store_row;

typedef struct {
  const char *name;
  int components;      /* arrays it spans (0: none in this case) */
  int store, first;    /* the store (STORE_*) and the array of it where they begin */
  unsigned live;       /* bit p: live in phase p (LIVE) */
} efsi_field_row;

/* The phase's name (PHASE_*), for messages. */
static inline const char *fields_phase_name(int phase)
{
#define FIELDS_PHASE_NAME(p) #p,
  static const char *const names[] = {SOLVER_PHASE_LIST(FIELDS_PHASE_NAME)};
#undef FIELDS_PHASE_NAME
  return phase >= 0 && phase < SOLVER_PHASES ? names[phase] : "(none)";
}

/* The table for a case with nmat materials, viscous (1: a viscosity contrast) and levels
 * membranes. */
static inline void fields_table(int nmat, int viscous, int levels,
                                efsi_store_row stores[SOLVER_STORES],
                                efsi_field_row fields[SOLVER_FIELD_COUNT])
{
#define FIELDS_STORE_ROW(store, arrays) *stores++ = (efsi_store_row){#store, (arrays)};
  SOLVER_ARRAYS(FIELDS_STORE_ROW)
#undef FIELDS_STORE_ROW
#define FIELDS_ROW(name, components, store, first, live) \
  *fields++ = (efsi_field_row){#name, (components), (store), (first), (live)};
  SOLVER_FIELDS(FIELDS_ROW)
#undef FIELDS_ROW
}

/* Is a table consistent: every name that spans arrays within its store and live in some
 * phase, and no two names live in one phase on one array?  0 if so, else 1 with one line
 * in err naming the names, the array and the phase. */
static inline int fields_table_check(int nstores, const efsi_store_row *stores, int nfields,
                                     const efsi_field_row *fields, char *err, size_t len)
{
  for (int i = 0; i < nfields; i++) {
    const efsi_field_row *f = &fields[i];
    if (f->components == 0) continue;
    if (f->store < 0 || f->store >= nstores) {
      snprintf(err, len, "solver field %s: no store %d", f->name, f->store);
      return 1;
    }
    const efsi_store_row *s = &stores[f->store];
    if (f->components < 0 || f->first < 0 || f->first + f->components > s->arrays) {
      snprintf(err, len, "solver field %s: arrays %d to %d of %s, which has %d", f->name,
               f->first, f->first + f->components - 1, s->name, s->arrays);
      return 1;
    }
    if (!(f->live & ((1u << SOLVER_PHASES) - 1))) {
      snprintf(err, len, "solver field %s: live in no phase", f->name);
      return 1;
    }
  }
  for (int phase = 0; phase < SOLVER_PHASES; phase++)
    for (int i = 0; i < nfields; i++)
      for (int j = i + 1; j < nfields; j++) {
        const efsi_field_row *a = &fields[i], *b = &fields[j];
        if (a->components == 0 || b->components == 0 || a->store != b->store
            || !(a->live & b->live & (1u << phase)))
          continue;
        const int lo = a->first > b->first ? a->first : b->first;
        const int a_end = a->first + a->components, b_end = b->first + b->components;
        if (lo < (a_end < b_end ? a_end : b_end)) {
          snprintf(err, len, "solver fields %s and %s share array %d of %s in phase %s",
                   a->name, b->name, lo, stores[a->store].name, fields_phase_name(phase));
          return 1;
        }
      }
  return 0;
}

/* The solver's arrays, and where each name's begin. */
typedef struct {
  double *array[SOLVER_MAX_ARRAYS + 1];   /* the stores' arrays, one store after another;
                                             the last stays NULL, an absent name's */
  int count;                              /* those allocated: solver_array_count */
  int at[SOLVER_FIELD_COUNT];             /* each name's first array in array[] */
  efsi_field_row row[SOLVER_FIELD_COUNT]; /* the table for this case */
} efsi_fields;

#define FIELDS(sv, name) (&(sv)->fields.array[(sv)->fields.at[FIELD_##name]])
#define FIELD(sv, name) (*FIELDS(sv, name))
#define FIELDS_SWAP(sv, name, state) fields_swap(&(sv)->fields, FIELD_##name, (state))

/* f laid out for a case with nmat materials, viscous (1: a viscosity contrast) and levels
 * membranes, its arrays NULL (the caller allocates the first f->count).  Returns nonzero
 * with one line in err when the table is inconsistent. */
static inline int fields_layout(efsi_fields *f, int nmat, int viscous, int levels, char *err,
                                size_t len)
{
  efsi_store_row stores[SOLVER_STORES];
  *f = (efsi_fields){.count = 0};
  fields_table(nmat, viscous, levels, stores, f->row);
  if (fields_table_check(SOLVER_STORES, stores, SOLVER_FIELD_COUNT, f->row, err, len))
    return 1;
  int base[SOLVER_STORES];
  for (int s = 0; s < SOLVER_STORES; s++) {
    base[s] = f->count;
    f->count += stores[s].arrays;
  }
  for (int i = 0; i < SOLVER_FIELD_COUNT; i++)
    f->at[i] = f->row[i].components > 0 ? base[f->row[i].store] + f->row[i].first
                                        : SOLVER_MAX_ARRAYS;
  return 0;
}

/* Name id's arrays change places with the state's: *state[c] for each of its components.
 * The name then holds the state's old arrays, and the state the name's. */
static inline void fields_swap(efsi_fields *f, int id, double **const state[])
{
  double **const mine = &f->array[f->at[id]];
  for (int c = 0; c < f->row[id].components; c++) {
    double *const old = *state[c];
    *state[c] = mine[c];
    mine[c] = old;
  }
}

/* The arrays of the names live in phase: none NULL, no two the same, and none one of the
 * n others (the state's).  0 if so, else 1 with one line in err. */
static inline int fields_check_phase(const efsi_fields *f, int phase, double *const other[],
                                     int n, char *err, size_t len)
{
  const char *const when = fields_phase_name(phase);
  for (int i = 0; i < SOLVER_FIELD_COUNT; i++) {
    const efsi_field_row *a = &f->row[i];
    if (!(a->live & (1u << phase))) continue;
    for (int c = 0; c < a->components; c++) {
      const double *const p = f->array[f->at[i] + c];
      if (!p) {
        snprintf(err, len, "solver field %s[%d] has no array in phase %s", a->name, c, when);
        return 1;
      }
      for (int k = 0; k < n; k++)
        if (p == other[k]) {
          snprintf(err, len, "solver field %s[%d] is one of the state's arrays in phase %s",
                   a->name, c, when);
          return 1;
        }
      for (int j = i; j < SOLVER_FIELD_COUNT; j++) {
        const efsi_field_row *b = &f->row[j];
        if (!(b->live & (1u << phase))) continue;
        for (int d = j == i ? c + 1 : 0; d < b->components; d++)
          if (p == f->array[f->at[j] + d]) {
            snprintf(err, len, "solver fields %s[%d] and %s[%d] share an array in phase %s",
                     a->name, c, b->name, d, when);
            return 1;
          }
      }
    }
  }
  return 0;
}

#endif
