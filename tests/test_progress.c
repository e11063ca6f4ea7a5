/* The progress line and the wall-clock budget of an early stop (src/run/progress.h,
 * src/run/stop.h): the steps left to time.steps or time.end_time, the line's fields, the time
 * left, and when time.wall_limit asks for the stop. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "src/run/progress.h"
#include "src/run/stop.h"
#include "tests/test_support.h"

START_TEST(steps_left_to_the_nearer_end)
{
  efsi_progress_values v = {.step = 100, .steps = 1000, .time = 1.0, .end_time = -1, .dt = 0.01};
  ck_assert(progress_steps_left(&v) == 900);
  v.end_time = 2.0;   /* 100 steps of dt to t = 2, before step 1000 */
  ck_assert(progress_steps_left(&v) == 100);
  v.steps = -1;
  v.end_time = 50.0;
  ck_assert(progress_steps_left(&v) == 4900);
  v.time = 60.0;      /* past the end: none */
  ck_assert(progress_steps_left(&v) == 0);
}
END_TEST

START_TEST(line_reads_as_documented)
{
  const efsi_progress_values v = {.step = 1200, .steps = 12000, .time = 36, .end_time = -1,
                                  .dt = 0.03, .mcups = 8.412, .div_rms = 1.21e-5,
                                  .mach = 0.031, .seconds_per_step = 0.11875};
  char line[256];
  progress_line(&v, line, sizeof line);
  ck_assert_str_eq(line, "step 1200/12000  t 36  dt 0.03  8.412 Mcell-updates/s  div_rms "
                         "1.21e-05  mach 0.031  left 0:21:23");
  const efsi_progress_values unknown = {.step = 5, .steps = -1, .time = 1, .end_time = -1,
                                        .dt = 0.5, .mcups = 0, .div_rms = -1, .mach = -1,
                                        .seconds_per_step = -1};
  progress_line(&unknown, line, sizeof line);
  ck_assert_str_eq(line, "step 5  t 1  dt 0.5  0 Mcell-updates/s  div_rms -  mach -  left ?");
}
END_TEST

START_TEST(wall_limit_keeps_a_margin)
{
  char text[32];
  stop_format_duration(5400, text, sizeof text);
  ck_assert_str_eq(text, "1:30:00");
  stop_format_duration(360000, text, sizeof text);
  ck_assert_str_eq(text, "100:00:00");
  const efsi_wall_budget none = {.limit = 0, .longest_step = 1, .write_seconds = 1};
  ck_assert(!stop_wall_due(&none, 1e9));
  /* 2 x (step 1 s + write 4 s) = 10 s of margin before the limit of 100 s */
  const efsi_wall_budget b = {.limit = 100, .longest_step = 1, .write_seconds = 4};
  ck_assert(!stop_wall_due(&b, 89.9));
  ck_assert(stop_wall_due(&b, 90.0));
  ck_assert(fabs(stop_write_estimate(50e6) - 1.05) < 1e-12);
}
END_TEST

static Suite *progress_suite(void)
{
  Suite *s = suite_create("progress");
  const TTest *tests[] = {steps_left_to_the_nearer_end, line_reads_as_documented,
                          wall_limit_keeps_a_margin, NULL};
  test_case_add(s, "progress and early stops", 0, tests);
  return s;
}

int main(int argc, char **argv) { return mpi_check_main(argc, argv, progress_suite); }
