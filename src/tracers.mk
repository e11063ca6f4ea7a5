# Body tracers (src/tracers.c) and their output file bodies.csv (io/bodies_csv.c).
libefsi_a_SOURCES += src/tracers.c src/tracers.h io/bodies_csv.c io/bodies_csv.h

check_PROGRAMS += tests/test_tracers_mpi
TESTS += tests/test_tracers_mpi
tests_test_tracers_mpi_SOURCES = tests/test_tracers_mpi.c
tests_test_tracers_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_tracers_mpi_LDADD = $(TEST_LIBS)

dist_doc_DATA += docs/tracers.md
