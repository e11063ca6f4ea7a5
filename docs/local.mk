# User documentation, installed into $(docdir).
dist_doc_DATA += docs/architecture.md docs/building.md docs/method.md docs/discretisation.md \
  docs/solid.md docs/bodies.md docs/tracers.md docs/parallel.md docs/smac.md docs/case-file.md \
  docs/output.md docs/verification.md docs/verification-solid.md docs/sphere-shear-theory.md \
  docs/performance.md docs/performance-gpu.md docs/scaling.md docs/studies.md docs/gpu.md
EXTRA_DIST += .ci/run
