/* The case file (config.h): read with its overrides (src/case/config_read.c), then checked
 * key against key (src/case/config_check.c). */
#include "src/case/config.h"

#include "src/case/config_check.h"
#include "src/case/config_read.h"

int config_parse(efsi_config *c, const char *file, const char *text,
                 const char *const *overrides, int n_overrides, char *err, size_t errlen)
{
  parse_state s;
  if (!config_read(&s, c, file, text, overrides, n_overrides, err, errlen)) config_check(&s);
  return config_finish(&s, file);
}
