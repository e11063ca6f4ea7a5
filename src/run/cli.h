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
  int discard_newer;           /* --discard-newer (with --restart) */
  const char *status_dir;      /* --status DIR; NULL when absent */
} efsi_cli;

/* Parse argv (the strings are referenced, not copied).  Returns nonzero with a one-line
 * message in err on a bad command line; a case file is required unless --help, --version
 * or --status is given.  Call cli_free afterwards in either case. */
int cli_parse(int argc, char **argv, efsi_cli *o, char *err, size_t errlen);

/* The option summary printed by --help. */
void cli_usage(FILE *out);

void cli_free(efsi_cli *o);

/* The largest case file efsi reads (bytes): a case file is a page of keys. */
#define CLI_MAX_CASE_BYTES (1L << 20)

/* Read the whole file at path (at most CLI_MAX_CASE_BYTES) into a NUL-terminated malloc'd
 * *text.  Returns nonzero with a message naming the file and the system's reason (or the
 * limit) in err. */
int read_text_file(const char *path, char **text, char *err, size_t errlen);

#endif
