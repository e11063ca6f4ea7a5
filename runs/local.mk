# Shipped input cases.
dist_noinst_DATA += runs/quickstart.ini runs/poiseuille.ini runs/poiseuille-flowrate.ini \
  runs/couette.ini runs/couette-oscillating.ini runs/taylor-green.ini runs/duct.ini
