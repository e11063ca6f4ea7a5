# io/: NetCDF fields and restart files, diagnostics.csv, the output directory.
libefsi_a_SOURCES += io/nc_check.h io/output.c io/output.h io/fields.c io/fields.h \
  io/restart.c io/restart.h io/diagnostics.c io/diagnostics.h

check_PROGRAMS += tests/test_fields_mpi
TESTS += tests/test_fields_mpi
tests_test_fields_mpi_SOURCES = tests/test_fields_mpi.c
tests_test_fields_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_fields_mpi_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_restart_mpi
TESTS += tests/test_restart_mpi
tests_test_restart_mpi_SOURCES = tests/test_restart_mpi.c
tests_test_restart_mpi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_restart_mpi_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_diagnostics
TESTS += tests/test_diagnostics
tests_test_diagnostics_SOURCES = tests/test_diagnostics.c
tests_test_diagnostics_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_diagnostics_LDADD = $(TEST_LIBS)

# A sample fields file for the check that ncdump, netCDF4-python and xarray read it.
check_PROGRAMS += tests/write_sample_fields
tests_write_sample_fields_SOURCES = tests/write_sample_fields.c
tests_write_sample_fields_LDADD = $(EFSI_LIBS)
TESTS += tests/test_netcdf_python.sh
EXTRA_DIST += tests/test_netcdf_python.sh

dist_doc_DATA += docs/output.md
