/* Test support: a whole fluid solver set up in-process from case-file text, on a chosen
 * communicator and process grid, plus gathering a field to a global array on rank 0. */
#ifndef EFSI_FLUID_CASE_H
#define EFSI_FLUID_CASE_H

#include <mpi.h>

#include "src/case/backend.h"
#include "src/case/config.h"
#include "decomp/decomp.h"
#include "src/bodies/init_solid.h"
#include "src/step/solver.h"
#include "src/case/state.h"
#include "src/step/timestep.h"

typedef struct {
  efsi_config cfg;
  efsi_case cs;              /* cfg resolved (src/case/case.h) */
  efsi_decomp decomp;
  efsi_grid grid;
  efsi_state state;          /* what the tests read and write (host memory) */
  efsi_state device;         /* its copy on the GPU, with EFSI_TEST_DEVICE=gpu */
  efsi_backend backend;      /* the CPU's, or the GPU's with EFSI_TEST_DEVICE=gpu */
  efsi_solver solver;
  efsi_timestep ts;
  efsi_case_bodies bodies;
  efsi_tracers *tracers;     /* one per body, advanced by fluid_case_steps */
} fluid_case;

/* Parse text (INI) with the overrides, build the process grid `ranks` (NULL: from the
 * text) on comm, allocate, initialise (init.flow, and the solid's bodies, vessel, voxels
 * and tracers) and fill the halos.  Aborts the test
 * program with a message on any error. */
void fluid_case_open(fluid_case *fc, MPI_Comm comm, const char *text,
                     const char *const *overrides, int n_overrides, const int *ranks);

/* fluid_case_open on MPI_COMM_WORLD of a channel of 4 x ny x 4 cubic cells between walls at
 * y = 0 and y = height, x and z periodic (a flow that depends on y only), of density rho and
 * viscosity mu, dt = auto, 1 step; then the case-file text of the printf format more, which
 * may give a section again ([boundary], [time]) to add keys to it.  Asserts that the viscous
 * limit sets dt. */
void fluid_case_open_channel(fluid_case *fc, int ny, double height, double rho, double mu,
                             const char *more, ...);

/* After the test has set fields of fc->state itself: fill its halos and wall layers (and
 * copy it to the GPU and back with EFSI_TEST_DEVICE=gpu). */
void fluid_case_refresh(fluid_case *fc);

/* Take n steps; aborts when a step reports a blow-up.  With EFSI_TEST_DEVICE=gpu the steps
 * run on the GPU, from fc->state copied there, and fc->state holds the result. */
void fluid_case_steps(fluid_case *fc, long n);

void fluid_case_close(fluid_case *fc);

/* Collective over the case's communicator: rank 0 receives the owned values of field into
 * global (Nx*Ny*Nz doubles, x fastest; may be NULL elsewhere). */
void fluid_case_gather(const fluid_case *fc, const double *field, double *global);

/* max over the owned u points (and the ranks) of |u - exact(y, time)|.  Collective. */
double fluid_case_u_error(const fluid_case *fc, double (*exact)(double y, double t));

/* The volume sum phi_m hx hy hz of material m over all cells.  Collective. */
double fluid_case_volume(const fluid_case *fc, int m);

#endif
