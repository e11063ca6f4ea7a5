# io/: NetCDF fields and restart files of named arrays, voxel files, diagnostics.csv and
# bodies.csv, the output directory (docs/output.md).
libefsi_a_SOURCES += io/nc_check.h io/snapshot.h io/output.c io/output.h io/debug.c io/debug.h io/fields.c \
  io/fields.h io/restart.c io/restart.h io/diagnostics.c io/diagnostics.h io/voxels.c \
  io/voxels.h io/csv.c io/csv.h io/bodies_csv.c io/bodies_csv.h io/bodies_nc.c io/bodies_nc.h io/history.c io/history.h \
  io/run_record.c io/run_record.h
