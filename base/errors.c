/* Fatal-error reporting shared by every part of efsi. */
#include "base/errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void efsi_abort(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("efsi: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stderr);
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (initialised && !finalised) MPI_Abort(MPI_COMM_WORLD, status);
  exit(status);
}

void efsi_mpi_failed(int rc, const char *call, const char *file, int line)
{
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  efsi_abort(EFSI_EXIT_RUNTIME, "%s:%d: %s failed: %s", file, line, call, text);
}

void *efsi_malloc(size_t bytes, const char *what)
{
  void *p = malloc(bytes ? bytes : 1);
  if (!p) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory: %zu bytes for %s", bytes, what);
  return p;
}

void *efsi_calloc(size_t count, size_t size, const char *what)
{
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    efsi_abort(EFSI_EXIT_RUNTIME, "out of memory: %zu x %zu bytes for %s", count, size, what);
  return p;
}

void *efsi_realloc(void *p, size_t bytes, const char *what)
{
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q) efsi_abort(EFSI_EXIT_RUNTIME, "out of memory: %zu bytes for %s", bytes, what);
  return q;
}
