# files of verify/: the SMAC path's exact FFT / tridiagonal Poisson solver, its test and notes.
libefsi_a_SOURCES += verify/poisson_fft.c verify/poisson_fft.h

check_PROGRAMS += tests/test_poisson_mpi
TESTS += tests/test_poisson_mpi
tests_test_poisson_mpi_SOURCES = tests/test_poisson_mpi.c
tests_test_poisson_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_poisson_mpi_LDADD = $(TEST_LIBS)

dist_doc_DATA += docs/smac.md
