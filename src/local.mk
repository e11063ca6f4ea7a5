libefsi_a_SOURCES += src/state.c src/state.h src/materials.c src/materials.h \
  src/config.h src/timers.c src/timers.h src/timestep.c src/timestep.h \
  src/solver.c src/solver.h src/init.c src/init.h \
  src/diagnose.c src/diagnose.h src/report.c src/report.h src/run.c src/run.h \
  src/solid.c src/solid.h src/init_solid.c src/init_solid.h
