/* The CPU's layer moves (see layers.h): OpenMP threads over the rows of a box. */
#include "decomp/layers.h"

#include "base/errors.h"

#include <stdlib.h>

/* Rows of a box: (f, k, j) over nf fields and the box's k and j ranges. */
#define FOR_BOX_ROWS(nf, lo, hi, f, k, j)                                                 \
  _Pragma("omp parallel for collapse(3) schedule(static)")                                \
  for (int f = 0; f < (nf); f++)                                                          \
    for (int k = (lo)[2]; k < (hi)[2]; k++)                                               \
      for (int j = (lo)[1]; j < (hi)[1]; j++)

static void pack(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
                 const int hi[3], double *buf, int to_buffer)
{
  const int ni = hi[0] - lo[0], nj = hi[1] - lo[1], nk = hi[2] - lo[2];
  FOR_BOX_ROWS(nf, lo, hi, f, k, j) {
    double *restrict row = fields[f] + grid_index(g, lo[0], j, k);
    double *restrict packed = buf + (((size_t)f * nk + (k - lo[2])) * nj + (j - lo[1])) * ni;
    if (to_buffer)
      for (int i = 0; i < ni; i++) packed[i] = row[i];
    else
      for (int i = 0; i < ni; i++) row[i] = packed[i];
  }
}

static void copy(const efsi_grid *g, double *const *fields, int nf, const int lo[3],
                 const int hi[3], ptrdiff_t shift, int messages)
{
  (void)messages;
  const int ni = hi[0] - lo[0];
  FOR_BOX_ROWS(nf, lo, hi, f, k, j) {
    double *restrict row = fields[f] + grid_index(g, lo[0], j, k);
    const double *restrict from = row + shift;
    for (int i = 0; i < ni; i++) row[i] = from[i];
  }
}

static void reflect(const efsi_grid *g, const efsi_reflection *layers, int n)
{
  for (int l = 0; l < n; l++) {
    const efsi_reflection *r = &layers[l];
    const int ni = r->hi[0] - r->lo[0];
    const double sign = r->sign, offset = r->offset;
    FOR_BOX_ROWS(1, r->lo, r->hi, m, k, j) {
      double *restrict row = r->f + grid_index(g, r->lo[0], j, k);
      const double *restrict from = row + r->shift;
      if (sign != 0.0)
        for (int i = 0; i < ni; i++) row[i] = offset + sign * from[i];
      else
        for (int i = 0; i < ni; i++) row[i] = offset;
    }
  }
}

static void zero(const efsi_grid *g, double *f, const int lo[3], const int hi[3])
{
  const int ni = hi[0] - lo[0];
  FOR_BOX_ROWS(1, lo, hi, m, k, j) {
    double *restrict row = f + grid_index(g, lo[0], j, k);
    for (int i = 0; i < ni; i++) row[i] = 0.0;
  }
}

static double *alloc(size_t n) { return efsi_malloc((n > 0 ? n : 1) * sizeof(double), "halo buffers"); }

static void release(double *buf) { free(buf); }

static void nothing(void) {}

static void begin(int host_messages, int messages) { (void)host_messages, (void)messages; }

static void end(int messages) { (void)messages; }

const efsi_layer_ops efsi_cpu_layers = {
  .name = "cpu",
  .pack = pack,
  .copy = copy,
  .reflect = reflect,
  .zero = zero,
  .alloc = alloc,
  .release = release,
  .begin = begin,
  .sent = nothing,
  .end = end,
};
