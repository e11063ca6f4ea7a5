/* EFSI_DEBUG=name=value,name=value (see debug.h). */
#include "io/debug.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int debug_setting(const char *name, char *value, size_t len)
{
  const char *all = getenv("EFSI_DEBUG");
  const size_t n = strlen(name);
  for (const char *item = all; item && *item; item += strcspn(item, ",")) {
    item += *item == ',';
    if (strncmp(item, name, n) != 0 || item[n] != '=') continue;
    const char *v = item + n + 1;
    snprintf(value, len, "%.*s", (int)strcspn(v, ","), v);
    return 0;
  }
  return 1;
}
