/* One error convention for the whole code: every MPI, NetCDF and FFTW return code goes
 * through a checking macro that names the call, file and line and stops the run. */
#ifndef EFSI_ERRORS_H
#define EFSI_ERRORS_H

#include <mpi.h>

#define EFSI_EXIT_RUNTIME 1      /* a library call failed or the run blew up */
#define EFSI_EXIT_INPUT 2        /* bad input: case file, command line, restart file */

/* C11's _Noreturn, spelled for the CUDA sources (C++) that include this header too. */
#ifdef __cplusplus
#define EFSI_NORETURN [[noreturn]]
extern "C" {
#else
#define EFSI_NORETURN _Noreturn
#endif

/* Print "efsi: error: <message>" on this rank and abort all ranks with the status. */
EFSI_NORETURN void efsi_abort(int status, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));

#define MPI_CHECK(call) do { int rc_ = (call); \
  if (rc_ != MPI_SUCCESS) efsi_mpi_failed(rc_, #call, __FILE__, __LINE__); } while (0)
EFSI_NORETURN void efsi_mpi_failed(int rc, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif
