# src/: the program (docs/architecture.md): driver, case file, solver state, the time step,
# seeding, tracers.
libefsi_a_SOURCES += src/state.c src/state.h src/materials.c src/materials.h \
  src/config.h src/config.c src/config_keys.c src/config_keys.h src/config_check.c \
  src/config_check.h src/cli.c src/cli.h src/timers.c src/timers.h src/timestep.c \
  src/timestep.h src/solver.c src/solver.h src/init.c src/init.h src/diagnose.c \
  src/diagnose.h src/report.c src/report.h src/run.c src/run.h src/solid.c src/solid.h \
  src/init_solid.c src/init_solid.h src/random.c src/random.h src/seeding.c src/seeding.h \
  src/packing.c src/packing.h src/packing_ranks.c src/packing_ranks.h src/tracers.c \
  src/tracers.h src/body_shapes.c src/body_shapes.h src/outputs.c src/outputs.h \
  src/backend.c src/backend.h src/stop.c src/stop.h \
  src/progress.c src/progress.h src/case.c src/case.h src/exchange.c src/exchange.h \
  src/plan_comm.c src/plan_comm.h src/history.c src/history.h src/plan.c src/plan.h
