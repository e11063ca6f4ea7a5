/* Stopping a run early and cleanly (docs/building.md, "Long runs on clusters"): on the
 * signals a batch scheduler sends before its time limit (SIGTERM, SIGINT, SIGUSR1) and
 * before time.wall_limit.  The signal handler only records the signal; the run loop reads
 * the record once per step and puts its vote into the step's one reduction, so every rank
 * stops after the same step, writes a restart file and exits with EFSI_EXIT_STOPPED. */
#ifndef EFSI_STOP_H
#define EFSI_STOP_H

#include <stddef.h>

/* Install the handlers of SIGTERM, SIGINT and SIGUSR1 (record the signal, nothing else)
 * and ignore SIGXFSZ (a write past a file-size limit then fails with EFBIG and is reported
 * like a full disk).  Starts the wall clock of the run's budget. */
void stop_install(void);

/* The signal received last (0: none). */
int stop_signal(void);

/* "SIGTERM", "SIGINT", "SIGUSR1" or "signal N". */
const char *stop_signal_name(int sig);

/* Seconds since stop_install (a monotonic clock). */
double stop_elapsed(void);

/* The wall-clock budget of time.wall_limit: what the run has measured so far. */
typedef struct {
  double limit;              /* seconds since the start; 0: no limit */
  double longest_step;       /* the longest step measured on this rank */
  double write_seconds;      /* the longest restart write measured, or the estimate */
} efsi_wall_budget;

/* Would one more step, a restart write and the diagnostics, twice over, end past the
 * limit at elapsed seconds?  (The vote is cast in a step's reduction and the stop comes
 * after that step.) */
int stop_wall_due(const efsi_wall_budget *b, double elapsed);

/* The estimate of a restart write before one is measured: bytes at 50 MB/s, plus 0.05 s. */
double stop_write_estimate(double bytes);

/* "HH:MM:SS" of seconds (hours as many as needed) into buf. */
void stop_format_duration(double seconds, char *buf, size_t len);

#endif
