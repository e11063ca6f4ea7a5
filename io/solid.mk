libefsi_a_SOURCES += io/voxels.c io/voxels.h io/csv.c io/csv.h
