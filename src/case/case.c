/* A case resolved once (see case.h). */
#include "src/case/case.h"

#include <string.h>

#include "base/device.h"
#include "decomp/halo.h"
#include "src/case/outputs.h"
#include "src/case/solver_arrays.h"
#include "src/case/state.h"
#include "stencils/kernel_list.h"
#include "verify/poisson_cuda.h"
#include "verify/poisson_fft.h"

void case_resolve(const efsi_config *c, efsi_case *cs)
{
  memset(cs, 0, sizeof *cs);
  cs->config = c;
  materials_of_case(c, &cs->materials);
  cs->nmat = cs->materials.count;
  cs->wall_material = materials_index(&cs->materials, "wall");
  cs->rbc_material = materials_index(&cs->materials, "rbc");
  cs->periodic[0] = 1;
  cs->periodic[1] = c->boundary[1] == BOUNDARY_PERIODIC;
  cs->periodic[2] = c->boundary[2] == BOUNDARY_PERIODIC;
  cs->gpu = c->device == DEVICE_GPU;
  cs->smac = c->pressure_method == PRESSURE_SMAC;
  cs->thinc = cs->nmat > 0 && c->phi_transport == PHI_THINC;
  cs->state_arrays = state_array_count(&cs->materials);
  cs->exchanged_arrays = state_exchanged_count(&cs->materials);
  cs->viscosity_contrast = cs->materials.viscosity_contrast;
  for (int m = 0; m < cs->nmat; m++) cs->membranes += cs->materials.model[m] == MATERIAL_MODEL_MEMBRANE;
  cs->solver_arrays = solver_array_count(cs->nmat, cs->viscosity_contrast, cs->membranes);
  cs->average_arrays = outputs_average_arrays(c, &cs->materials);
}

efsi_memory case_memory(const efsi_case *cs, const efsi_grid *g, const efsi_decomp *d)
{
  const int ranks = d->size, root = d->rank == 0;
  efsi_memory m;
  memset(&m, 0, sizeof m);
  const double field = (double)g->size * sizeof(double);
  m.state = cs->state_arrays * field;
  m.solver = cs->solver_arrays * field;
  size_t work, staging;
  kernel_scratch_bytes(g, cs->gpu, &work, &staging);
  m.scratch = (double)work;
  m.halo = (double)halo_bytes(g, d, cs->exchanged_arrays);
  if (cs->smac)
    m.smac = cs->gpu ? poisson_cuda_device_bytes(g, ranks, root)
                     : poisson_host_bytes(g);
  m.averages = cs->average_arrays * field;
  const double used = m.state + m.solver + m.scratch + m.halo + m.smac + m.averages;
  if (cs->gpu) {
    m.device = used;
    m.host = m.state + m.averages + (double)staging
           + (cs->smac ? poisson_cuda_host_bytes(g, ranks, root) : 0);
  } else {
    m.host = used;
  }
  return m;
}
