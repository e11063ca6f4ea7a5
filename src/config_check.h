/* Cross-key checks of the case file and the interface they use of the parser: whether a key
 * was given, and a refusal that names where it was given (file:line or --set). */
#ifndef EFSI_CONFIG_CHECK_H
#define EFSI_CONFIG_CHECK_H

#include "src/config.h"

typedef struct parse_state parse_state;

/* True when section.name was set by the file or an override. */
int config_given(const parse_state *s, const char *section, const char *name);

/* The configuration being parsed. */
const efsi_config *config_of(const parse_state *s);

/* Record a refusal of section.name (the first one wins): "WHERE: section.name: message". */
void config_fail(parse_state *s, const char *section, const char *name, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));

/* Every check that relates several keys; refusals through config_fail. */
void config_check(parse_state *s);

#endif
