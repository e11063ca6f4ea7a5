/* The material models, declared once (docs/case-file.md, "Materials"; docs/architecture.md,
 * "Where new things go").  A material of a case is a body family's cells (its volume
 * fraction phi_m) with a model: a constitutive law, the law's parameters and the fields the
 * model needs besides phi_m.  From these tables come the case-file keys of every body family
 * (<family>.model and <family>.<parameter>: src/case/config_keys.c), their checks (a
 * parameter of another model, or a required one missing: src/case/config_check.c), the
 * materials of a case (src/case/materials.c), the state's arrays and so the memory that
 * efsi --check reports (src/case/state.c), the names of the fields in the output files, and
 * the rows of docs/case-file.md (tests/test_materials.c holds the page to them).
 *
 * Adding a model: a row of MATERIAL_MODELS, its rows of MATERIAL_PARAMETERS and
 * MATERIAL_FIELDS, the file of its point formulas (named in its row), and its test. */
#ifndef EFSI_MATERIAL_MODELS_H
#define EFSI_MATERIAL_MODELS_H

#include <math.h>
#include <stddef.h>

#include "stencils/membrane.h"

/* A test may add models of its own (tests/test_materials.c); efsi's build adds none. */
#ifndef EFSI_EXTRA_MATERIAL_MODELS
#define EFSI_EXTRA_MATERIAL_MODELS(X)
#define EFSI_EXTRA_MATERIAL_PARAMETERS(X, ...)
#define EFSI_EXTRA_MATERIAL_FIELDS(X)
#endif

/* X(ID, "name", "point formulas", "what it is") */
#define MATERIAL_MODELS(X)                                                                \
  X(NEO_HOOKEAN, "neo-hookean", "stencils/solid_stress.h",                                \
    "incompressible neo-Hookean solid with a viscosity: the stress "                      \
    "2 mu_m D + G phi dev(B), B advanced by the Oldroyd rate (docs/method.md)")           \
  X(FLUID, "fluid", "stencils/stress.h",                                                  \
    "Newtonian fluid carried with the body, of its own viscosity: the stress 2 mu_m D "   \
    "(docs/method.md)")                                                                   \
  X(MEMBRANE, "membrane", "stencils/membrane.h",                                          \
    "elastic membrane (Skalak or neo-Hookean law, Helfrich bending) round a fluid "      \
    "interior of its own viscosity: the stress 2 mu_m D inside, the membrane's tension "  \
    "spread over a band of its level, and its bending force (docs/membrane.md)")         \
  EFSI_EXTRA_MATERIAL_MODELS(X)

/* The models' parameters, each a number > 0 or a word of a list (stored as its index):
 * X(..., MODELS, ID, "key", default, words, "meaning"), MODELS the models that have it
 * (IN(A) | IN(B)), words NULL for a number or the NULL-terminated list of the words.  A
 * default of NAN makes the key required for a family that uses such a model;
 * MATERIAL_FLUID_VISCOSITY is the fluid's viscosity (fluid.viscosity); a family may set its
 * own default (BODY_FAMILIES).  The leading arguments (...) are passed through to X, for
 * tables made per family.  The viscosity of a material enters the stress by the mixture rule
 * mu = mu_f + sum_m (mu_m - mu_f) phi_m (docs/method.md, "The equations"). */
#define IN(model) (1u << MATERIAL_MODEL_##model)
#define MATERIAL_FLUID_VISCOSITY (-1.0)
/* a membrane's law, in the order of MEMBRANE_LAW_* (stencils/membrane.h) */
#define MEMBRANE_LAW_WORDS ((const char *const[]){"skalak", "neo-hookean", NULL})
#define MATERIAL_PARAMETERS(X, ...)                                                       \
  X(__VA_ARGS__, IN(NEO_HOOKEAN), MODULUS, "modulus", NAN, NULL, "shear modulus G")       \
  X(__VA_ARGS__, IN(NEO_HOOKEAN) | IN(FLUID) | IN(MEMBRANE), VISCOSITY, "viscosity",       \
    MATERIAL_FLUID_VISCOSITY, NULL, "viscosity mu_m")                                     \
  X(__VA_ARGS__, IN(MEMBRANE), SURFACE_MODULUS, "surface_modulus", NAN, NULL,              \
    "surface shear modulus G_s (force per length)")                                       \
  X(__VA_ARGS__, IN(MEMBRANE), LAW, "law", MEMBRANE_LAW_SKALAK, MEMBRANE_LAW_WORDS,        \
    "the membrane's law: skalak or neo-hookean")                                          \
  X(__VA_ARGS__, IN(MEMBRANE), DILATATION, "dilatation", 1.0, NULL,                        \
    "Skalak's area dilatation ratio C (area modulus G_s (1 + 2 C))")                     \
  X(__VA_ARGS__, IN(MEMBRANE), BENDING, "bending", 2e-4, NULL,                             \
    "bending modulus k_b (energy; 2e-4 = 2e-19 J, an RBC's)")                             \
  EFSI_EXTRA_MATERIAL_PARAMETERS(X, __VA_ARGS__)

/* The fields a model's material holds besides phi_m (every solid shares the state's B):
 * X(MODEL, "name", value at rest, "long name").  In the output files a field is named
 * <name>_<material>. */
#define MATERIAL_FIELDS(X)                                                                \
  X(MEMBRANE, "level", MEMBRANE_LEVEL_CAP,                                                \
    "signed distance to the membrane in its reference shape (cells, negative inside)")    \
  EFSI_EXTRA_MATERIAL_FIELDS(X)

/* The body families that name a model, in the order the state stores their materials
 * (voxels come last, with the neo-Hookean model and a modulus per label: voxels.modulus):
 * X(ID, "section", "material", default model, the family's own default of a parameter as
 * PARAMETER_ID, value, or NONE, 0).  Only RBCs have a default modulus (the paper's). */
#define BODY_FAMILIES(X)                                                                  \
  X(RBC, "rbc", "rbc", NEO_HOOKEAN, MODULUS, 2e-2)                                        \
  X(PLATELET, "platelet", "platelet", NEO_HOOKEAN, NONE, 0)                               \
  X(SPHERE, "sphere", "sphere", NEO_HOOKEAN, NONE, 0)                                     \
  X(ELLIPSOID, "ellipsoid", "ellipsoid", NEO_HOOKEAN, NONE, 0)                            \
  X(WALL, "vessel", "wall", NEO_HOOKEAN, NONE, 0)

#define MATERIAL_MODEL_ENUM(id, ...) MATERIAL_MODEL_##id,
enum { MATERIAL_MODELS(MATERIAL_MODEL_ENUM) MATERIAL_MODEL_COUNT };
#undef MATERIAL_MODEL_ENUM

#define MATERIAL_PARAMETER_ENUM(unused, models, id, ...) MATERIAL_PARAM_##id,
enum { MATERIAL_PARAM_NONE = -1, MATERIAL_PARAMETERS(MATERIAL_PARAMETER_ENUM, 0)
       MATERIAL_PARAM_COUNT };
#undef MATERIAL_PARAMETER_ENUM

#define BODY_FAMILY_ENUM(id, ...) BODY_FAMILY_##id,
enum { BODY_FAMILIES(BODY_FAMILY_ENUM) BODY_FAMILY_COUNT };
#undef BODY_FAMILY_ENUM

#define MATERIAL_FIELD_ONE(...) +1
enum { MATERIAL_FIELD_COUNT = 0 MATERIAL_FIELDS(MATERIAL_FIELD_ONE) };
#undef MATERIAL_FIELD_ONE

/* One model's row, as the tables say it. */
typedef struct {
  const char *name, *formulas, *meaning;
} material_model;

typedef struct {
  unsigned models;           /* the models that have the parameter: bit m for model m */
  const char *key, *meaning;
  double fallback;           /* the default; NAN: required; MATERIAL_FLUID_VISCOSITY */
  const char *const *words;  /* NULL: a number; else its words (the value is the index) */
} material_parameter;

typedef struct {
  int model;
  const char *name, *long_name;
  double rest;               /* its value where nothing has deformed */
} material_field;

typedef struct {
  const char *section, *material;
  int model;                 /* the default model */
  int own_parameter;         /* a parameter the family gives its own default, or -1 */
  double own_default;
} body_family;

extern const material_model material_models[MATERIAL_MODEL_COUNT];
extern const material_parameter material_parameters[MATERIAL_PARAM_COUNT];
extern const body_family body_families[BODY_FAMILY_COUNT];
/* MATERIAL_FIELD_COUNT rows, then an end row of model -1 */
extern const material_field material_fields[MATERIAL_FIELD_COUNT + 1];

/* The words of <family>.model, NULL-terminated, in model order (the stored index). */
extern const char *const material_model_words[MATERIAL_MODEL_COUNT + 1];

/* The models whose material needs a body's shape (a membrane's level is drawn from it,
 * docs/membrane.md), and the places that have one: every body family but the vessel; the
 * voxels have none.  The checks of the case file and docs/case-file.md's rows follow. */
#define MATERIAL_SHAPED_MODELS IN(MEMBRANE)
static inline int body_family_shaped(int family)
{
  return family != BODY_FAMILY_WALL;
}

/* The models a place may name: all where bodies have a shape, else those that need none. */
static inline unsigned material_models_allowed(int shaped)
{
  const unsigned all = (1u << MATERIAL_MODEL_COUNT) - 1u;
  return shaped ? all : all & ~(unsigned)MATERIAL_SHAPED_MODELS;
}

/* Whether model `model` has parameter k. */
static inline int material_has(int model, int k)
{
  return (material_parameters[k].models >> model) & 1u;
}

/* The names of the models in the mask `models`, ", " between them, into out. */
void material_model_names(unsigned models, char *out, size_t len);

/* How many fields a material of model `model` holds besides phi_m. */
int material_own_fields(int model);

/* The same summed over n materials of the models model[0..n). */
int models_own_fields(const int *model, int n);

/* Index into material_fields of the k-th own field of model `model`. */
int material_own_field(int model, int k);

#endif
