/* Reading the case file and its --set overrides into efsi_config (src/case/config_read.c),
 * and the interface the cross-key checks (src/case/config_check.c) use of the reading:
 * whether a key was given, and a refusal that names where it was given (file:line or
 * --set). */
#ifndef EFSI_CONFIG_READ_H
#define EFSI_CONFIG_READ_H

#include <stddef.h>

#include "src/case/config.h"
#include "src/case/config_keys.h"

/* Where each key got its value, for messages about keys checked together. */
typedef struct {
  int line;                   /* line in the case file (0 = not from the file) */
  const char *override;       /* the --set text that set it last, or NULL */
} origin;

typedef struct parse_state {
  efsi_config *c;
  const char *whole;          /* the case text */
  const char *text;           /* the unread rest of the case text */
  int line;                   /* number of the line the reader returned last */
  int indented;               /* that line starts with white space (an inih continuation) */
  const char *override;       /* the --set being applied, NULL while reading the file */
  origin from[CONFIG_MAX_KEYS];
  int failed;
  int failed_line;            /* line of the recorded error (0: not a file line) */
  char *err;
  size_t errlen;
} parse_state;

/* The defaults, then the case text of `file`, then the overrides, into c; s records where
 * each key came from.  Nonzero (and the first refusal in err) when a key is refused. */
int config_read(parse_state *s, efsi_config *c, const char *file, const char *text,
                const char *const *overrides, int n_overrides, char *err, size_t errlen);

/* After the checks: relative paths resolved against the case file's folder, and where each
 * key got its value recorded in c (config_where).  Nonzero when s holds a refusal. */
int config_finish(parse_state *s, const char *file);

/* True when section.name was set by the file or an override. */
int config_given(const parse_state *s, const char *section, const char *name);

/* The configuration being parsed. */
const efsi_config *config_of(const parse_state *s);

/* Record a refusal of section.name (the first one wins): "WHERE: section.name: message". */
void config_fail(parse_state *s, const char *section, const char *name, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

#endif
