# User documentation, installed into $(docdir).
dist_doc_DATA += docs/building.md docs/method.md docs/scaling.md docs/studies.md
EXTRA_DIST += .ci/run
