# User documentation, installed into $(docdir).
dist_doc_DATA += docs/architecture.md docs/building.md docs/method.md docs/discretisation.md \
  docs/solid.md docs/bodies.md docs/tracers.md docs/parallel.md docs/smac.md docs/case-file.md \
  docs/output.md docs/verification.md docs/verification-solid.md docs/sphere-shear-theory.md \
  docs/performance.md docs/performance-gpu.md docs/scaling.md docs/studies.md docs/gpu.md \
  docs/scripts.md docs/membrane.md
# The hematocrit sweeps' figures and tables (docs/studies.md)
EXTRA_DIST += docs/hematocrit-gpu/cell_free_layer.png \
  docs/hematocrit-gpu/cell_free_layer_timeseries.csv \
  docs/hematocrit-gpu/cell_free_layer_timeseries.png docs/hematocrit-gpu/fahraeus.png \
  docs/hematocrit-gpu/fig7_cells_3d.png \
  docs/hematocrit-gpu/fig8_platelet_radial_position.png \
  docs/hematocrit-gpu/fig9_platelet_rms_radial_velocity.csv \
  docs/hematocrit-gpu/fig9_platelet_rms_radial_velocity.png \
  docs/hematocrit-gpu/radial_profiles.csv \
  docs/hematocrit-gpu/summary-12-strains-weno5.csv docs/hematocrit-gpu/summary.csv \
  docs/hematocrit-gpu/timeseries.png docs/hematocrit-gpu/viscosity.png \
  docs/hematocrit-gpu-long/cell_free_layer_timeseries.csv \
  docs/hematocrit-gpu-long/cell_free_layer_timeseries.png \
  docs/hematocrit-gpu-long/fahraeus.png \
  docs/hematocrit-gpu-long/fig8_platelet_radial_position.png \
  docs/hematocrit-gpu-long/fig9_platelet_rms_radial_velocity.csv \
  docs/hematocrit-gpu-long/fig9_platelet_rms_radial_velocity.png \
  docs/hematocrit-gpu-long/summary-30-strains.csv \
  docs/hematocrit-gpu-long/summary-last-10-strains.csv docs/hematocrit-gpu-long/summary.csv \
  docs/hematocrit-gpu-long/timeseries.png docs/hematocrit-gpu-long/viscosity.png
EXTRA_DIST += .ci/run
# The Fig. 2 study's reduced run: its report, tables and figures (docs/studies.md)
EXTRA_DIST += docs/acm-smac/report.md docs/acm-smac/initial_state.json \
  docs/acm-smac/body_comparison.csv docs/acm-smac/body_comparison.png \
  docs/acm-smac/flow_comparison.csv docs/acm-smac/flow_comparison.png \
  docs/acm-smac/snapshot_differences.csv docs/acm-smac/convergence.csv \
  docs/acm-smac/convergence.png docs/acm-smac/fig2.png
# The Fig. 2 study at full size, to t = 0.64 ms on one H200 (docs/studies.md)
EXTRA_DIST += docs/acm-smac-128/report.md docs/acm-smac-128/initial_state.json \
  docs/acm-smac-128/body_comparison.csv docs/acm-smac-128/body_comparison.png \
  docs/acm-smac-128/flow_comparison.csv docs/acm-smac-128/flow_comparison.png \
  docs/acm-smac-128/snapshot_differences.csv docs/acm-smac-128/convergence.csv \
  docs/acm-smac-128/convergence.png docs/acm-smac-128/fig2.png \
  docs/acm-smac-128/fig2_state.npz
# The capsule in shear (docs/membrane.md)
EXTRA_DIST += docs/membrane/capsule_shear.png docs/membrane/capsule_shear.csv \
  docs/membrane/capsule_reference.png docs/membrane/capsule_reference.csv \
  docs/membrane/rbc_stretch.png docs/membrane/rbc_stretch.csv
# Past measurements, a line each (docs/performance.md), installed beside the pages that link them
docresultsdir = $(docdir)/results
dist_docresults_DATA = docs/results/performance-log.md
