/* bodies.csv on rank 0, with the contract of diagnostics.csv: %.17g numbers (exact round
 * trip of a double), continued after a restart by csv.h (the step is the third column). */
#include "io/bodies_csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "io/csv.h"
#include "base/errors.h"

const char bodies_csv_header[] = "id,kind,step,time,x,y,z,u,v,w";

enum { STEP_COLUMN = 2 };              /* 0-based: id, kind, step */

static FILE *csv;
static char csv_path[EFSI_PATH_LEN];

int bodies_csv_open(const char *dir, long restart_step, char *err, size_t errlen)
{
  int n = snprintf(csv_path, sizeof csv_path, "%s/bodies.csv", dir);
  if (n < 0 || (size_t)n >= sizeof csv_path) {
    snprintf(err, errlen, "output directory name too long: %s", dir);
    return 1;
  }
  return csv_open(csv_path, bodies_csv_header, STEP_COLUMN, restart_step, &csv, err, errlen);
}

void bodies_csv_write(long step, double time, long n, const efsi_tracer *sorted,
                      const char *const *kind_names)
{
  int failed = 0;
  for (long m = 0; m < n && !failed; m++) {
    const efsi_tracer *p = &sorted[m];
    failed = fprintf(csv, "%ld,%s,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", p->id,
                     kind_names[p->kind], step, time, p->x[0], p->x[1], p->x[2], p->v[0],
                     p->v[1], p->v[2]) < 0;
  }
  if (failed || fflush(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
}

void bodies_csv_close(void)
{
  if (csv && fclose(csv) != 0)
    efsi_abort(EFSI_EXIT_RUNTIME, "cannot write %s: %s", csv_path, strerror(errno));
  csv = NULL;
}
