/* Checking of NetCDF return codes.  NC_CHECK is for files efsi writes itself: a failure is
 * a runtime error that stops every rank.  NC_TRY is for reading files a user hands us
 * (restart, voxels): a failure becomes a one-line message naming the file and what was
 * being read, and the calling function returns 1 so the caller can exit with status 2. */
#ifndef EFSI_NC_CHECK_H
#define EFSI_NC_CHECK_H

#include <netcdf.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/errors.h"

#define NC_CHECK(call) do { int nc_rc_ = (call); \
  if (nc_rc_ != NC_NOERR) efsi_abort(EFSI_EXIT_RUNTIME, "%s:%d: %s failed: %s", \
                                     __FILE__, __LINE__, #call, nc_strerror(nc_rc_)); } while (0)

/* err <- the formatted one-line message (cut to errlen); returns 1, so that a reader can
 * write  return nc_message(err, errlen, "%s: ...", file, ...);  */
static inline __attribute__((format(printf, 3, 4)))
int nc_message(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return 1;
}

/* On failure: err <- "<file>: <what>: <NetCDF message>", and return 1 from the caller. */
#define NC_TRY(call, file, what, err, errlen) do { int nc_rc_ = (call); \
  if (nc_rc_ != NC_NOERR) \
    return nc_message((err), (errlen), "%s: %s: %s", (file), (what), nc_strerror(nc_rc_)); \
  } while (0)


#endif
