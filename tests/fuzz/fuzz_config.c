/* libFuzzer target: the case-file parser and the checks that follow it (docs/building.md,
 * "Fuzzing").  The input is a case file; each byte 0x01 in it starts a --set override
 * (section.key=value) applied after the file, as on the command line.  A parsed case then
 * goes through the checks efsi makes before allocating: the rank counts, the process grid
 * of a few sizes, the time step. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decomp/decomp.h"
#include "src/case/config.h"
#include "src/step/timestep.h"

enum { MAX_OVERRIDES = 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  const char *overrides[MAX_OVERRIDES];
  int n = 0;
  for (char *p = text; n < MAX_OVERRIDES && (p = strchr(p, '\x01')); n++) {
    *p++ = '\0';
    overrides[n] = p;
  }
  static efsi_config c;
  char err[2048];
  if (config_parse(&c, "fuzz/case.ini", text, overrides, n, err, sizeof err) == 0) {
    static const int ranks[] = {1, 2, 6, 64, 100000};
    const int periodic[3] = {1, c.boundary[1] == BOUNDARY_PERIODIC,
                             c.boundary[2] == BOUNDARY_PERIODIC};
    for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
      int dims[3];
      if (config_validate_ranks(&c, ranks[r], err, sizeof err) == 0)
        decomp_plan(ranks[r], c.cells, c.ranks, periodic, dims, err, sizeof err);
    }
    efsi_timestep ts;
    efsi_case cs;
    case_resolve(&c, &cs);
    timestep_choose(&cs, &ts, err, sizeof err);
  }
  free(text);
  return 0;
}
