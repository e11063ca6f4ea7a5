# The solid kernels: Oldroyd rate and fluid treatment of B, solid stress (docs/solid.md).
libefsi_a_SOURCES += stencils/oldroyd.c stencils/oldroyd.h stencils/solid_stress.c \
  stencils/solid_stress.h

check_PROGRAMS += tests/test_oldroyd tests/test_solid_stress
TESTS += tests/test_oldroyd tests/test_solid_stress
tests_test_oldroyd_SOURCES = tests/test_oldroyd.c
tests_test_oldroyd_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_oldroyd_LDADD = $(TEST_LIBS)
tests_test_solid_stress_SOURCES = tests/test_solid_stress.c
tests_test_solid_stress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_solid_stress_LDADD = $(TEST_LIBS)

dist_doc_DATA += docs/solid.md
