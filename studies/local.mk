# studies/: the study workflows, each one command that writes its cases, runs efsi and
# analyses what the runs wrote (docs/studies.md).
dist_noinst_SCRIPTS += studies/study-acm-smac studies/fig2-study studies/fig2_analysis.py
