# verify/: the SMAC path's exact FFT / tridiagonal Poisson solver (docs/smac.md), and the
# verification, benchmark and study scripts (not run by make check).
libefsi_a_SOURCES += verify/poisson_fft.c verify/poisson_fft.h verify/poisson_cuda.c \
  verify/poisson_cuda.h
GPU_CU += verify/cuda/poisson.cu

# verify/efsi-machine measures the FP64 peak and the triad bandwidth verify/bench compares
# with (docs/performance.md), built with the configured CFLAGS (--enable-native for the
# full vector width).
noinst_PROGRAMS += verify/efsi-machine
verify_efsi_machine_SOURCES = verify/machine.c
verify_efsi_machine_LDADD = -lm

dist_noinst_SCRIPTS += verify/bench verify/bench-fluid verify/scaling verify/vectorisation \
  verify/core-speeds verify/study-acm-smac verify/solid-couette verify/same-results \
  verify/roscoe verify/hematocrit-study verify/compare-restarts verify/gpu-check \
  verify/sphere-shear verify/scaling-model verify/weak-scaling-study verify/seeding-bench
dist_noinst_DATA += verify/roscoe_theory.py verify/hematocrit_analysis.py
