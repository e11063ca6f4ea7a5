/* Cross-key checks of the case file, run once the file and the overrides are read; refusals
 * through config_fail (src/case/config_read.h). */
#ifndef EFSI_CONFIG_CHECK_H
#define EFSI_CONFIG_CHECK_H

#include "src/case/config_read.h"

/* Every check that relates several keys. */
void config_check(parse_state *s);

#endif
