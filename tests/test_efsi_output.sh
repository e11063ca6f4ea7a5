#!/bin/sh
# tools/efsi_output.py, the module every script reads efsi's output with and asks efsi
# through (docs/scripts.md), on the output of two small runs written here: a Taylor-Green
# flow with a sphere (6 steps, fields and restart files every 3, a row every 2) and the same
# stopped by time.wall_limit; and efsi --check of a case with an RBC and a platelet.
#   - status(): finished at step 6 with restart_00000006.nc, the run identity of the files;
#     continue from step 6 with --steps 12; a missing folder is new; a bad case EfsiError 2;
#   - check(): dt, steps, cell-updates and memory as printed; each family's count and the
#     fraction it fills (the platelet's 4/3 pi a b c over the box to the printed digits, the
#     RBC's against the volume efsi drew at step 0 within 2 %); a refusal's status and line;
#   - the exit statuses: EXIT_* are base/errors.h's; the meanings are efsi's own (its record
#     of a finished and of a stopped run); outcome() takes the record's 4 over a launcher's 1;
#   - diagnostics.csv: the documented first columns, steps 0 2 4 6, a row being written (no
#     newline) left out; bodies.csv: the sphere's tracer at its centre at step 0;
#   - fields: the steps 0 3 6; u at step 0 the mean of the Taylor-Green face values to
#     round-off; phi_sphere's volume that of diagnostics.csv; restart variables as stored;
#     with h5py installed, the same numbers and attributes through h5py as through netCDF4;
#   - performance.json, run.json, case_value().
# Skipped (77) without /usr/bin/python3 with numpy and netCDF4 or h5py.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "${top_srcdir:-$(dirname "$0")/..}" && pwd)
/usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "python3 numpy absent: skipped"; exit 77; }
/usr/bin/python3 -c 'import netCDF4' 2>/dev/null || /usr/bin/python3 -c 'import h5py' 2>/dev/null ||
  { echo "python3 netCDF4 and h5py absent: skipped"; exit 77; }

write_case "$tmp/tg.ini" "16 8 8" "4 2 2" <<'EOF'
[boundary]
y = wall
[init]
flow = taylor-green
flow_amplitude = 0.05
[sphere]
center = 2 1 1
radius = 0.6
modulus = 0.5
[time]
steps = 6
[output]
fields_every = 3
restart_every = 3
diagnostics_every = 2
EOF
write_case "$tmp/bodies.ini" "24 24 24" "4 4 4" <<'EOF'
[boundary]
y = periodic
[rbc]
count = 1
diameter = 3
orientation = z
[platelet]
count = 1
semi_axes = 1 1 0.8
modulus = 0.1
[time]
steps = 1
[output]
diagnostics_every = 1
EOF
e1 -o "$tmp/tg" "$tmp/tg.ini" > "$tmp/tg.log" 2>&1 || { cat "$tmp/tg.log"; echo "FAIL: the run"; exit 1; }
e1 -o "$tmp/stop" --set time.wall_limit=0.001 --steps 1000 "$tmp/tg.ini" > "$tmp/stop.log" 2>&1
stop=$?
e1 -o "$tmp/bodies" "$tmp/bodies.ini" > "$tmp/bodies.log" 2>&1 ||
  { cat "$tmp/bodies.log"; echo "FAIL: the run with bodies"; exit 1; }
[ $stop -eq 4 ] || { cat "$tmp/stop.log"; echo "FAIL: time.wall_limit: exit status $stop, not 4"; exit 1; }

/usr/bin/python3 - "$top" "$efsi" "$tmp" <<'PY'
import math, os, re, shutil, sys, time
top, efsi, tmp = sys.argv[1:]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(top, "tools"))
import numpy as np
import efsi_output as eo

failed = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failed.append(what)


tg, case = os.path.join(tmp, "tg"), os.path.join(tmp, "tg.ini")

# ---- asking efsi
st = eo.status(efsi, tg, case)
check(st["next"] == "finished" and st["last_step"] == 6 and st["finished"],
      "status: finished at step 6 (%s, %s)" % (st["next"], st["last_step"]))
check(os.path.basename(st["restart"]["file"]) == "restart_00000006.nc" and st["restart"]["step"] == 6,
      "status: the restart file to go on from is restart_00000006.nc (%s)" % st["restart"])
more = eo.status(efsi, tg, case, steps=12)
check(more["next"] == "continue" and more["restart"]["step"] == 6,
      "status --steps 12: continue from step 6 (%s)" % more["next"])
check(eo.status(efsi, os.path.join(tmp, "nothing"))["next"] == "new", "status: a missing folder is new")
bad = os.path.join(tmp, "bad.ini")
with open(bad, "w") as f:
    f.write("[grid]\ncells = 8 8\n")
try:
    eo.status(efsi, tg, bad)
    check(False, "status of a bad case raises EfsiError")
except eo.EfsiError as e:
    check(e.status == eo.EXIT_INPUT and "grid.cells" in str(e),
          "status of a bad case: EfsiError %d, %s" % (e.status, e))

c = eo.check(efsi, case)
d = eo.diagnostics(tg)
check(c.ok and c.steps == 6 and c.cell_updates == 6 * 16 * 8 * 8 and c.memory_mib > 0
      and abs(c.dt / d["dt"][-1] - 1) < 1e-5 and c.wall_time is not None,
      "check: dt %s (the run's %r), %s steps, %s cell-updates, %s MiB per rank, %s"
      % (c.dt, d["dt"][-1], c.steps, c.cell_updates, c.memory_mib, c.wall_time))
refused = eo.check(efsi, bad)
check(not refused.ok and refused.status == 2 and "grid.cells" in refused.message,
      "check of a bad case: status %d, %s" % (refused.status, refused.message))
b = eo.check(efsi, os.path.join(tmp, "bodies.ini"))
kinds = {f["kind"]: f for f in b.bodies}
platelet = 4.0 / 3.0 * math.pi * 0.8 / 64.0
drawn = eo.diagnostics(os.path.join(tmp, "bodies"))["volume_rbc"][0] / 64.0
check(sorted(kinds) == ["platelet", "rbc"] and kinds["rbc"]["count"] == 1
      and kinds["platelet"]["count"] == 1 and abs(kinds["platelet"]["fraction"] - platelet) <= 5e-5
      and abs(kinds["rbc"]["fraction"] / drawn - 1) < 0.02,
      "check: bodies %s; the platelet's 4/3 pi a b c / box %.5f, the RBC drawn %.5f"
      % (b.bodies, platelet, drawn))

# ---- exit statuses: the numbers of base/errors.h, the meanings of efsi's record
defined = dict(re.findall(r"#define EFSI_EXIT_(\w+) (\d+)", open(os.path.join(top, "base", "errors.h")).read()))
check({k: int(v) for k, v in defined.items()} == {"RUNTIME": eo.EXIT_RUNTIME, "INPUT": eo.EXIT_INPUT,
      "BLOWUP": eo.EXIT_BLOWUP, "STOPPED": eo.EXIT_STOPPED}, "EXIT_* are base/errors.h's: %s" % defined)
stop = os.path.join(tmp, "stop")
last = eo.status(efsi, stop)["last_run"]
check(last["exit_status"] == 4 and last["meaning"] == eo.exit_meaning(4)
      and st["last_run"]["meaning"] == eo.exit_meaning(0),
      "exit_meaning(0), (4) are efsi's words: %r" % last["meaning"])
status, meaning, why = eo.outcome(efsi, stop, 1, started=time.time() - 3600)
check(status == 4 and "wall_limit" in (why or ""),
      "outcome of a launcher's 1 where efsi stopped with 4: %d, %s (%s)" % (status, meaning, why))
status, meaning, why = eo.outcome(efsi, stop, 1, started=time.time() + 3600)
check(status == 1 and why is None, "outcome without a record of this run: the launcher's status")

# ---- the tables
check(d.columns[:8] == ["step", "time", "dt", "beta", "gamma", "mach", "div_rms", "div_max"]
      and list(d["step"]) == [0, 2, 4, 6] and d.last_step == 6 and d["step"].dtype.kind == "i"
      and d["time"][-1] == st["last_time"] and "volume_sphere" in d,
      "diagnostics: columns %s..., steps %s" % (d.columns[:3], list(d["step"])))
shutil.copy(os.path.join(tg, "diagnostics.csv"), os.path.join(tmp, "partial.csv"))
with open(os.path.join(tmp, "partial.csv"), "a") as f:
    f.write("8,0.041")
p = eo.read_table(os.path.join(tmp, "partial.csv"))
check(p.last_step == 6 and len(p) == 4, "a row without its newline is left out")
check(eo.read_table(os.path.join(tmp, "none.csv")) is None, "an absent table is None")
bd = eo.bodies(tg)
first = bd["step"] == 0
check(list(bd["kind"][first]) == ["sphere"] and bd["x"][first][0] == 2 and bd["y"][first][0] == 1
      and bd.last_step == 6, "bodies: the sphere's tracer at (2, 1, 1) at step 0")

# ---- the fields and restart files
files = eo.fields_files(tg)
check([os.path.basename(f) for f in files] == ["fields_%08d.nc" % s for s in (0, 3, 6)],
      "fields_files: steps 0, 3, 6")
f0 = eo.read_fields(files[0])
U, Lx, Lz = 0.05, 4.0, 2.0
xf = np.arange(17) * 0.25
face = U * np.sin(2 * np.pi * xf / Lx)
expect = 0.5 * (face[:-1] + face[1:])[None, None, :] * np.cos(2 * np.pi * f0["z"] / Lz)[:, None, None]
err = np.max(np.abs(f0["u"] - expect))
check(f0["u"].shape == (8, 8, 16) and err < 1e-15 and f0["step"] == 0 and f0["h"] == [0.25] * 3
      and f0["L"] == [4.0, 2.0, 2.0] and f0["walls"] == {"y": True, "z": False},
      "read_fields: u at step 0 is the Taylor-Green face mean to %.1e" % err)
f6 = eo.read_fields(files[-1], names=["phi_*"])
volume = f6["phi"]["sphere"].sum() * 0.25 ** 3
check(sorted(k for k in f6 if k not in ("x", "y", "z", "h", "L", "phi", "step", "time", "case",
      "run_id", "walls", "attrs", "path")) == ["phi_sphere"]
      and abs(volume / d["volume_sphere"][-1] - 1) < 1e-12 and f6["run_id"] == st["run_id"],
      "read_fields: phi_sphere's volume %.12g that of diagnostics.csv, the run's identity" % volume)
variables, attrs = eo.read_netcdf(st["restart"]["file"])
check(variables["u"].shape == (8, 8, 16) and variables["u"].dtype == np.float64
      and attrs["step"] == 6 and "tracer_x" in variables,
      "read_netcdf: restart variables as stored, step %s" % attrs["step"])
try:
    eo.read_fields(os.path.join(tmp, "partial.csv"))
    check(False, "a CSV file is no fields file")
except eo.ReadError as e:
    check("partial.csv" in str(e), "read_fields of another file: ReadError (%s)" % e)
libraries = [lib for lib in ("netCDF4", "h5py") if __import__("importlib").util.find_spec(lib)]
if len(libraries) == 2:
    a = eo.read_fields(files[-1], library="netCDF4")
    h = eo.read_fields(files[-1], library="h5py")
    same = sorted(a) == sorted(h) and all(np.array_equal(a[k], h[k]) for k in ("u", "v", "w", "p", "bxy"))
    va, aa = eo.read_netcdf(st["restart"]["file"], library="netCDF4")
    vh, ah = eo.read_netcdf(st["restart"]["file"], library="h5py")
    same &= sorted(va) == sorted(vh) and all(va[k].tobytes() == vh[k].tobytes()
                                             and va[k].dtype == vh[k].dtype for k in va)
    same &= {k: repr(v) for k, v in aa.items()} == {k: repr(v) for k, v in ah.items()}
    check(same and a["attrs"].keys() == h["attrs"].keys(),
          "h5py reads the same variables, bits and attributes as netCDF4")
else:
    print("note  only %s installed: the two readers not compared" % libraries)

perf, record = eo.performance(tg), eo.run_record(tg)
check(perf["steps"] == 6 and perf["cells"] == 1024 and record["state"] == "finished"
      and record["exit_status"] == 0, "performance.json and run.json")
check(eo.case_value(case, "sphere.radius") == "0.6" and eo.case_value(case, "fluid.viscosity", "1") == "1",
      "case_value: as the file writes it, else the default given")
print("%d failed" % len(failed))
sys.exit(1 if failed else 0)
PY
