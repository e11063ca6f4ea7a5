/* The CPU's kernel table (stencils/kernels.h), from the registry: every entry is the
 * function of its name in the stencils/ sources; and what the registry says of each kernel
 * (its family, counts and agreement). */
#include "stencils/kernels.h"

/* The CPU's acm_sums is complete when it returns. */
static void sums_wait(efsi_scratch *scratch) { (void)scratch; }

#define EFSI_CPU_ENTRY(name, ...) .name = name,
const efsi_kernels efsi_cpu_kernels = {
  .name = "cpu",
  EFSI_KERNEL_LIST(EFSI_CPU_ENTRY)
  .sums_wait = sums_wait,
};
#undef EFSI_CPU_ENTRY

#define EFSI_KERNEL_INFO(name, family, flops, arrays, agreement, type, parameters) \
  [KERNEL_ID_##name] = {#name, family, agreement},
const efsi_kernel_info efsi_kernel_infos[KERNEL_COUNT] = {EFSI_KERNEL_LIST(EFSI_KERNEL_INFO)};
#undef EFSI_KERNEL_INFO

double kernel_flops(int id, int nmat)
{
  switch (id) {
#define EFSI_KERNEL_FLOPS(name, family, flops, ...) \
  case KERNEL_ID_##name: return (flops);
    EFSI_KERNEL_LIST(EFSI_KERNEL_FLOPS)
#undef EFSI_KERNEL_FLOPS
  }
  (void)nmat;
  return 0.0;
}

double kernel_arrays(int id, int nmat)
{
  switch (id) {
#define EFSI_KERNEL_ARRAYS(name, family, flops, arrays, ...) \
  case KERNEL_ID_##name: return (arrays);
    EFSI_KERNEL_LIST(EFSI_KERNEL_ARRAYS)
#undef EFSI_KERNEL_ARRAYS
  }
  (void)nmat;
  return 0.0;
}

void kernel_scratch_bytes(const efsi_grid *g, int gpu, size_t *work, size_t *staging)
{
  _Static_assert((int)SUM_COUNT >= (int)FLOW_COUNT && (int)SUM_COUNT >= (int)MOMENT_COUNT
                 && (int)SUM_COUNT >= (int)LUMEN_COUNT, "the ACM's pairs are the most partials");
  /* a plane's pairs of the reduction form (stencils/reduce.h; the ACM's are the most), the
   * GPU's ACM sums a block's pairs */
  const size_t planes = (size_t)g->n[2] * 2 * SUM_COUNT * sizeof(double);
  const size_t blocks = acm_gpu_blocks(g) * 2 * SUM_COUNT * sizeof(double);
  *work = gpu && blocks > planes ? blocks : planes;
  /* what comes back to the host: the planes' pairs (the ACM's chunks are fewer) */
  *staging = gpu ? planes : 0;
}
