# The test suite (make check).  A Check program is tests/test_<what>.c, built from that one
# file with the shared test support (tests/test_support.c) and libefsi; a name ending in
# _mpi runs on 1, 2, 4 and 8 ranks (tests/run-test).  A script test is tests/test_<what>.sh.
# Adding a test is adding its name to one of the two lists below.
CHECK_TESTS = tests/test_grid tests/test_weno5 tests/test_operators tests/test_reduce tests/test_stress \
  tests/test_oldroyd tests/test_solid_stress tests/test_shapes tests/test_config \
  tests/test_cli tests/test_diagnostics tests/test_poiseuille tests/test_couette \
  tests/test_taylor_green tests/test_timestep tests/test_fig2_small tests/test_solid_shear \
  tests/test_sphere_shear tests/test_solid_couette tests/test_solid_motion tests/test_decomp_mpi tests/test_halo_mpi \
  tests/test_boundary_mpi tests/test_reduce_mpi tests/test_transpose_mpi \
  tests/test_poisson_mpi tests/test_fields_mpi tests/test_restart_mpi tests/test_bodies_mpi \
  tests/test_tracers_mpi tests/test_body_shapes_mpi tests/test_invariance_mpi tests/test_smac_mpi tests/test_solid_mpi \
  tests/test_packing_mpi tests/test_lumen_mpi tests/test_memory_mpi tests/test_solver_fields \
  tests/test_gpu_kernels tests/test_progress tests/test_fuzz_config tests/test_fuzz_restart tests/test_fuzz_voxels \
  tests/test_materials tests/test_material_dummy tests/test_membrane
SCRIPT_TESTS = tests/test_restart_run.sh tests/test_input_errors.sh tests/test_seeding_check.sh \
  tests/test_blowup.sh tests/test_netcdf_python.sh tests/test_roscoe.sh \
  tests/test_sphere_shear_tool.sh tests/test_capsule_shear.sh tests/test_membrane_run.sh \
  tests/test_rbc_stretch_tool.sh \
  tests/test_hematocrit_study.sh \
  tests/test_gpu_run.sh tests/test_gpu_nccl.sh tests/test_cluster.sh tests/check-layers.sh \
  tests/check-citations.sh tests/check-shell.sh tests/test_render.sh tests/test_render_layout.sh tests/test_readme.sh \
  tests/test_history.sh tests/test_cluster_chain.sh tests/test_efsi_output.sh tests/test_output_bytes.sh \
  tests/test_weak_scaling_study.sh tests/test_fig2_study.sh \
  tests/test_study_signals.sh tests/test_study_short_of_end.sh tests/test_study_help.sh \
  tests/test_study_profiles.sh tests/test_run_damaged_restart.sh tests/test_folder_claim.sh \
  tests/test_run_failures.sh

check_PROGRAMS += $(CHECK_TESTS)
TESTS += $(CHECK_TESTS) $(SCRIPT_TESTS)
EXTRA_DIST += $(SCRIPT_TESTS) tests/run-test tests/environment.sh tests/lib.sh

# What every test program links: the shared support, libefsi, Check.
check_LIBRARIES = tests/libtestsupport.a
tests_libtestsupport_a_SOURCES = tests/test_support.c tests/test_support.h \
  tests/fluid_case.c tests/fluid_case.h
LDADD = tests/libtestsupport.a $(EFSI_LIBS) $(CHECK_LIBS)
tests_test_config_CPPFLAGS = $(AM_CPPFLAGS) -DEFSI_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_test_materials_CPPFLAGS = $(AM_CPPFLAGS) -DEFSI_TOP_SRCDIR='"$(abs_top_srcdir)"'

# A sample fields file for the check that ncdump, netCDF4-python and xarray read it.
check_PROGRAMS += tests/write_sample_fields
# The bodies output at a million bodies (docs/output.md, "bodies.nc"): built, not run.
check_PROGRAMS += tests/bench_bodies

# The fuzz targets' inputs replayed without libFuzzer (tests/fuzz/replay.c): the seed corpus
# and every finding of tests/fuzz/run.sh, kept in tests/fuzz/regressions/.
FUZZ_REPLAY_FLAGS = $(AM_CPPFLAGS) -DEFSI_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_test_fuzz_config_SOURCES = tests/fuzz/fuzz_config.c tests/fuzz/replay.c
tests_test_fuzz_config_CPPFLAGS = $(FUZZ_REPLAY_FLAGS) -DFUZZ_TARGET='"config"'
tests_test_fuzz_restart_SOURCES = tests/fuzz/fuzz_restart.c tests/fuzz/replay.c
tests_test_fuzz_restart_CPPFLAGS = $(FUZZ_REPLAY_FLAGS) -DFUZZ_TARGET='"restart"'
tests_test_fuzz_voxels_SOURCES = tests/fuzz/fuzz_voxels.c tests/fuzz/replay.c
tests_test_fuzz_voxels_CPPFLAGS = $(FUZZ_REPLAY_FLAGS) -DFUZZ_TARGET='"voxels"'
EXTRA_DIST += tests/fuzz/build.sh tests/fuzz/run.sh tests/fuzz/corpus tests/fuzz/regressions
