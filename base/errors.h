/* One failure convention for the whole code (PETSc's PetscCall is the model):
 *
 *  1. A library's return code (MPI, NetCDF, FFTW, CUDA, NCCL) goes through that library's
 *     checking macro (MPI_CHECK here, NC_CHECK in io/nc_check.h, CUDA_CHECK in
 *     base/cuda/cuda.cuh, NCCL_CHECK in decomp/cuda/nccl.cuh), which names the call, file
 *     and line and stops every rank with EFSI_EXIT_RUNTIME.
 *  2. Running out of memory stops the run the same way: host memory comes from efsi_malloc
 *     and efsi_calloc (below), device memory from device_alloc (base/device.h); neither
 *     returns NULL, and no caller tests for it.  Whether a run fits is decided before it
 *     allocates (efsi --check and the start-up checks), so this is a fault, not input.
 *  3. What can fail for a reason of the input (case file, command line, restart or voxel
 *     file, a plan that does not fit, an output directory that is refused) returns int: 0
 *     on success, nonzero with one line in (err, errlen) that names the file, key and
 *     limit.  Callers pass it up unchanged; src/run/main.c prints it once, on rank 0, and exits
 *     with EFSI_EXIT_INPUT.  A collective function returns the same verdict on every rank.
 *  4. A run that goes wrong while it runs stops through src/run/run.c, which keeps the last
 *     good restart file: EFSI_EXIT_BLOWUP for non-finite values or a left stable range,
 *     EFSI_EXIT_RUNTIME for a write that fails; EFSI_EXIT_STOPPED when it was asked to
 *     stop (signals, time.wall_limit), continuable with --restart latest.
 * The exit statuses are these five and 0 (docs/building.md, "Exit status"). */
#ifndef EFSI_ERRORS_H
#define EFSI_ERRORS_H

#include <mpi.h>
#include <stddef.h>

#define EFSI_EXIT_RUNTIME 1      /* a library call failed or the run blew up */
#define EFSI_EXIT_INPUT 2        /* bad input: case file, command line, restart file */
#define EFSI_EXIT_BLOWUP 3       /* non-finite values or the stable range left */
#define EFSI_EXIT_STOPPED 4      /* asked to stop (signal, time.wall_limit): continuable */

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

/* Host memory that is never NULL (rule 2): `what` names the allocation in the message. */
void *efsi_malloc(size_t bytes, const char *what);
void *efsi_calloc(size_t count, size_t size, const char *what);
void *efsi_realloc(void *p, size_t bytes, const char *what);

#define MPI_CHECK(call) do { int rc_ = (call); \
  if (rc_ != MPI_SUCCESS) efsi_mpi_failed(rc_, #call, __FILE__, __LINE__); } while (0)
EFSI_NORETURN void efsi_mpi_failed(int rc, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif
