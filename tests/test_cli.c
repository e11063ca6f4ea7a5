/* The command line: every option and both spellings of value options parse; --set keeps
 * command-line order; a bad command line is refused with one line naming the option;
 * read_text_file returns the file's bytes (at most 1 MiB) or names the file and the reason;
 * --status, --discard-newer and their refusals. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream, mkstemp */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/run/cli.h"
#include "tests/test_support.h"

static efsi_cli o;
static char err[512];

/* Parse a NULL-terminated list of arguments after the program name. */
static int parse_args(const char *first, ...)
{
  char *argv[32] = {"efsi"};
  int argc = 1;
  va_list ap;
  va_start(ap, first);
  for (const char *a = first; a && argc < 32; a = va_arg(ap, const char *))
    argv[argc++] = (char *)a;
  va_end(ap);
  cli_free(&o);
  err[0] = '\0';
  return cli_parse(argc, argv, &o, err, sizeof err);
}

START_TEST(all_options)
{
  ck_assert_msg(parse_args("-o", "out/x", "--set", "fluid.viscosity=2", "--steps", "20",
                           "--set=time.dt=1e-3", "--restart", "r.nc", "--check", "case.ini",
                           "--set", "a.b=3", NULL) == 0, "%s", err);
  ck_assert_str_eq(o.case_file, "case.ini");
  ck_assert_str_eq(o.output_dir, "out/x");
  ck_assert_str_eq(o.restart_file, "r.nc");
  ck_assert_int_eq(o.steps, 20);
  ck_assert(o.check && !o.help && !o.version);
  ck_assert_int_eq(o.n_overrides, 3);
  ck_assert_str_eq(o.overrides[0], "fluid.viscosity=2");
  ck_assert_str_eq(o.overrides[1], "time.dt=1e-3");
  ck_assert_str_eq(o.overrides[2], "a.b=3");

  ck_assert_msg(parse_args("--steps=7", "--restart=a.nc", "c.ini", NULL) == 0, "%s", err);
  ck_assert(o.steps == 7 && strcmp(o.restart_file, "a.nc") == 0 && !o.check);

  ck_assert_msg(parse_args("c.ini", NULL) == 0, "%s", err);
  ck_assert(o.output_dir == NULL && o.restart_file == NULL && o.steps == -1 &&
            o.n_overrides == 0 && !o.check);

  ck_assert_msg(parse_args("--check", "--ranks", "100000", "--restart", "latest", "c.ini", NULL)
                == 0, "%s", err);
  ck_assert(o.check && o.plan_ranks == 100000 && strcmp(o.restart_file, "latest") == 0);
  ck_assert_msg(parse_args("c.ini", NULL) == 0 && o.plan_ranks == -1, "%s", err);

  ck_assert_msg(parse_args("--", "-odd.ini", NULL) == 0, "%s", err);
  ck_assert_str_eq(o.case_file, "-odd.ini");
}
END_TEST

START_TEST(help_and_version_need_no_case)
{
  ck_assert_int_eq(parse_args("--help", NULL), 0);
  ck_assert(o.help && o.case_file == NULL);
  ck_assert_int_eq(parse_args("-h", NULL), 0);
  ck_assert(o.help);
  ck_assert_int_eq(parse_args("--version", NULL), 0);
  ck_assert(o.version && !o.help);
  /* --status DIR alone, or with the case it compares with */
  ck_assert_int_eq(parse_args("--status", "out/x", NULL), 0);
  ck_assert(o.status_dir && strcmp(o.status_dir, "out/x") == 0 && o.case_file == NULL);
  ck_assert_int_eq(parse_args("--status=out/x", "case.ini", "--set", "time.steps=9", NULL), 0);
  ck_assert(strcmp(o.status_dir, "out/x") == 0 && strcmp(o.case_file, "case.ini") == 0);
  ck_assert_int_eq(parse_args("--restart", "latest", "--discard-newer", "case.ini", NULL), 0);
  ck_assert(o.discard_newer);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  cli_usage(mem);
  fclose(mem);
  const char *options[] = {"-o DIR", "--set", "--steps N", "--restart FILE", "--restart latest",
                           "--ranks N", "--check", "--discard-newer", "--status DIR",
                           "SECTION.KEY= removes", "--help", "--version"};
  for (size_t m = 0; m < sizeof options / sizeof options[0]; m++)
    ck_assert_msg(strstr(text, options[m]), "%s", options[m]);
  free(text);
}
END_TEST

typedef struct {
  const char *args[6];        /* NULL-terminated unless all six are used */
  const char *message;    /* the error message starts with this */
} bad_line;

static const bad_line bad_lines[] = {
  {{NULL}, "missing case file (usage: efsi [options] CASE.ini)"},
  {{"--check", NULL}, "missing case file"},
  {{"c.ini", "-o", NULL}, "-o: missing value"},
  {{"c.ini", "--set", NULL}, "--set: missing value"},
  {{"c.ini", "--restart", NULL}, "--restart: missing value"},
  {{"c.ini", "--steps", NULL}, "--steps: missing value"},
  {{"c.ini", "--steps", "x", NULL}, "--steps: expected a positive integer, got \"x\""},
  {{"c.ini", "--steps=5x", NULL}, "--steps: expected a positive integer, got \"5x\""},
  {{"c.ini", "--steps", "0", NULL}, "--steps: expected a positive integer, got \"0\""},
  {{"c.ini", "--steps", "-3", NULL}, "--steps: expected a positive integer, got \"-3\""},
  {{"c.ini", "--steps", "99999999999999999999", NULL}, "--steps: expected a positive"},
  {{"c.ini", "--steps=", NULL}, "--steps: expected a positive integer, got \"\""},
  {{"c.ini", "--frobnicate", NULL}, "unknown option \"--frobnicate\""},
  {{"c.ini", "-x", NULL}, "unknown option \"-x\""},
  {{"c.ini", "--checks", NULL}, "unknown option \"--checks\""},
  {{"a.ini", "b.ini", NULL}, "more than one case file: \"a.ini\" and \"b.ini\""},
  {{"c.ini", "-o", "a", "-o", "b", NULL}, "-o: given twice"},
  {{"c.ini", "-o", "", NULL}, "-o: expected a directory, got \"\""},
  {{"c.ini", "--ranks", "4", NULL}, "--ranks: only with --check"},
  {{"c.ini", "--check", "--ranks", "0", NULL}, "--ranks: expected a positive integer"},
  {{"c.ini", "--check", "--ranks=3000000000", NULL}, "--ranks: expected a positive integer that fits an int"},
  {{"c.ini", "--discard-newer", NULL}, "--discard-newer: only with --restart"},
  {{"--status", NULL}, "--status: missing value"},
  {{"--status", "d", "--check", "c.ini", NULL}, "--status DIR: alone, or with the case file"},
  {{"--status", "d", "-o", "e", NULL}, "--status DIR: alone"},
};

START_TEST(bad_command_lines)
{
  const bad_line *b = &bad_lines[_i];
  ck_assert_msg(parse_args(b->args[0], b->args[1], b->args[2], b->args[3], b->args[4],
                           b->args[5], NULL) != 0, "case %d accepted", _i);
  ck_assert_msg(strncmp(err, b->message, strlen(b->message)) == 0,
                "case %d: \"%s\", wanted \"%s...\"", _i, err, b->message);
  ck_assert(strchr(err, '\n') == NULL);
}
END_TEST

START_TEST(whole_file_reading)
{
  char path[] = "/tmp/efsi_test_cli_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  /* longer than the reader's first buffer, so the growth path is taken */
  size_t n = 10000;
  char *want = malloc(n + 1);
  for (size_t m = 0; m < n; m++) want[m] = m % 61 == 60 ? '\n' : (char)('a' + m % 26);
  want[n] = '\0';
  ck_assert_int_eq(write(fd, want, n), (ssize_t)n);
  close(fd);
  char *text = NULL;
  ck_assert_msg(read_text_file(path, &text, err, sizeof err) == 0, "%s", err);
  ck_assert_str_eq(text, want);
  free(text);

  /* a case file of more than CLI_MAX_CASE_BYTES is refused, naming the limit */
  fd = open(path, O_WRONLY | O_TRUNC);
  char *big = calloc(1, CLI_MAX_CASE_BYTES + 2);
  memset(big, '#', CLI_MAX_CASE_BYTES + 1);
  ck_assert_int_eq(write(fd, big, CLI_MAX_CASE_BYTES + 1), CLI_MAX_CASE_BYTES + 1);
  close(fd);
  free(big);
  ck_assert_int_ne(read_text_file(path, &text, err, sizeof err), 0);
  ck_assert_ptr_null(text);
  ck_assert_msg(strstr(err, path) && strstr(err, "larger than 1024 KiB"), "%s", err);
  memset(want, '#', 4096);   /* one at the limit is read */
  fd = open(path, O_WRONLY | O_TRUNC);
  for (long left = CLI_MAX_CASE_BYTES; left > 0; left -= 4096)
    ck_assert_int_eq(write(fd, want, 4096), 4096);
  close(fd);
  ck_assert_msg(read_text_file(path, &text, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(strlen(text), CLI_MAX_CASE_BYTES);
  free(text);

  fd = open(path, O_WRONLY | O_TRUNC);
  ck_assert_int_eq(write(fd, "a\0b", 3), 3);
  close(fd);
  ck_assert_int_ne(read_text_file(path, &text, err, sizeof err), 0);
  ck_assert_ptr_null(text);
  ck_assert_msg(strstr(err, path) && strstr(err, "NUL"), "%s", err);
  unlink(path);

  ck_assert_int_ne(read_text_file(path, &text, err, sizeof err), 0);
  ck_assert_msg(strstr(err, path) && strstr(err, strerror(ENOENT)), "%s", err);
  ck_assert_int_ne(read_text_file("/", &text, err, sizeof err), 0);
  ck_assert_msg(strstr(err, "\"/\"") && strstr(err, strerror(EISDIR)), "%s", err);
  free(want);
}
END_TEST

static Suite *cli_suite(void)
{
  Suite *s = suite_create("cli");
  const TTest *tests[] = {all_options, help_and_version_need_no_case, whole_file_reading, NULL};
  TCase *tc = test_case_add(s, "command line", 0, tests);
  tcase_add_loop_test(tc, bad_command_lines, 0, (int)(sizeof bad_lines / sizeof bad_lines[0]));
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, cli_suite); }
