# User documentation, installed into $(docdir).
dist_doc_DATA += docs/architecture.md docs/building.md docs/method.md docs/discretisation.md \
  docs/solid.md docs/bodies.md docs/tracers.md docs/parallel.md docs/smac.md docs/case-file.md \
  docs/output.md docs/verification.md docs/verification-solid.md docs/sphere-shear-theory.md \
  docs/performance.md docs/performance-gpu.md docs/scaling.md docs/studies.md docs/gpu.md
EXTRA_DIST += docs/hematocrit-gpu/summary.csv docs/hematocrit-gpu/viscosity.png \
  docs/hematocrit-gpu/fahraeus.png docs/hematocrit-gpu/cell_free_layer.png \
  docs/hematocrit-gpu/timeseries.png docs/hematocrit-gpu/fig7_cells_3d.png \
  docs/hematocrit-gpu/fig8_platelet_radial_position.png \
  docs/hematocrit-gpu/fig9_platelet_rms_radial_velocity.png
EXTRA_DIST += .ci/run
