/* The command line: efsi [options] CASE.ini.  Parsing only (no MPI, no files opened);
 * the driver applies the result: overrides go to config_parse, --steps replaces
 * time.steps, -o defaults to out/<case name>. */
#ifndef EFSI_CLI_H
#define EFSI_CLI_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *case_file;       /* the one positional argument */
  const char *output_dir;      /* -o DIR; NULL when absent */
  const char *restart_file;    /* --restart FILE, latest or latest-or-new; NULL when absent */
  const char **overrides;      /* --set section.key=value, in command-line order */
  int n_overrides;
  long steps;                  /* --steps N (> 0); -1 when absent */
  long plan_ranks;             /* --ranks N with --check (> 0); -1 when absent */
  long plan_gpus_per_node;     /* --gpus-per-node G with --ranks (> 0); -1 when absent */
  int check, help, version;    /* --check, --help / -h, --version */
} efsi_cli;

/* Parse argv (the strings are referenced, not copied).  Returns nonzero with a one-line
 * message in err on a bad command line; a case file is required unless --help or
 * --version is given.  Call cli_free afterwards in either case. */
int cli_parse(int argc, char **argv, efsi_cli *o, char *err, size_t errlen);

/* The option summary printed by --help. */
void cli_usage(FILE *out);

void cli_free(efsi_cli *o);

/* Read the whole file at path into a NUL-terminated malloc'd *text.  Returns nonzero with
 * a message naming the file and the system's reason in err. */
int read_text_file(const char *path, char **text, char *err, size_t errlen);

#endif
