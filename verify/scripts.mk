# Verification and benchmark scripts (not run by make check).
dist_noinst_SCRIPTS += verify/bench-fluid verify/scaling verify/vectorisation verify/core-speeds
