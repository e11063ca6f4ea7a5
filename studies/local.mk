# studies/: the study workflows, each one command that writes its cases, runs efsi and
# analyses what the runs wrote (docs/studies.md).
dist_noinst_SCRIPTS += studies/study-acm-smac studies/hematocrit-study \
  studies/weak-scaling-study studies/fig2-study studies/fig2_analysis.py
dist_noinst_DATA += studies/hematocrit_analysis.py
