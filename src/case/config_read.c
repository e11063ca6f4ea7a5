/* Reading the case file: INI text parsed by libinih into efsi_config, then the --set
 * overrides.  Every key is one row of config_keys (section, name, kind, field, list length,
 * allowed range, the words it accepts); one generic routine converts and range-checks a
 * value, so a refusal always reads
 *   FILE:LINE: section.key: expected <allowed>, got "<value>".
 * The checks that relate several keys come after (src/case/config_check.c); config_parse
 * (src/case/config.c) runs the two in turn. */
#include "src/case/config_read.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/case/config_keys.h"
#include "base/errors.h"


enum { MAX_TOKENS = EFSI_MAX_MATERIALS };

/* "FILE:LINE", "--set TEXT" or "FILE", cut to fit efsi_config.where (a path that long is
 * named in full by the messages of the parse itself). */
static void format_where(const parse_state *s, const origin *o, char *out, size_t len)
{
  enum { SHOWN = CONFIG_WHERE_LEN - 20 };   /* room for ":LINE" and "--set " */
  if (o->override)
    snprintf(out, len, "--set %.*s", SHOWN, o->override);
  else if (o->line > 0)
    snprintf(out, len, "%.*s:%d", SHOWN, s->c->file, o->line);
  else
    snprintf(out, len, "%.*s", SHOWN, s->c->file);
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

/* A duration: seconds (a number), or H:MM:SS with minutes and seconds below 60 and any
 * number of hours. */
static int to_duration(const char *t, double *seconds)
{
  if (!strchr(t, ':')) return to_double(t, seconds);
  if (t[strspn(t, "0123456789:")] != '\0') return 0;
  long part[3];
  int n = 0;
  for (const char *p = t; n < 3; n++) {
    char *end;
    if (*p < '0' || *p > '9') return 0;
    errno = 0;
    part[n] = strtol(p, &end, 10);
    if (errno != 0 || part[n] > 100000000L) return 0;
    if (n < 2 && *end != ':') return 0;
    if (n == 2 && *end != '\0') return 0;
    p = end + 1;
  }
  if (part[1] >= 60 || part[2] >= 60) return 0;
  *seconds = 3600.0 * part[0] + 60.0 * part[1] + part[2];
  return 1;
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
/* The count of a KIND_LIST key's values: the voxels' parameters are the only lists, each
 * counted in voxels_material.given at the parameter's index. */
static int *list_count(efsi_config *c, const key_spec *k)
{
  const size_t first = offsetof(efsi_config, voxels_material.param);
  return &c->voxels_material.given[(k->offset - first) / sizeof c->voxels_material.param[0]];
}

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
    *list_count(c, k) = n;
    return 1;
  }
  case KIND_INTS:
  case KIND_DOUBLES: {
    if (n != k->count) return 0;
    if (k->words) {   /* a word parameter of a material: its index */
      for (int w = 0; k->words[w]; w++)
        if (strcmp(token[0], k->words[w]) == 0) {
          *(double *)field = (double)w;
          return 1;
        }
      return 0;
    }
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
  case KIND_DURATION: {
    double x;
    if (n != 1 || !to_duration(token[0], &x) || !in_range(k, x)) return 0;
    *(double *)field = x;
    return 1;
  }
  case KIND_TEXT:
    /* words of letters, digits and _ (the names are checked against the case later) */
    if (n < 1 || strlen(value) >= CONFIG_TEXT_LEN) return 0;
    for (const char *p = value; *p; p++)
      if (!isalnum((unsigned char)*p) && *p != '_' && !is_blank(*p)) return 0;
    snprintf(field, CONFIG_TEXT_LEN, "%s", value);
    return 1;
  case KIND_NUMBERS: {
    /* more numbers than split keeps: tokens of the whole value */
    efsi_numbers list = {0, {0}};
    snprintf(copy, sizeof copy, "%s", value);
    for (char *t = strtok(copy, " \t"); t; t = strtok(NULL, " \t")) {
      if (list.n == k->count || !to_double(t, &list.value[list.n]) || !in_range(k, list.value[list.n]))
        return 0;
      list.n++;
    }
    if (list.n < 1) return 0;
    memcpy(field, &list, sizeof list);
    return 1;
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


/* "a, b, c": the keys of section (or all sections when section is NULL). */
static void list_known(const char *section, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < config_key_count && used < len; k++) {
    const char *item = section ? config_keys[k].name : config_keys[k].section;
    int named = 0;   /* a section's keys need not be neighbours in the table: name it once */
    for (int m = 0; !section && m < k && !named; m++)
      named = strcmp(config_keys[m].section, item) == 0;
    if (section ? strcmp(config_keys[k].section, section) != 0 : named) continue;
    used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", item);
  }
}

/* Bytes of the field of key k in efsi_config. */
static size_t field_size(const key_spec *k)
{
  switch (k->kind) {
  case KIND_NAME: return EFSI_NAME_LEN;
  case KIND_PATH: return EFSI_PATH_LEN;
  case KIND_INTS: case KIND_WORD: case KIND_BOOL: return (size_t)k->count * sizeof(int);
  case KIND_DOUBLES: case KIND_DT: case KIND_DURATION: case KIND_LIST:
    return (size_t)k->count * sizeof(double);
  case KIND_LONG: return sizeof(long);
  case KIND_TEXT: return CONFIG_TEXT_LEN;
  case KIND_NUMBERS: return sizeof(efsi_numbers);
  case KIND_SEED: return sizeof(unsigned long);
  }
  return 0;
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

/* --set section.key= : key k takes its default again and counts as not given. */
static void remove_key(parse_state *s, int k)
{
  efsi_config *defaults = efsi_malloc(sizeof *defaults, "the defaults of the case file");
  config_defaults(defaults);
  default_name(defaults, s->c->file);
  const key_spec *spec = &config_keys[k];
  memcpy((char *)s->c + spec->offset, (char *)defaults + spec->offset, field_size(spec));
  if (spec->kind == KIND_DT) s->c->dt_auto = defaults->dt_auto;
  if (spec->kind == KIND_LIST) *list_count(s->c, spec) = *list_count(defaults, spec);
  free(defaults);
  s->from[k].line = 0;
  s->from[k].override = NULL;
}

/* The driver a study file names in its comments ("studies/hematocrit-study ..."), or the
 * list of efsi's drivers when it names none. */
static const char *study_driver(const char *text)
{
  static const char *const drivers[] = {"studies/hematocrit-study", "studies/fig2-study",
                                        "studies/weak-scaling-study"};
  const char *first = NULL;
  for (size_t d = 0; d < sizeof drivers / sizeof drivers[0]; d++) {
    const char *at = strstr(text, drivers[d]);
    if (at && (!first || at < first)) first = at;
  }
  for (size_t d = 0; d < sizeof drivers / sizeof drivers[0]; d++)
    if (first && strncmp(first, drivers[d], strlen(drivers[d])) == 0) return drivers[d];
  return "studies/hematocrit-study, studies/fig2-study or studies/weak-scaling-study:";
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
  int k = config_key_find(section, name);
  if (k < 0 && config_key_retired(section, name)) {
    fail(s, &here, key, "%s", config_key_retired(section, name));
    return 0;
  }
  if (k < 0) {
    int section_known = 0;
    for (int m = 0; m < config_key_count; m++) section_known |= strcmp(config_keys[m].section, section) == 0;
    list_known(section_known ? section : NULL, known, sizeof known);
    if (section_known)
      fail(s, &here, key, "unknown key in [%s] (its keys: %s)", section, known);
    else if (strcmp(section, "study") == 0 && !s->override)
      fail(s, &here, key, "[study] makes %s a study file, not a case: run it with its "
           "driver, %s %s (docs/studies.md)", s->c->file, study_driver(s->whole), s->c->file);
    else
      fail(s, &here, key, "unknown section [%s] (sections: %s)", section, known);
    return 0;
  }
  if (s->override && value[0] == '\0') {
    remove_key(s, k);
    return 1;
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
  if (!store(s->c, &config_keys[k], value)) {
    fail(s, &here, key, "expected %s, got \"%s\"", config_keys[k].expected, value);
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
  while (is_blank(*text)) text++;
  const char *eq = strchr(text, '='), *dot = strchr(text, '.');
  /* a dot only after the '=' (in the value) is no section.key */
  if (dot && eq && dot > eq) dot = NULL;
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

/* The interface of the cross-key checks (config_read.h). */
int config_given(const parse_state *s, const char *section, const char *name)
{
  const origin *o = &s->from[config_key_find(section, name)];
  return o->line > 0 || o->override != NULL;
}

const efsi_config *config_of(const parse_state *s) { return s->c; }

void config_fail(parse_state *s, const char *section, const char *name, const char *fmt, ...)
{
  char key[256], what[512];
  snprintf(key, sizeof key, "%s.%s", section, name);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fail(s, &s->from[config_key_find(section, name)], key, "%s", what);
}

int config_read(parse_state *s, efsi_config *c, const char *file, const char *text,
                const char *const *overrides, int n_overrides, char *err, size_t errlen)
{
  config_defaults(c);
  snprintf(c->file, sizeof c->file, "%s", file);
  default_name(c, file);
  *s = (parse_state){.c = c, .text = text, .whole = text, .err = err, .errlen = errlen};
  int bad_line = ini_parse_stream(read_line, s, on_key, s);
  if (bad_line > 0 && (!s->failed || bad_line < s->failed_line)) {
    /* inih's own refusal, on a line before any of ours: a line that is neither [section],
     * key = value nor a comment */
    s->failed = 0;
    const char *p = text;
    for (int n = 1; n < bad_line && (p = strchr(p, '\n')); n++) p++;
    origin o = {bad_line, NULL};
    fail(s, &o, "syntax error", "expected [section], key = value or a # comment, got \"%.*s\"",
         p ? (int)strcspn(p, "\r\n") : 0, p ? p : "");
  }
  for (int m = 0; m < n_overrides && !s->failed; m++) apply_override(s, overrides[m]);
  return s->failed;
}

int config_finish(parse_state *s, const char *file)
{
  efsi_config *c = s->c;
  if (!s->failed) resolve_relative(c->voxels_file, sizeof c->voxels_file, file);
  if (s->failed) return 1;
  for (int k = 0; k < config_key_count; k++)
    format_where(s, &s->from[k], c->where[k], sizeof c->where[k]);
  return 0;
}

const char *config_where(const efsi_config *c, const char *key)
{
  const char *dot = strchr(key, '.');
  if (!dot) return c->file;
  char section[64];
  snprintf(section, sizeof section, "%.*s", (int)(dot - key), key);
  const int k = config_key_find(section, dot + 1);
  return k >= 0 && c->where[k][0] ? c->where[k] : c->file;
}
