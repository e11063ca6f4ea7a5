/* The key schema of the case file: one row per key (section, name, kind, field of
 * efsi_config, list length, allowed range, the words it accepts, the allowed values as the
 * messages say them).  Shared by the parser (config.c) and the cross-key checks
 * (config_check.c); docs/case-file.md documents every row. */
#ifndef EFSI_CONFIG_KEYS_H
#define EFSI_CONFIG_KEYS_H

#include <stddef.h>

typedef enum {
  KIND_NAME,       /* a label: letters, digits and . _ - + */
  KIND_INTS,       /* count ints >= min */
  KIND_DOUBLES,    /* count finite numbers >= min (> min when open) and <= max; with
                      words, one of them, stored as its index (a material's law) */
  KIND_LONG,       /* one integer >= min */
  KIND_SEED,       /* one unsigned integer */
  KIND_WORD,       /* one of words[]; stores its index */
  KIND_BOOL,       /* true/false, yes/no, 1/0 */
  KIND_DT,         /* auto or a number > 0 */
  KIND_PATH,       /* a file name (any characters but white space at the ends) */
  KIND_LIST,       /* 1..count numbers in range (the voxels' parameters, one a label;
                      their count in voxels_material.given) */
  KIND_DURATION,   /* seconds > 0, or HH:MM:SS */
  KIND_TEXT,       /* words separated by spaces, checked by config_check (the output
                      keys' field lists); at most CONFIG_TEXT_LEN - 1 characters */
  KIND_NUMBERS     /* 1..count numbers in range, stored as efsi_numbers (the planes of
                      the slices output) */
} key_kind;

typedef struct {
  const char *section, *name;
  key_kind kind;
  size_t offset;              /* of the field in efsi_config */
  int count;                  /* list length (KIND_INTS, KIND_DOUBLES) */
  double min, max;            /* allowed range */
  int min_open;               /* 1: value > min; 0: value >= min */
  const char *const *words;   /* KIND_WORD (and KIND_DOUBLES with words): NULL-terminated,
                                 index = stored value */
  const char *expected;       /* the allowed values, as the messages say them */
} key_spec;

extern const key_spec config_keys[];
extern const int config_key_count;

/* What replaced section.name, a key efsi no longer reads (one line for the refusal), or
 * NULL. */
const char *config_key_retired(const char *section, const char *name);

/* Index of section.name in config_keys, -1 when it is not a key. */
int config_key_find(const char *section, const char *name);

#endif
