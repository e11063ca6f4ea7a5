/* Allocation of the solver state: every field on the same aligned grid layout. */
#include "state.h"

#include <string.h>

int state_alloc(efsi_state *s, const efsi_grid *g, int nmat, const char *const *names)
{
  memset(s, 0, sizeof *s);
  s->grid = *g;
  if (nmat < 0 || nmat > EFSI_MAX_MATERIALS) return 1;
  s->nmat = nmat;
  s->u = field_alloc(g);
  s->v = field_alloc(g);
  s->w = field_alloc(g);
  s->p = field_alloc(g);
  int failed = !s->u || !s->v || !s->w || !s->p;
  for (int m = 0; m < nmat; m++) {
    strncpy(s->material[m], names[m], EFSI_MATERIAL_NAME - 1);
    s->phi[m] = field_alloc(g);
    failed |= !s->phi[m];
  }
  if (nmat > 0) {
    for (int c = 0; c < 6; c++) {
      s->b[c] = field_alloc(g);
      failed |= !s->b[c];
    }
    if (!failed)
      for (int c = BXX; c <= BZZ; c++)
        for (size_t n = 0; n < g->size; n++) s->b[c][n] = 1.0;
  }
  if (failed) state_free(s);
  return failed;
}

int state_alloc_case(efsi_state *s, const efsi_grid *g, const efsi_config *c)
{
  char names[EFSI_MAX_MATERIALS][32];
  double modulus[EFSI_MAX_MATERIALS];
  const int nmat = config_materials(c, names, modulus);
  const char *list[EFSI_MAX_MATERIALS];
  for (int m = 0; m < nmat; m++) list[m] = names[m];
  return state_alloc(s, g, nmat, list);
}

void state_free(efsi_state *s)
{
  field_free(s->u);
  field_free(s->v);
  field_free(s->w);
  field_free(s->p);
  for (int m = 0; m < s->nmat; m++) field_free(s->phi[m]);
  for (int c = 0; c < 6; c++) field_free(s->b[c]);
  memset(s, 0, sizeof *s);
}
