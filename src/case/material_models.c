/* The material models' tables, made from their declarations (material_models.h). */
#include "src/case/material_models.h"

#include <stddef.h>
#include <stdio.h>

#include "base/limits.h"

#define MODEL_ROW(id, name, formulas, meaning) [MATERIAL_MODEL_##id] = {name, formulas, meaning},
const material_model material_models[MATERIAL_MODEL_COUNT] = {MATERIAL_MODELS(MODEL_ROW)};
#undef MODEL_ROW

#define PARAMETER_ROW(unused, models, id, key, fallback, words, meaning) \
  [MATERIAL_PARAM_##id] = {models, key, meaning, fallback, words},
const material_parameter material_parameters[MATERIAL_PARAM_COUNT] = {
  MATERIAL_PARAMETERS(PARAMETER_ROW, 0)};
#undef PARAMETER_ROW

#define FAMILY_ROW(id, section, material, model, parameter, value) \
  [BODY_FAMILY_##id] = {section, material, MATERIAL_MODEL_##model, MATERIAL_PARAM_##parameter, value},
const body_family body_families[BODY_FAMILY_COUNT] = {BODY_FAMILIES(FAMILY_ROW)};
#undef FAMILY_ROW

#define FIELD_ROW(model, name, rest, long_name) {MATERIAL_MODEL_##model, name, long_name, rest},
const material_field material_fields[MATERIAL_FIELD_COUNT + 1] = {
  MATERIAL_FIELDS(FIELD_ROW) {-1, NULL, NULL, 0}};
#undef FIELD_ROW
_Static_assert(MATERIAL_FIELD_COUNT <= EFSI_MAX_OWN_FIELDS,
               "a material of any model fits the state and the output files (base/limits.h)");

#define MODEL_WORD(id, name, ...) name,
const char *const material_model_words[MATERIAL_MODEL_COUNT + 1] = {
  MATERIAL_MODELS(MODEL_WORD) NULL};
#undef MODEL_WORD

void material_model_names(unsigned models, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (int m = 0; m < MATERIAL_MODEL_COUNT && used < len; m++)
    if ((models >> m) & 1u)
      used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
                               material_models[m].name);
}

int material_own_fields(int model)
{
  int n = 0;
  for (int f = 0; f < MATERIAL_FIELD_COUNT; f++) n += material_fields[f].model == model;
  return n;
}

int models_own_fields(const int *model, int n)
{
  int fields = 0;
  for (int k = 0; k < n; k++) fields += material_own_fields(model[k]);
  return fields;
}

int material_own_field(int model, int k)
{
  for (int f = 0; f < MATERIAL_FIELD_COUNT; f++)
    if (material_fields[f].model == model && k-- == 0) return f;
  return -1;
}
