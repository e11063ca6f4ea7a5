"""efsi_output: what efsi wrote, and what efsi says about a run, for every script beside
efsi (bench/, verify/, studies/, tools/; docs/scripts.md, "The shared Python module").

What a run came to and what comes next is efsi's to say, by its own rules; this module asks
it and hands the answer on:

    status(EFSI, DIR, CASE=None)   efsi --status DIR [CASE]: the folder's state as a dict
                                   (next: new, continue, finished, running, stale, mixed;
                                   the restart file to go on from; the last run's exit
                                   status, its meaning and why it stopped; the files)
    check(EFSI, CASE)              efsi --check CASE: valid or not (and efsi's message), and
                                   the plan it prints (dt, steps, cell-updates, wall time,
                                   memory, the bodies seeded and the fraction they fill)
    later_damaged(STATUS_DICT)     the unreadable restart files after the one --status
                                   names to continue from: a continuation needs
                                   --discard-newer
    outcome(EFSI, DIR, STATUS)     what a run's exit status meant, from efsi's record of it
    exit_meaning(STATUS)           the meaning of an exit status (docs/building.md, "Exit
                                   statuses"; tests/test_efsi_output.sh holds EXIT_* to
                                   base/errors.h and the meanings to efsi's own)

What a script that runs efsi one run after another (the study drivers) needs, that a
signal to it stops the running efsi at once:

    Runner()                       with runner: a SIGTERM, SIGINT or SIGUSR1 to the script
                                   is passed on at once to the efsi that runner.run(CMD,
                                   LOG, through_launcher) runs; runner.signal says one
                                   came (check it before each run)

What a file holds, read here (numpy; NetCDF through netCDF4, or through h5py where
netCDF4 is missing, as on a GPU machine that has only numpy and h5py: a NetCDF-4 file is
an HDF5 file):

    diagnostics(PATH)     diagnostics.csv of a folder (or the file itself) as a Table
    bodies(PATH)          bodies.csv as a Table
    read_table(PATH)      any CSV table efsi writes: {column: numpy array} and its text
    performance(DIR)      performance.json;  run_record(DIR): run.json (None when absent)
    fields_files(DIR)     a folder's fields files, in step order
    read_fields(PATH)     a fields file: coordinates, spacing, box, step, time, walls and the
                          variables at cell centres as (z, y, x) arrays
    read_netcdf(PATH)     every variable as stored and every global attribute (restart
                          files, bit-for-bit comparisons)
    case_value(CASE, KEY) one key's value as a case file writes it

What a script writes, here so that the scripts write their tables alike:

    write_csv(PATH, HEADER, ROWS, digits=N)   a CSV table, written whole or not at all
                          (PATH.tmp, then renamed); floats with N significant digits

Import it from a script of the source tree with

    sys.dont_write_bytecode = True          # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(TOP, "tools"))
    import efsi_output

`make install` puts it into $(pkgdatadir) (e.g. /usr/local/share/efsi), where the installed
tools/efsi-render finds it.  Standard library at import; numpy, netCDF4 or h5py when a
function needs them."""
import calendar
import csv
import io
import json
import os
import re
import shlex
import signal
import subprocess
import time

# ---- efsi's exit statuses -----------------------------------------------------------------

# docs/building.md, "Exit statuses" (base/errors.h defines them in efsi); the meanings are
# the words of efsi --status's last_run.meaning.
EXIT_DONE = 0
EXIT_RUNTIME = 1
EXIT_INPUT = 2
EXIT_BLOWUP = 3
EXIT_STOPPED = 4
EXIT_MEANINGS = {
    EXIT_DONE: "the run reached time.steps or time.end_time",
    EXIT_RUNTIME: "a library call or a write failed",
    EXIT_INPUT: "bad input",
    EXIT_BLOWUP: "the run blew up; its last good restart file is kept",
    EXIT_STOPPED: "stopped early with a restart file (a signal or time.wall_limit): "
                  "continue with --restart latest",
}


def exit_meaning(status):
    """What efsi's exit status means; for another number, whose it is."""
    if status in EXIT_MEANINGS:
        return EXIT_MEANINGS[status]
    if status is not None and status < 0:
        return "killed by signal %d" % -status          # subprocess's way of saying so
    if status is not None and status > 128:
        return "not efsi's: the launcher's or the shell's (128 + signal %d?)" % (status - 128)
    return "not one of efsi's exit statuses (the launcher's own?)"


class EfsiError(Exception):
    """efsi refused or failed a question (--status, --check), or could not be started:
    .status is its exit status (EXIT_INPUT when it could not be started), str() its
    message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class ReadError(Exception):
    """A file that is not what efsi writes there, or cannot be read: one line."""


# ---- asking efsi ----------------------------------------------------------------------------

def _options(sets=(), steps=None):
    out = []
    for s in sets:
        out += ["--set", s]
    if steps is not None:
        out += ["--steps", str(steps)]
    return out


def _run(cmd, env=None):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env)
    except OSError as e:
        raise EfsiError(EXIT_INPUT, "cannot start %s: %s" % (cmd[0], e.strerror)) from None


def status(efsi, directory, case=None, sets=(), steps=None, env=None):
    """efsi --status DIR [CASE] (with the --set and --steps of the run): what the output
    folder holds, as the dict of docs/output.md, "efsi --status".  With a case file,
    "finished" is measured against that case's end, else against the last run's.  Raises
    EfsiError when efsi refuses (a bad case file, an unreadable folder)."""
    cmd = [efsi, "--status", directory] + ([case] if case else []) + _options(sets, steps)
    r = _run(cmd, env)
    if r.returncode == 0:
        try:
            return json.loads(r.stdout)
        except ValueError:
            pass
    said = (r.stderr or r.stdout).strip().splitlines()
    raise EfsiError(r.returncode, said[-1] if said else "efsi --status %s: exit status %d (%s)"
                    % (directory, r.returncode, exit_meaning(r.returncode)))


def later_damaged(st):
    """The restart files that an efsi --status answer (the dict of status()) found unreadable
    after the restart file it names to continue from, in step order.  They mark a later part
    of the run's history (efsi renames a restart file whole, so one that does not read was
    damaged afterwards), and efsi continues from the older file only with --discard-newer,
    which moves that later part aside (docs/output.md, "One history per folder")."""
    restart = st.get("restart") or {}
    if restart.get("step") is None:
        return []
    later = []
    for bad in (st.get("files") or {}).get("unreadable", []):
        m = re.fullmatch(r"restart_(\d+)\.nc", bad["name"])
        if m and int(m.group(1)) > restart["step"]:
            later.append(bad["name"])
    return sorted(later)


def outcome(efsi, directory, returncode, started=None, case=None, sets=()):
    """(status, meaning, why) of a run into DIR that ended with `returncode`, from efsi's
    record of it (run.json, through efsi --status) when the record is of that run (it
    started at `started`, seconds since the epoch, or later) and has ended: a launcher may
    end with a status of its own (Open MPI's mpirun 1 after a signal that efsi answered
    with 4), and the record says what efsi itself ended with and why.  Otherwise the
    returncode with its documented meaning and no why."""
    try:
        last = status(efsi, directory, case, sets).get("last_run") or {}
    except EfsiError:
        last = {}
    recorded = last.get("exit_status")
    if recorded is not None and recorded >= 0 and (
            started is None or _utc_seconds(last.get("started")) >= int(started) - 1):
        return recorded, last.get("meaning") or exit_meaning(recorded), last.get("why")
    return returncode, exit_meaning(returncode), None


def _utc_seconds(stamp):
    try:
        return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))
    except (TypeError, ValueError):
        return -1


class Check:
    """What efsi --check said: .status (its exit status), .ok, .text (all it printed),
    .message (the line of a refusal), and from the report of a valid case (None where it
    prints no such line): .dt, .steps, .cell_updates, .wall_time ("H:MM:SS" on this
    machine), .memory_mib (per rank), .bytes_per_cell, .device_memory_mib,
    .device_bytes_per_cell (per GPU, on the device) and .bodies, one dict per family:
    kind, count, fraction (the tube hematocrit of RBCs with a vessel, else the fraction of
    the lumen or of the box they fill, as efsi drew its seeding: count times the shape's
    volume over the region's)."""

    def __init__(self, returncode, stdout, stderr):
        self.status, self.ok = returncode, returncode == 0
        self.text = stdout + stderr
        lines = [line for line in stderr.strip().splitlines() if line.strip()]
        self.message = lines[-1] if lines and not self.ok else None

        def number(pattern, kind=float):
            m = re.search(pattern, stdout, re.M)
            return kind(m.group(1)) if m else None

        self.dt = number(r"^  dt = (\S+) \(")
        self.steps = number(r"^  plan: (\S+) steps", lambda s: int(float(s)))
        self.cell_updates = number(r"^  plan: .*, (\S+) cell-updates$")
        m = re.search(r"^  time: about (\S+) on this machine", stdout, re.M)
        self.wall_time = m.group(1) if m else None
        self.memory_mib = number(r"^  memory: (\S+) MiB per rank")
        self.bytes_per_cell = number(r"^  memory: \S+ MiB per rank, (\S+) bytes per cell")
        self.device_memory_mib = number(r"; (\S+) MiB per GPU, ")
        self.device_bytes_per_cell = number(r" MiB per GPU, (\S+) bytes per cell on the device")
        self.bodies = []
        m = re.search(r"^  bodies: (.*?)(?:; .*)?$", stdout, re.M)
        for family in (m.group(1).split(", ") if m else []):
            f = re.fullmatch(r"(\d+) (\S+) \((?:[a-z ]*hematocrit )?([0-9.]+)[^)]*\)", family)
            if f:
                self.bodies.append({"kind": f.group(2), "count": int(f.group(1)),
                                    "fraction": float(f.group(3))})


def check(efsi, case, sets=(), steps=None, ranks=None, launcher=(), env=None):
    """efsi --check CASE (through `launcher`, e.g. ["mpirun", "-np", "4"], so that the
    process grid is the run's; or planned for `ranks` ranks on one process): a Check."""
    cmd = list(launcher) + [efsi, "--check"] + (["--ranks", str(ranks)] if ranks else []) \
        + _options(sets, steps) + [case]
    r = _run(cmd, env)
    return Check(r.returncode, r.stdout, r.stderr)


# ---- running efsi, stopped at once by a signal to the script --------------------------------

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1)


class Runner:
    """efsi's runs, one after another, of a script that a scheduler or a batch shell may
    signal alone (not its process group).  Within `with runner:` a SIGTERM, SIGINT or SIGUSR1
    to the script is noted (.signals; .signal the first, None before one came) and passed on
    at once to the efsi that run() is running, which stops after a step every rank agrees
    on with a restart file (docs/building.md, "Long runs on clusters"); run() then returns
    its status 4.  Through a launcher the signal passed on is SIGUSR1, which Open MPI's
    mpirun and srun hand to every rank (SIGTERM and SIGINT make mpirun end the job itself).
    A signal to the whole process group reaches efsi twice: the second changes nothing.
    The script checks .signal before each run, so that a signal between two runs stops it
    before the next; outside the with block the signals do what they did before."""

    def __init__(self):
        self.signals = []
        self._running = None        # (the efsi or launcher process now running, through_launcher)
        self._sent = set()          # the signals passed on to it
        self._before = {}

    @property
    def signal(self):
        return signal.Signals(self.signals[0]) if self.signals else None

    def __enter__(self):
        self._before = {sig: signal.signal(sig, self._pass_on) for sig in STOP_SIGNALS}
        return self

    def __exit__(self, *exc):
        for sig, handler in self._before.items():
            signal.signal(sig, handler)
        self._before = {}

    def _pass_on(self, signum, frame):
        self.signals.append(signum)
        self._send(signum)

    def _send(self, signum):
        if self._running is None:
            return
        proc, through_launcher = self._running
        sig = signal.SIGUSR1 if through_launcher else signum
        if proc.poll() is None:
            try:
                proc.send_signal(sig)
                self._sent.add(sig)
            except ProcessLookupError:
                pass

    def run(self, cmd, log_path, through_launcher=False, env=None):
        """Run cmd (efsi, or a launcher starting it: through_launcher), its command line and
        output appended to log_path; its exit status, a signal meanwhile passed on.  4 also
        where it died of the signal passed on (it came before efsi had set its handlers, in
        its start-up: no restart file, and the same command starts the run again).  OSError
        where cmd[0] cannot be started."""
        with open(log_path, "a") as log:
            log.write("\n$ %s\n" % " ".join(shlex.quote(c) for c in cmd))
            log.flush()
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        self._running, self._sent = (proc, through_launcher), set()
        try:
            if self.signals:         # it came while efsi was being started
                self._send(self.signals[-1])
            status = proc.wait()
        finally:
            self._running = None
        if status < 0 and -status in self._sent:
            return EXIT_STOPPED
        return status


# ---- the output folder ----------------------------------------------------------------------

def _in(path, name):
    return os.path.join(path, name) if os.path.isdir(path) else path


def _json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise ReadError("%s: %s" % (path, e)) from None


def performance(directory):
    """performance.json of a folder (docs/output.md), None when absent."""
    return _json(_in(directory, "performance.json"))


def run_record(directory):
    """run.json, efsi's record of the folder's last run (docs/output.md), None when absent.
    What it means for the folder (finished, continuable) is status()'s to say."""
    return _json(_in(directory, "run.json"))


def fields_files(directory):
    """The fields_NNNNNNNN.nc files of a folder in step order (not the .tmp of one being
    written).  Which restart file a run continues from is efsi's to say: status()."""
    found = []
    for name in os.listdir(directory):
        m = re.fullmatch(r"fields_(\d+)\.nc", name)
        if m:
            found.append((int(m.group(1)), os.path.join(directory, name)))
    return [p for _, p in sorted(found)]


class Table(dict):
    """A CSV table efsi writes (diagnostics.csv, bodies.csv): {column: numpy array} over its
    whole rows; numbers as float, `step` and `id` as int, a column of words (bodies.csv's
    kind) as str.  A last line without its newline (a row being written) and a row of
    another length than the header are left out.  .columns: the header in order; .text:
    the whole rows as the strings efsi wrote (%.17g: equal text, equal bits); .path;
    .last_step: the step of the last row (None without rows)."""

    def __init__(self, path, columns, text):
        import numpy as np
        super().__init__()
        self.path, self.columns, self.text = path, columns, text
        for i, name in enumerate(columns):
            values = [row[i] for row in text]
            try:
                column = np.array([float(v) for v in values], dtype=float)
                if name in ("step", "id"):
                    column = column.astype(np.int64)
            except ValueError:
                column = np.array(values, dtype=str)
            self[name] = column

    @property
    def last_step(self):
        return int(self["step"][-1]) if "step" in self and len(self["step"]) else None

    def __len__(self):                      # the rows, as a table's length reads
        return len(self.text)


def read_table(path):
    """The CSV table at path as a Table, None when the file is absent."""
    try:
        with open(path, newline="") as f:
            content = f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ReadError("%s: %s" % (path, e.strerror)) from None
    if content and not content.endswith("\n"):
        content = content[:content.rfind("\n") + 1]
    rows = list(csv.reader(io.StringIO(content)))
    if not rows:
        return Table(path, [], [])
    header = rows[0]
    return Table(path, header, [r for r in rows[1:] if len(r) == len(header)])


def diagnostics(path):
    """diagnostics.csv of a folder (or that file): a Table, None when absent."""
    return read_table(_in(path, "diagnostics.csv"))


def bodies(path):
    """bodies.csv of a folder (or that file): a Table, None when absent."""
    return read_table(_in(path, "bodies.csv"))


def write_csv(path, header, rows, digits):
    """The table of header (the column names) and rows (sequences) into the CSV file at
    path: first into path.tmp, then renamed onto path, so that path is the whole table or
    what it was before.  A float (a numpy float64 too) as %.{digits}g; anything else as the
    csv module writes it (an int in full, a str as it is)."""
    spec = "%%.%dg" % digits
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows:
            w.writerow([spec % x if isinstance(x, float) else x for x in row])
    os.replace(path + ".tmp", path)


# ---- NetCDF files ---------------------------------------------------------------------------

# What h5py shows of a NetCDF-4 file that netCDF4 hides: a dimension without a coordinate
# variable, and the library's own attributes.
_NOT_A_VARIABLE = b"This is a netCDF dimension but not a netCDF variable"
_HIDDEN = ("_NCProperties", "_Netcdf4", "_nc3_strict", "CLASS", "NAME", "DIMENSION_LIST",
           "REFERENCE_LIST")


def _plain(value):
    """An attribute as netCDF4 gives it: a str, or a number (numpy scalar) when it has one
    value, else an array."""
    import numpy as np
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SO" and value.size == 1:
            return _plain(value.reshape(-1)[0])
        if value.size == 1:
            return value.reshape(-1)[0]
    return value


class _NetCDF:
    """A NetCDF file open for reading through netCDF4, or through h5py without it:
    .variables {name: (dimension names, reader)} and .attrs {name: value}.  open_netcdf
    is its public name, for the readers of other tools (studies/hematocrit_analysis.py)."""

    def __init__(self, path, library=None):
        self.path = path
        library = library or os.environ.get("EFSI_OUTPUT_NETCDF") or None
        if library in (None, "netCDF4"):
            try:
                import netCDF4
            except ImportError:
                if library:
                    raise
                netCDF4 = None
            if netCDF4 is not None:
                try:
                    self.file = netCDF4.Dataset(path)
                except OSError as e:
                    raise ReadError("%s: not a NetCDF file efsi wrote (%s)" % (path, e)) from None
                self.file.set_auto_mask(False)
                self.variables = {n: (v.dimensions, v) for n, v in self.file.variables.items()}
                self.attrs = {n: self.file.getncattr(n) for n in self.file.ncattrs()}
                return
        import h5py
        try:
            self.file = h5py.File(path, "r")
        except OSError as e:
            raise ReadError("%s: not a NetCDF file efsi wrote (%s)" % (path, e)) from None
        self.variables = {}
        for name, d in self.file.items():
            label = d.attrs.get("NAME", b"") if isinstance(d, h5py.Dataset) else b""
            if not isinstance(d, h5py.Dataset) or (label.encode() if isinstance(label, str)
                                                   else bytes(label)).startswith(_NOT_A_VARIABLE):
                continue
            # a dimension is the dataset its reference names; a coordinate variable is its
            # own dimension
            dims = tuple(self.file[ref[0]].name.lstrip("/")
                         for ref in d.attrs.get("DIMENSION_LIST", []))
            self.variables[name] = ((name,) if "CLASS" in d.attrs else dims, d)
        self.attrs = {n: _plain(v) for n, v in self.file.attrs.items()
                      if not n.startswith(_HIDDEN)}

    def read(self, name):
        import numpy as np
        return np.ascontiguousarray(self.variables[name][1][...])

    def dimensions(self, name):
        return self.variables[name][0]

    def variable_attr(self, name, key):
        """An attribute of a variable (flag_meanings, units ...), as netCDF4 gives it."""
        v = self.variables[name][1]
        return v.getncattr(key) if hasattr(v, "getncattr") else _plain(v.attrs[key])

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


open_netcdf = _NetCDF


def read_netcdf(path, names=None, library=None):
    """(variables, attributes) of a NetCDF file efsi wrote: every variable (or those of
    `names` it has) as stored, as a numpy array of its own type and shape (a restart file's
    velocities staggered, as they are kept), and every global attribute.  library:
    "netCDF4" or "h5py" (default netCDF4 when it is installed; also the environment
    variable EFSI_OUTPUT_NETCDF)."""
    try:
        with _NetCDF(path, library) as nc:
            chosen = [n for n in (names or nc.variables) if n in nc.variables]
            return {n: nc.read(n) for n in chosen}, dict(nc.attrs)
    except ReadError:
        raise
    except (OSError, KeyError, RuntimeError) as e:
        raise ReadError("%s: %s" % (path, e)) from None


def read_fields(path, names=None, library=None):
    """A fields file (docs/output.md) as a dict: "x", "y", "z" (the cell
    centres), "h" [hx, hy, hz], "L" [Lx, Ly, Lz], "step", "time", "case", "run_id",
    "walls" {"y": bool, "z": bool}, "attrs" (every global attribute), "path", and every
    variable on the grid (or those of `names` it has: u, v, w, p, phi_<material>, bxx ...;
    a name ending in * stands for every name it begins) as a float array (z, y, x) at its
    one time, with the volume fractions also under
    "phi" {material: array}.  Raises ReadError for a file that is not an efsi fields
    file."""
    import numpy as np
    try:
        with _NetCDF(path, library) as nc:
            if not all(c in nc.variables for c in ("x", "y", "z")):
                raise ReadError("%s: not an efsi fields file (no x, y, z)" % path)
            f = {c: np.asarray(nc.read(c), dtype=float) for c in ("x", "y", "z")}
            f["phi"] = {}
            for name, (dims, _) in nc.variables.items():
                grid = [d for d in dims if d != "time"]
                if grid != ["z", "y", "x"] or (names is not None and not any(
                        name == n or (n.endswith("*") and name.startswith(n[:-1]))
                        for n in names)):
                    continue
                a = np.asarray(nc.read(name), dtype=float)
                f[name] = a[0] if dims[0] == "time" else a
                if name.startswith("phi_"):
                    f["phi"][name[4:]] = f[name]
            attrs = dict(nc.attrs)
    except ReadError:
        raise
    except (OSError, KeyError, RuntimeError) as e:
        raise ReadError("%s: %s" % (path, e)) from None
    f["h"] = [float(f[c][1] - f[c][0]) if len(f[c]) > 1 else float(2 * f[c][0]) for c in "xyz"]
    f["L"] = [float(f[c][-1]) + 0.5 * h for c, h in zip("xyz", f["h"])]
    f.update(path=path, attrs=attrs, step=int(attrs.get("step", 0)),
             time=float(attrs.get("time", 0.0)), case=str(attrs.get("case", "")),
             run_id=str(attrs.get("run_id", "")),
             walls={"y": attrs.get("boundary_y", "wall") == "wall",
                    "z": attrs.get("boundary_z", "periodic") == "wall"})
    return f


# ---- case files -----------------------------------------------------------------------------

def case_value(case_file, key, default=None):
    """The value of section.key as the case file writes it (a string; its trailing comment
    cut), or `default`.  Only what the file says: not the --set overrides of a run, nor
    efsi's default for a key the file leaves out (docs/case-file.md has those), nor whether
    efsi accepts the file (check() says)."""
    section, _, name = key.partition(".")
    current = None
    try:
        with open(case_file) as f:
            for line in f:
                line = line.split("#")[0].split(";")[0].strip()
                if line.startswith("[") and line.endswith("]"):
                    current = line[1:-1].strip()
                elif "=" in line and current == section:
                    k, _, v = line.partition("=")
                    if k.strip() == name:
                        return v.strip()
    except OSError:
        pass
    return default
