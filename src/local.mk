libefsi_a_SOURCES += src/grid.c src/grid.h src/state.c src/state.h src/errors.c src/errors.h \
  src/config.h
