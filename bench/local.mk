# bench/: the benchmarks and machine probes (docs/performance.md, docs/scaling.md,
# docs/performance-gpu.md); not tests: they print figures.
dist_noinst_SCRIPTS += bench/bench bench/bench-fluid bench/scaling bench/scaling-model \
  bench/vectorisation bench/core-speeds bench/seeding-bench bench/constant-lines bench/busy-cores

# bench/efsi-machine measures the FP64 peak and the triad bandwidth bench/bench compares
# with (docs/performance.md), built with the configured CFLAGS (--enable-native for the
# full vector width).
noinst_PROGRAMS += bench/efsi-machine
bench_efsi_machine_SOURCES = bench/machine.c
bench_efsi_machine_LDADD = -lm

# bench/efsi-gpu-bandwidth: the GPU's ceilings for bench/bench --device gpu, built by nvcc
# in the CUDA build.
EXTRA_DIST += bench/cuda/bandwidth.cu
if CUDA
noinst_SCRIPTS = bench/efsi-gpu-bandwidth
bench/efsi-gpu-bandwidth: $(top_srcdir)/bench/cuda/bandwidth.cu
	@$(MKDIR_P) $(@D)
	$(NVCC) $(CUDA_FLAGS) -o $@ $(top_srcdir)/bench/cuda/bandwidth.cu
CLEANFILES += bench/efsi-gpu-bandwidth
endif
