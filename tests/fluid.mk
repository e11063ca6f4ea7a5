# Whole-solver verification tests (docs/verification.md): exact solutions of the fluid
# solver (Poiseuille, Couette, Taylor-Green) and the SMAC path against the ACM.
check_PROGRAMS += tests/test_poiseuille tests/test_couette tests/test_taylor_green tests/test_smac_mpi
TESTS += tests/test_poiseuille tests/test_couette tests/test_taylor_green tests/test_smac_mpi

tests_test_poiseuille_SOURCES = tests/test_poiseuille.c
tests_test_poiseuille_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_poiseuille_LDADD = $(FLUID_TEST_LIBS)

tests_test_couette_SOURCES = tests/test_couette.c
tests_test_couette_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_couette_LDADD = $(FLUID_TEST_LIBS)

tests_test_taylor_green_SOURCES = tests/test_taylor_green.c
tests_test_taylor_green_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_taylor_green_LDADD = $(FLUID_TEST_LIBS)

tests_test_smac_mpi_SOURCES = tests/test_smac_mpi.c
tests_test_smac_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_smac_mpi_LDADD = $(FLUID_TEST_LIBS)

# ACM against SMAC for several dt with the built efsi (prints a table; not run by make check)
EXTRA_DIST += verify/study-acm-smac
dist_doc_DATA += docs/verification.md
