#!/bin/sh
# The hematocrit analysis's radial profiles and its colours (studies/hematocrit_analysis.py):
#   - on the cross-sections of runs/hematocrit-cpu.ini (24 cells of 2/3 um across, a 12 um
#     lumen: its bins of h/2 held no cell centre at r/(D/2) = 0.03, 0.14 and 0.36, the gap
#     and the missing axis of its cell_free_layer.png), of runs/hematocrit-gpu.ini (72 of
#     1/3 um, 20 um) and of an odd count (25 of 0.3125 um, 6 um), every bin of h/2 holds
#     cells, the bins' areas add up to the lumen's pi R^2 within 0.5 % and each is its
#     annulus's within 3 %, and the profile of a smooth field 1 - (r/R)^2 is the field at
#     the bin's centre within 3 % of its range, in every bin from the axis to the wall;
#   - a run has one colour in every figure that draws it: Ht 0.1 in cell_free_layer.png
#     (which draws the plasma reference and Ht 0 too), cell_free_layer_timeseries.png (the
#     runs with RBCs alone) and Fig. 9 (the runs with platelets), and no two runs share one.
# Skipped (77) without python3's numpy, netCDF4 or matplotlib.
set -eu
srcdir=${top_srcdir:-.}
/usr/bin/python3 -c 'import numpy, netCDF4, matplotlib' 2>/dev/null \
  || { echo "python3 numpy, netCDF4 or matplotlib absent: skipped"; exit 77; }
/usr/bin/python3 - "$srcdir/studies" <<'PY'
import math, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import numpy as np
from matplotlib.colors import to_rgba
import hematocrit_analysis as h

for name, n, dx, D in (("hematocrit-cpu", 24, 2 / 3, 12.0), ("hematocrit-gpu", 72, 1 / 3, 20.0),
                       ("odd", 25, 0.3125, 6.0)):
    c = (np.arange(n) + 0.5) * dx
    g = h.Geometry({"x": c[:4], "y": c, "z": c}, D)
    R = D / 2
    nbins = int(math.ceil(R / (0.5 * dx)))
    edges = np.linspace(0, R, nbins + 1)
    ones = np.ones((n, n, 4))
    _, cells = h.radial_sums(ones, g, nbins)
    area = cells / 4 * dx * dx
    exact = math.pi * (edges[1:] ** 2 - edges[:-1] ** 2)
    mid = 0.5 * (edges[1:] + edges[:-1])
    assert cells.min() > 0, "%s: empty bins at r/R = %s" % (name, np.round(mid / R, 3)[cells == 0])
    assert abs(area.sum() / (math.pi * R * R) - 1) < 5e-3, (name, area.sum(), math.pi * R * R)
    worst_area = np.max(np.abs(area / exact - 1))
    assert worst_area < 0.03, (name, worst_area)
    field = np.broadcast_to((1 - (g.r / R) ** 2)[:, :, None], (n, n, 4))
    sums, cells = h.radial_sums(field, g, nbins)
    worst = np.max(np.abs(sums / cells - (1 - (mid / R) ** 2)))
    assert np.all(np.isfinite(sums / cells)) and worst < 0.03, (name, worst)
    print("ok: %s: %d bins of h/2, none empty (the fewest %.2f cells), areas within %.2g %% "
          "(sum %.4f of pi R^2), a smooth profile within %.3f"
          % (name, nbins, cells.min() / 4, 100 * worst_area, area.sum() / (math.pi * R * R), worst))

# the colours: the figures of one study drawn with made-up profiles, their lines read back
class Run:
    def __init__(self, label, ht):
        self.label, self.ht = label, ht

class Study:
    pass

st = Study()
st.name, st.R, st.threshold, st.t0, st.t1 = "colours", 6.0, 0.1, 1.0, 2.0
st.runs = [Run("plasma", None)] + [Run("ht-%.2f" % ht, ht) for ht in (0.0, 0.05, 0.1, 0.2)]
figures = []
h.save = lambda fig, path: figures.append((path, fig))
r = np.linspace(0.1, 5.9, 12)
prof = {"r": r, "phi": 0.2 * (r < 4), "u": 1 - (r / 6) ** 2}
h.figure_cfl(st, [(run, prof, 1.0, 0.2) for run in st.runs], "cell_free_layer.png")
h.figure_cfl_series(st, [(run, np.array([1.0, 2.0]), np.array([1.0, 1.1]))
                         for run in st.runs if run.ht], "cell_free_layer_timeseries.png")
edges = np.linspace(0, 1, 11)
h.figure9(st, [(run, (edges, np.ones(10), np.full(10, 5), np.full(10, 0.01)))
               for run in st.runs if run.ht is not None], "fig9.png")
seen = {}
for path, fig in figures:
    for ax in fig.axes:
        for line in ax.get_lines():
            label = line.get_label()
            if label.startswith("Ht = ") or label == "plasma":
                rgba = tuple(np.round(to_rgba(line.get_color()), 4))
                seen.setdefault(label, set()).add((path, rgba))
for label, where in sorted(seen.items()):
    colours = {c for _, c in where}
    assert len(colours) == 1, "%s in %d colours: %s" % (label, len(colours), sorted(where))
each = {label: next(iter(where))[1] for label, where in seen.items()}
assert len(set(each.values())) == len(each), each
assert {p for p, _ in seen["Ht = 0.1"]} == {"cell_free_layer.png", "cell_free_layer_timeseries.png",
                                            "fig9.png"}, seen["Ht = 0.1"]
print("ok: %d runs, one colour each in every figure that draws them (Ht = 0.1 in %d figures)"
      % (len(each), len({p for p, _ in seen["Ht = 0.1"]})))
PY
echo "1 passed, 0 failed"
