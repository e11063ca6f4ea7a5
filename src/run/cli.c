/* The command line of efsi (docs/building.md, "Running") read by a plain loop over argv: each
 * option either stands alone (--check) or takes the next argument or its own "=VALUE"
 * (--set=a.b=1); the first argument that is not an option is the case file; "--" ends
 * the options.  Also the whole-file reader the driver uses for the case file. */
#include "src/run/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"

void cli_usage(FILE *out)
{
  fputs("usage: efsi [options] CASE.ini\n"
        "       mpirun -np N efsi [options] CASE.ini\n"
        "       efsi --status DIR [CASE.ini]\n"
        "\n"
        "options:\n"
        "  -o DIR                   output directory (default: out/<case.name>)\n"
        "  --set SECTION.KEY=VALUE  override a key of the case file (repeatable);\n"
        "                           --set SECTION.KEY= removes it (its default again)\n"
        "  --steps N                stop at step N (replaces time.steps; N > 0)\n"
        "  --restart FILE           continue from a restart_NNNNNNNN.nc file\n"
        "  --restart latest         continue from the newest restart file in the output\n"
        "                           directory (latest-or-new: start afresh when there is none)\n"
        "  --discard-newer          with --restart FILE older than the folder's newest output:\n"
        "                           move the later files aside and cut the tables at its step\n"
        "  --check                  validate the case, print the steps, the estimated wall\n"
        "                           time, the memory and disk it needs, and exit\n"
        "  --ranks N                with --check: plan a run on N ranks without starting them\n"
        "  --gpus-per-node G        with --ranks: the GPUs of a node, for the halo paths of a\n"
        "                           GPU run (default: the GPUs visible here, or 4)\n"
        "  --status DIR [CASE.ini]  what the output directory DIR holds, as JSON: its run,\n"
        "                           how far it got, finished or not, the restart file to go on\n"
        "  -h, --help               print this help and exit\n"
        "  --version                print the version and exit\n"
        "\n"
        "The case file's keys are documented in docs/case-file.md.  Exit status: 0 on\n"
        "success, 1 when the run fails, 2 for bad input (command line, case file, restart),\n"
        "3 when the run blew up, 4 when it stopped early with a restart file (a signal,\n"
        "time.wall_limit).\n",
        out);
}

void cli_free(efsi_cli *o)
{
  free(o->overrides);
  o->overrides = NULL;
  o->n_overrides = 0;
}

/* The value of option name at argv[*i]: its own "=VALUE" or the next argument. */
static const char *option_value(int argc, char **argv, int *i, const char *name,
                                const char *what, char *err, size_t errlen)
{
  const char *arg = argv[*i];
  size_t n = strlen(name);
  if (arg[n] == '=') return arg + n + 1;
  if (*i + 1 >= argc) {
    snprintf(err, errlen, "%s: missing value (expected %s)", name, what);
    return NULL;
  }
  return argv[++*i];
}

/* arg is the option name alone or the name followed by "=VALUE". */
static int is_option(const char *arg, const char *name, int takes_value)
{
  size_t n = strlen(name);
  return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || (takes_value && arg[n] == '='));
}

/* Store a value-taking option, refusing an empty value and a second use. */
static int set_once(const char **slot, const char *value, const char *name, const char *what,
                    char *err, size_t errlen)
{
  if (!value) return 1;
  if (*value == '\0') {
    snprintf(err, errlen, "%s: expected %s, got \"\"", name, what);
    return 1;
  }
  if (*slot) {
    snprintf(err, errlen, "%s: given twice (\"%s\" and \"%s\")", name, *slot, value);
    return 1;
  }
  *slot = value;
  return 0;
}

static int parse_count(const char *name, const char *value, long max, long *count, char *err,
                       size_t errlen)
{
  char *end = NULL;
  errno = 0;
  long n = value[0] >= '0' && value[0] <= '9' ? strtol(value, &end, 10) : 0;
  if (n <= 0 || n > max || *end != '\0' || errno != 0) {
    snprintf(err, errlen, "%s: expected a positive integer%s, got \"%s\"", name,
             max < LONG_MAX ? " that fits an int" : "", value);
    return 1;
  }
  *count = n;
  return 0;
}

static int parse_arguments(int argc, char **argv, efsi_cli *o, char *err, size_t errlen)
{
  const char *steps_text = NULL, *ranks_text = NULL, *gpus_text = NULL;
  int options_done = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (options_done || arg[0] != '-') {
      if (o->case_file) {
        snprintf(err, errlen, "more than one case file: \"%s\" and \"%s\" (usage: efsi "
                 "[options] CASE.ini)", o->case_file, arg);
        return 1;
      }
      o->case_file = arg;
    } else if (strcmp(arg, "--") == 0) {
      options_done = 1;
    } else if (strcmp(arg, "-o") == 0) {
      if (set_once(&o->output_dir, option_value(argc, argv, &i, "-o", "a directory", err,
                                                errlen), "-o", "a directory", err, errlen))
        return 1;
    } else if (is_option(arg, "--restart", 1)) {
      if (set_once(&o->restart_file, option_value(argc, argv, &i, "--restart",
                                                  "a restart file", err, errlen),
                   "--restart", "a restart file", err, errlen))
        return 1;
    } else if (is_option(arg, "--steps", 1)) {
      if (set_once(&steps_text, option_value(argc, argv, &i, "--steps",
                                             "a positive integer", err, errlen),
                   "--steps", "a positive integer", err, errlen) ||
          parse_count("--steps", steps_text, LONG_MAX, &o->steps, err, errlen))
        return 1;
    } else if (is_option(arg, "--ranks", 1)) {
      if (set_once(&ranks_text, option_value(argc, argv, &i, "--ranks",
                                             "a positive integer", err, errlen),
                   "--ranks", "a positive integer", err, errlen) ||
          parse_count("--ranks", ranks_text, INT_MAX, &o->plan_ranks, err, errlen))
        return 1;
    } else if (is_option(arg, "--gpus-per-node", 1)) {
      if (set_once(&gpus_text, option_value(argc, argv, &i, "--gpus-per-node",
                                            "a positive integer", err, errlen),
                   "--gpus-per-node", "a positive integer", err, errlen) ||
          parse_count("--gpus-per-node", gpus_text, INT_MAX, &o->plan_gpus_per_node, err,
                      errlen))
        return 1;
    } else if (is_option(arg, "--set", 1)) {
      const char *value = option_value(argc, argv, &i, "--set", "section.key=value", err,
                                       errlen);
      if (!value) return 1;
      o->overrides[o->n_overrides++] = value;
    } else if (is_option(arg, "--status", 1)) {
      if (set_once(&o->status_dir, option_value(argc, argv, &i, "--status", "a directory",
                                                err, errlen), "--status", "a directory", err,
                   errlen))
        return 1;
    } else if (strcmp(arg, "--discard-newer") == 0) {
      o->discard_newer = 1;
    } else if (strcmp(arg, "--check") == 0) {
      o->check = 1;
    } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      o->help = 1;
    } else if (strcmp(arg, "--version") == 0) {
      o->version = 1;
    } else {
      snprintf(err, errlen, "unknown option \"%s\" (efsi --help lists the options)", arg);
      return 1;
    }
  }
  if (o->plan_ranks > 0 && !o->check) {
    snprintf(err, errlen, "--ranks: only with --check (a run has the ranks mpirun gives it)");
    return 1;
  }
  if (o->plan_gpus_per_node > 0 && o->plan_ranks <= 0) {
    snprintf(err, errlen, "--gpus-per-node: only with --check --ranks N (a run asks its nodes)");
    return 1;
  }
  if (o->discard_newer && !o->restart_file) {
    snprintf(err, errlen, "--discard-newer: only with --restart (it discards what the output "
             "directory holds after the restart file's step)");
    return 1;
  }
  if (o->status_dir && (o->check || o->restart_file || o->output_dir)) {
    snprintf(err, errlen, "--status DIR: alone, or with the case file whose end it compares "
             "with (efsi --status DIR [CASE.ini])");
    return 1;
  }
  if (!o->case_file && !o->help && !o->version && !o->status_dir) {
    snprintf(err, errlen, "missing case file (usage: efsi [options] CASE.ini)");
    return 1;
  }
  return 0;
}

int cli_parse(int argc, char **argv, efsi_cli *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  o->steps = -1;
  o->plan_ranks = -1;
  o->plan_gpus_per_node = -1;
  /* at most one override per argument */
  o->overrides = malloc(sizeof *o->overrides * (size_t)(argc > 0 ? argc : 1));
  if (!o->overrides) {
    snprintf(err, errlen, "out of memory reading the command line");
    return 1;
  }
  return parse_arguments(argc, argv, o, err, errlen);
}

int read_text_file(const char *path, char **text, char *err, size_t errlen)
{
  *text = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open \"%s\": %s", path, strerror(errno));
    return 1;
  }
  /* a limit, so that /dev/zero or a wrong file of gigabytes is refused, not read */
  size_t size = 0, capacity = 4096;
  char *buf = efsi_malloc(capacity, "the case file");
  for (;;) {
    size += fread(buf + size, 1, capacity - 1 - size, f);
    if (size < capacity - 1 || size > (size_t)CLI_MAX_CASE_BYTES) break;
    buf = efsi_realloc(buf, 2 * capacity, "the case file");
    capacity *= 2;
  }
  const int failed = ferror(f), reason = errno;
  fclose(f);
  if (failed || size > (size_t)CLI_MAX_CASE_BYTES) {
    if (failed) snprintf(err, errlen, "cannot read \"%s\": %s", path, strerror(reason));
    else snprintf(err, errlen, "\"%s\" is larger than %ld KiB, the most a case file may hold "
                  "(not a case file?)", path, CLI_MAX_CASE_BYTES / 1024);
    free(buf);
    return 1;
  }
  buf[size] = '\0';
  if (strlen(buf) != size) {
    snprintf(err, errlen, "cannot read \"%s\": it contains a NUL byte (not a text file)",
             path);
    free(buf);
    return 1;
  }
  *text = buf;
  return 0;
}
