#!/bin/sh
# The study drivers signalled alone, as a scheduler or a batch shell signals them: a
# SIGINT, SIGTERM or SIGUSR1 to the driver's process only (not to its process group) is
# passed on at once to the running efsi, which stops after its step with a restart file;
# the driver then exits with status 4.  For each of studies/hematocrit-study (efsi started
# directly and through mpirun), studies/weak-scaling-study (through mpirun and directly),
# studies/fig2-study (directly and through mpirun) and studies/study-acm-smac (one rank, and
# two through mpirun), on runs that would last minutes:
#   - the driver exits within LIMIT seconds of the signal, with status 4;
#   - efsi said it stopped early on the signal passed on (the same one when efsi runs
#     directly; SIGUSR1 through mpirun, which hands it to every rank);
#   - no process of the run is left behind.
# Skipped (77) without python3's numpy and netCDF4 (the drivers' reading of the output).
set -eu
. "$(dirname "$0")/lib.sh"
srcdir=${top_srcdir:-.}
/usr/bin/python3 -c 'import numpy, netCDF4' 2>/dev/null \
  || { echo "python3 numpy or netCDF4 absent: skipped"; exit 77; }

# the plasma reference of a 6 um lumen on 26^3 cells: 5000 us are some 600 000 steps
cat > "$tmp/ht.ini" <<EOF
[study]
name = signals
[vessel]
diameter = 6
wall = 1
length = 8
[grid]
cells_per_rbc = 8
[rbc]
hematocrits = 0
diameter = 2.5
[drive]
pressure_gradient = 0.01
[time]
end_time = 5000
[sampling]
diagnostics_every = 5
fields_every = 100000
[run]
ranks = 1
mpirun = none
EOF
# one rank's block of 16^3 cells, no bodies, a million steps (minutes)
cat > "$tmp/weak.ini" <<EOF
[study]
name = signals
[runs]
ranks = 1
mpirun = none
[block]
cells = 16 16 16
h = 0.5
[bodies]
hematocrit = 0
[time]
steps = 1000000
[output]
every = 1000
EOF
# the Fig. 2 study's ACM run alone (--run acm) on a channel of 20^3 cells with two RBCs:
# its step 0, then 10 ms, some 500 000 steps
for method in acm smac; do
  write_case "$tmp/fig2-$method.ini" "20 20 20" "10 10 10" <<EOF
[case]
name = signals-$method
[boundary]
y = wall
z = periodic
[pressure]
method = $method
[drive]
pressure_gradient = 2e-3
[rbc]
count = 2
diameter = 4
modulus = 2e-2
orientation = y
[time]
end_time = 1
EOF
done
cat > "$tmp/fig2.ini" <<EOF
[study]
name = signals
[cases]
acm = $tmp/fig2-acm.ini
smac = $tmp/fig2-smac.ini
[time]
end_time = 10000
[output]
diagnostics_every = 20
bodies_every = 100000
restart_every = 100000
[run]
mpirun = none
EOF

/usr/bin/python3 - "$srcdir" "$efsi" "$tmp" "${EFSI_MPIRUN:-mpirun}" <<'PY'
import glob, os, re, signal, subprocess, sys, time

src, efsi, tmp, mpirun = sys.argv[1:]
efsi = os.path.abspath(efsi)
LIMIT = 10.0      # seconds from the signal to the driver's exit (each run would last minutes)
WAIT = 60.0       # seconds for efsi to start stepping


def default_signals():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1):
        signal.signal(sig, signal.SIG_DFL)     # as a batch shell's foreground command has them


def ours(mark):
    """pids of the processes whose command line names mark (this case's folder)."""
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != os.getpid():
            try:
                with open("/proc/%s/cmdline" % d, "rb") as f:
                    if mark.encode() in f.read():
                        found.append(int(d))
            except OSError:
                pass
    return found


def stepping(pattern, lines):
    """efsi has started stepping: a file of that many lines or more under the pattern (a
    diagnostics.csv of two rows; a run.json where the rows are rare)."""
    for path in glob.glob(pattern):
        with open(path) as f:
            if len(f.readlines()) >= lines:
                return True
    return False


def case(what, cmd, mark, started, sig, said, env=None, lines=3):
    """Start cmd, wait until efsi steps, signal the driver alone, and check its end."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                         start_new_session=True, preexec_fn=default_signals)
    t0 = time.monotonic()
    while not stepping(started, lines):
        if p.poll() is not None or time.monotonic() - t0 > WAIT:
            out = p.communicate()[0].decode(errors="replace") if p.poll() is not None else ""
            os.killpg(p.pid, signal.SIGKILL)
            sys.exit("FAIL: %s: efsi did not start stepping (status %s)\n%s" % (what, p.poll(), out))
        time.sleep(0.1)
    time.sleep(0.3)
    t = time.monotonic()
    startup = t - t0
    os.kill(p.pid, sig)                                  # the driver alone
    try:
        out = p.communicate(timeout=LIMIT)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        left = ours(mark)
        os.killpg(p.pid, signal.SIGKILL)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        sys.exit("FAIL: %s: the driver still ran %.0f s after %s (efsi not told)"
                 % (what, LIMIT, sig.name))
    seconds = time.monotonic() - t
    left = ours(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    logs = "".join(open(f, errors="replace").read() for f in glob.glob(os.path.dirname(started)
                                                                        + "/efsi.log"))
    line = "stopped early on %s" % said
    if p.returncode != 4 or left or line not in out + logs:
        sys.exit("FAIL: %s: %s to the driver: exit status %d after %.2f s (4 expected), "
                 "%d processes of the run left, efsi %s \"%s\"\n%s"
                 % (what, sig.name, p.returncode, seconds, len(left),
                    "said" if line in out + logs else "did not say", line, out))
    print("ok: %s: %s to the driver alone (efsi stepping after %.1f s): exit status 4 after "
          "%.2f s, efsi %s, nothing left" % (what, sig.name, startup, seconds, line))


def study_file(name, path, changes):
    text = open(os.path.join(tmp, name)).read()
    for old, new in changes:
        text = re.sub(old, new, text, flags=re.M)
    with open(path, "w") as f:
        f.write(text)


# hematocrit-study (its plasma reference alone, --run plasma): efsi started directly, each of
# the three signals; then through mpirun
py = "/usr/bin/python3"
for k, sig in enumerate((signal.SIGINT, signal.SIGTERM, signal.SIGUSR1)):
    out = os.path.join(tmp, "ht-%d" % k)
    study_file("ht.ini", out + ".ini", [(r"^\[study\]$", "[study]\noutput = " + out)])
    case("hematocrit-study", [py, os.path.join(src, "studies", "hematocrit-study"),
                              "--efsi", efsi, "--run", "plasma", out + ".ini"],
         out, os.path.join(out, "plasma", "diagnostics.csv"), sig, sig.name)
out = os.path.join(tmp, "ht-mpirun")
study_file("ht.ini", out + ".ini", [(r"^\[study\]$", "[study]\noutput = " + out),
                                    (r"^mpirun = none$", "mpirun = %s -np {ranks}" % mpirun)])
case("hematocrit-study through mpirun", [py, os.path.join(src, "studies", "hematocrit-study"),
                                         "--efsi", efsi, "--run", "plasma", out + ".ini"],
     out, os.path.join(out, "plasma", "diagnostics.csv"), signal.SIGTERM, "SIGUSR1")

# weak-scaling-study: through mpirun, and efsi started directly
for name, launcher, sig, said in (("mpirun", "%s -np {ranks}" % mpirun, signal.SIGINT, "SIGUSR1"),
                                  ("direct", "none", signal.SIGUSR1, "SIGUSR1")):
    out = os.path.join(tmp, "weak-" + name)
    study_file("weak.ini", out + ".ini", [(r"^\[study\]$", "[study]\noutput = " + out),
                                          (r"^mpirun = none$", "mpirun = " + launcher)])
    case("weak-scaling-study (%s)" % name,
         [py, os.path.join(src, "studies", "weak-scaling-study"), "--efsi", efsi, out + ".ini"],
         out, os.path.join(out, "ranks-1", "diagnostics.csv"), sig, said)

# fig2-study (its ACM run alone, --run acm): efsi started directly, then through mpirun; the
# test waits for diagnostics.csv's rows of the second call (step 0's call wrote its header
# and one row, the second call repeats that row and adds one every 20 steps)
for name, launcher, sig, said in (("direct", "none", signal.SIGUSR1, "SIGUSR1"),
                                  ("mpirun", "%s -np {ranks}" % mpirun, signal.SIGTERM, "SIGUSR1")):
    out = os.path.join(tmp, "fig2-" + name)
    study_file("fig2.ini", out + ".ini", [(r"^\[study\]$", "[study]\noutput = " + out),
                                          (r"^mpirun = none$", "mpirun = " + launcher)])
    case("fig2-study (%s)" % name,
         [py, os.path.join(src, "studies", "fig2-study"), "--efsi", efsi, "--run", "acm",
          out + ".ini"],
         out, os.path.join(out, "acm", "diagnostics.csv"), sig, said, lines=5)

# study-acm-smac (a shell script): one rank, then two through mpirun
for np_, sig, said in (("1", signal.SIGTERM, "SIGTERM"), ("2", signal.SIGINT, "SIGUSR1")):
    work = os.path.join(tmp, "acm-%s" % np_)
    os.makedirs(work)
    env = dict(os.environ, EFSI=efsi, NP=np_, STEPS="1000000", LEVELS="1", TMPDIR=work)
    case("study-acm-smac (%s rank%s)" % (np_, "" if np_ == "1" else "s"),
         [os.path.join(src, "studies", "study-acm-smac")], work,
         os.path.join(work, "study-acm-smac.*", "acm-0", "run.json"), sig, said, env=env, lines=1)
PY
echo "1 passed, 0 failed"
