# Body shapes, seeding and initial volume fractions (included from Makefile.am).
libefsi_a_SOURCES += stencils/shapes.c stencils/shapes.h stencils/draw.c stencils/draw.h \
  src/random.c src/random.h src/seeding.c src/seeding.h
dist_doc_DATA += docs/bodies.md

check_PROGRAMS += tests/test_shapes tests/test_bodies_mpi
TESTS += tests/test_shapes tests/test_bodies_mpi
tests_test_shapes_SOURCES = tests/test_shapes.c
tests_test_shapes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_shapes_LDADD = $(TEST_LIBS)
tests_test_bodies_mpi_SOURCES = tests/test_bodies_mpi.c
tests_test_bodies_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_bodies_mpi_LDADD = $(TEST_LIBS)
