# decomp/ pencil transposes (block <-> full lines along one direction) and their test.
libefsi_a_SOURCES += decomp/transpose.c decomp/transpose.h

check_PROGRAMS += tests/test_transpose_mpi
TESTS += tests/test_transpose_mpi
tests_test_transpose_mpi_SOURCES = tests/test_transpose_mpi.c
tests_test_transpose_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_transpose_mpi_LDADD = $(TEST_LIBS)
