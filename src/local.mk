# src/: the program, in four rooms from the bottom up (docs/architecture.md, "Layers"); a
# room includes only from the rooms below it (tests/check-layers.sh).
#   case    the case file, the materials, the resolved case, the state and its outputs
#   bodies  the bodies: shapes, seeding and packing, tracers, the initial solid
#   step    the time step: solver, exchanges, the solid's transport, dt, diagnostics
#   run     the run: command line, history, planning, reports, stop and progress, main
libefsi_a_SOURCES += src/case/config.c src/case/config.h src/case/config_read.c \
  src/case/config_read.h src/case/config_keys.c src/case/config_keys.h \
  src/case/config_check.c src/case/config_check.h src/case/materials.c \
  src/case/materials.h src/case/case.c src/case/case.h src/case/backend.c \
  src/case/backend.h src/case/timers.c src/case/timers.h src/case/state.c \
  src/case/state.h src/case/init.c src/case/init.h src/case/outputs.c src/case/outputs.h \
  src/case/solver_arrays.h src/case/material_models.c src/case/material_models.h
libefsi_a_SOURCES += src/bodies/random.c src/bodies/random.h src/bodies/packing_ranks.c \
  src/bodies/packing_ranks.h src/bodies/packing.c src/bodies/packing.h \
  src/bodies/seeding.c src/bodies/seeding.h src/bodies/tracers.c src/bodies/tracers.h \
  src/bodies/body_shapes.c src/bodies/body_shapes.h src/bodies/init_solid.c \
  src/bodies/init_solid.h
libefsi_a_SOURCES += src/step/solver.c src/step/solver.h src/step/exchange.c \
  src/step/exchange.h src/step/solid.c src/step/solid.h src/step/timestep.c \
  src/step/timestep.h src/step/diagnose.c src/step/diagnose.h src/step/fields.h \
  src/step/step_context.h
libefsi_a_SOURCES += src/run/cli.c src/run/cli.h src/run/run.c src/run/run.h \
  src/run/history.c src/run/history.h src/run/plan.c src/run/plan.h src/run/plan_comm.c \
  src/run/plan_comm.h src/run/report.c src/run/report.h src/run/progress.c \
  src/run/progress.h src/run/stop.c src/run/stop.h
