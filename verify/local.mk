# verify/: the SMAC path's exact FFT / tridiagonal Poisson solver (docs/smac.md), and the
# scripts that verify efsi against theory, against itself (two binaries, two devices) and
# against a restart (not run by make check; docs/verification.md).
libefsi_a_SOURCES += verify/poisson_fft.c verify/poisson_fft.h verify/poisson_cuda.c \
  verify/poisson_cuda.h
GPU_CU += verify/cuda/poisson.cu

dist_noinst_SCRIPTS += verify/solid-couette verify/same-results verify/roscoe \
  verify/compare-restarts verify/gpu-check verify/sphere-shear verify/capsule-figure \
  verify/capsule-reference verify/membrane-band verify/rbc-stretch
dist_noinst_DATA += verify/roscoe_theory.py verify/capsule_nh_reference.csv \
  verify/rbc_stretch_reference.csv
