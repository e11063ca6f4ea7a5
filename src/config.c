/* The case file: INI text parsed by libinih into efsi_config, then the --set overrides,
 * then the checks that relate several keys.  Every key is one row of key_table (section,
 * name, kind, field, list length, allowed range, the words it accepts); one generic routine
 * converts and range-checks a value, so a refusal always reads
 *   FILE:LINE: section.key: expected <allowed>, got "<value>". */
#include "src/config.h"
#include "src/materials.h"
#include "base/grid.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef enum {
  KIND_NAME,       /* a label: letters, digits and . _ - + */
  KIND_INTS,       /* count ints >= min */
  KIND_DOUBLES,    /* count finite numbers >= min (> min when open) and <= max */
  KIND_LONG,       /* one integer >= min */
  KIND_SEED,       /* one unsigned integer */
  KIND_WORD,       /* one of words[]; stores its index */
  KIND_BOOL,       /* true/false, yes/no, 1/0 */
  KIND_DT,         /* auto or a number > 0 */
  KIND_PATH,       /* a file name (any characters but white space at the ends) */
  KIND_LIST        /* 1..count numbers in range (voxels.modulus, the one list key) */
} key_kind;

typedef struct {
  const char *section, *name;
  key_kind kind;
  size_t offset;              /* of the field in efsi_config */
  int count;                  /* list length (KIND_INTS, KIND_DOUBLES) */
  double min, max;            /* allowed range */
  int min_open;               /* 1: value > min; 0: value >= min */
  const char *const *words;   /* KIND_WORD: NULL-terminated, index = stored value */
  const char *expected;       /* the allowed values, as the messages say them */
} key_spec;

static const char *const boundary_words[] = {"periodic", "wall", NULL};
static const char *const drive_words[] = {"pressure", "flowrate", NULL};
static const char *const pressure_words[] = {"acm", "smac", NULL};
static const char *const flow_words[] = {"rest", "taylor-green", NULL};
static const char *const orientation_words[] = {"random", "x", "y", "z", NULL};
static const char *const vessel_words[] = {"none", "tube", NULL};
static const char *const voxel_words[] = {"phi", "label", NULL};

#define FIELD(f) offsetof(efsi_config, f)
#define ANY -HUGE_VAL, HUGE_VAL, 0

static const key_spec key_table[] = {
  {"case", "name", KIND_NAME, FIELD(name), 1, ANY, NULL,
   "a label of letters, digits and . _ - + (at most 127 characters)"},
  {"grid", "cells", KIND_INTS, FIELD(cells), 3, 1, INT_MAX, 0, NULL,
   "three positive integers"},
  {"grid", "length", KIND_DOUBLES, FIELD(length), 3, 0, HUGE_VAL, 1, NULL,
   "three positive numbers"},
  {"grid", "ranks", KIND_INTS, FIELD(ranks), 3, 0, INT_MAX, 0, NULL,
   "three integers >= 0 (0 = chosen by efsi)"},
  {"boundary", "y", KIND_WORD, FIELD(boundary[1]), 1, ANY, boundary_words,
   "wall or periodic"},
  {"boundary", "z", KIND_WORD, FIELD(boundary[2]), 1, ANY, boundary_words,
   "wall or periodic"},
  {"boundary", "y_lo_u", KIND_DOUBLES, FIELD(wall_u[1][0]), 1, ANY, NULL, "a number"},
  {"boundary", "y_hi_u", KIND_DOUBLES, FIELD(wall_u[1][1]), 1, ANY, NULL, "a number"},
  {"boundary", "z_lo_u", KIND_DOUBLES, FIELD(wall_u[2][0]), 1, ANY, NULL, "a number"},
  {"boundary", "z_hi_u", KIND_DOUBLES, FIELD(wall_u[2][1]), 1, ANY, NULL, "a number"},
  {"boundary", "wall_omega", KIND_DOUBLES, FIELD(wall_omega), 1, ANY, NULL, "a number"},
  {"fluid", "density", KIND_DOUBLES, FIELD(density), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"fluid", "viscosity", KIND_DOUBLES, FIELD(viscosity), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"drive", "mode", KIND_WORD, FIELD(drive_mode), 1, ANY, drive_words,
   "pressure or flowrate"},
  {"drive", "pressure_gradient", KIND_DOUBLES, FIELD(pressure_gradient), 1, ANY, NULL,
   "a number"},
  {"drive", "bulk_velocity", KIND_DOUBLES, FIELD(bulk_velocity), 1, ANY, NULL, "a number"},
  {"pressure", "method", KIND_WORD, FIELD(pressure_method), 1, ANY, pressure_words,
   "acm or smac"},
  {"time", "dt", KIND_DT, FIELD(dt), 1, 0, HUGE_VAL, 1, NULL, "auto or a number > 0"},
  {"time", "safety", KIND_DOUBLES, FIELD(safety), 1, 0, 1, 1, NULL, "a number in (0, 1]"},
  {"time", "unsafe", KIND_BOOL, FIELD(unsafe), 1, ANY, NULL,
   "true or false (or yes/no, 1/0)"},
  {"time", "steps", KIND_LONG, FIELD(steps), 1, 0, HUGE_VAL, 0, NULL, "an integer >= 0"},
  {"time", "end_time", KIND_DOUBLES, FIELD(end_time), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"init", "seed", KIND_SEED, FIELD(seed), 1, ANY, NULL, "an integer >= 0"},
  {"init", "interface_width", KIND_DOUBLES, FIELD(interface_width), 1, 0, HUGE_VAL, 0, NULL,
   "a number >= 0 (cells)"},
  {"init", "flow", KIND_WORD, FIELD(init_flow), 1, ANY, flow_words, "rest or taylor-green"},
  {"init", "flow_amplitude", KIND_DOUBLES, FIELD(flow_amplitude), 1, ANY, NULL, "a number"},
  {"output", "fields_every", KIND_LONG, FIELD(fields_every), 1, 0, HUGE_VAL, 0, NULL,
   "an integer >= 0 (0 = at the end only)"},
  {"output", "diagnostics_every", KIND_LONG, FIELD(diagnostics_every), 1, 0, HUGE_VAL, 0,
   NULL, "an integer >= 0 (0 = at the end only)"},
  {"output", "restart_every", KIND_LONG, FIELD(restart_every), 1, 0, HUGE_VAL, 0, NULL,
   "an integer >= 0 (0 = at the end only)"},
  {"performance", "peak_gflops", KIND_DOUBLES, FIELD(peak_gflops), 1, 0, HUGE_VAL, 0, NULL,
   "a number >= 0 (0 = not given)"},
  {"performance", "overlap", KIND_BOOL, FIELD(overlap), 1, ANY, NULL,
   "true or false (or yes/no, 1/0)"},
  {"performance", "sync_timers", KIND_BOOL, FIELD(sync_timers), 1, ANY, NULL,
   "true or false (or yes/no, 1/0)"},
  {"rbc", "count", KIND_LONG, FIELD(rbc_count), 1, 0, HUGE_VAL, 0, NULL, "an integer >= 0"},
  {"rbc", "hematocrit", KIND_DOUBLES, FIELD(rbc_hematocrit), 1, 0, 1, 0, NULL,
   "a volume fraction in [0, 1]"},
  {"rbc", "diameter", KIND_DOUBLES, FIELD(rbc_diameter), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"rbc", "modulus", KIND_DOUBLES, FIELD(rbc_modulus), 1, 0, HUGE_VAL, 1, NULL,
   "a shear modulus > 0"},
  {"rbc", "orientation", KIND_WORD, FIELD(rbc_orientation), 1, ANY, orientation_words,
   "random, x, y or z"},
  {"platelet", "count", KIND_LONG, FIELD(platelet_count), 1, 0, HUGE_VAL, 0, NULL,
   "an integer >= 0"},
  {"platelet", "fraction", KIND_DOUBLES, FIELD(platelet_fraction), 1, 0, 1, 0, NULL,
   "a volume fraction in [0, 1]"},
  {"platelet", "semi_axes", KIND_DOUBLES, FIELD(platelet_semi_axes), 3, 0, HUGE_VAL, 1, NULL,
   "three numbers > 0"},
  {"platelet", "modulus", KIND_DOUBLES, FIELD(platelet_modulus), 1, 0, HUGE_VAL, 1, NULL,
   "a shear modulus > 0"},
  {"platelet", "orientation", KIND_WORD, FIELD(platelet_orientation), 1, ANY,
   orientation_words, "random, x, y or z"},
  {"sphere", "center", KIND_DOUBLES, FIELD(sphere_center), 3, ANY, NULL, "three numbers"},
  {"sphere", "radius", KIND_DOUBLES, FIELD(sphere_radius), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"sphere", "modulus", KIND_DOUBLES, FIELD(sphere_modulus), 1, 0, HUGE_VAL, 1, NULL,
   "a shear modulus > 0"},
  {"ellipsoid", "center", KIND_DOUBLES, FIELD(ellipsoid_center), 3, ANY, NULL,
   "three numbers"},
  {"ellipsoid", "semi_axes", KIND_DOUBLES, FIELD(ellipsoid_semi_axes), 3, 0, HUGE_VAL, 1,
   NULL, "three numbers > 0"},
  {"ellipsoid", "modulus", KIND_DOUBLES, FIELD(ellipsoid_modulus), 1, 0, HUGE_VAL, 1, NULL,
   "a shear modulus > 0"},
  {"vessel", "shape", KIND_WORD, FIELD(vessel_shape), 1, ANY, vessel_words, "none or tube"},
  {"vessel", "diameter", KIND_DOUBLES, FIELD(vessel_diameter), 1, 0, HUGE_VAL, 1, NULL,
   "a number > 0"},
  {"vessel", "modulus", KIND_DOUBLES, FIELD(vessel_modulus), 1, 0, HUGE_VAL, 1, NULL,
   "a shear modulus > 0"},
  {"voxels", "file", KIND_PATH, FIELD(voxels_file), 1, ANY, NULL, "a NetCDF file name"},
  {"voxels", "variable", KIND_WORD, FIELD(voxels_variable), 1, ANY, voxel_words,
   "phi or label"},
  {"voxels", "modulus", KIND_LIST, FIELD(voxels_modulus), EFSI_MAX_MATERIALS - 1, 0,
   HUGE_VAL, 1, NULL, "1 to 7 shear moduli > 0 (one per label)"},
};

enum { N_KEYS = sizeof key_table / sizeof key_table[0], MAX_TOKENS = EFSI_MAX_MATERIALS };

/* Where each key got its value, for messages about keys checked together. */
typedef struct {
  int line;                   /* line in the case file (0 = not from the file) */
  const char *override;       /* the --set text that set it last, or NULL */
} origin;

typedef struct {
  efsi_config *c;
  const char *text;           /* the unread rest of the case text */
  int line;                   /* number of the line the reader returned last */
  int indented;               /* that line starts with white space (an inih continuation) */
  const char *override;       /* the --set being applied, NULL while reading the file */
  origin from[N_KEYS];
  int failed;
  int failed_line;            /* line of the recorded error (0: not a file line) */
  char *err;
  size_t errlen;
} parse_state;

/* Where every key came from in the last successful config_parse, for the checks made
 * later from the struct alone (config_where). */
static struct {
  char file[EFSI_PATH_LEN];
  char where[N_KEYS][EFSI_PATH_LEN + 32];
} last_parse;

static void format_where(const parse_state *s, const origin *o, char *out, size_t len)
{
  if (o->override)
    snprintf(out, len, "--set %s", o->override);
  else if (o->line > 0)
    snprintf(out, len, "%s:%d", s->c->file, o->line);
  else
    snprintf(out, len, "%s", s->c->file);
}

/* Record the first error only: "WHERE: section.key: message". */
__attribute__((format(printf, 4, 5)))
static void fail(parse_state *s, const origin *o, const char *key, const char *fmt, ...)
{
  if (s->failed) return;
  s->failed = 1;
  s->failed_line = o->override ? 0 : o->line;
  char where[EFSI_PATH_LEN + 32], what[512];
  format_where(s, o, where, sizeof where);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(s->err, s->errlen, "%s: %s: %s", where, key, what);
}

/* Here: the line being read, or the override being applied. */
static origin current(const parse_state *s)
{
  origin o = {s->override ? 0 : s->line, s->override};
  return o;
}

/* inih reader: hands out exactly one line per call, so s->line is the line inih is on. */
static char *read_line(char *buf, int size, void *stream)
{
  parse_state *s = stream;
  if (*s->text == '\0') return NULL;
  size_t len = strcspn(s->text, "\n"), end = len + (s->text[len] == '\n');
  s->line++;
  s->indented = s->text[0] == ' ' || s->text[0] == '\t';
  if (len + 2 > (size_t)size) {
    origin o = current(s);
    fail(s, &o, "line", "longer than %d characters (libinih's limit)", size - 2);
    len = (size_t)size - 1;
  } else {
    len = end;
  }
  memcpy(buf, s->text, len);
  buf[len] = '\0';
  s->text += end;
  return buf;
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

/* Split value at white space into at most MAX_TOKENS + 1 tokens (one more than any key
 * takes, so a long list is seen as too long).  Returns the count; copy is the storage. */
static int split(const char *value, char *copy, size_t len, char *token[MAX_TOKENS + 1])
{
  snprintf(copy, len, "%s", value);
  int n = 0;
  for (char *p = copy; *p && n <= MAX_TOKENS;) {
    while (is_blank(*p)) p++;
    if (!*p) break;
    token[n++] = p;
    while (*p && !is_blank(*p)) p++;
    if (*p) *p++ = '\0';
  }
  return n;
}

/* A whole token that is a finite decimal number (no inf, nan or hex). */
static int to_double(const char *t, double *x)
{
  if (t[strspn(t, "0123456789.eE+-")] != '\0') return 0;
  char *end;
  errno = 0;
  *x = strtod(t, &end);
  return end != t && *end == '\0' && errno == 0 && isfinite(*x);
}

static int to_long(const char *t, long *x)
{
  if (t[strspn(t, "0123456789+-")] != '\0') return 0;
  char *end;
  errno = 0;
  *x = strtol(t, &end, 10);
  return end != t && *end == '\0' && errno == 0;
}

static int in_range(const key_spec *k, double x)
{
  return (k->min_open ? x > k->min : x >= k->min) && x <= k->max;
}

static int valid_name(const char *v)
{
  size_t n = strlen(v);
  if (n == 0 || n >= EFSI_NAME_LEN || strcmp(v, ".") == 0 || strcmp(v, "..") == 0) return 0;
  for (const char *p = v; *p; p++)
    if (!isalnum((unsigned char)*p) && !strchr("._-+", *p)) return 0;
  return 1;
}

/* Convert value for key k into its field; returns 0 when it is not allowed. */
static int store(efsi_config *c, const key_spec *k, const char *value)
{
  char copy[1024], *token[MAX_TOKENS + 1];
  char *field = (char *)c + k->offset;
  if (strlen(value) >= sizeof copy) return 0;
  int n = split(value, copy, sizeof copy, token);
  switch (k->kind) {
  case KIND_NAME:
    if (!valid_name(value)) return 0;
    snprintf(field, EFSI_NAME_LEN, "%s", value);
    return 1;
  case KIND_PATH: {
    const size_t len = strlen(value);
    if (len == 0 || len >= EFSI_PATH_LEN || is_blank(value[0]) || is_blank(value[len - 1]))
      return 0;
    snprintf(field, EFSI_PATH_LEN, "%s", value);
    return 1;
  }
  case KIND_LIST: {
    if (n < 1 || n > k->count) return 0;
    double x[MAX_TOKENS];
    for (int m = 0; m < n; m++)
      if (!to_double(token[m], &x[m]) || !in_range(k, x[m])) return 0;
    memcpy(field, x, n * sizeof x[0]);
    c->voxels_moduli = n;
    return 1;
  }
  case KIND_INTS:
  case KIND_DOUBLES: {
    if (n != k->count) return 0;
    double x[MAX_TOKENS];
    for (int m = 0; m < n; m++) {
      long i = 0;
      int ok = k->kind == KIND_INTS ? to_long(token[m], &i) : to_double(token[m], &x[m]);
      if (k->kind == KIND_INTS) x[m] = (double)i;
      if (!ok || !in_range(k, x[m])) return 0;
    }
    for (int m = 0; m < n; m++) {
      if (k->kind == KIND_INTS) ((int *)field)[m] = (int)x[m];
      else ((double *)field)[m] = x[m];
    }
    return 1;
  }
  case KIND_LONG: {
    long i;
    if (n != 1 || !to_long(token[0], &i) || !in_range(k, (double)i)) return 0;
    *(long *)field = i;
    return 1;
  }
  case KIND_SEED: {
    if (n != 1 || token[0][strspn(token[0], "0123456789")] != '\0') return 0;
    errno = 0;
    unsigned long u = strtoul(token[0], NULL, 10);
    if (errno != 0) return 0;
    *(unsigned long *)field = u;
    return 1;
  }
  case KIND_WORD:
    if (n != 1) return 0;
    for (int w = 0; k->words[w]; w++)
      if (strcmp(token[0], k->words[w]) == 0) {
        *(int *)field = w;
        return 1;
      }
    return 0;
  case KIND_BOOL: {
    static const char *const yes[] = {"true", "yes", "1"}, *const no[] = {"false", "no", "0"};
    for (int w = 0; n == 1 && w < 3; w++) {
      if (strcmp(token[0], yes[w]) == 0) { *(int *)field = 1; return 1; }
      if (strcmp(token[0], no[w]) == 0) { *(int *)field = 0; return 1; }
    }
    return 0;
  }
  case KIND_DT: {
    double x;
    if (n == 1 && strcmp(token[0], "auto") == 0) {
      c->dt_auto = 1;
      c->dt = 0;
      return 1;
    }
    if (n != 1 || !to_double(token[0], &x) || !in_range(k, x)) return 0;
    c->dt_auto = 0;
    c->dt = x;
    return 1;
  }
  }
  return 0;
}

static int find_key(const char *section, const char *name)
{
  for (int k = 0; k < N_KEYS; k++)
    if (strcmp(key_table[k].section, section) == 0 && strcmp(key_table[k].name, name) == 0)
      return k;
  return -1;
}

/* "a, b, c": the keys of section (or all sections when section is NULL). */
static void list_known(const char *section, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < N_KEYS && used < len; k++) {
    const char *item = section ? key_table[k].name : key_table[k].section;
    if (section ? strcmp(key_table[k].section, section) != 0
                : k > 0 && strcmp(key_table[k - 1].section, item) == 0)
      continue;
    used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", item);
  }
}

/* Apply one section/name/value, from the file (s->override NULL) or from --set. */
static int set_key(parse_state *s, const char *section, const char *name, const char *value)
{
  char key[256], known[512];
  snprintf(key, sizeof key, "%s.%s", section, name);
  origin here = current(s);
  if (s->failed) return 0;
  if (section[0] == '\0') {
    fail(s, &here, name, "key outside any [section]");
    return 0;
  }
  int k = find_key(section, name);
  if (k < 0) {
    int section_known = 0;
    for (int m = 0; m < N_KEYS; m++) section_known |= strcmp(key_table[m].section, section) == 0;
    list_known(section_known ? section : NULL, known, sizeof known);
    if (section_known)
      fail(s, &here, key, "unknown key in [%s] (its keys: %s)", section, known);
    else
      fail(s, &here, key, "unknown section [%s] (sections: %s)", section, known);
    return 0;
  }
  if (!s->override && s->from[k].line > 0) {
    if (s->indented)
      fail(s, &here, key, "duplicate key: this indented line continues the value of line "
           "%d (inih reads indented lines as continuations; write a list on one line)",
           s->from[k].line);
    else
      fail(s, &here, key, "duplicate key (first given on line %d)", s->from[k].line);
    return 0;
  }
  if (!store(s->c, &key_table[k], value)) {
    fail(s, &here, key, "expected %s, got \"%s\"", key_table[k].expected, value);
    return 0;
  }
  s->from[k] = here;
  return 1;
}

/* inih handler: drop a '#' comment that follows the value (inih strips only ';'). */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
  char clean[1024];
  snprintf(clean, sizeof clean, "%s", value);
  for (char *p = clean; *p; p++)
    if (*p == '#' && (p == clean || is_blank(p[-1]))) {
      *p = '\0';
      break;
    }
  for (size_t n = strlen(clean); n > 0 && is_blank(clean[n - 1]); n--) clean[n - 1] = '\0';
  return set_key(user, section, name, clean);
}

/* "section.key=value" with white space allowed around key and value. */
static void apply_override(parse_state *s, const char *text)
{
  char section[128], name[128], value[1024];
  origin here = {0, text};
  const char *eq = strchr(text, '='), *dot = strchr(text, '.');
  while (is_blank(*text)) text++;
  size_t lsec = dot ? (size_t)(dot - text) : 0, lname = eq && dot ? (size_t)(eq - dot - 1) : 0;
  while (lname > 0 && is_blank(dot[lname])) lname--;
  if (!eq || !dot || dot > eq || lsec == 0 || lname == 0 || lsec >= sizeof section ||
      lname >= sizeof name) {
    fail(s, &here, "--set", "expected section.key=value");
    return;
  }
  snprintf(section, sizeof section, "%.*s", (int)lsec, text);
  snprintf(name, sizeof name, "%.*s", (int)lname, dot + 1);
  const char *v = eq + 1;
  while (is_blank(*v)) v++;
  snprintf(value, sizeof value, "%s", v);
  for (size_t n = strlen(value); n > 0 && is_blank(value[n - 1]); n--) value[n - 1] = '\0';
  s->override = here.override;
  set_key(s, section, name, value);
  s->override = NULL;
}

/* Checks that relate several keys, after the file and the overrides. */
/* A relative path in the case file names a file beside the case file. */
static void resolve_relative(char *path, size_t len, const char *case_file)
{
  const char *slash = strrchr(case_file, '/');
  if (!path[0] || path[0] == '/' || !slash) return;
  char joined[EFSI_PATH_LEN];
  if ((size_t)snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - case_file), case_file,
                       path) < len)
    snprintf(path, len, "%s", joined);
}

/* True when section.name was set by the file or an override. */
static int given(const parse_state *s, const char *section, const char *name)
{
  const origin *o = &s->from[find_key(section, name)];
  return o->line > 0 || o->override != NULL;
}

/* "section.key" of a row, for messages. */
static const origin *where_key(const parse_state *s, const char *section, const char *name)
{
  return &s->from[find_key(section, name)];
}

/* A section is in use when any of its keys is given; then its required keys must be. */
static void require(parse_state *s, const char *section, const char *const *keys, int n,
                    const char *why)
{
  for (int k = 0; k < n; k++)
    if (!given(s, section, keys[k])) {
      char key[64];
      snprintf(key, sizeof key, "%s.%s", section, keys[k]);
      fail(s, where_key(s, section, keys[k]), key, "required key is missing (%s)", why);
    }
}

static int section_used(const parse_state *s, const char *section)
{
  for (int k = 0; k < N_KEYS; k++)
    if (strcmp(key_table[k].section, section) == 0 && given(s, section, key_table[k].name))
      return 1;
  return 0;
}

/* The solid's keys that depend on each other (bodies that do not fit or overlap are
 * refused by the seeding, which knows the geometry). */
static void check_solid(parse_state *s)
{
  efsi_config *c = s->c;
  if (given(s, "rbc", "count") && given(s, "rbc", "hematocrit"))
    fail(s, where_key(s, "rbc", "hematocrit"), "rbc.hematocrit",
         "give rbc.count or rbc.hematocrit, not both");
  if (given(s, "platelet", "count") && given(s, "platelet", "fraction"))
    fail(s, where_key(s, "platelet", "fraction"), "platelet.fraction",
         "give platelet.count or platelet.fraction, not both");
  if ((c->platelet_count > 0 || c->platelet_fraction > 0) && !given(s, "platelet", "modulus"))
    fail(s, where_key(s, "platelet", "modulus"), "platelet.modulus",
         "required key is missing (the platelets' shear modulus)");
  static const char *const sphere_keys[] = {"center", "radius", "modulus"};
  if (section_used(s, "sphere")) require(s, "sphere", sphere_keys, 3, "[sphere] is in use");
  static const char *const ellipsoid_keys[] = {"center", "semi_axes", "modulus"};
  if (section_used(s, "ellipsoid"))
    require(s, "ellipsoid", ellipsoid_keys, 3, "[ellipsoid] is in use");
  if (c->vessel_shape == VESSEL_TUBE) {
    static const char *const vessel_keys[] = {"diameter", "modulus"};
    require(s, "vessel", vessel_keys, 2, "vessel.shape = tube");
    if (c->boundary[1] != BOUNDARY_WALL || c->boundary[2] != BOUNDARY_WALL)
      fail(s, where_key(s, "vessel", "shape"), "vessel.shape",
           "a tube is anchored by the box walls: set boundary.y = wall and boundary.z = wall");
    const double room = fmin(c->length[1], c->length[2]);
    if (given(s, "vessel", "diameter") && c->vessel_diameter >= room)
      fail(s, where_key(s, "vessel", "diameter"), "vessel.diameter",
           "%g leaves no wall inside the %g x %g cross-section (must be < %g)",
           c->vessel_diameter, c->length[1], c->length[2], room);
  } else if (given(s, "vessel", "diameter") || given(s, "vessel", "modulus")) {
    fail(s, where_key(s, "vessel", "shape"), "vessel.shape",
         "vessel.diameter/modulus given, but vessel.shape is none (set vessel.shape = tube)");
  }
  if (given(s, "voxels", "file") || given(s, "voxels", "modulus")) {
    static const char *const voxel_keys[] = {"file", "modulus"};
    require(s, "voxels", voxel_keys, 2, "[voxels] is in use");
    if (c->voxels_variable == VOXELS_PHI && c->voxels_moduli > 1)
      fail(s, where_key(s, "voxels", "modulus"), "voxels.modulus",
           "voxels.variable = phi is one material: give one modulus, got %d", c->voxels_moduli);
  }
  efsi_materials materials;
  if (materials_of_case(c, &materials) > EFSI_MAX_MATERIALS)
    fail(s, where_key(s, "voxels", "modulus"), "voxels.modulus",
         "the case uses more than %d materials", EFSI_MAX_MATERIALS);
}

static void check_together(parse_state *s)
{
  efsi_config *c = s->c;
  const origin *cells = &s->from[find_key("grid", "cells")];
  static const char *const required[] = {"cells", "length"};
  for (int m = 0; m < 2; m++) {
    int k = find_key("grid", required[m]);
    char key[32];
    snprintf(key, sizeof key, "grid.%s", required[m]);
    if (s->from[k].line == 0 && !s->from[k].override)
      fail(s, &s->from[k], key, "required key is missing (%s)", key_table[k].expected);
  }
  if (c->steps < 0 && c->end_time < 0)
    fail(s, &s->from[find_key("time", "steps")], "time.steps",
         "required key is missing: give time.steps or time.end_time (or both)");
  const origin *bulk = &s->from[find_key("drive", "bulk_velocity")];
  int bulk_given = bulk->line > 0 || bulk->override;
  if (c->drive_mode == DRIVE_FLOWRATE && !bulk_given)
    fail(s, bulk, "drive.bulk_velocity",
         "required key is missing (drive.mode = flowrate holds this bulk velocity in x)");
  if (c->drive_mode == DRIVE_PRESSURE && bulk_given)
    fail(s, bulk, "drive.bulk_velocity", "given, but drive.mode is pressure (it is used "
         "only with drive.mode = flowrate)");
  static const char *const axis = "xyz", *const side[2] = {"lo", "hi"};
  for (int d = 1; d < 3; d++) {
    for (int h = 0; h < 2; h++) {
      char name[16], key[32];
      snprintf(name, sizeof name, "%c_%s_u", axis[d], side[h]);
      snprintf(key, sizeof key, "boundary.%s", name);
      if (c->boundary[d] == BOUNDARY_PERIODIC && c->wall_u[d][h] != 0)
        fail(s, &s->from[find_key("boundary", name)], key,
             "wall speed %g given, but boundary.%c is periodic (no wall to move)",
             c->wall_u[d][h], axis[d]);
    }
  }
  /* WENO5 reads three cells on either side; the halo and wall layers are three deep */
  for (int d = 0; d < 3; d++)
    if (c->cells[d] < EFSI_HALO)
      fail(s, cells, "grid.cells",
           "%c needs at least %d cells (the WENO5 stencil's halo width), got %d", axis[d],
           EFSI_HALO, c->cells[d]);
  check_solid(s);
}

void config_defaults(efsi_config *c)
{
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "case");
  c->boundary[0] = BOUNDARY_PERIODIC;
  c->boundary[1] = BOUNDARY_WALL;
  c->boundary[2] = BOUNDARY_PERIODIC;
  c->density = 1;
  c->viscosity = 1;
  c->drive_mode = DRIVE_PRESSURE;
  c->pressure_method = PRESSURE_ACM;
  c->dt_auto = 1;
  c->safety = 0.5;
  c->steps = -1;
  c->end_time = -1;
  c->seed = 1;
  c->init_flow = INIT_REST;
  c->flow_amplitude = 1;
  c->diagnostics_every = 10;
  c->overlap = 0;   /* measured no faster on one node: docs/scaling.md */
  c->rbc_diameter = 8;
  c->rbc_modulus = 2e-2;
  c->platelet_semi_axes[0] = 1;
  c->platelet_semi_axes[1] = 1;
  c->platelet_semi_axes[2] = 0.8;
}

/* case.name's default: the file's base name without ".ini". */
static void default_name(efsi_config *c, const char *file)
{
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  size_t n = strlen(base);
  if (n > 4 && strcmp(base + n - 4, ".ini") == 0) n -= 4;
  if (n > 0 && n < sizeof c->name) snprintf(c->name, sizeof c->name, "%.*s", (int)n, base);
}

int config_parse(efsi_config *c, const char *file, const char *text,
                 const char *const *overrides, int n_overrides, char *err, size_t errlen)
{
  config_defaults(c);
  snprintf(c->file, sizeof c->file, "%s", file);
  default_name(c, file);
  parse_state s = {.c = c, .text = text, .err = err, .errlen = errlen};
  int bad_line = ini_parse_stream(read_line, &s, on_key, &s);
  if (bad_line > 0 && (!s.failed || bad_line < s.failed_line)) {
    /* inih's own refusal, on a line before any of ours: a line that is neither [section],
     * key = value nor a comment */
    s.failed = 0;
    const char *p = text;
    for (int n = 1; n < bad_line && (p = strchr(p, '\n')); n++) p++;
    origin o = {bad_line, NULL};
    fail(&s, &o, "syntax error", "expected [section], key = value or a # comment, got \"%.*s\"",
         p ? (int)strcspn(p, "\r\n") : 0, p ? p : "");
  }
  for (int m = 0; m < n_overrides && !s.failed; m++) apply_override(&s, overrides[m]);
  if (!s.failed) check_together(&s);
  if (!s.failed) resolve_relative(c->voxels_file, sizeof c->voxels_file, file);
  if (s.failed) return 1;
  snprintf(last_parse.file, sizeof last_parse.file, "%s", c->file);
  for (int k = 0; k < N_KEYS; k++)
    format_where(&s, &s.from[k], last_parse.where[k], sizeof last_parse.where[k]);
  return 0;
}

const char *config_where(const efsi_config *c, const char *key)
{
  const char *dot = strchr(key, '.');
  if (!dot || strcmp(last_parse.file, c->file) != 0) return c->file;
  char section[64];
  snprintf(section, sizeof section, "%.*s", (int)(dot - key), key);
  const int k = find_key(section, dot + 1);
  return k >= 0 ? last_parse.where[k] : c->file;
}

int config_validate_ranks(const efsi_config *c, int nranks, char *err, size_t errlen)
{
  const char *where = config_where(c, "grid.ranks");
  static const char axis[] = "xyz";
  long given = 1;
  int all_given = 1;
  for (int d = 0; d < 3; d++) {
    if (c->ranks[d] == 0) {
      all_given = 0;
      continue;
    }
    given *= c->ranks[d];
    if (c->cells[d] % c->ranks[d] != 0) {
      snprintf(err, errlen, "%s: grid.ranks: %d ranks in %c do not divide the %d cells in %c "
               "(each factor must divide its grid.cells entry)",
               where, c->ranks[d], axis[d], c->cells[d], axis[d]);
      return 1;
    }
  }
  if (all_given && given != nranks) {
    snprintf(err, errlen, "%s: grid.ranks: %d x %d x %d = %ld ranks, but the run has %d "
             "(the product must equal the number of MPI ranks)",
             where, c->ranks[0], c->ranks[1], c->ranks[2], given, nranks);
    return 1;
  }
  if (!all_given && nranks % given != 0) {
    snprintf(err, errlen, "%s: grid.ranks: the given factors multiply to %ld, which does not "
             "divide the %d ranks of the run", where, given, nranks);
    return 1;
  }
  return 0;
}
