#!/usr/bin/python3
"""Analysis of a capillary hematocrit study (studies/hematocrit-study).

  studies/hematocrit_analysis.py STUDY_DIR [--from outputs|fields]

Reads STUDY_DIR/study.json (written by the study command) and, for every run, its
diagnostics.csv, bodies.nc (else bodies.csv), average.nc (the time-averaged u and phi_rbc
of the sampling window) and fields_*.nc (the volume fractions: the cell-free layer of each
file, Fig. 7); writes CSV tables, PNG figures and report.md into STUDY_DIR.  --from fields
reads what the study read before efsi's selective outputs (docs/output.md): the profiles
from the fields files in the window and the bodies from bodies.csv, so that both paths
can be compared on a study written with sampling.full_fields = yes.  The quantities and
how each is computed are in docs/studies.md.

Quantities over time (lumen flow rate, tube and discharge hematocrit, mean and largest
lumen wall shear) come from diagnostics.csv when it has the solver's columns
(lumen_flow_rate, tube_hematocrit, discharge_hematocrit, lumen_wall_shear_mean,
lumen_wall_shear_max); otherwise from the fields files (the tube hematocrit, before that,
from the volume_rbc and volume_wall columns).  report.md says which source each used.
Needs python3-numpy, python3-netcdf4 (or h5py: tools/efsi_output.py reads either) and
python3-matplotlib; python3-skimage for the 3-D
picture (isosurfaces by marching cubes; without it the picture shows surface cells)."""
import csv
import glob
import json
import math
import os
import re
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(TOP, "tools"))
import efsi_output  # noqa: E402

# Evans & Fung's biconcave shape, the coefficients efsi uses (docs/bodies.md)
RBC_C = (0.2072, 2.0026, -1.1228)
COLUMNS = {"Q": "lumen_flow_rate", "Ht": "tube_hematocrit", "Hd": "discharge_hematocrit",
           "tau_mean": "lumen_wall_shear_mean", "tau_max": "lumen_wall_shear_max"}
NAMES = {"Q": "lumen flow rate", "Ht": "tube hematocrit", "Hd": "discharge hematocrit",
         "tau_mean": "mean lumen wall shear stress", "tau_max": "largest lumen wall shear stress"}
SECTORS = 16          # azimuthal sectors of the local wall-shear fits
FIG9_FEW_PLATELETS = 3  # Fig. 9: a bin crossed by fewer platelets is drawn hollow
SHELL_LO, SHELL_HI = 1.5, 4.5   # the lumen cells (s = R - r, in cells) of the wall-shear fits
CSV_DIGITS = 10     # significant digits of the numbers in the tables (efsi_output.write_csv)


class AnalysisError(Exception):
    pass


# ---- empirical laws (docs/studies.md gives the sources) -----------------------------------

def pries1992_mu_rel(hd, d_um):
    """Relative apparent viscosity in vitro, Pries, Neuhaus & Gaehtgens (1992)."""
    hd = np.asarray(hd, dtype=float)
    mu45 = 220 * math.exp(-1.3 * d_um) + 3.2 - 2.44 * math.exp(-0.06 * d_um ** 0.645)
    w = 1 / (1 + 1e-11 * d_um ** 12)
    c = (0.8 + math.exp(-0.075 * d_um)) * (-1 + w) + w
    return 1 + (mu45 - 1) * ((1 - hd) ** c - 1) / ((1 - 0.45) ** c - 1)


def pries1990_tube_hematocrit(hd, d_um):
    """Tube hematocrit from the discharge hematocrit in vitro (Fåhræus effect),
    Pries, Secomb, Gaehtgens & Gross (1990)."""
    hd = np.asarray(hd, dtype=float)
    return hd * (hd + (1 - hd) * (1 + 1.7 * math.exp(-0.415 * d_um)
                                  - 0.6 * math.exp(-0.011 * d_um)))


def rbc_volume(d):
    r = 0.5 * d
    return math.pi * r ** 3 * (2 * RBC_C[0] / 3 + 4 * RBC_C[1] / 15 + 16 * RBC_C[2] / 105)


# ---- reading a run -------------------------------------------------------------------------

def read_table(path):
    """A CSV file of numbers as {column: array}; None when absent."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return None
    header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
    out = {}
    for i, name in enumerate(header):
        try:
            out[name] = np.array([float(r[i]) for r in body])
        except ValueError:
            out[name] = np.array([r[i] for r in body])
    return out


def read_bodies(path):
    """bodies.csv as {column: array}, one row per body and step; None when absent."""
    if not os.path.exists(path):
        return None
    t = read_table(path)
    if t is None or not len(t.get("id", [])):
        return None
    t["id"] = t["id"].astype(int)
    t["step"] = t["step"].astype(int)
    return t


def read_bodies_nc(path):
    """bodies.nc (docs/output.md) as the rows of bodies.csv: {column: array} with id, kind
    (names), step, time, x, y, z, u, v, w, one row per body and step, steps in order and
    bodies by id within a step; None when absent or unreadable."""
    if not os.path.exists(path):
        return None
    try:
        with efsi_output.open_netcdf(path) as nc:
            names = str(nc.variable_attr("kind", "flag_meanings")).split()
            ids = np.asarray(nc.read("body"), dtype=int)
            kinds = np.asarray(names, dtype=object)[np.asarray(nc.read("kind"), dtype=int)]
            steps = np.asarray(nc.read("step"), dtype=int)
            times = np.asarray(nc.read("time"), dtype=float)
            pos = np.asarray(nc.read("position"), dtype=float)    # (time, body, xyz)
            vel = np.asarray(nc.read("velocity"), dtype=float)
    except (OSError, KeyError, AttributeError, efsi_output.ReadError):
        return None
    nt, nb = len(steps), len(ids)
    if nt == 0 or nb == 0:
        return None
    order = np.argsort(ids, kind="stable")
    t = {"id": np.tile(ids[order], nt), "kind": np.tile(kinds[order], nt).astype(str),
         "step": np.repeat(steps, nb), "time": np.repeat(times, nb)}
    for k, c in enumerate("xyz"):
        t[c] = pos[:, order, k].ravel()
    for k, c in enumerate("uvw"):
        t[c] = vel[:, order, k].ravel()
    return t


def read_average(path):
    """average.nc (docs/output.md, "Averages"): its fields (z, y, x), the samples and the
    window [first, last]; None when absent or unreadable."""
    if not os.path.exists(path):
        return None
    try:
        with efsi_output.open_netcdf(path) as nc:
            out = {"samples": int(nc.attrs["average_samples"]),
                   "window": tuple(float(t) for t in nc.read("time_bnds")[0])}
            for name in nc.variables:
                dims = nc.dimensions(name)
                if dims[:1] == ("time",) and len(dims) == 4:
                    out[name] = np.asarray(nc.read(name)[0], dtype=float)
            return out
    except (OSError, KeyError, AttributeError, efsi_output.ReadError):
        return None


def fields_files(run_dir):
    out = []
    for p in glob.glob(os.path.join(run_dir, "fields_*.nc")):
        m = re.fullmatch(r"fields_(\d+)\.nc", os.path.basename(p))
        if m:
            out.append((int(m.group(1)), p))
    return [p for _, p in sorted(out)]


class Geometry:
    """The tube on the fields grid: cell-centre radius from the axis (Ly/2, Lz/2)."""

    def __init__(self, coords, diameter):
        """coords: the cell centres {"x": ..., "y": ..., "z": ...} of a fields file."""
        x, y, z = (np.asarray(coords[c], dtype=float) for c in ("x", "y", "z"))
        self.h = float(y[1] - y[0]) if len(y) > 1 else float(2 * y[0])
        self.hx = float(x[1] - x[0]) if len(x) > 1 else float(2 * x[0])
        self.hz = float(z[1] - z[0]) if len(z) > 1 else float(2 * z[0])
        self.L = (x[-1] + 0.5 * self.hx, y[-1] + 0.5 * self.h, z[-1] + 0.5 * self.hz)
        self.x, self.y, self.z = x, y, z
        self.yc, self.zc = 0.5 * self.L[1], 0.5 * self.L[2]
        self.R = 0.5 * diameter
        Z, Y = np.meshgrid(z - self.zc, y - self.yc, indexing="ij")
        self.r = np.hypot(Y, Z)                     # (nz, ny)
        self.theta = np.arctan2(Z, Y)
        self.tube = self.r < self.R + 2 * max(self.h, self.hz)
        self.cell = self.hx * self.h * self.hz
        self.cache = {}     # what is computed once per grid (radial_weights)


def read_fields(path, names):
    """step, time and the named variables (those present, as (z, y, x) arrays at the file's
    one time) of a fields file, through efsi_output.read_fields; None if unreadable."""
    try:
        f = efsi_output.read_fields(path, names)
    except (efsi_output.ReadError, OSError):
        return None
    return dict({n: f[n] for n in names if n in f}, step=f["step"], time=f["time"])


def wall_shear(u, wall, lumen, g, mu):
    """Mean and largest wall shear stress mu du/ds, s = R - r, at the effective wall.  The
    velocity is taken relative to the wall's own, u_w, the mean u of the wall cells
    (phi_wall >= 1/2) with r in [R, R + 2 h) (the elastic wall moves while the flow starts).
    The lumen cells with s in [SHELL_LO, SHELL_HI] cells (the cells touching the diffuse wall
    left out) are fitted by least squares with u - u_w = c0 + c1 s + c2 s^2; the wall is
    where the fit reaches zero near s = 0 (at s = 0 if it does not within a cell or two)
    and the stress is mu (c1 + 2 c2 s0) there.  One fit over all those cells gives the mean,
    one per axial cell and azimuthal sector the largest."""
    s = g.R - g.r
    sector = ((g.theta + math.pi) / (2 * math.pi) * SECTORS).astype(int) % SECTORS
    nx = u.shape[2]
    n = nx * SECTORS
    group3 = (np.arange(nx)[None, None, :] * SECTORS + sector[:, :, None])
    group3 = np.broadcast_to(group3, u.shape)
    # the wall's velocity next to the lumen, per group and over all of them
    wsel = (wall >= 0.5) & ((s <= 0) & (s > -2 * g.h))[:, :, None]
    wcount = np.bincount(group3[wsel], minlength=n)
    wsum = np.bincount(group3[wsel], u[wsel], minlength=n)
    u_wall_all = float(wsum.sum() / wcount.sum()) if wcount.sum() else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        u_wall = np.where(wcount > 0, wsum / np.maximum(wcount, 1), u_wall_all)
    shell2d = g.tube & (s >= SHELL_LO * g.h) & (s <= SHELL_HI * g.h)
    sel = lumen & shell2d[:, :, None]
    if not sel.any():
        return math.nan, math.nan
    ss = np.broadcast_to(s[:, :, None], u.shape)[sel] / g.h      # in cells: well scaled
    group = group3[sel]
    uu = u[sel]
    m = [np.bincount(group, ss ** k, minlength=n) for k in range(5)]
    r = [np.bincount(group, uu * ss ** k, minlength=n) for k in range(3)]
    A = np.stack([np.stack([m[i + j] for j in range(3)], -1) for i in range(3)], -2)
    b = np.stack(r, -1)

    def slope_at_wall(A, b, uw):
        """mu du/ds where the fitted quadratic of u - uw crosses zero near s = 0."""
        ok = np.abs(np.linalg.det(A)) > 1e-12 * np.maximum(np.abs(A).max(axis=(-1, -2)) ** 3, 1e-300)
        c = np.full(b.shape, np.nan)
        if ok.any():
            c[ok] = np.linalg.solve(A[ok], b[ok][..., None])[..., 0]
        c0, c1, c2 = c[..., 0] - uw, c[..., 1], c[..., 2]
        with np.errstate(invalid="ignore", divide="ignore"):
            disc = np.sqrt(c1 * c1 - 4 * c2 * c0)
            # the root nearest s = 0, written so that c2 -> 0 gives -c0/c1
            s0 = np.where(np.abs(c2) * 1e6 > np.abs(c1), -2 * c0 / (c1 + np.sign(c1) * disc),
                          -c0 / c1)
            s0 = np.where((s0 > -1.5) & (s0 < SHELL_LO + 0.5), s0, 0.0)
            return mu * (c1 + 2 * c2 * s0) / g.h

    mean = slope_at_wall(A.sum(axis=0), b.sum(axis=0), u_wall_all)
    count = np.bincount(group, minlength=n)
    local = slope_at_wall(A, b, u_wall)
    local = local[(count >= 4) & np.isfinite(local)]
    return float(mean), float(local.max()) if local.size else math.nan


def fields_quantities(path, g, mu, rbc, nbins):
    """The quantities of one fields file: flow rate and hematocrits, wall shear, and the
    radial profiles (bin sums and counts, bins of h/2 out to R) of phi_rbc and u."""
    f = read_fields(path, ("u", "phi_wall", "phi_rbc"))
    if f is None or "phi_wall" not in f:
        return None
    wall = f["phi_wall"]
    phi = f.get("phi_rbc", np.zeros_like(wall))
    if "u" not in f:   # fields files of the volume fractions alone: the RBCs' profile only
        return phi_quantities(f, phi, g, nbins)
    u = f["u"]
    lumen = (wall < 0.5) & g.tube[:, :, None]
    Lx = g.L[0]
    q = float(np.sum(u[lumen])) * g.cell / Lx
    q_rbc = float(np.sum((u * phi)[lumen])) * g.cell / Lx
    v_lumen = float(np.sum((1 - wall)[np.broadcast_to(g.tube[:, :, None], u.shape)])) * g.cell
    tau_mean, tau_max = wall_shear(u, wall, lumen, g, mu)
    prof_phi, prof_n = radial_sums(phi, g, nbins)
    prof_u, _ = radial_sums(u, g, nbins)
    return {"step": f["step"], "time": f["time"], "Q": q,
            "Ht": float(np.sum(phi)) * g.cell / v_lumen if v_lumen > 0 else math.nan,
            "Hd": q_rbc / q if q != 0 else math.nan,
            "tau_mean": tau_mean, "tau_max": tau_max,
            "prof_phi": prof_phi, "prof_u": prof_u, "prof_n": prof_n, "has_rbc": "phi_rbc" in f}


SUBCELL = 32    # points a side of a cross-section cell, for its share of each annulus


def radial_weights(g, nbins):
    """(nbins, nz * ny): the area of each cross-section cell that lies in each annulus of
    the bins of R / nbins, in cells, from SUBCELL x SUBCELL points of it (beyond R left
    out; an annulus of h/2 within about 1 % of its area).  Bins narrower than a cell hold no cell
    centre at some radii (near the axis, and wherever the centres' radii skip a bin), so a
    cell's value goes to every bin it overlaps, as much as it overlaps it: no bin is empty
    and none is counted twice."""
    key = ("radial_weights", nbins)
    if key not in g.cache:
        edges = np.linspace(0, g.R, nbins + 1)
        off = (np.arange(SUBCELL) + 0.5) / SUBCELL - 0.5        # sub-points, in cells
        dy = (g.y - g.yc)[:, None, None] + g.h * off[None, None, :]   # (ny, 1, sub)
        ny = len(g.y)
        w = np.zeros(nbins * g.r.size)
        for k, z in enumerate(g.z):                             # a row of cells at a time
            dz = (z - g.zc) + g.hz * off[None, :, None]              # (1, sub, 1)
            b = np.digitize(np.hypot(dy, dz), edges) - 1             # (ny, sub, sub)
            cell = np.broadcast_to((k * ny + np.arange(ny))[:, None, None], b.shape)
            inside = (b >= 0) & (b < nbins)
            w += np.bincount(b[inside] * g.r.size + cell[inside], minlength=w.size)
        g.cache[key] = w.reshape(nbins, g.r.size) / SUBCELL ** 2
    return g.cache[key]


def radial_sums(a, g, nbins):
    """Sums of a (z, y, x) over x and the radial bins of R / nbins (h/2), each cell by its
    share of the annulus (radial_weights), and the cells summed per bin."""
    w = radial_weights(g, nbins)
    sums = w @ a.sum(axis=2).ravel()
    cells = w.sum(axis=1) * a.shape[2]
    return sums, cells


def phi_quantities(f, phi, g, nbins):
    """The quantities of a fields file without the velocity: the RBCs' radial profile."""
    prof_phi, prof_n = radial_sums(phi, g, nbins)
    nan = math.nan
    return {"step": f["step"], "time": f["time"], "Q": nan, "Ht": nan, "Hd": nan,
            "tau_mean": nan, "tau_max": nan, "prof_phi": prof_phi,
            "prof_u": np.full(nbins, nan), "prof_n": prof_n, "has_rbc": "phi_rbc" in f}


class Run:
    def __init__(self, study, entry):
        self.label, self.ht = entry["label"], entry["ht"]
        self.dir = os.path.join(study.dir, entry["dir"])
        self.diag = read_table(os.path.join(self.dir, "diagnostics.csv"))
        outputs = study.source != "fields"
        self.bodies = read_bodies_nc(os.path.join(self.dir, "bodies.nc")) if outputs else None
        self.bodies_source = "bodies.nc" if self.bodies is not None else "bodies.csv"
        if self.bodies is None:
            self.bodies = read_bodies(os.path.join(self.dir, "bodies.csv"))
        average = os.path.join(self.dir, "average.nc")
        self.average = average if outputs and os.path.exists(average) else None
        self.fields = fields_files(self.dir)
        self.case = study.name + "-" + self.label
        self.study = study
        self._fq = None
        self.notes = []

    @property
    def t0(self):
        """Start of the sampling window; the plasma reference, which may stop earlier
        (time.plasma_end_time), is averaged over the second half of its run."""
        st = self.study
        return 0.5 * st.plasma_t1 if self.ht is None and st.plasma_t1 < st.t1 else st.t0

    @property
    def end_time(self):
        """The run's time.end_time (the plasma reference's may be earlier)."""
        return self.study.plasma_t1 if self.ht is None else self.study.t1

    @property
    def t1(self):
        """End of the sampling window: efsi stops at the first step at or past its end time,
        up to one time step after it, and that last step belongs to the window (whether the
        run got there is measured against end_time, short_of_end)."""
        d = self.diag
        dt = float(d["dt"][-1]) if d is not None and len(d.get("dt", [])) else 0.0
        return self.end_time + dt

    @property
    def ok(self):
        return self.diag is not None and len(self.diag.get("time", [])) > 0

    def fields_series(self):
        """Per fields file: the quantities computed from it (read once, kept)."""
        if self._fq is None:
            st = self.study
            self._fq = []
            for p in self.fields:
                q = fields_quantities(p, st.geometry(p), st.mu, st.rbc_diameter, st.profile_bins)
                if q is None:
                    self.notes.append("%s unreadable, left out" % os.path.basename(p))
                    continue
                self._fq.append(q)
        return self._fq

    def series(self, key):
        """(time, values, source) of a quantity over time."""
        d = self.diag
        col = COLUMNS[key]
        if d is not None and col in d:
            return d["time"], d[col], "diagnostics.csv `%s`" % col
        if key == "Ht" and d is not None and "volume_rbc" in d and "volume_wall" in d:
            L = self.study.box
            lumen = L[0] * L[1] * L[2] - d["volume_wall"]
            return (d["time"], d["volume_rbc"] / lumen,
                    "diagnostics.csv `volume_rbc` / (box volume - `volume_wall`)")
        if key == "Ht" and d is not None and "volume_wall" in d and "volume_rbc" not in d:
            return d["time"], np.zeros_like(d["time"]), "no RBCs (no `volume_rbc` column)"
        fq = self.fields_series()
        if not fq:
            return np.array([]), np.array([]), "none (no readable fields file)"
        return (np.array([q["time"] for q in fq]), np.array([q[key] for q in fq]),
                "fields files (%d)" % len(fq))


class Study:
    def __init__(self, study_dir, source="outputs"):
        self.dir = study_dir
        self.source = source      # "outputs": average.nc and bodies.nc where there; "fields"
        path = os.path.join(study_dir, "study.json")
        try:
            with open(path) as f:
                info = json.load(f)
        except (OSError, ValueError) as e:
            raise AnalysisError("cannot read %s (%s): is this a study folder written by "
                                "studies/hematocrit-study?" % (path, e))
        s = info["settings"]
        self.study_file = info.get("study_file", "")
        self.settings, self.geo = s, info["geometry"]
        self.name = s["study"]["name"]
        self.D = s["vessel"]["diameter"]
        self.R = 0.5 * self.D
        self.mu, self.rho = s["fluid"]["viscosity"], s["fluid"]["density"]
        self.rbc_diameter = s["rbc"]["diameter"]
        self.G = s["drive"]["pressure_gradient"]
        self.t0, self.t1 = s["sampling"]["start"], s["time"]["end_time"]
        self.plasma_t1 = s["time"].get("plasma_end_time", self.t1)
        self.band = s["analysis"]["fig8_band"]
        self.threshold = s["analysis"]["cfl_threshold"]
        self.bins = s["analysis"]["radial_bins"]
        self.box = self.geo["length"]
        h = self.geo["h"]
        self.profile_bins = max(2, int(math.ceil(self.R / (0.5 * h))))
        # the empirical laws are for human cells (about 8 um): a study with scaled-down
        # cells is compared at the diameter scaled the same way
        self.D_law = self.D * 8.0 / self.rbc_diameter
        self._geometry = None
        self.runs = [Run(self, e) for e in info["runs"]]

    def geometry(self, path):
        if self._geometry is None:
            self._geometry = Geometry(efsi_output.read_netcdf(path, ("x", "y", "z"))[0], self.D)
        return self._geometry


# ---- the quantities ------------------------------------------------------------------------

STEADY_DRIFT = 0.02   # a flow rate that changes more between the window's halves: not steady
CFL_STEADY = 0.05     # likewise the cell-free layer (and by more than half a cell)


def halves_drift(t, v, t0, t1):
    """(relative change of the mean of v from the first to the second half of the samples
    in [t0, t1], the last sample time in it): whether a run is steady over its window."""
    t, v = np.asarray(t, dtype=float), np.asarray(v, dtype=float)
    eps = 1e-9 * max(abs(t1), 1.0)
    inside = t[(t >= t0 - eps) & (t <= t1 + eps) & np.isfinite(v)]
    if inside.size < 4:
        return math.nan, (float(inside[-1]) if inside.size else math.nan)
    last = float(inside[-1])
    mid = 0.5 * (t0 + last)
    first, second = window_mean(t, v, t0, mid), window_mean(t, v, mid, last)
    return (second / first - 1.0 if first else math.nan), last


def short_of_end(t_end, dt_end, t0, t1):
    """Did a run whose last diagnostics row is at t_end (time step dt_end) stop before its
    end time t1?  efsi's own end rule (docs/output.md, "efsi --status"): a run is at its end
    from t1 - 1e-6 dt on, and its last step may pass t1 by almost dt, so neither a row just
    past t1 nor a dt above 1 % of the window [t0, t1] makes it short.  Without dt (no
    table), 1 % of the window."""
    if not np.isfinite(t_end):
        return False
    slack = 1e-6 * dt_end if np.isfinite(dt_end) else 0.01 * (t1 - t0)
    return t_end < t1 - slack


def window_mean(t, v, t0, t1):
    """Time average over [t0, t1] (trapezoidal over the samples inside it)."""
    t, v = np.asarray(t, dtype=float), np.asarray(v, dtype=float)
    eps = 1e-9 * max(abs(t1), 1.0)
    m = (t >= t0 - eps) & (t <= t1 + eps) & np.isfinite(v)
    if not m.any():
        return math.nan
    tt, vv = t[m], v[m]
    if tt.size == 1 or tt[-1] <= tt[0]:
        return float(vv.mean())
    return float(np.sum(0.5 * (vv[1:] + vv[:-1]) * np.diff(tt)) / (tt[-1] - tt[0]))


def at_step0(t, v):
    t, v = np.asarray(t), np.asarray(v)
    return float(v[np.argmin(t)]) if t.size and np.min(t) == 0 else math.nan


def radial(b, study):
    """Radius r from the axis, radial velocity v_r, and the time of every platelet row."""
    yc, zc = 0.5 * study.box[1], 0.5 * study.box[2]
    dy, dz = b["y"] - yc, b["z"] - zc
    r = np.hypot(dy, dz)
    with np.errstate(invalid="ignore", divide="ignore"):
        vr = np.where(r > 0, (dy * b["v"] + dz * b["w"]) / r, 0.0)
    return r, vr


def platelet_rows(run):
    b = run.bodies
    if b is None:
        return None
    m = b["kind"] == "platelet"
    if not m.any():
        return None
    return {k: v[m] for k, v in b.items()}


def fig8_tracks(run, study):
    """{id: (time, r/R)} of the platelets whose first row lies in the band."""
    p = platelet_rows(run)
    if p is None:
        return {}
    r, _ = radial(p, study)
    out = {}
    for pid in np.unique(p["id"]):
        m = p["id"] == pid
        order = np.argsort(p["step"][m])
        t, rr = p["time"][m][order], r[m][order] / study.R
        if study.band[0] <= rr[0] <= study.band[1]:
            out[int(pid)] = (t, rr)
    return out


def fig9_profile(run, study):
    """Per radial bin of r/R: platelet rows in the sampling window, how many platelets they
    belong to, and the RMS of v_r."""
    p = platelet_rows(run)
    edges = np.linspace(0, 1, study.bins + 1)
    count = np.zeros(study.bins, dtype=int)
    who = np.zeros(study.bins, dtype=int)
    rms = np.full(study.bins, math.nan)
    if p is None:
        return edges, count, who, rms
    r, vr = radial(p, study)
    eps = 1e-9 * max(study.t1, 1.0)
    m = (p["time"] >= study.t0 - eps) & (p["time"] <= run.t1 + eps)
    rr, v = r[m] / study.R, vr[m]
    b = np.clip(np.digitize(rr, edges) - 1, 0, study.bins - 1)
    count = np.bincount(b, minlength=study.bins)
    bin_of_pair = np.unique(np.stack([b, p["id"][m]]), axis=1)[0]   # each (bin, id) once
    who = np.bincount(bin_of_pair.astype(int), minlength=study.bins)
    s2 = np.bincount(b, v * v, minlength=study.bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        rms = np.where(count > 0, np.sqrt(s2 / np.maximum(count, 1)), np.nan)
    return edges, count, who, rms


def rbc_profile(run, study):
    """Time-averaged azimuthal and axial mean of phi_rbc and u in radial bins of h/2 over
    [sampling.start, the run's end] (every run, the plasma reference too): from the run's
    average.nc (its samples: every fields_every steps from sampling.start, and the run's
    last step), else over the fields files in that window; "files": the samples."""
    if run.average:
        a = read_average(run.average)
        if a is not None and "u" in a:
            g = study.geometry(run.average)
            nbins = study.profile_bins
            prof_u, prof_n = radial_sums(a["u"], g, nbins)
            prof_phi, _ = radial_sums(a.get("phi_rbc", np.zeros_like(a["u"])), g, nbins)
            edges = np.linspace(0, study.R, nbins + 1)
            with np.errstate(invalid="ignore", divide="ignore"):
                return {"r": 0.5 * (edges[1:] + edges[:-1]), "phi": prof_phi / prof_n,
                        "u": prof_u / prof_n, "files": a["samples"], "n": prof_n * a["samples"],
                        "source": "average.nc (%d samples, t in [%.6g, %.6g])"
                                  % ((a["samples"],) + a["window"])}
        run.notes.append("average.nc unreadable: the profile from the fields files")
    fq = [q for q in run.fields_series()
          if study.t0 - 1e-9 * max(study.t1, 1) <= q["time"] <= run.t1 * (1 + 1e-9)]
    if not fq:
        return None
    prof = files_profile(fq, study)
    prof["source"] = "fields files (%d in the window)" % len(fq)
    return prof


def files_profile(fq, study):
    """The mean profile of the fields files fq (fields_quantities of each): bin centres r,
    phi_rbc and u, the number of files and the cells summed per bin."""
    n = sum(q["prof_n"] for q in fq)
    with np.errstate(invalid="ignore", divide="ignore"):
        phi = sum(q["prof_phi"] for q in fq) / n
        u = sum(q["prof_u"] for q in fq) / n
    edges = np.linspace(0, study.R, study.profile_bins + 1)
    return {"r": 0.5 * (edges[1:] + edges[:-1]), "phi": phi, "u": u, "files": len(fq),
            "n": n}


def cfl_series(run, study):
    """(times, cell-free layer thickness) from each fields file of a run with RBCs on its own:
    whether the layer has stopped changing."""
    t, c = [], []
    for q in run.fields_series():
        if not q["has_rbc"]:
            continue
        t.append(q["time"])
        c.append(cell_free_layer(files_profile([q], study), study, study.threshold)[0])
    return np.array(t, dtype=float), np.array(c, dtype=float)


def cfl_halves_drift(t, c, t0, t1):
    """Mean per-file CFL in the second half of [t0, t1] minus that in the first half (um), or
    nan without a file in each half."""
    eps = 1e-9 * max(abs(t1), 1.0)
    m = (t >= t0 - eps) & (t <= t1 + eps) & np.isfinite(c)
    if not m.any():
        return math.nan
    mid = 0.5 * (t0 + t[m].max())
    first, second = c[m & (t < mid)], c[m & (t >= mid)]
    return float(second.mean() - first.mean()) if first.size and second.size else math.nan


def cell_free_layer(prof, study, fraction):
    """R - r_edge, r_edge the largest radius at which the profile reaches `fraction` of its
    core value (the mean over r < R/2, area weighted); linear between bin centres."""
    r, phi, n = prof["r"], prof["phi"], prof["n"]
    core = r < 0.5 * study.R
    ref = float(np.nansum(phi[core] * n[core]) / np.sum(n[core])) if core.any() else 0.0
    if not ref > 0:
        ref = float(np.nanmax(phi)) if np.isfinite(phi).any() else 0.0
    if not ref > 0:
        return math.nan, ref
    level = fraction * ref
    above = np.where(np.nan_to_num(phi) >= level)[0]
    k = above.max()
    if k == len(r) - 1:
        return max(study.R - r[k], 0.0), ref
    r0, r1, p0, p1 = r[k], r[k + 1], phi[k], np.nan_to_num(phi[k + 1])
    edge = r0 + (p0 - level) / (p0 - p1) * (r1 - r0) if p0 != p1 else r0
    return float(study.R - edge), ref


# ---- figures -------------------------------------------------------------------------------

def colours(runs, study):
    """The colour of each run: its place among all the study's runs (plasma, then the
    hematocrits of the study file), so that a run has one colour in every figure, whichever
    runs a figure draws."""
    cmap = plt.get_cmap("viridis")
    everyone = [r.label for r in study.runs]
    n = len(everyone)
    return [cmap(everyone.index(r.label) / max(n - 1, 1) * 0.9) for r in runs]


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def figure_timeseries(study, runs, path):
    keys = ("Q", "Ht", "Hd", "tau_mean")
    units = {"Q": "µm³/µs", "Ht": "1", "Hd": "1", "tau_mean": "kPa (pg µm⁻¹ µs⁻²)"}
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    for ax, key in zip(axes.ravel(), keys):
        for run, c in zip(runs, colours(runs, study)):
            if key in ("Ht", "Hd") and run.ht is None:
                continue
            t, v, _ = run.series(key)
            if len(t):
                ax.plot(t, v, color=c, label=run.label, marker="." if len(t) < 30 else None)
        ax.axvspan(study.t0, study.t1, color="0.9", zorder=0, label="sampling window")
        ax.set_xlabel("time t (µs)")
        ax.set_ylabel("%s (%s)" % (NAMES[key], units[key]))
        ax.legend(fontsize=7)
    fig.suptitle("%s: lumen quantities over time" % study.name)
    save(fig, path)


def figure8(study, tracks, path):
    # one panel is as wide as the title needs
    fig, axes = plt.subplots(1, len(tracks), figsize=(max(5.5 * len(tracks), 8.0), 4.2),
                             squeeze=False)
    for ax, (run, tr) in zip(axes[0], tracks):
        for i, (pid, (t, rr)) in enumerate(sorted(tr.items())):
            ax.plot(t, rr, lw=0.9, label="platelet %d" % pid if i < 8 else None)
        ax.axhspan(study.band[0], study.band[1], color="0.92", zorder=0,
                   label="start band %.2g-%.2g" % tuple(study.band))
        ax.set_ylim(0, 1)
        ax.set_xlabel("time t (µs)")
        ax.set_ylabel("radial position r_p/(D/2) (1)")
        ax.set_title("%s: %d platelets from the band" % (run.case, len(tr)), fontsize=9)
        ax.legend(fontsize=7, loc="lower left")
    fig.suptitle("%s: radial position of platelets starting in r/(D/2) = %.2g-%.2g (Fig. 8)"
                 % ((study.name,) + tuple(study.band)), fontsize=10)
    save(fig, path)


def figure9(study, profiles, path):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    few = False
    runs = [run for run, _ in profiles]
    for (run, (edges, count, who, rms)), c in zip(profiles, colours(runs, study)):
        mid = 0.5 * (edges[1:] + edges[:-1])
        ax.plot(mid, rms, color=c, label="Ht = %g" % run.ht)
        solid = who >= FIG9_FEW_PLATELETS
        ax.plot(mid[solid], rms[solid], "o", color=c)
        ax.plot(mid[~solid], rms[~solid], "o", mfc="white", mec=c)
        few = few or bool(np.any(~solid & (count > 0)))
    if few:   # a bin crossed by one or two platelets is one of them moving, not a statistic
        ax.plot([], [], "o", mfc="white", mec="0.3",
                label="fewer than %d platelets in the bin" % FIG9_FEW_PLATELETS)
    ax.set_xlim(0, 1)
    ax.set_xlabel("radial position r/(D/2) (1)")
    ax.set_ylabel("RMS radial velocity of platelets (µm/µs)")
    ax.set_title("%s: platelet RMS radial velocity, t in [%g, %g] µs (Fig. 9)"
                 % (study.name, study.t0, study.t1), fontsize=9)
    ax.legend(fontsize=8)
    save(fig, path)


def figure_viscosity(study, rows, path):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    hd = np.linspace(0, max(0.5, np.nanmax([r["Hd"] for r in rows] + [0]) * 1.2), 200)
    ax.plot(hd, pries1992_mu_rel(hd, study.D_law), "k-",
            label="Pries et al. 1992, in vitro, D = %.3g µm" % study.D_law)
    efsi_points(ax, rows, "mu_rel", "o", "C3", 4, "efsi (Q_plasma / Q_blood)",
                "relative apparent viscosity µ_rel (1)",
                "%s: relative apparent viscosity, D = %g µm" % (study.name, study.D))
    save(fig, path)


def efsi_points(ax, rows, key, marker, colour, dy, label, ylabel, title):
    """The runs' points of `key` against H_D, each named by its Ht, and the axes' words."""
    for r in rows:
        ax.plot(r["Hd"], r[key], marker, color=colour)
        ax.annotate("Ht = %g" % r["ht"], (r["Hd"], r[key]), fontsize=7,
                    xytext=(4, dy), textcoords="offset points")
    ax.plot([], [], marker, color=colour, label=label)
    ax.set_xlabel("discharge hematocrit H_D (1)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)


def figure_fahraeus(study, rows, path):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    top = max(0.5, np.nanmax([r["Hd"] for r in rows] + [r["Ht_mean"] for r in rows] + [0]) * 1.2)
    hd = np.linspace(0, top, 200)
    ax.plot(hd, pries1990_tube_hematocrit(hd, study.D_law), "k-",
            label="Pries et al. 1990, in vitro, D = %.3g µm" % study.D_law)
    ax.plot(hd, hd, "k:", label="H_T = H_D (no Fåhræus effect)")
    efsi_points(ax, rows, "Ht_mean", "s", "C0", -10, "efsi (time averages)",
                "tube hematocrit H_T (1)",
                "%s: Fåhræus effect, D = %g µm" % (study.name, study.D))
    save(fig, path)


def figure_cfl(study, profiles, path):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.3))
    runs = [p[0] for p in profiles]
    for (run, prof, cfl, ref), c in zip(profiles, colours(runs, study)):
        lab = run.label if run.ht is None else "Ht = %g" % run.ht
        a2.plot(prof["r"] / study.R, prof["u"], color=c, label=lab)
        if run.ht is None or not run.ht > 0:
            continue
        a1.plot(prof["r"] / study.R, prof["phi"], color=c, label=lab)
        if np.isfinite(cfl):
            a1.axvline((study.R - cfl) / study.R, color=c, ls="--", lw=0.8,
                       label="edge, CFL %.2f µm" % cfl)
    a1.set_xlabel("radial position r/(D/2) (1)")
    a1.set_ylabel("time-averaged RBC volume fraction φ_rbc (1)")
    a1.set_title("%s: RBC profile; CFL edge at %g of the core value" % (study.name, study.threshold),
                 fontsize=9)
    a2.set_xlabel("radial position r/(D/2) (1)")
    a2.set_ylabel("time-averaged axial velocity u (µm/µs)")
    a2.set_title("%s: velocity profile" % study.name, fontsize=9)
    for a in (a1, a2):
        a.set_xlim(0, 1)
        if a.lines:
            a.legend(fontsize=7)
    save(fig, path)


def figure_cfl_series(study, tracks, path):
    fig, ax = plt.subplots(figsize=(7.5, 4.3))
    runs = [track[0] for track in tracks]
    for (run, t, c), col in zip(tracks, colours(runs, study)):
        ax.plot(t, c, "o-", color=col, ms=3, label="Ht = %g" % run.ht)
    ax.axvspan(study.t0, study.t1, color="0.9", zorder=0, label="sampling window")
    ax.set_xlabel("time t (µs)")
    ax.set_ylabel("cell-free layer thickness (µm)")
    ax.set_ylim(bottom=0)
    ax.set_title("%s: cell-free layer of each fields file (edge at %g of the core value)"
                 % (study.name, study.threshold), fontsize=9)
    ax.legend(fontsize=7)
    save(fig, path)


def shaded(tri, colour, alpha):
    """Face colours lit by one distant light (Lambert, both sides), so that touching cells
    stay apart in the picture; colour is one colour or an (n, 3) array, one per face."""
    from matplotlib.colors import to_rgb
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1), 1e-300)[:, None]
    light = np.array([-0.35, -0.75, 0.55])
    light /= np.linalg.norm(light)
    k = 0.35 + 0.65 * np.abs(n @ light)
    if np.ndim(colour) != 2:
        colour = np.array(to_rgb(colour))[None, :]
    rgb = np.asarray(colour, dtype=float) * k[:, None]
    return np.column_stack([rgb, np.full(len(k), alpha)])


# shades of red for the RBCs of Fig. 7, one per cell, neighbours in the list well apart
RBC_SHADES = ("#c0392b", "#e8806f", "#7b241c", "#e74c3c", "#a04000", "#f1948a", "#922b21",
              "#dc7633")


def rbc_owner(run, step, centres_xyz, L):
    """For points (n, 3), the index of the nearest RBC tracer (bodies.csv, the row nearest
    `step`; periodic along x) and the number of RBCs; (None, 0) without bodies.csv."""
    b = run.bodies
    if b is None:
        return None, 0
    rbc = b["kind"] == "rbc"
    if not rbc.any():
        return None, 0
    steps = np.unique(b["step"][rbc])
    at = rbc & (b["step"] == steps[np.argmin(np.abs(steps - step))])
    tracer = np.column_stack([b["x"][at], b["y"][at], b["z"][at]])
    owner = np.empty(len(centres_xyz), dtype=int)
    chunk = 20000                                       # points at a time: bounded memory
    for lo in range(0, len(centres_xyz), chunk):
        d = centres_xyz[lo:lo + chunk, None, :] - tracer[None, :, :]
        d[..., 0] -= L[0] * np.round(d[..., 0] / L[0])
        owner[lo:lo + chunk] = np.argmin((d * d).sum(axis=-1), axis=1)
    return owner, len(tracer)


def figure7(study, run, path):
    """3-D picture of the last fields file of a run: phi = 1/2 isosurfaces of RBCs and
    platelets, and the back half of the lumen surface, translucent."""
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    from matplotlib.patches import Patch
    from matplotlib.colors import to_rgb
    files = run.fields
    f = read_fields(files[-1], ("phi_rbc", "phi_platelet", "phi_wall")) if files else None
    if f is None:
        raise AnalysisError("%s has no readable fields file for the 3-D picture" % run.dir)
    g = study.geometry(files[-1])
    h = (g.hz, g.h, g.hx)
    try:
        from skimage.measure import marching_cubes
    except ImportError:
        marching_cubes = None
    fig = plt.figure(figsize=(9, 6))
    ax = fig.add_subplot(111, projection="3d")
    handles = []
    style = {"phi_rbc": ("RBC (φ = 1/2)", "#c0392b", 1.0),
             "phi_platelet": ("platelet (φ = 1/2)", "#f1c40f", 1.0),
             "phi_wall": ("lumen surface (back half)", "#7f8c8d", 0.15)}
    method = "marching cubes" if marching_cubes else "surface cells (python3-skimage absent)"
    for name in ("phi_wall", "phi_rbc", "phi_platelet"):
        if name not in f or f[name].max() < 0.5 or f[name].min() > 0.5:
            continue
        label, colour, alpha = style[name]
        vol = f[name]
        if marching_cubes is not None:
            # about 12 cells across an RBC are enough for the picture
            step = max(1, study.settings["grid"]["cells_per_rbc"] // 12)
            verts, faces, _, _ = marching_cubes(vol, 0.5, spacing=h, step_size=step)
            verts = verts + 0.5 * np.array(h)          # cell centres
            xyz = verts[:, ::-1]                        # (z, y, x) -> (x, y, z)
            if name == "phi_wall":                      # cut away the front (y < yc) half
                keep = xyz[faces][:, :, 1].mean(axis=1) > g.yc
                faces = faces[keep]
            tri = xyz[faces]
            face_colour = colour
            if name == "phi_rbc":    # one shade per cell: the nearest RBC tracer owns a face
                owner, count = rbc_owner(run, f["step"], tri.mean(axis=1), g.L)
                if owner is not None and count > 1:
                    shades = np.array([to_rgb(c) for c in RBC_SHADES])
                    face_colour = shades[owner % len(shades)]
                    label = "RBC (φ = 1/2), %d cells, a shade each" % count
            poly = Poly3DCollection(tri, facecolor=shaded(tri, face_colour, alpha),
                                    edgecolor="none", linewidth=0)
            ax.add_collection3d(poly)
        else:
            inside = vol >= 0.5
            edge = inside & ~(np.roll(inside, 1, 0) & np.roll(inside, -1, 0) & np.roll(inside, 1, 1)
                              & np.roll(inside, -1, 1) & np.roll(inside, 1, 2) & np.roll(inside, -1, 2))
            k, j, i = np.nonzero(edge)
            xs, ys, zs = g.x[i], g.y[j], g.z[k]
            if name == "phi_wall":
                keep = (ys > g.yc) & (np.hypot(ys - g.yc, zs - g.zc) < g.R + 2 * g.h)
                xs, ys, zs = xs[keep], ys[keep], zs[keep]
            ax.scatter(xs, ys, zs, s=1, color=colour, alpha=alpha)
        handles.append(Patch(facecolor=colour, alpha=max(alpha, 0.4), label=label))
    ax.set_xlim(0, g.L[0])
    ax.set_ylim(0, g.L[1])
    ax.set_zlim(0, g.L[2])
    ax.set_box_aspect(g.L)
    ax.set_xlabel("x (µm, along the vessel)")
    ax.set_ylabel("y (µm)")
    ax.set_zlabel("z (µm)")
    ax.view_init(elev=22, azim=-62)
    ax.legend(handles=handles, loc="upper left", fontsize=8)
    ax.set_title("%s at t = %.4g µs (step %d): cells and vessel wall (Fig. 7)"
                 % (run.case, f["time"], f["step"]), fontsize=9)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return method, os.path.basename(files[-1])


# ---- tables and the report -----------------------------------------------------------------

def fmt(x, spec="%.4g"):
    return "-" if x is None or (isinstance(x, float) and not math.isfinite(x)) else spec % x


def analyse(study_dir, log=print, source="outputs"):
    st = Study(study_dir, source)
    runs = [r for r in st.runs if r.ok]
    missing = [r.label for r in st.runs if not r.ok]
    if not runs:
        raise AnalysisError("no run of %s has a diagnostics.csv yet" % study_dir)
    plasma = next((r for r in runs if r.ht is None), None)
    blood = sorted((r for r in runs if r.ht is not None), key=lambda r: r.ht)
    out = lambda name: os.path.join(study_dir, name)  # noqa: E731
    files = {}
    sources = {k: {} for k in COLUMNS}

    # time series and their window means
    summary, ts_rows = [], []
    for run in runs:
        row = {"label": run.label, "ht": run.ht}
        for key in COLUMNS:
            t, v, src = run.series(key)
            sources[key].setdefault(src, []).append(run.label)
            row[key] = window_mean(t, v, run.t0, run.t1)
            if key == "Q":
                row["Q_drift"], row["t_last"] = halves_drift(t, v, run.t0, run.t1)
                row["t0"], row["t1"], row["end_time"] = run.t0, run.t1, run.end_time
                d = run.diag
                has = d is not None and len(d.get("time", [])) and "dt" in d
                row["t_end"] = float(d["time"][-1]) if has else row["t_last"]
                row["dt_end"] = float(d["dt"][-1]) if has else math.nan
            if key == "Ht":
                row["Ht0"] = at_step0(t, v)
            for ti, vi in zip(t, v):
                ts_rows.append((run.label, key, float(ti), float(vi)))
        b = run.bodies
        row["rbc_count"] = 0 if b is None else len(np.unique(b["id"][b["kind"] == "rbc"]))
        row["platelet_count"] = 0 if b is None else len(np.unique(b["id"][b["kind"] == "platelet"]))
        v_lumen = math.pi * st.R ** 2 * st.box[0]
        row["Ht_seeded"] = row["rbc_count"] * rbc_volume(st.rbc_diameter) / v_lumen
        summary.append(row)
    q_plasma = next((r["Q"] for r in summary if r["ht"] is None), math.nan)
    for r in summary:
        r["mu_rel"] = q_plasma / r["Q"] if r["Q"] else math.nan
    efsi_output.write_csv(out("timeseries.csv"), ["run", "quantity", "time_us", "value"],
                          [(a, COLUMNS[k], t, v) for a, k, t, v in ts_rows], digits=CSV_DIGITS)
    files["timeseries.csv"] = "every quantity over time, per run (long format)"
    figure_timeseries(st, runs, out("timeseries.png"))
    files["timeseries.png"] = "lumen flow rate, tube and discharge hematocrit, wall shear over time"
    log("analysis: time series of %d runs" % len(runs))

    # cell-free layer from the time-averaged RBC profile
    prof_rows, cfl_plot = [], []
    for run, row in zip(runs, summary):
        prof = rbc_profile(run, st)
        row["cfl"] = row["cfl_lo"] = row["cfl_hi"] = math.nan
        row["profile_files"] = 0 if prof is None else prof["files"]
        row["profile_source"] = "none" if prof is None else prof["source"]
        if prof is None:
            continue
        ref = math.nan
        if run.ht is not None and run.ht > 0:
            row["cfl"], ref = cell_free_layer(prof, st, st.threshold)
            row["cfl_lo"], _ = cell_free_layer(prof, st, 0.5 * st.threshold)
            row["cfl_hi"], _ = cell_free_layer(prof, st, 2 * st.threshold)
        cfl_plot.append((run, prof, row["cfl"], ref))
        for r, p, u, n in zip(prof["r"], prof["phi"], prof["u"], prof["n"]):
            prof_rows.append((run.label, r, r / st.R, p, u, float(n)))
    cfl_rows, cfl_tracks = [], []
    for run, row in zip(runs, summary):
        row["cfl_drift"] = math.nan
        if run.ht is None or not run.ht > 0:
            continue
        t, c = cfl_series(run, st)
        row["cfl_drift"] = cfl_halves_drift(t, c, run.t0, run.t1)
        cfl_tracks.append((run, t, c))
        cfl_rows += [(run.label, float(ti), float(ci)) for ti, ci in zip(t, c)]
    efsi_output.write_csv(out("cell_free_layer_timeseries.csv"), ["run", "time_us", "cfl_um"],
                          cfl_rows, digits=CSV_DIGITS)
    files["cell_free_layer_timeseries.csv"] = "the CFL of each fields file on its own, per run"
    figure_cfl_series(st, cfl_tracks, out("cell_free_layer_timeseries.png"))
    files["cell_free_layer_timeseries.png"] = "the CFL over time: whether the layer has settled"
    efsi_output.write_csv(out("radial_profiles.csv"),
                          ["run", "r_um", "r_over_R", "phi_rbc", "u_um_per_us",
                           "cells_times_files"], prof_rows, digits=CSV_DIGITS)
    files["radial_profiles.csv"] = "time-averaged phi_rbc and u in radial bins of h/2"
    figure_cfl(st, cfl_plot, out("cell_free_layer.png"))
    files["cell_free_layer.png"] = "RBC volume-fraction and velocity profiles, CFL edges"

    # viscosity and Fåhræus effect
    vrows = [{"ht": r["ht"], "Hd": r["Hd"] if r["ht"] else 0.0, "mu_rel": r["mu_rel"],
              "Ht_mean": r["Ht"] if r["ht"] else 0.0} for r in summary if r["ht"] is not None]
    for v in vrows:
        v["Hd"] = 0.0 if not math.isfinite(v["Hd"]) else v["Hd"]
    figure_viscosity(st, vrows, out("viscosity.png"))
    files["viscosity.png"] = "relative apparent viscosity against discharge hematocrit, Pries 1992"
    figure_fahraeus(st, vrows, out("fahraeus.png"))
    files["fahraeus.png"] = "tube against discharge hematocrit, Pries 1990"

    # platelets: Figs. 8 and 9
    f8_rows, tracks = [], []
    f8_runs = [r for r in blood if r.ht == 0][:1] + ([blood[-1]] if blood and blood[-1].ht > 0 else [])
    for run in f8_runs:
        tr = fig8_tracks(run, st)
        tracks.append((run, tr))
        for pid, (t, rr) in sorted(tr.items()):
            for ti, ri in zip(t, rr):
                f8_rows.append((run.label, pid, float(ti), float(ri)))
    efsi_output.write_csv(out("fig8_platelet_radial_position.csv"),
                          ["run", "id", "time_us", "r_over_R"], f8_rows, digits=CSV_DIGITS)
    files["fig8_platelet_radial_position.csv"] = "r_p/(D/2) over time of the platelets from the band"
    if tracks:
        figure8(st, tracks, out("fig8_platelet_radial_position.png"))
        files["fig8_platelet_radial_position.png"] = "Fig. 8"
    f9, f9_rows = [], []
    for run in blood:
        edges, count, who, rms = fig9_profile(run, st)
        f9.append((run, (edges, count, who, rms)))
        for k in range(len(count)):
            f9_rows.append((run.label, run.ht, float(edges[k]), float(edges[k + 1]), int(count[k]),
                            int(who[k]), float(rms[k])))
    efsi_output.write_csv(out("fig9_platelet_rms_radial_velocity.csv"),
                          ["run", "ht", "r_over_R_lo", "r_over_R_hi", "samples", "platelets",
                           "rms_v_r_um_per_us"], f9_rows, digits=CSV_DIGITS)
    files["fig9_platelet_rms_radial_velocity.csv"] = "RMS radial velocity of platelets per radial bin"
    if f9:
        figure9(st, f9, out("fig9_platelet_rms_radial_velocity.png"))
        files["fig9_platelet_rms_radial_velocity.png"] = "Fig. 9"
    log("analysis: platelets (Figs. 8, 9), viscosity, Fåhræus effect, cell-free layer")

    # Fig. 7
    fig7 = None
    top = blood[-1] if blood else None
    if top is not None and top.fields:
        fig7 = figure7(st, top, out("fig7_cells_3d.png"))
        files["fig7_cells_3d.png"] = "Fig. 7"
        log("analysis: 3-D picture of %s (%s)" % (top.label, fig7[0]))

    header = ["run", "ht_nominal", "rbc_count", "platelet_count", "ht_seeded", "ht_tube_step0",
              "ht_tube_mean", "ht_discharge_mean", "flow_rate_mean_um3_per_us", "mu_rel",
              "wall_shear_mean_kPa", "wall_shear_max_kPa", "cfl_um",
              "cfl_um_half_threshold", "cfl_um_double_threshold", "profile_fields_files",
              "flow_rate_drift_between_halves", "cfl_um_drift_between_halves",
              "last_sample_time_us"]
    efsi_output.write_csv(out("summary.csv"), header,
                          [(r["label"], "" if r["ht"] is None else r["ht"], r["rbc_count"],
                            r["platelet_count"], r["Ht_seeded"], r["Ht0"], r["Ht"], r["Hd"], r["Q"],
                            r["mu_rel"], r["tau_mean"], r["tau_max"], r["cfl"], r["cfl_lo"],
                            r["cfl_hi"], r["profile_files"], r["Q_drift"], r["cfl_drift"],
                            r["t_last"])
                           for r in summary], digits=CSV_DIGITS)
    files["summary.csv"] = "one row per run: hematocrits, flow rate, mu_rel, wall shear, CFL"
    write_report(st, runs, missing, summary, sources, files, tracks, fig7, plasma)
    log("analysis: %d files and report.md in %s" % (len(files), study_dir))
    return summary


def write_report(st, runs, missing, summary, sources, files, tracks, fig7, plasma):
    s = st.settings
    gdot = st.G * st.R / (2 * st.mu)
    a = 0.5 * st.rbc_diameter
    L = []
    w = L.append
    w("# Hematocrit study `%s`" % st.name)
    w("")
    w("Written by `studies/hematocrit_analysis.py` from the runs in this folder (study file "
      "`%s`). How each quantity is computed: docs/studies.md." % os.path.basename(st.study_file))
    w("")
    w("| setting | value |")
    w("|---|---|")
    w("| lumen diameter D | %g µm (wall %g µm; box %s µm) |" % (
        st.D, s["vessel"]["wall"], " x ".join("%g" % x for x in st.box)))
    w("| grid | %s cells, h = %.4g µm (%d cells across an RBC of %g µm) |" % (
        " x ".join(str(n) for n in st.geo["cells"]), st.geo["h"], s["grid"]["cells_per_rbc"],
        st.rbc_diameter))
    w("| drive | pressure gradient %g pg µm⁻² µs⁻² |" % st.G)
    w("| moduli | RBC %g, platelet %g, vessel wall %g kPa |" % (
        s["rbc"]["modulus"], s["platelet"]["modulus"], s["vessel"]["modulus"]))
    w("| plasma wall shear rate G R/(2 µ) | %.4g µs⁻¹ |" % gdot)
    w("| capillary number µ γ̇_w / G_rbc | %.3g |" % (st.mu * gdot / s["rbc"]["modulus"]))
    w("| particle Reynolds number ρ γ̇_w a² / µ (a = RBC radius) | %.3g |" % (
        st.rho * gdot * a * a / st.mu))
    w("| sampling window | t in [%g, %g] µs |" % (st.t0, st.t1))
    w("")
    if missing:
        w("Runs without output yet (left out): %s." % ", ".join(missing))
        w("")
    w("## Runs")
    w("")
    w("| run | Ht asked | RBCs | platelets | Ht seeded | Ht at step 0 | Ht (mean) | Hd (mean) "
      "| Q (µm³/µs) | µ_rel | τ_w mean (kPa) | τ_w max (kPa) | CFL (µm) |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in summary:
        w("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], "-" if r["ht"] is None else "%g" % r["ht"], r["rbc_count"],
            r["platelet_count"], fmt(r["Ht_seeded"]), fmt(r["Ht0"]), fmt(r["Ht"]), fmt(r["Hd"]),
            fmt(r["Q"]), fmt(r["mu_rel"], "%.4f"), fmt(r["tau_mean"]), fmt(r["tau_max"]),
            fmt(r["cfl"], "%.3g")))
    w("")
    w("Table: [summary.csv](summary.csv); time series: [timeseries.csv](timeseries.csv). "
      "µ_rel = Q_plasma / Q_run with Q the lumen flow rate averaged over the sampling window "
      "(plasma run: `%s`)." % (plasma.label if plasma else "missing"))
    w("")
    unsteady = [r for r in summary if np.isfinite(r["Q_drift"]) and abs(r["Q_drift"]) > STEADY_DRIFT]
    short = [r for r in summary
             if short_of_end(r["t_end"], r["dt_end"], r["t0"], r["end_time"])]
    if unsteady:
        w("**Not steady.** The lumen flow rate changed by more than %g %% from the first half "
          "of the sampling window to the second in %s: their µ_rel, hematocrits and wall shear "
          "are not yet results (summary.csv: flow_rate_drift_between_halves)." % (
              100 * STEADY_DRIFT, ", ".join("%s (%+.1f %%)" % (r["label"], 100 * r["Q_drift"])
                                            for r in unsteady)))
        w("")
    h = st.geo["h"]
    layer = [r for r in summary if np.isfinite(r["cfl_drift"]) and np.isfinite(r["cfl"])
             and abs(r["cfl_drift"]) > max(CFL_STEADY * r["cfl"], 0.5 * h)]
    if layer:
        w("**Cell-free layer not settled.** Its thickness, from each fields file on its own, "
          "changed by more than %g %% and more than half a cell (%.3g µm) from the first half "
          "of the sampling window to the second in %s (summary.csv: "
          "cfl_um_drift_between_halves; cell_free_layer_timeseries.png)." % (
              100 * CFL_STEADY, 0.5 * h, ", ".join("%s (%+.2f µm)" % (r["label"], r["cfl_drift"])
                                                   for r in layer)))
        w("")
    if short:
        w("**Runs short of their window's end**: %s." % ", ".join(
            "%s (to t = %g of %.4g µs)" % (r["label"], r["t_end"], r["end_time"])
            for r in short))
        w("")
    w("**Sources.** Each quantity over time, and where it came from:")
    w("")
    for key, src in sources.items():
        w("- %s: %s." % (NAMES[key], "; ".join("%s (%s)" % (k, ", ".join(v)) for k, v in src.items())))
    w("- time-averaged radial profiles of phi_rbc and u (the cell-free layer): %s." % "; ".join(
        "%s: %s" % (r["label"], r.get("profile_source", "none")) for r in summary))
    w("- bodies (counts, Figs. 8 and 9): %s." % "; ".join(
        "%s: %s" % (run.label, run.bodies_source) for run in runs if run.bodies is not None))
    w("")
    w("From fields files: lumen = cells with phi_wall < 1/2 inside the tube; flow rate = the sum "
      "of u over the lumen cells times h³ / Lx (the mean over x of the flux through a "
      "cross-section); discharge hematocrit = the same sum of u phi_rbc over that of u; tube "
      "hematocrit = sum of phi_rbc / sum of (1 - phi_wall) in the tube; wall shear = µ du/ds at "
      "the effective wall from least-squares fits u - u_w = c0 + c1 s + c2 s² (s = R - r, u_w the "
      "velocity of the wall cells within 2h outside D/2) to the lumen cells with s in [%g, %g] "
      "cells, the wall being where the fit reaches zero (D/2 if not within a cell or two): one "
      "fit over all of them (mean), one per axial cell and each of %d azimuthal sectors "
      "(largest)." % (SHELL_LO, SHELL_HI, SECTORS))
    w("")
    w("## Lumen quantities over time")
    w("")
    w("![time series](timeseries.png)")
    w("")
    w("## Relative apparent viscosity and the Fåhræus effect")
    w("")
    w("Pries et al. (1992), in vitro, relative apparent viscosity; Pries et al. (1990), tube "
      "hematocrit from discharge hematocrit: both at D = %.3g µm%s." % (
          st.D_law, "" if st.D_law == st.D else
          " (the lumen diameter scaled by 8 µm / the study's RBC diameter)"))
    w("")
    w("![viscosity](viscosity.png)")
    w("")
    w("![Fåhræus effect](fahraeus.png)")
    w("")
    w("## Cell-free layer")
    w("")
    w("The edge of the RBC core is the largest radius at which the time-averaged, azimuthally "
      "and axially averaged phi_rbc reaches %g of its core value (its mean over r < D/4); the "
      "cell-free layer is R minus that radius. summary.csv also gives it at half and at twice "
      "that threshold. Profiles: [radial_profiles.csv](radial_profiles.csv)." % st.threshold)
    w("")
    w("| run | CFL (µm) | at %g | at %g | change between the window's halves (µm) |" % (
        0.5 * st.threshold, 2 * st.threshold))
    w("|---|---|---|---|---|")
    for r in summary:
        if r["ht"]:
            w("| %s | %s | %s | %s | %s |" % (
                r["label"], fmt(r["cfl"], "%.3g"), fmt(r["cfl_lo"], "%.3g"),
                fmt(r["cfl_hi"], "%.3g"), fmt(r["cfl_drift"], "%+.2f")))
    w("")
    w("![cell-free layer](cell_free_layer.png)")
    w("")
    w("Whether the layer has settled: the same edge from each fields file on its own, over the "
      "whole run ([cell_free_layer_timeseries.csv](cell_free_layer_timeseries.csv)); the last "
      "column above is the mean of those in the second half of the window minus that in the "
      "first.")
    w("")
    w("![cell-free layer over time](cell_free_layer_timeseries.png)")
    w("")
    w("## Platelets: radial position (Fig. 8) and RMS radial velocity (Fig. 9)")
    w("")
    w("Radial position r_p = |(y, z) - (Ly/2, Lz/2)| of each platelet tracer (bodies.csv); "
      "Fig. 8 follows those whose first row lies in r/(D/2) in [%g, %g] (%s). Fig. 9: radial "
      "velocity v_r = ((y - Ly/2) v + (z - Lz/2) w) / r_p of every platelet row in the sampling "
      "window, RMS per bin of r/(D/2) (%d bins; a hollow marker: fewer than %d platelets "
      "crossed the bin, so its value is that of one or two moving platelets): "
      "[fig9_platelet_rms_radial_velocity.csv](fig9_platelet_rms_radial_velocity.csv)." % (
          st.band[0], st.band[1],
          ", ".join("%s: %d" % (run.label, len(tr)) for run, tr in tracks) or "no run",
          st.bins, FIG9_FEW_PLATELETS))
    w("")
    if "fig8_platelet_radial_position.png" in files:
        w("![Fig. 8](fig8_platelet_radial_position.png)")
        w("")
    if "fig9_platelet_rms_radial_velocity.png" in files:
        w("![Fig. 9](fig9_platelet_rms_radial_velocity.png)")
        w("")
    w("## Cells and vessel wall (Fig. 7)")
    w("")
    if fig7:
        w("The phi = 1/2 surfaces of the RBCs, the platelets and the lumen (phi_wall = 1/2, cut "
          "away in front) in `%s` of the highest-hematocrit run, drawn by %s; each face of the "
          "RBCs' surface is shaded as the RBC whose tracer is nearest." % (fig7[1], fig7[0]))
        w("")
        w("![Fig. 7](fig7_cells_3d.png)")
    else:
        w("No fields file of a run with cells: no picture.")
    w("")
    w("## Files")
    w("")
    for name, what in files.items():
        w("- [%s](%s): %s" % (name, name, what))
    notes = [(run.label, n) for run in runs for n in run.notes]
    if notes:
        w("")
        w("Notes: " + "; ".join("%s: %s" % x for x in notes))
    with open(os.path.join(st.dir, "report.md.tmp"), "w") as f:
        f.write("\n".join(L) + "\n")
    os.replace(os.path.join(st.dir, "report.md.tmp"), os.path.join(st.dir, "report.md"))


def main(argv):
    source = "outputs"
    if len(argv) == 4 and argv[2] == "--from" and argv[3] in ("outputs", "fields"):
        source = argv[3]
        argv = argv[:2]
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: studies/hematocrit_analysis.py STUDY_DIR [--from outputs|fields]\n")
        return 2
    try:
        analyse(argv[1], source=source)
    except AnalysisError as e:
        sys.stderr.write("hematocrit_analysis: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
