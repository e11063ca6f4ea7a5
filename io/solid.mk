libefsi_a_SOURCES += io/voxels.c io/voxels.h
