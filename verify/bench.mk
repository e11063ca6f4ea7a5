# verify/bench: the single-node performance table (the paper's Table 1, docs/performance.md);
# verify/efsi-machine measures the FP64 peak and the triad bandwidth it is compared with.
# Built with the configured CFLAGS (--enable-native for the full vector width).
noinst_PROGRAMS += verify/efsi-machine
verify_efsi_machine_SOURCES = verify/machine.c
verify_efsi_machine_CFLAGS = $(AM_CFLAGS)
dist_noinst_SCRIPTS += verify/bench
dist_doc_DATA += docs/performance.md
