# Test programs: name them tests/test_<what>, ending in _mpi to run on 1, 2, 4 and 8 ranks.
# Each directory's local.mk adds its own tests; this file holds the shared pieces.
noinst_LIBRARIES += tests/libmpicheck.a
tests_libmpicheck_a_SOURCES = tests/mpi_check.c tests/mpi_check.h
tests_libmpicheck_a_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LIBS = tests/libmpicheck.a $(EFSI_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/run-test tests/environment.sh

check_PROGRAMS += tests/test_grid
TESTS += tests/test_grid
tests_test_grid_SOURCES = tests/test_grid.c
tests_test_grid_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_grid_LDADD = $(TEST_LIBS)

# Whole-solver tests share tests/fluid_case.c.
noinst_LIBRARIES += tests/libfluidcase.a
tests_libfluidcase_a_SOURCES = tests/fluid_case.c tests/fluid_case.h
FLUID_TEST_LIBS = tests/libfluidcase.a $(TEST_LIBS)

check_PROGRAMS += tests/test_invariance_mpi
TESTS += tests/test_invariance_mpi
tests_test_invariance_mpi_SOURCES = tests/test_invariance_mpi.c
tests_test_invariance_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_invariance_mpi_LDADD = $(FLUID_TEST_LIBS)

# Whole-program tests of the efsi binary.
TESTS += tests/test_restart_run.sh tests/test_input_errors.sh tests/test_blowup.sh
EXTRA_DIST += tests/test_restart_run.sh tests/test_input_errors.sh tests/test_blowup.sh

check_PROGRAMS += tests/test_fig2_small
TESTS += tests/test_fig2_small
tests_test_fig2_small_SOURCES = tests/test_fig2_small.c
tests_test_fig2_small_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_fig2_small_LDADD = $(FLUID_TEST_LIBS)

check_PROGRAMS += tests/test_timestep
TESTS += tests/test_timestep
tests_test_timestep_SOURCES = tests/test_timestep.c
tests_test_timestep_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_timestep_LDADD = $(FLUID_TEST_LIBS)

check_PROGRAMS += tests/test_solid_shear
TESTS += tests/test_solid_shear
tests_test_solid_shear_SOURCES = tests/test_solid_shear.c
tests_test_solid_shear_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_solid_shear_LDADD = $(FLUID_TEST_LIBS)
