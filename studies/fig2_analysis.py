#!/usr/bin/python3
"""The analysis of studies/fig2-study: the ACM against SMAC over time, at the snapshots, as
dt shrinks, and the paper's Fig. 2 as a picture (docs/studies.md, "ACM against SMAC").

  studies/fig2_analysis.py STUDY_DIR
  studies/fig2_analysis.py --redraw DIR     fig2.png again from DIR/fig2_state.npz alone

Reads STUDY_DIR/study.json (written by the study command) and each run's diagnostics.csv,
bodies.nc and fields files; writes STUDY_DIR/analysis/:
  body_comparison.csv, .png    per RBC and bodies output step: the centroid distance between
                               the methods (um, cells), the orientation and the Taylor
                               deformation of each method (from the second moments of phi)
  flow_comparison.csv, .png    per diagnostics step: flow rate, wall shear stress, div_rms,
                               the ACM's pseudo-Mach number, of both methods
  snapshot_differences.csv     per snapshot: the relative differences of u and of phi
  convergence.csv, .png        the same differences at convergence.time against dt, with the
                               fitted order
  fig2.png                     the RBCs' surfaces phi = 1/2 at the snapshots, SMAC above, the
                               ACM below, the wall coloured by the wall shear stress
  fig2_state.npz               what fig2.png shows, kept small: per method and snapshot each
                               material's phi as uint8, the wall shear stress of each wall
                               patch as uint16 with its scale, the tracers, the grid (about
                               0.2 bytes a cell, deflated); --redraw draws fig2.png from it
  report.md                    the tables, the figures, and the numbers to read against the
                               paper's "no significant discrepancies in the particle position
                               and shape"; what fig2.png shows in a sentence, and the
                               snapshots after the end time that were not run
Reads through tools/efsi_output.py (netCDF4, or h5py where netCDF4 is missing) and draws with
matplotlib, scikit-image and SciPy through tools/efsi-render's functions."""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path[:0] = [os.path.join(TOP, "tools")]
import efsi_output  # noqa: E402

METHODS = {"acm": "ACM", "smac": "SMAC"}
CSV_DIGITS = 9      # significant digits of the numbers in the tables (efsi_output.write_csv)
TITLE_CHARS_PER_INCH = 11   # characters of a title an inch of the figure holds at 11 points
# attributes that name the run or the case, not the state: two runs of a pair differ in them
NAMING_ATTRIBUTES = {"run_id", "case"}
# bodies.nc's kind (flag_values 0, 1, 2, 3; io/bodies_nc.h)
KINDS = ("rbc", "platelet", "sphere", "ellipsoid")
BODY_VARIABLES = ("step", "time", "body", "kind", "position", "velocity", "centroid", "volume",
                  "second_moment")


class AnalysisError(Exception):
    """A study folder the analysis cannot read: one line."""


# ---- reading ----------------------------------------------------------------------------------

def read_bodies(run_dir):
    """bodies.nc of a run folder as {variable: array} (docs/output.md), or None."""
    path = os.path.join(run_dir, "bodies.nc")
    if not os.path.exists(path):
        return None
    variables, _ = efsi_output.read_netcdf(path, BODY_VARIABLES)
    missing = [v for v in BODY_VARIABLES if v not in variables]
    if missing:
        raise AnalysisError("%s: no variable %s" % (path, missing[0]))
    variables["step"] = variables["step"].astype(int)
    return variables


def read_snapshot(path):
    return efsi_output.read_fields(path, names=["u", "v", "w", "p", "phi_*"])


def grid_of(run_dir):
    """The box L, spacing h and periodic axes (x, y, z) from a run's first fields file."""
    files = efsi_output.fields_files(run_dir)
    if not files:
        raise AnalysisError("%s: no fields file" % run_dir)
    f = efsi_output.read_fields(files[0], names=[])
    return {"L": f["L"], "h": f["h"], "periodic": [True, not f["walls"]["y"], not f["walls"]["z"]],
            "case": f["case"], "cells": [len(f["x"]), len(f["y"]), len(f["z"])]}


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def same_initial_state(dir_a, dir_b):
    """Whether two runs start from the same bits: restart_00000000.nc (the staggered state
    and the tracers), fields_00000000.nc and bodies.nc's first record, variable by variable
    and attribute by attribute (but those that name the run or the case).  Returns
    {"identical", "compared": files, "differences": what differs}."""
    compared, differences = [], []
    for name in ("restart_00000000.nc", "fields_00000000.nc"):
        pa, pb = os.path.join(dir_a, name), os.path.join(dir_b, name)
        if not (os.path.exists(pa) and os.path.exists(pb)):
            if os.path.exists(pa) or os.path.exists(pb):
                differences.append("%s is in one run only" % name)
            continue
        (va, aa), (vb, ab) = efsi_output.read_netcdf(pa), efsi_output.read_netcdf(pb)
        compared.append(name)
        differences += ["%s: %s" % (name, v) for v in sorted(set(va) | set(vb))
                        if v not in va or v not in vb or not same_bits(va[v], vb[v])]
        differences += ["%s: attribute %s" % (name, k) for k in sorted(set(aa) | set(ab))
                        if k not in NAMING_ATTRIBUTES and repr(aa.get(k)) != repr(ab.get(k))]
    ba, bb = read_bodies(dir_a), read_bodies(dir_b)
    if ba is not None and bb is not None:
        compared.append("bodies.nc at step 0")
        if not (len(ba["step"]) and len(bb["step"]) and ba["step"][0] == bb["step"][0] == 0):
            differences.append("bodies.nc: no record of step 0 in both")
        else:
            differences += ["bodies.nc: %s" % v for v in BODY_VARIABLES[2:]
                            if not same_bits(first_record(ba, v), first_record(bb, v))]
    elif (ba is None) != (bb is None):
        differences.append("bodies.nc is in one run only")
    if not compared:
        differences.append("no step-0 files to compare")
    return {"identical": not differences, "compared": compared, "differences": differences}


def first_record(bodies, name):
    value = bodies[name]
    return value if name in ("body", "kind") else value[0]


# ---- the bodies' shapes -----------------------------------------------------------------------

def shapes(moments):
    """From second moments (..., 6: xx yy zz xy xz yz) per volume: the principal semi-axes
    (..., 3), ascending, of the uniform ellipsoid with those moments (a = sqrt(5 m)), its
    shortest axis (..., 3: a unit vector, the RBC's axis of symmetry) and the Taylor
    deformation D = (L - B) / (L + B) of its longest and shortest semi-axes.  NaN where
    the moments are (a body without cells)."""
    import numpy as np
    m = np.asarray(moments, dtype=float)
    bad = ~np.all(np.isfinite(m), axis=-1)
    m = np.where(bad[..., None], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0], m)
    xx, yy, zz, xy, xz, yz = np.moveaxis(m, -1, 0)
    tensor = np.stack([np.stack([xx, xy, xz], -1), np.stack([xy, yy, yz], -1),
                       np.stack([xz, yz, zz], -1)], -2)
    values, vectors = np.linalg.eigh(tensor)
    axes = np.sqrt(5.0 * np.clip(values, 0.0, None))
    axis = vectors[..., :, 0]
    deformation = (axes[..., 2] - axes[..., 0]) / (axes[..., 2] + axes[..., 0])
    axes[bad], axis[bad], deformation[bad] = np.nan, np.nan, np.nan
    return axes, axis, deformation


def periodic_difference(a, b, grid):
    """a - b (..., 3), the nearest image along the periodic axes."""
    import numpy as np
    d = np.asarray(a, float) - np.asarray(b, float)
    for k in range(3):
        if grid["periodic"][k]:
            d[..., k] -= grid["L"][k] * np.round(d[..., k] / grid["L"][k])
    return d


def axis_angle(a, b):
    """The angle in degrees between two axes (unsigned directions), 0..90."""
    import numpy as np
    cos = np.abs(np.sum(a * b, axis=-1))
    sin = np.linalg.norm(np.cross(a, b), axis=-1)
    return np.degrees(np.arctan2(sin, cos))


def common_steps(a, b):
    """The steps in both step arrays, and their indices in each."""
    import numpy as np
    steps, ia, ib = np.intersect1d(a, b, return_indices=True)
    return steps, ia, ib


def compare_bodies(ba, bb, grid):
    """Per common bodies output step and body: the two methods' centroids apart, each
    method's axis tilt from y and Taylor deformation, and the angle between their axes."""
    import numpy as np
    if not same_bits(ba["body"], bb["body"]):
        raise AnalysisError("the two runs hold other bodies (bodies.nc's body ids differ)")
    steps, ia, ib = common_steps(ba["step"], bb["step"])
    out = {"step": steps, "time": ba["time"][ia], "body": ba["body"],
           "kind": [KINDS[k] if 0 <= k < len(KINDS) else str(k) for k in ba["kind"]]}
    h = min(grid["h"])
    d = periodic_difference(ba["centroid"][ia], bb["centroid"][ib], grid)
    out["centroid_um"] = np.linalg.norm(d, axis=-1)
    out["centroid_cells"] = out["centroid_um"] / h
    out["tracer_um"] = np.linalg.norm(periodic_difference(ba["position"][ia],
                                                          bb["position"][ib], grid), axis=-1)
    axes = {}
    for key, bodies, idx in (("acm", ba, ia), ("smac", bb, ib)):
        semi, axis, deformation = shapes(bodies["second_moment"][idx])
        axes[key] = axis
        out["tilt_" + key] = axis_angle(axis, np.array([0.0, 1.0, 0.0]))
        out["D_" + key] = deformation
        out["volume_" + key] = bodies["volume"][idx]
        out["semi_axes_" + key] = semi
    out["axis_angle"] = axis_angle(axes["acm"], axes["smac"])
    # how far each body went (SMAC's centroids), unwrapped across the periodic sides
    path = bb["centroid"][ib]
    steps_taken = periodic_difference(path[1:], path[:-1], grid)
    out["moved_smac"] = np.linalg.norm(np.concatenate([np.zeros_like(path[:1]), np.cumsum(
        steps_taken, axis=0)]), axis=-1)
    return out


FLOW_COLUMNS = ("flow_rate", "wall_shear", "div_rms", "div_max", "mach", "u_max",
                "kinetic_energy")


def compare_flow(da, ds):
    """Per common diagnostics step: FLOW_COLUMNS of both methods."""
    steps, ia, ib = common_steps(da["step"], ds["step"])
    out = {"step": steps, "time": da["time"][ia]}
    for c in FLOW_COLUMNS:
        out[c + "_acm"], out[c + "_smac"] = da[c][ia], ds[c][ib]
    return out


def relative(num, den):
    """num / den, 0 when both are 0, nan when only den is."""
    if den == 0:
        return 0.0 if num == 0 else float("nan")
    return num / den


def compare_fields(fa, fs):
    """The relative differences of the velocity (largest and L2, over the three components),
    of the pressure (largest) and of the volume fractions (L1 over the solid volume and the
    largest difference)."""
    import numpy as np
    du = [fa[c] - fs[c] for c in "uvw"]
    out = {
        "u_max_rel": relative(max(float(np.abs(d).max()) for d in du),
                              max(float(np.abs(fs[c]).max()) for c in "uvw")),
        "u_l2_rel": relative(math.sqrt(sum(float(np.sum(d * d)) for d in du)),
                             math.sqrt(sum(float(np.sum(fs[c] ** 2)) for c in "uvw"))),
        "p_max_rel": relative(float(np.abs(fa["p"] - fs["p"]).max()), float(np.abs(fs["p"]).max())),
    }
    phis = sorted(set(fa["phi"]) & set(fs["phi"]))
    out["phi_l1_rel"] = relative(sum(float(np.abs(fa["phi"][m] - fs["phi"][m]).sum()) for m in phis),
                                 sum(float(fs["phi"][m].sum()) for m in phis))
    out["phi_max"] = max([float(np.abs(fa["phi"][m] - fs["phi"][m]).max()) for m in phis] or [0.0])
    return out


SNAPSHOT_COLUMNS = ("u_max_rel", "u_l2_rel", "p_max_rel", "phi_l1_rel", "phi_max")


def pair_snapshots(dir_a, dir_s):
    """(step, time, acm file, smac file) of the steps both runs have a fields file of."""
    def by_step(d):
        return {int(os.path.basename(p)[7:-3]): p for p in efsi_output.fields_files(d)}
    a, s = by_step(dir_a), by_step(dir_s)
    return [(step, a[step], s[step]) for step in sorted(set(a) & set(s))]


def fit_order(dts, errors):
    """The least-squares slope of log(error) against log(dt) over the positive errors (nan
    with fewer than two)."""
    import numpy as np
    keep = [(math.log(d), math.log(e)) for d, e in zip(dts, errors) if e > 0 and d > 0]
    if len(keep) < 2:
        return float("nan")
    x, y = np.array(keep).T
    return float(np.polyfit(x, y, 1)[0])


# ---- writing ----------------------------------------------------------------------------------

def time_words(t):
    """t in us as a reader says it: 640 us as 0.64 ms."""
    return "%.4g ms" % (t / 1000) if t >= 100 else "%.4g us" % t


def span_words(times):
    return "t = %s to %s" % (time_words(float(times[0])), time_words(float(times[-1]))) \
        if len(times) else "no common steps"


def fit_title(fig, text, title, fraction=0.96):
    """Sets title into text, a Text of fig (its suptitle or an axes' title), wrapped into
    lines no wider than fraction of the figure: at TITLE_CHARS_PER_INCH characters an inch of
    the figure's width at 11 points (more at a smaller font), and at fewer where the lines
    drawn are still wider.  A line break of title stays one.  Returns the lines' height in
    inches."""
    import textwrap
    renderer = fig.canvas.get_renderer()
    chars = int(TITLE_CHARS_PER_INCH * 11.0 / text.get_fontsize() * fig.get_figwidth() * fraction)
    while True:
        text.set_text("\n".join(line for part in title.split("\n")
                                for line in textwrap.wrap(part, chars)))
        box = text.get_window_extent(renderer)
        if box.width <= fraction * fig.bbox.width or chars <= 20:
            return box.height / fig.dpi
        chars -= max(1, chars // 20)


def title_room(fig, text, gap_inches=0.1):
    """The top of the room below the suptitle text for the figure's axes (a figure
    fraction, tight_layout's rect), the suptitle itself left out of the layout."""
    box = text.get_window_extent(fig.canvas.get_renderer())
    text.set_in_layout(False)
    return fig.transFigure.inverted().transform((0, box.y0))[1] - gap_inches / fig.get_figheight()


def figure(path, title, panels, xlabel="t (us)"):
    """A figure of panels in two columns sharing x.  A panel: {"ylabel", "curves", "log"
    (optional), "right": (label, factor) for a second y axis of the same values times
    factor}; a curve: (x, y, matplotlib style).  On a log axis the values <= 0 are left out.
    The title names the case, the time and the methods."""
    import textwrap
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = (len(panels) + 1) // 2
    fig, axes = plt.subplots(rows, 2, figsize=(13, 3.1 * rows + 1.0), sharex=True, squeeze=False)
    for ax, panel in zip(axes.flat, panels):
        for x, y, style in panel["curves"]:
            y = np.asarray(y, dtype=float)
            ax.plot(x, np.where(y > 0, y, np.nan) if panel.get("log") else y, **style)
        if panel.get("log"):
            ax.set_yscale("log")
        ax.set_ylabel("\n".join(textwrap.wrap(panel["ylabel"], 34)), fontsize=9)
        if panel.get("right"):
            label, factor = panel["right"]
            ax.secondary_yaxis("right", functions=(lambda v, f=factor: v * f,
                                                   lambda v, f=factor: v / f)).set_ylabel(label)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[1]:
            ax.legend(fontsize=7, ncol=4, loc="best")
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
        ax.xaxis.set_tick_params(labelbottom=True)
    text = fig.suptitle("", fontsize=11)
    fit_title(fig, text, title)
    fig.tight_layout(rect=(0, 0, 1, title_room(fig, text)))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def body_figure(path, case, c):
    """Centroid distance, orientation and deformation of every body over time, both methods."""
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import colormaps
    colours = colormaps["tab20"]
    t = c["time"]
    n = len(c["body"])
    curves = {k: [] for k in ("distance", "moved", "tilt", "angle", "D", "dD")}
    for b in range(n):
        line = {"color": colours(b % 20), "lw": 1}
        curves["distance"].append((t, c["centroid_cells"][:, b],
                                   dict(line, label="RBC %d" % c["body"][b] if n <= 20 else None)))
        curves["moved"].append((t, c["moved_smac"][:, b], line))
        for key, dash in (("acm", "-"), ("smac", "--")):
            curves["tilt"].append((t, c["tilt_" + key][:, b], dict(line, ls=dash)))
            curves["D"].append((t, c["D_" + key][:, b], dict(line, ls=dash)))
        curves["angle"].append((t, c["axis_angle"][:, b], line))
        curves["dD"].append((t, c["D_acm"][:, b] - c["D_smac"][:, b], line))
    curves["distance"].append((t, np.nanmax(c["centroid_cells"], axis=1),
                               {"color": "k", "lw": 2, "label": "largest"}))
    for key, dash in (("ACM", "-"), ("SMAC", "--")):    # the legend of the line styles
        curves["tilt"].append(([], [], {"color": "k", "ls": dash, "label": key}))
        curves["D"].append(([], [], {"color": "k", "ls": dash, "label": key}))
    h = min(float(x) for x in np.atleast_1d(c["centroid_um"][c["centroid_cells"] > 0]
                                            / c["centroid_cells"][c["centroid_cells"] > 0])) \
        if (c["centroid_cells"] > 0).any() else None
    figure(path, "%s: each RBC, ACM against SMAC, %s (ACM solid, SMAC dashed; one colour per "
           "RBC)" % (case, span_words(t)),
           [{"ylabel": "centroid distance, ACM to SMAC (cells)", "curves": curves["distance"],
             "right": ("centroid distance (um)", h) if h else None},
            {"ylabel": "distance each RBC travelled, SMAC (um)", "curves": curves["moved"]},
            {"ylabel": "tilt of the RBC's axis from y (degrees)", "curves": curves["tilt"]},
            {"ylabel": "angle between the ACM's and SMAC's axes (degrees)",
             "curves": curves["angle"]},
            {"ylabel": "Taylor deformation D (1)", "curves": curves["D"]},
            {"ylabel": "D(ACM) - D(SMAC) (1)", "curves": curves["dD"]}])


def flow_figure(path, case, f):
    import numpy as np
    t = f["time"]

    def both(column):
        return [(t, f[column + "_acm"], {"color": "C3", "label": "ACM"}),
                (t, f[column + "_smac"], {"color": "C0", "ls": "--", "label": "SMAC"})]

    def rel(column):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = (f[column + "_acm"] - f[column + "_smac"]) / np.abs(f[column + "_smac"])
        return [(t, np.abs(r), {"color": "k", "marker": ".", "ms": 3, "lw": 0.8,
                                "label": "abs(ACM - SMAC) / abs(SMAC)"})]

    figure(path, "%s: flow rate, wall shear stress, divergence and pseudo-Mach number, ACM and "
           "SMAC, %s" % (case, span_words(t)),
           [{"ylabel": "flow rate (um3 us-1)", "curves": both("flow_rate")},
            {"ylabel": "flow rate, relative difference (1)", "curves": rel("flow_rate"),
             "log": True},
            {"ylabel": "mean wall shear stress (pg um-1 us-2 = kPa)", "curves": both("wall_shear")},
            {"ylabel": "wall shear, relative difference (1)", "curves": rel("wall_shear"),
             "log": True},
            {"ylabel": "div_rms, rms of rho div v (pg um-3 us-1)", "curves": both("div_rms"),
             "log": True},
            {"ylabel": "pseudo-Mach number u_max / beta (1)",
             "curves": [(t, f["mach_acm"], {"color": "C3", "label": "ACM (SMAC has none)"})]}])


def convergence_figure(path, case, time_us, rows, orders):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401
    fig, ax = plt.subplots(figsize=(8, 5.5))
    dts = [r["dt"] for r in rows]
    for (key, label), colour in zip(CONVERGENCE_METRICS, ("C3", "C1", "C2", "C0", "C4")):
        pts = [(r["dt"], r[key]) for r in rows if r[key] > 0]
        if not pts:
            continue
        x, y = zip(*pts)
        ax.loglog(x, y, "o-", color=colour,
                  label="%s (order %.2f)" % (label, orders[key]) if math.isfinite(orders[key])
                  else label)
    ax.set_xlabel("dt (us)")
    ax.set_ylabel("ACM against SMAC at the same dt (1 or cells)")
    ax.set_xticks(dts)
    ax.set_xticklabels(["%.3g" % d for d in dts])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    # centred over the axes, which leave the y label's room: narrower than the figure
    fit_title(fig, ax.set_title("", fontsize=10),
              "%s: the ACM's difference from SMAC against dt at t = %s\n(each dt: ACM and SMAC "
              "at that dt; the fitted order in the legend)" % (case, time_words(time_us)),
              fraction=0.85)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


CONVERGENCE_METRICS = (("u_max_rel", "u, largest, relative"), ("u_l2_rel", "u, L2, relative"),
                       ("phi_l1_rel", "phi, L1 over the solid volume"),
                       ("centroid_cells", "largest centroid distance (cells)"))


def load_render():
    """tools/efsi-render as a module: its drawing functions."""
    import importlib.machinery
    import importlib.util
    path = os.path.join(TOP, "tools", "efsi-render")
    loader = importlib.machinery.SourceFileLoader("efsi_render", path)
    spec = importlib.util.spec_from_loader("efsi_render", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


STATE_FILE = "fig2_state.npz"   # the snapshots of fig2.png, small: redrawn by --redraw DIR


def fig2_picture(path, case, dirs, snapshots):
    """The paper's Fig. 2 (fig2_figure) from the runs' fields files at the snapshots
    [(step, {"acm": path, "smac": path})], and its state beside it (save_state)."""
    render = load_render()
    render.Frame.VIEW = FIG2_VIEW
    frames = {}
    for method in ("smac", "acm"):
        mu, _ = render.viscosity_of(dirs[method], None)
        for step, files in snapshots:
            frames[method, step] = render.Frame(render.read_fields(files[method]), mu,
                                                "material")
    steps = [step for step, _ in snapshots]
    save_state(os.path.join(os.path.dirname(path), STATE_FILE), case, frames, steps)
    save_figure(fig2_figure(render, case, frames, steps), path)


FIG2_VIEW = (18.0, -58.0)


def save_figure(fig, path):
    import matplotlib.pyplot as plt
    fig.savefig(path, dpi=100)
    plt.close(fig)


def fig2_figure(render, case, frames, steps):
    """The paper's Fig. 2: the RBCs' surfaces phi = 1/2 at the snapshots' steps (columns),
    SMAC in the top row and the ACM in the bottom one, the wall y = 0 coloured by the
    magnitude of the wall shear stress on one scale for all panels (its power of ten in the
    colour bar's label); the title wrapped to the figure's width.  frames: {(method, step):
    tools/efsi-render's Frame}.  Returns the matplotlib figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    limits = render.new_limits()
    for frame in frames.values():
        render.add_to_limits(limits, frame)
    norm = render.shear_scale(limits)
    columns = len(steps)
    # the panels' layout is in inches from the bottom of a figure 9.4 in high whose title is
    # one line; a title wrapped into more lines makes the figure higher by them
    height = 9.4
    fig = plt.figure(figsize=(4.6 * columns + 0.4, height))
    text = fig.suptitle("", fontsize=11)
    title_inches = fit_title(fig, text, "%s: RBC surfaces phi = 1/2, SMAC (top) and ACM "
                             "(bottom), the wall y = 0 coloured by the wall shear stress" % case)
    count = text.get_text().count("\n") + 1
    fig.set_figheight(height + title_inches * (count - 1) / count)
    h = height / fig.get_figheight()     # a fraction of the first layout as one of this one
    text.set_y(1 - 0.02 * h)
    for row, method in enumerate(("smac", "acm")):
        for col, step in enumerate(steps):
            frame = frames[method, step]
            ax = fig.add_axes([col / columns, (0.53 - 0.45 * row) * h, 1.0 / columns, 0.4 * h],
                              projection="3d")
            render.draw_scene(ax, frame, norm, labelled=True)
            ax.set_title("%s, t = %s (step %d)" % (METHODS[method], time_words(frame.f["time"]),
                                                   step), fontsize=10)
    render.shear_colourbar(fig, fig.add_axes([0.3, 0.05 * h, 0.4, 0.015 * h]), norm,
                           frames["acm", steps[0]].mu)
    return fig


def save_state(path, case, frames, steps):
    """What fig2.png shows, small enough to keep beside it: for each method and snapshot
    step, each material's phi quantized to uint8 (phi = q / 255), the wall shear stress on
    each wall patch drawn as uint16 with its scale (tau = q * scale / 65535), the bodies'
    tracers, and the grid, time and viscosity; deflated (numpy's savez_compressed)."""
    import numpy as np
    arrays, meta = {}, {"case": case, "steps": [int(s) for s in steps], "frames": {}}
    for (method, step), frame in frames.items():
        f = frame.f
        key = "%s_%d" % (method, step)
        meta["frames"][key] = {
            "time": float(f["time"]), "mu": float(frame.mu), "L": [float(x) for x in f["L"]],
            "h": [float(x) for x in f["h"]], "cells": [len(f["x"]), len(f["y"]), len(f["z"])],
            "walls": {k: bool(v) for k, v in f["walls"].items()},
            "case_name": f["case"], "materials": [m for m in f["phi"]],
            "walls_drawn": len(frame.wall_faces), "tau_scale": []}
        for m, phi in f["phi"].items():
            quantized = np.round(np.clip(phi, 0, 1) * 255)
            arrays["phi__%s__%s" % (key, m)] = quantized.astype(np.uint8)
        for i, (_, tau, _) in enumerate(frame.wall_faces):
            tau = np.nan_to_num(np.asarray(tau, float))
            scale = float(np.abs(tau).max()) or 1.0
            meta["frames"][key]["tau_scale"].append(scale)
            quantized = np.round(np.abs(tau) / scale * 65535)
            arrays["tau__%s__%d" % (key, i)] = quantized.astype(np.uint16)
    tracers = {}
    for (method, step), frame in frames.items():
        key = "%s_%d" % (method, step)
        for m, (ids, positions) in frame.tracers.items():
            arrays["tracer_ids__%s__%s" % (key, m)] = np.asarray(ids, np.int64)
            arrays["tracers__%s__%s" % (key, m)] = np.asarray(positions, np.float32)
        tracers[key] = sorted(frame.tracers)
    meta["tracers"] = tracers
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    with open(path + ".tmp", "wb") as out:
        np.savez_compressed(out, **arrays)
    os.replace(path + ".tmp", path)


def load_state(path):
    """save_state's file as tools/efsi-render Frames: (render, case, frames, steps)."""
    import numpy as np
    render = load_render()
    render.Frame.VIEW = FIG2_VIEW
    if not os.path.isfile(path):
        raise AnalysisError("%s: no such file (the analysis of a study writes it beside "
                            "fig2.png)" % path)
    try:
        data = np.load(path)
        meta = json.loads(bytes(data["meta"]).decode())
    except (OSError, ValueError, KeyError) as e:
        raise AnalysisError("%s: not a state file of fig2_analysis (%s)" % (path, e)) from None
    frames = {}
    for key, m in meta["frames"].items():
        method, step = key.rsplit("_", 1)
        nx, ny, nz = m["cells"]
        f = {"x": (np.arange(nx) + 0.5) * m["h"][0], "y": (np.arange(ny) + 0.5) * m["h"][1],
             "z": (np.arange(nz) + 0.5) * m["h"][2], "h": m["h"], "L": m["L"],
             "walls": m["walls"], "time": m["time"], "step": int(step), "case": m["case_name"],
             "path": path, "attrs": {}}
        f["phi"] = {name: data["phi__%s__%s" % (key, name)].astype(float) / 255.0
                    for name in m["materials"]}
        f.update(u=np.zeros((nz, ny, nx)), v=np.zeros((nz, ny, nx)), w=np.zeros((nz, ny, nx)))
        tracers = {name: (data["tracer_ids__%s__%s" % (key, name)],
                          data["tracers__%s__%s" % (key, name)].astype(float))
                   for name in meta["tracers"].get(key, [])}
        frame = render.Frame(f, m["mu"], "material", tracers=tracers)
        if len(frame.wall_faces) != m["walls_drawn"]:
            raise AnalysisError("%s: %d wall patches drawn, %d kept" % (
                path, len(frame.wall_faces), m["walls_drawn"]))
        frame.wall_faces = [
            (tri, data["tau__%s__%d" % (key, i)].astype(float) * m["tau_scale"][i] / 65535,
             nrm) for i, (tri, _, nrm) in enumerate(frame.wall_faces)]
        frames[method, int(step)] = frame
    return render, meta["case"], frames, meta["steps"]


def redraw(folder):
    """fig2.png of a folder drawn again from its fig2_state.npz: the path written."""
    render, case, frames, steps = load_state(os.path.join(folder, STATE_FILE))
    path = os.path.join(folder, "fig2.png")
    save_figure(fig2_figure(render, case, frames, steps), path)
    return path


# ---- the whole analysis -----------------------------------------------------------------------

def read_study(study_dir):
    try:
        with open(os.path.join(study_dir, "study.json")) as f:
            study = json.load(f)
    except (OSError, ValueError) as e:
        raise AnalysisError("%s: no readable study.json (%s): run the study command first"
                            % (study_dir, e)) from None
    pairs = {}
    for r in study["runs"]:
        pairs.setdefault(r["factor"], {})[r["method"]] = os.path.join(study_dir, r["dir"])
    return study, pairs


def wall_seconds(diagnostics):
    """The wall-clock seconds of a run over all its efsi calls: wall_seconds starts again at
    each call, so the sum of each call's last value."""
    w = list(diagnostics["wall_seconds"])
    return sum(a for a, b in zip(w, w[1:] + [0.0]) if b < a or b == 0.0)


def analyse(study_dir, log=print):
    """The whole analysis; returns the path of report.md."""
    study, pairs = read_study(study_dir)
    s = study["settings"]
    out = os.path.join(study_dir, "analysis")
    os.makedirs(out, exist_ok=True)
    main = pairs.get(1, {})
    if set(main) != {"acm", "smac"} or not all(efsi_output.diagnostics(d) is not None
                                                 for d in main.values()):
        raise AnalysisError("the pair acm and smac of %s has not run yet" % study_dir)
    grid = grid_of(main["acm"])
    case = "%s (%s, %d x %d x %d cells)" % (s["study"]["name"], grid["case"], *grid["cells"])
    report = Report(case)
    report.runs(study, pairs, grid)
    initial = same_initial_state(main["acm"], main["smac"])
    report.initial(initial)

    ba, bs = read_bodies(main["acm"]), read_bodies(main["smac"])
    bodies = compare_bodies(ba, bs, grid) if ba is not None and bs is not None else None
    if bodies is not None:
        rows = []
        for i, step in enumerate(bodies["step"]):
            for b, body in enumerate(bodies["body"]):
                rows.append([int(step), float(bodies["time"][i]), int(body), bodies["kind"][b]]
                            + [float(bodies[k][i, b]) for k in BODY_COLUMNS])
        efsi_output.write_csv(os.path.join(out, "body_comparison.csv"),
                              ["step", "time_us", "body", "kind"] + list(BODY_HEADER), rows,
                              digits=CSV_DIGITS)
        body_figure(os.path.join(out, "body_comparison.png"), case, bodies)
        log("analysis: body_comparison.csv, .png (%d bodies, %d steps)" % (len(bodies["body"]),
                                                                           len(bodies["step"])))
    report.bodies(bodies, grid)

    flow = compare_flow(efsi_output.diagnostics(main["acm"]), efsi_output.diagnostics(main["smac"]))
    columns = [c + "_" + m for c in FLOW_COLUMNS for m in ("acm", "smac")]
    efsi_output.write_csv(os.path.join(out, "flow_comparison.csv"), ["step", "time_us"] + columns,
                          [[int(flow["step"][i]), float(flow["time"][i])]
                           + [float(flow[c][i]) for c in columns]
                           for i in range(len(flow["step"]))], digits=CSV_DIGITS)
    flow_figure(os.path.join(out, "flow_comparison.png"), case, flow)
    log("analysis: flow_comparison.csv, .png (%d rows)" % len(flow["step"]))
    report.flow(flow)

    snapshots = pair_snapshots(main["acm"], main["smac"])
    rows = []
    for step, pa, ps in snapshots:
        fa, fs = read_snapshot(pa), read_snapshot(ps)
        d = compare_fields(fa, fs)
        rows.append(dict(d, step=step, time=fa["time"],
                         centroid_cells=centroid_at(bodies, step)))
    efsi_output.write_csv(os.path.join(out, "snapshot_differences.csv"),
                          ["step", "time_us"] + list(SNAPSHOT_COLUMNS) + ["centroid_cells_max"],
                          [[r["step"], r["time"]] + [r[k] for k in SNAPSHOT_COLUMNS]
                           + [r["centroid_cells"]] for r in rows], digits=CSV_DIGITS)
    log("analysis: snapshot_differences.csv (%d snapshots)" % len(rows))
    report.snapshots(rows)

    convergence(study_dir, s, pairs, grid, case, out, report, log)

    shown = [(step, {"acm": pa, "smac": ps}) for step, pa, ps in snapshots
             if is_snapshot(step, pa, s)]
    if shown:
        fig2_picture(os.path.join(out, "fig2.png"), case, main, shown)
        log("analysis: fig2.png (%d snapshots)" % len(shown))
    report.picture([r for r in rows if r["step"] == shown[-1][0]] if shown else [], s)
    path = os.path.join(out, "report.md")
    report.write(path)
    return path


BODY_COLUMNS = ("centroid_um", "centroid_cells", "tracer_um", "tilt_acm", "tilt_smac",
                "axis_angle", "D_acm", "D_smac", "volume_acm", "volume_smac", "moved_smac")
BODY_HEADER = ("centroid_distance_um", "centroid_distance_cells", "tracer_distance_um",
               "tilt_acm_deg", "tilt_smac_deg", "axis_angle_acm_smac_deg", "D_acm", "D_smac",
               "volume_acm_um3", "volume_smac_um3", "displacement_smac_um")


def centroid_at(bodies, step):
    """The largest centroid distance (cells) at a bodies output step, nan if none."""
    import numpy as np
    if bodies is None or step not in bodies["step"]:
        return float("nan")
    i = int(np.nonzero(bodies["step"] == step)[0][0])
    return float(np.nanmax(bodies["centroid_cells"][i]))


def is_snapshot(step, path, s):
    """A fields file at a snapshot time of the study (0 and time.snapshots up to the end)."""
    t = efsi_output.read_fields(path, names=[])["time"]
    times = [0.0] + [x for x in s["time"]["snapshots"] if x <= s["time"]["end_time"]]
    dt = efsi_output.diagnostics(os.path.dirname(path))["dt"][0]
    return any(abs(t - x) <= dt for x in times if x <= t + 1e-6 * dt)


def convergence(study_dir, s, pairs, grid, case, out, report, log):
    """At convergence.time, each pair (factor 1 and each dt factor): the differences."""
    time_us = s["convergence"]["time"]
    rows = []
    for factor in sorted(pairs, reverse=True):
        dirs = pairs[factor]
        if set(dirs) != {"acm", "smac"}:
            continue
        found = [(step, pa, ps) for step, pa, ps in pair_snapshots(dirs["acm"], dirs["smac"])
                 if arrived(pa, time_us)]
        if not found:
            continue
        step, pa, ps = found[0]
        fa, fs = read_snapshot(pa), read_snapshot(ps)
        ba, bs = read_bodies(dirs["acm"]), read_bodies(dirs["smac"])
        b = compare_bodies(ba, bs, grid) if ba is not None and bs is not None else None
        diag = efsi_output.diagnostics(dirs["acm"])
        at = list(diag["step"]).index(step) if step in diag["step"] else None
        rows.append(dict(compare_fields(fa, fs), factor=factor, dt=float(diag["dt"][0]),
                         step=step, time=fa["time"], centroid_cells=centroid_at(b, step),
                         div_rms_acm=float(diag["div_rms"][at]) if at is not None else float("nan")))
    if len(rows) < 1 or not s["convergence"]["dt_factors"]:
        report.convergence(rows, {}, time_us)
        return
    orders = {k: fit_order([r["dt"] for r in rows], [r[k] for r in rows])
              for k, _ in CONVERGENCE_METRICS + (("div_rms_acm", ""),)}
    efsi_output.write_csv(os.path.join(out, "convergence.csv"),
                          ["dt_factor", "dt_us", "step", "time_us"] + list(SNAPSHOT_COLUMNS)
                          + ["centroid_cells_max", "div_rms_acm"],
                          [[r["factor"], r["dt"], r["step"], r["time"]]
                           + [r[k] for k in SNAPSHOT_COLUMNS]
                           + [r["centroid_cells"], r["div_rms_acm"]] for r in rows],
                          digits=CSV_DIGITS)
    convergence_figure(os.path.join(out, "convergence.png"), case, time_us, rows, orders)
    log("analysis: convergence.csv, .png (%d values of dt)" % len(rows))
    report.convergence(rows, orders, time_us)


def arrived(path, time_us):
    """Whether a fields file is at or just past time_us (its run's first step there)."""
    f = efsi_output.read_fields(path, names=[])
    dt = efsi_output.diagnostics(os.path.dirname(path))["dt"][0]
    return time_us - 1e-6 * dt <= f["time"] < time_us + dt


def number(x, digits=2):
    """A number as the report prints it: 2 significant digits, 0 as 0, nan as -."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return "0" if x == 0 else "%.*g" % (digits, x)


class Report:
    """report.md, section by section."""

    def __init__(self, case):
        self.case = case
        self.lines = ["# ACM against SMAC: %s" % case, "",
                      "Written by studies/fig2_analysis.py (docs/studies.md, \"ACM against "
                      "SMAC\"). Every figure and table is in this folder.", ""]
        self.verdict = []

    def add(self, *lines):
        self.lines += list(lines)

    def runs(self, study, pairs, grid):
        s = study["settings"]
        self.add("## The runs", "",
                 "| run | method | dt (us) | steps | t (us) | wall time (s) | s per step, last call | device |",
                 "|---|---|---|---|---|---|---|---|")
        for r in study["runs"]:
            d = os.path.join(os.path.dirname(pairs[r["factor"]][r["method"]]), r["dir"])
            diag = efsi_output.diagnostics(d)
            if diag is None or not len(diag["step"]):
                self.add("| %s | %s | | not run | | | | |" % (r["label"], METHODS[r["method"]]))
                continue
            perf = efsi_output.performance(d) or {}
            self.add("| %s | %s | %s | %d | %s | %s | %s | %s, %s rank(s) |" % (
                r["label"], METHODS[r["method"]], number(float(diag["dt"][0]), 6),
                int(diag["step"][-1]), number(float(diag["time"][-1]), 6), number(wall_seconds(diag), 3),
                number(perf.get("seconds_per_step"), 3), s["run"]["device"], s["run"]["ranks"]))
        self.add("", "Box %s um, h = %s um; snapshots at t = %s us; bodies.nc every %d steps, "
                 "diagnostics every %d steps." % (
                     " x ".join(number(x, 6) for x in grid["L"]), number(min(grid["h"]), 4),
                     ", ".join(number(t, 6) for t in [0] + s["time"]["snapshots"]
                               if t <= s["time"]["end_time"]),
                     s["output"]["bodies_every"], s["output"]["diagnostics_every"]), "")

    def initial(self, v):
        self.add("## The same initial state", "",
                 "%s: %s%s." % ("Identical, bit for bit" if v["identical"] else "**Different**",
                                ", ".join(v["compared"]) or "nothing compared",
                                "" if v["identical"] else " (" + "; ".join(v["differences"][:6]) + ")"),
                 "")
        self.verdict.append("initial states: %s" % ("identical" if v["identical"] else "DIFFERENT"))

    def bodies(self, c, grid):
        import numpy as np
        self.add("## Each RBC over time ([body_comparison.png](body_comparison.png), "
                 "[body_comparison.csv](body_comparison.csv))", "")
        if c is None:
            self.add("No bodies.nc in the runs: no per-body comparison.", "")
            return
        last = -1
        self.add("| | step 0 | largest over the run | at the last common step (t = %s us) |"
                 % number(float(c["time"][last]), 6), "|---|---|---|---|")
        for key, label in (("centroid_cells", "centroid distance (cells)"),
                           ("centroid_um", "centroid distance (um)"),
                           ("tracer_um", "tracer distance (um)"),
                           ("axis_angle", "angle between the axes (degrees)")):
            v = c[key]
            self.add("| %s | %s | %s | %s |" % (label, number(float(np.nanmax(v[0]))),
                                                 number(float(np.nanmax(v))),
                                                 number(float(np.nanmax(v[last])))))
        dd = np.abs(c["D_acm"] - c["D_smac"])
        self.add("| abs(D(ACM) - D(SMAC)) | %s | %s | %s |" % (
            number(float(np.nanmax(dd[0]))), number(float(np.nanmax(dd))),
            number(float(np.nanmax(dd[last])))))
        for key, label in (("D_smac", "D (SMAC), mean over the RBCs"),
                           ("tilt_smac", "tilt from y (SMAC, degrees), largest")):
            agg = np.nanmean if key.startswith("D") else np.nanmax
            self.add("| %s | %s | | %s |" % (label, number(float(agg(c[key][0])), 4),
                                             number(float(agg(c[key][last])), 4)))
        moved = float(np.nanmax(c["moved_smac"]))
        self.add("", "The RBCs moved up to %s um (%s cells) in that time (SMAC's centroids); the "
                 "two methods' centroids are at most %s of that apart." % (
                     number(moved, 3), number(moved / min(grid["h"]), 3),
                     number(float(np.nanmax(c["centroid_um"])) / moved) if moved > 0 else "-"), "")
        self.verdict.append("largest centroid distance %s cells (%s um), step 0: %s" % (
            number(float(np.nanmax(c["centroid_cells"]))), number(float(np.nanmax(c["centroid_um"]))),
            number(float(np.nanmax(c["centroid_cells"][0])))))

    def flow(self, f):
        import numpy as np
        self.add("## The flow ([flow_comparison.png](flow_comparison.png), "
                 "[flow_comparison.csv](flow_comparison.csv))", "",
                 "| at the last common step (t = %s us) | ACM | SMAC | relative difference |"
                 % number(float(f["time"][-1]), 6), "|---|---|---|---|")
        for c, label in (("flow_rate", "flow rate (um3 us-1)"),
                         ("wall_shear", "mean wall shear stress (kPa)"),
                         ("u_max", "u_max (um us-1)"), ("div_rms", "div_rms (pg um-3 us-1)"),
                         ("mach", "pseudo-Mach number")):
            a, s = float(f[c + "_acm"][-1]), float(f[c + "_smac"][-1])
            rel = relative(abs(a - s), abs(s)) if c not in ("div_rms", "mach") else float("nan")
            self.add("| %s | %s | %s | %s |" % (label, number(a, 6), number(s, 6), number(rel)))
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.abs(f["flow_rate_acm"] - f["flow_rate_smac"]) / np.abs(f["flow_rate_smac"])
        largest = float(np.nanmax(r[np.isfinite(r)])) if np.isfinite(r).any() else float("nan")
        self.add("", "Largest relative difference of the flow rate over the run: %s; largest "
                 "pseudo-Mach number of the ACM: %s." % (number(largest),
                                                         number(float(np.max(f["mach_acm"])))), "")
        self.verdict.append("flow rate apart by at most %s (relative)" % number(largest))

    def snapshots(self, rows):
        self.add("## The fields at the snapshots ([snapshot_differences.csv]"
                 "(snapshot_differences.csv))", "",
                 "| step | t (us) | u, largest | u, L2 | p, largest | phi, L1 | phi, largest | "
                 "centroids (cells) |", "|---|---|---|---|---|---|---|---|")
        for r in rows:
            self.add("| %d | %s | %s |" % (r["step"], number(r["time"], 6), " | ".join(
                number(r[k]) for k in SNAPSHOT_COLUMNS + ("centroid_cells",))))
        self.add("", "Relative to SMAC: u largest = max abs(u_acm - u_smac) / max abs(u_smac) "
                 "over the three components; L2 the same in the L2 norm; phi L1 = sum "
                 "abs(phi_acm - phi_smac) / sum phi_smac; phi largest = max abs(phi_acm - "
                 "phi_smac).", "")

    def convergence(self, rows, orders, time_us):
        self.add("## As dt shrinks ([convergence.png](convergence.png), "
                 "[convergence.csv](convergence.csv))", "")
        if len(rows) < 2:
            self.add("No dt study at t = %s us in this study folder yet (convergence.dt_factors; "
                     "the pairs of the smaller dt have not run)." % number(time_us, 6), "")
            return
        self.add("The ACM and SMAC at the same dt, at t = %s us; the ACM's target is not a "
                 "parameter (beta and gamma are chosen every step, docs/method.md), so dt is "
                 "the one knob." % number(time_us, 6), "",
                 "| dt (us) | steps | u, largest | u, L2 | phi, L1 | centroids (cells) | "
                 "ACM div_rms |", "|---|---|---|---|---|---|---|")
        for r in rows:
            self.add("| %s | %d | %s |" % (number(r["dt"], 6), r["step"], " | ".join(
                number(r[k]) for k in ("u_max_rel", "u_l2_rel", "phi_l1_rel", "centroid_cells",
                                       "div_rms_acm"))))
        keys = ("u_max_rel", "u_l2_rel", "phi_l1_rel", "centroid_cells", "div_rms_acm")
        self.add("| fitted order | | %s |" % " | ".join(number(orders.get(k), 3) for k in keys))
        for a, b in zip(rows, rows[1:]):
            self.add("| order from dt = %s to %s | | %s |" % (
                number(a["dt"], 3), number(b["dt"], 3), " | ".join(number(fit_order(
                    [a["dt"], b["dt"]], [a[k], b[k]]), 3) for k in keys)))
        self.add("")
        self.verdict.append("order in dt of the u difference %s" % number(orders.get("u_l2_rel"), 3))

    def picture(self, last, s):
        """The figure, what it shows at its last snapshot (last: that snapshot's row of
        snapshot_differences, or none when nothing was drawn) and the snapshots not run."""
        self.add("## The paper's Fig. 2", "")
        if not last:
            self.add("No fields file at a snapshot time yet.", "")
        else:
            r = last[0]
            alike = r["phi_max"] < 0.1 and not r["centroid_cells"] > 0.1
            self.add("![Fig. 2](fig2.png)", "",
                     "At t = %s the ACM's and SMAC's RBC surfaces %s: their centroids are at "
                     "most %s cells apart, phi differs by at most %s in a cell and by %s in "
                     "L1 over the solid volume, and the velocity by %s of its largest "
                     "value." % (
                         time_words(r["time"]),
                         "cannot be told apart by eye" if alike else "differ visibly",
                         number(r["centroid_cells"]), number(r["phi_max"]),
                         number(r["phi_l1_rel"]), number(r["u_max_rel"])), "")
            self.add("The picture's state (phi and the wall shear stress at its snapshots, "
                     "quantized) is kept in [%s](%s); `studies/fig2_analysis.py --redraw "
                     "DIR` draws fig2.png again from it without the runs." % (
                         STATE_FILE, STATE_FILE), "")
        later = [t for t in s["time"]["snapshots"] if t > s["time"]["end_time"]]
        if later:
            self.add("Not run: the snapshot%s at t = %s (time.end_time = %s); the paper's "
                     "figure shows t = 0, 0.64 and 6.4 ms." % (
                         "s" if len(later) > 1 else "", ", ".join(time_words(t) for t in later),
                         time_words(s["time"]["end_time"])), "")

    def write(self, path):
        lines = self.lines[:4] + ["**In short:** " + "; ".join(self.verdict) + ".", ""] \
            + self.lines[4:]
        with open(path + ".tmp", "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(path + ".tmp", path)


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--redraw" and not args[1].startswith("-"):
        work, folder, failed = redraw, args[1], 2
    elif len(args) == 1 and not args[0].startswith("-"):
        work, folder, failed = analyse, args[0], 1
    else:
        sys.stderr.write("usage: studies/fig2_analysis.py STUDY_DIR | --redraw DIR (fig2.png "
                         "again from DIR/%s)\n" % STATE_FILE)
        return 2
    try:
        print(work(folder))
    except AnalysisError as e:
        sys.stderr.write("fig2_analysis: %s\n" % e)
        return failed
    return 0


if __name__ == "__main__":
    sys.exit(main())
