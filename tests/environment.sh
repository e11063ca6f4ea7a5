# Sourced by `make check` before every test: what Open MPI needs to run the suite as root
# and with more ranks than cores (CI and the 2-core machines), set here rather than relied
# on from the caller's environment.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mpi_yield_when_idle=1
export PMIX_MCA_pcompress_base_silence_warning=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# a sanitizer report fails the test (the --enable-debug build): UBSan stops at the first
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-600}
export EFSI_MPIRUN=${EFSI_MPIRUN:-mpirun}
