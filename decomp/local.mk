# files of decomp/ (sources, tests, data)
libefsi_a_SOURCES += decomp/decomp.c decomp/decomp.h decomp/halo.c decomp/halo.h \
  decomp/boundary.c decomp/boundary.h decomp/reduce.c decomp/reduce.h

check_PROGRAMS += tests/test_decomp_mpi
TESTS += tests/test_decomp_mpi
tests_test_decomp_mpi_SOURCES = tests/test_decomp_mpi.c
tests_test_decomp_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_decomp_mpi_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_halo_mpi
TESTS += tests/test_halo_mpi
tests_test_halo_mpi_SOURCES = tests/test_halo_mpi.c
tests_test_halo_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_halo_mpi_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_boundary_mpi
TESTS += tests/test_boundary_mpi
tests_test_boundary_mpi_SOURCES = tests/test_boundary_mpi.c
tests_test_boundary_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_boundary_mpi_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_reduce_mpi
TESTS += tests/test_reduce_mpi
tests_test_reduce_mpi_SOURCES = tests/test_reduce_mpi.c
tests_test_reduce_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_reduce_mpi_LDADD = $(TEST_LIBS)

dist_doc_DATA += docs/parallel.md
