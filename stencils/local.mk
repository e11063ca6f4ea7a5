# files of stencils/ (sources, tests, data)
libefsi_a_SOURCES += stencils/location.h stencils/weno5.c stencils/weno5.h \
  stencils/operators.c stencils/operators.h stencils/stress.c stencils/stress.h \
  stencils/velocity_gradient.c stencils/velocity_gradient.h \
  stencils/projection.c stencils/projection.h stencils/reductions.c stencils/reductions.h \
  stencils/interpolate.c stencils/interpolate.h stencils/kernels.c stencils/kernels.h \
  stencils/loop.h stencils/initial.c stencils/initial.h

check_PROGRAMS += tests/test_weno5 tests/test_operators tests/test_stress
TESTS += tests/test_weno5 tests/test_operators tests/test_stress
tests_test_weno5_SOURCES = tests/test_weno5.c
tests_test_weno5_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_weno5_LDADD = $(TEST_LIBS)
tests_test_operators_SOURCES = tests/test_operators.c
tests_test_operators_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_operators_LDADD = $(TEST_LIBS)
tests_test_stress_SOURCES = tests/test_stress.c
tests_test_stress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_stress_LDADD = $(TEST_LIBS)

dist_doc_DATA += docs/discretisation.md
