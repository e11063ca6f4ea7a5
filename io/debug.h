/* efsi's one debug interface (docs/building.md, "Testing faults"): the environment variable
 * EFSI_DEBUG, a comma-separated list of name=value settings that make faults happen on
 * purpose (a write that stalls, a shorter wait for a damaged file).  Nothing else in efsi
 * reads the environment for testing; a run without EFSI_DEBUG is not affected by it. */
#ifndef EFSI_DEBUG_H
#define EFSI_DEBUG_H

#include <stddef.h>

/* The value of setting name in EFSI_DEBUG into value (NUL-terminated, at most len - 1
 * bytes); nonzero when EFSI_DEBUG does not name it.  Read anew at every call: no state. */
int debug_setting(const char *name, char *value, size_t len);

#endif
