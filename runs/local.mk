# Shipped input cases.
dist_noinst_DATA += runs/quickstart.ini runs/poiseuille.ini runs/poiseuille-flowrate.ini \
  runs/couette.ini runs/couette-oscillating.ini runs/taylor-green.ini runs/duct.ini \
  runs/fig2-channel.ini runs/fig2-channel-smac.ini runs/fig2-channel-64.ini \
  runs/sphere-shear.ini runs/rbc-tube.ini runs/weak-scaling-unit.ini \
  runs/solid-couette.ini runs/solid-layer.cdl runs/solid-layer.nc runs/hematocrit-study.ini \
  runs/hematocrit-gpu.ini runs/hematocrit-gpu-long.ini runs/hematocrit-cpu.ini \
  runs/weak-scaling-4096.ini runs/fig2-study.ini runs/fig2-study-64.ini
dist_noinst_SCRIPTS += runs/cluster-cpu.sh runs/cluster-gpu.sh runs/cluster-chain.sh
