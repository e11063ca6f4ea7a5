/* bodies.csv on rank 0, with the contract of diagnostics.csv: %.17g numbers (exact round
 * trip of a double), continued after a restart by csv.h (the step is the third column). */
#include "io/bodies_csv.h"

#include <stdio.h>

const char bodies_csv_header[] = "id,kind,step,time,x,y,z,u,v,w";

int bodies_csv_open(efsi_csv *t, const char *dir, long restart_step, char *err, size_t errlen)
{
  return csv_open(t, dir, "bodies.csv", bodies_csv_header, BODIES_CSV_STEP_COLUMN,
                  restart_step, err, errlen);
}

void bodies_csv_write(efsi_csv *t, long step, double time, long n, const efsi_tracer *sorted,
                      const char *const *kind_names)
{
  int printed = 0;
  for (long m = 0; m < n && printed >= 0; m++) {
    const efsi_tracer *p = &sorted[m];
    printed = fprintf(t->file, "%ld,%s,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", p->id,
                      kind_names[p->kind], step, time, p->x[0], p->x[1], p->x[2], p->v[0],
                      p->v[1], p->v[2]);
  }
  csv_row_done(t, printed);
}
