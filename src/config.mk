# The case file and the command line (included from src/local.mk's Makefile.am).
libefsi_a_SOURCES += src/config.c src/config_keys.c src/config_keys.h src/config_check.c \
  src/config_check.h src/cli.c src/cli.h
dist_doc_DATA += docs/case-file.md

check_PROGRAMS += tests/test_config tests/test_cli
TESTS += tests/test_config tests/test_cli
tests_test_config_SOURCES = tests/test_config.c
tests_test_config_CPPFLAGS = $(AM_CPPFLAGS) -DEFSI_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_test_config_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_config_LDADD = $(TEST_LIBS)
tests_test_cli_SOURCES = tests/test_cli.c
tests_test_cli_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_cli_LDADD = $(TEST_LIBS)
