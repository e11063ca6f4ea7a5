/* Early stops (see stop.h).  The handler writes one sig_atomic_t, which is all an
 * async-signal-safe handler may do here: a second signal during the restart write changes
 * nothing but that record, so the write completes. */
#define _POSIX_C_SOURCE 200809L

#include "src/run/stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t received;
static struct timespec started;

static void record(int sig) { received = sig; }

void stop_install(void)
{
  clock_gettime(CLOCK_MONOTONIC, &started);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = record;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;   /* system calls in progress (a write) go on */
  const int signals[] = {SIGTERM, SIGINT, SIGUSR1};
  for (size_t k = 0; k < sizeof signals / sizeof signals[0]; k++)
    sigaction(signals[k], &sa, NULL);
  signal(SIGXFSZ, SIG_IGN);
}

int stop_signal(void) { return received; }

const char *stop_signal_name(int sig)
{
  static char other[32];
  if (sig == SIGTERM) return "SIGTERM";
  if (sig == SIGINT) return "SIGINT";
  if (sig == SIGUSR1) return "SIGUSR1";
  snprintf(other, sizeof other, "signal %d", sig);
  return other;
}

double stop_elapsed(void)
{
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - started.tv_sec) + 1e-9 * (double)(now.tv_nsec - started.tv_nsec);
}

int stop_wall_due(const efsi_wall_budget *b, double elapsed)
{
  if (b->limit <= 0) return 0;
  return elapsed + 2.0 * (b->longest_step + b->write_seconds) >= b->limit;
}

double stop_write_estimate(double bytes) { return bytes / 50e6 + 0.05; }

void stop_format_duration(double seconds, char *buf, size_t len)
{
  if (!(seconds >= 0) || seconds > 1e9) {
    snprintf(buf, len, "?");
    return;
  }
  const long s = (long)(seconds + 0.5);
  snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}
