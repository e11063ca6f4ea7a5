# Whole-solver verification of the solid (docs/verification-solid.md): the oscillating
# Couette flow over a neo-Hookean layer, bodies carried and spun by the flow, and
# decomposition invariance with bodies and tracers.
check_PROGRAMS += tests/test_solid_couette tests/test_solid_motion tests/test_solid_mpi
TESTS += tests/test_solid_couette tests/test_solid_motion tests/test_solid_mpi

tests_test_solid_couette_SOURCES = tests/test_solid_couette.c
tests_test_solid_couette_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_solid_couette_LDADD = $(FLUID_TEST_LIBS)

tests_test_solid_motion_SOURCES = tests/test_solid_motion.c
tests_test_solid_motion_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_solid_motion_LDADD = $(FLUID_TEST_LIBS)

tests_test_solid_mpi_SOURCES = tests/test_solid_mpi.c
tests_test_solid_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_solid_mpi_LDADD = $(FLUID_TEST_LIBS)

# The 32/64/128 convergence study of the solid Couette problem (too slow for make check).
EXTRA_DIST += verify/solid-couette
dist_doc_DATA += docs/verification-solid.md
