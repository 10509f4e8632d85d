# SPDX-License-Identifier: GPL-2.0
"""One benchmark session's raw files, for the reports and the figures.

What bench/report/unmap.py, faultaround.py, reclaim.py and plot.py share:
the raw files of a session (DIR/raw, or DIR/raw.tar.xz as bench/pack.sh
leaves it), its metadata, its runs and their record files (read by
bench/records.py, the one reader of that format outside C), the statistics
(`foliotune analyze`, called here and nowhere else in bench/), and the
pieces every report prints (the heading, the warnings, the numbers).

Runs are named NAME.CONFIG.REP (scenario or benchmark, configuration,
rep; REP "warmup" runs are left out); a run's files are NAME.CONFIG.REP.KIND
(rec, out, bt, auto).  Files are read in the order of the shell's glob
(LC_COLLATE), and a run is known from the first file that names it: runs
keep that order, as do the "first seen" choices of the reports.

Numbers are printed as awk printed them, which the committed reports were
written with: a value read from a file as its text, a computed one as
an integer when it is one (up to 2^31 - 1) and with six significant
digits otherwise (fmt_awk()).  Python 3 standard library only.
"""
import locale
import os
import re
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import records  # noqa: E402  (bench/records.py)

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PROG = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "report"


class ReportError(Exception):
    """A report cannot be written: the message says why (exit status 2)."""


# ---- numbers -----------------------------------------------------------

_NUM = re.compile(r"[ \t\n]*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def num(x):
    """x as awk reads a number: a float, the leading number of a string, 0."""
    if x is None:
        return 0.0
    if isinstance(x, (int, float)):
        return float(x)
    m = _NUM.match(x)
    return float(m.group(0)) if m else 0.0


def fmt_awk(x):
    """x as awk prints it: a string as it is, an integral number up to
    2^31 - 1 as an integer, another with six significant digits."""
    if isinstance(x, str):
        return x
    if x is None:
        return ""
    x = float(x)
    if x == int(x) and -2147483647 <= x <= 2147483647:
        return "%d" % x
    return "%.6g" % x


def fmt(x):
    """A time or ratio in a table: 4 significant places, "-" for none."""
    if x is None or x == "":
        return "-"
    x = num(x)
    if x >= 100:
        return "%.1f" % x
    if x >= 1:
        return "%.3f" % x
    return "%.4f" % x


def words(line):
    """The fields of a line as awk splits it (runs of blanks)."""
    return line.strip(" \t\n").split() if line.strip(" \t\n") else []


def read_lines(path):
    """The lines of a text file, bytes kept (surrogateescape)."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# ---- statistics: foliotune analyze, the one home --------------------------

def foliotune():
    """The foliotune CLI whose `analyze` command gives every median, spread,
    outlier and verdict (userspace/util/statistics.c): $FOLIOTUNE, else
    userspace/foliotune, built (or brought up to date) first.  It runs
    nothing and needs neither the module nor root."""
    ft = os.environ.get("FOLIOTUNE")
    if ft:
        return ft
    ft = os.path.join(TOP, "userspace", "foliotune")
    r = subprocess.run(["make", "-s", "-C", os.path.join(TOP, "userspace")],
                       stdout=subprocess.DEVNULL, check=False)
    if r.returncode != 0 or not os.access(ft, os.X_OK):
        raise ReportError("cannot build userspace/foliotune (its analyze command)")
    return ft


class Stats:
    """Values queued by name (sample(), pair()), then one `foliotune analyze`
    run over all of them (run()), read back per name:

    samples: n, med, q1, q3, min, max, the outliers by position (1..n)
             and text, the fields as printed
    pairs:   n, est (B/A or B-A), lo, hi, p, v (higher, lower, none, few:
             fewer than 6 differing pairs) and t, the verdict in words.
    """

    def __init__(self, ft):
        self.ft = ft
        self.queue = []
        self.samples = {}
        self.pairs = {}

    def sample(self, name, x):
        self.queue.append("%s %.17g" % (name, num(x)))

    def pair(self, name, a, b):
        self.queue.append("%s %.17g %.17g" % (name, num(a), num(b)))

    def run(self):
        if not self.queue:
            return
        try:
            r = subprocess.run([self.ft, "analyze"], input="\n".join(self.queue) + "\n",
                               capture_output=True, text=True, check=False)
            out = r.stdout
        except OSError as e:
            out = ""
            print(f"{PROG}: {self.ft}: {e}", file=sys.stderr)
        got = 0
        for line in out.split("\n"):
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            got += 1
            if f[1] == "samples":
                self.samples[f[0]] = {
                    "n": int(num(f[2])), "med": num(f[3]), "q1": num(f[4]), "q3": num(f[5]),
                    "min": num(f[6]), "max": num(f[7]),
                    "out": {int(num(o)) for o in f[8].split(",") if o != "-"}, "text": f}
            else:
                self.pairs[f[0]] = {
                    "n": int(num(f[2])), "est": num(f[6]), "lo": num(f[7]), "hi": num(f[8]),
                    "p": num(f[9]), "v": f[10], "t": f[11] if len(f) > 11 else ""}
        if not got:
            raise ReportError(f"no output from '{self.ft}' analyze")
        self.queue = []

    def get(self, name):
        """The samples of NAME: n 0 and the rest None when there are none."""
        return self.samples.get(name, {"n": 0, "med": None, "q1": None, "q3": None,
                                       "min": None, "max": None, "out": set()})

    def med(self, name):
        return self.get(name)["med"]

    def pv(self, name):
        """The pairs of NAME: v "" and n 0 when there are none."""
        return self.pairs.get(name, {"n": 0, "v": "", "p": "", "t": ""})


def paired_words(pv, who, faster):
    """A paired verdict in words: WHO faster or slower (faster: the verdict
    code that means faster, "lower" for a time) with its p, else the words
    of foliotune analyze, "-" without pairs."""
    if pv["v"] in ("higher", "lower"):
        return "%s %s, p %.3g" % (who, "faster" if pv["v"] == faster else "slower", pv["p"])
    return "-" if pv["v"] == "" else pv["t"]


# ---- the session --------------------------------------------------------

class Run:
    """One run NAME.CONFIG.REP: its record (rec: KEY -> VALUE, the last
    line of a key; counters: (SOURCE, NAME) -> DELTA; sets: the -s lines
    in order), and what a report reads from its other files (val)."""

    def __init__(self, s, c, t):
        self.s, self.c, self.t = s, c, t
        self.id = f"{s}.{c}.{t}"
        self.rec = {}
        self.counters = {}
        self.knobs = {}
        self.sets = []
        self.val = {}

    def ft(self, name):
        """A foliotune counter's delta as text, "" when not recorded."""
        return self.counters.get(("foliotune", name), "")

    def has_module(self):
        return any(src == "foliotune" for src, _ in self.counters)


class Session:
    """The raw files of DIR (DIR/raw, or DIR/raw.tar.xz unpacked into a
    temporary directory that close() removes), its metadata (meta: the
    first "key value" line of a key in host-meta.txt, then guest-meta.txt)
    and its runs, known in the order their files are read (records(),
    files())."""

    def __init__(self, dirpath):
        locale.setlocale(locale.LC_COLLATE, "")
        self.dir = dirpath
        self._tmp = None
        if os.path.isdir(os.path.join(dirpath, "raw")):
            self.raw = os.path.join(dirpath, "raw")
        elif os.path.isfile(os.path.join(dirpath, "raw.tar.xz")):
            self._tmp = tempfile.TemporaryDirectory()
            try:
                with tarfile.open(os.path.join(dirpath, "raw.tar.xz")) as tar:
                    members = [m for m in tar.getmembers() if m.name == "raw" or m.name.startswith("raw/")]
                    if hasattr(tarfile, "data_filter"):
                        tar.extractall(self._tmp.name, members=members, filter="data")
                    else:
                        tar.extractall(self._tmp.name, members=members)
            except (OSError, tarfile.TarError) as e:
                raise ReportError(f"{dirpath}/raw.tar.xz: {e}") from e
            self.raw = os.path.join(self._tmp.name, "raw")
        else:
            raise ReportError(f"no {dirpath}/raw or {dirpath}/raw.tar.xz")
        self.runs = {}          # (S, C, T) -> Run, in the order first seen
        self.tags = {}          # (S, C) -> [T, ...]
        self.scens = {}         # S -> None, ordered
        self.confs = {}         # C -> None, ordered
        self.meta = {}
        for f in ("host-meta.txt", "guest-meta.txt"):
            p = os.path.join(self.raw, f)
            if os.path.exists(p):
                for line in read_lines(p):
                    w = words(line)
                    k = w[0] if w else ""
                    if k not in self.meta:
                        self.meta[k] = " ".join(w[1:])
        self.warnings = []

    def close(self):
        if self._tmp:
            self._tmp.cleanup()

    def m(self, key):
        return self.meta.get(key, "")

    def names(self, ext):
        """The file names of raw/*.EXT in the order of the shell's glob."""
        return sorted((n for n in os.listdir(self.raw) if n.endswith("." + ext) and not n.startswith(".")),
                      key=locale.strxfrm)

    def add(self, run_id):
        """The Run of NAME.CONFIG.REP, added when first seen; None for a
        warm-up run or another name."""
        p = run_id.split(".")
        if len(p) != 3 or p[2] == "warmup":
            return None
        key = tuple(p)
        if key not in self.runs:
            self.runs[key] = Run(*p)
            self.tags.setdefault((p[0], p[1]), []).append(p[2])
        self.scens.setdefault(p[0])
        self.confs.setdefault(p[1])
        return self.runs[key]

    def records(self):
        """Read every record file: each run's rec, counters, knobs, sets.
        Returns the runs in the order of their files, with each record's
        lines (lists of fields, bench/records.py)."""
        out = []
        for run_id, _path, lines in records.records([self.raw]):
            r = self.add(run_id)
            if r is None:
                continue
            for f in lines:
                if f[0] == "counter":
                    r.counters[(f[1], f[2])] = f[3]
                elif f[0] == "knob":
                    r.knobs[f[1]] = f[2]
                elif f[0] == "set":
                    r.sets.append((f[1], f[2]))
                else:
                    r.rec[f[0]] = f[1]
            out.append((r, lines))
        return out

    def files(self, ext):
        """[(Run, path)] of the runs' raw/NAME.CONFIG.REP.EXT files, in glob
        order (each run added when first seen)."""
        out = []
        for n in self.names(ext):
            p = n.split(".")
            if len(p) != 4:
                continue
            r = self.add(".".join(p[:3]))
            if r is not None:
                out.append((r, os.path.join(self.raw, n)))
        return out

    def has_runs(self):
        return bool(self.names("rec") or self.names("out") or self.names("bt") or self.names("auto"))

    def run(self, s, c, t):
        return self.runs.get((s, c, t))

    def of(self, s, c):
        """The runs of NAME.CONFIG, in the order first seen."""
        return [self.runs[(s, c, t)] for t in self.tags.get((s, c), [])]

    def n(self, s, c):
        return len(self.tags.get((s, c), []))

    def note(self):
        """raw/note.txt (written by hand) as one line, "" without one."""
        p = os.path.join(self.raw, "note.txt")
        note = ""
        for line in read_lines(p) if os.path.exists(p) else []:
            note += (" " if note else "") + line
        return note

    def gate(self):
        """The first kernel error line of raw/console.log (its timestamp
        and the characters that break a Markdown table cut), "" if none."""
        p = os.path.join(self.raw, "console.log")
        if not os.path.exists(p):
            return ""
        bad = re.compile(r"BUG:|WARNING:|Oops|Bad page|lockup|rcu_.*stall|general protection")
        for line in read_lines(p):
            if bad.search(line):
                return re.sub(r"^\[ *[0-9.]*\] ", "", line).replace("`", "").replace("|", "")
        return ""

    # ---- what every report prints ----

    def warn(self, msg):
        self.warnings.append(msg)

    def warnings_section(self):
        if not self.warnings:
            return []
        return ["", "## Warnings", ""] + ["- **WARNING** " + w for w in self.warnings]

    def where(self):
        """Where it was measured, and the italic tag of the tables' headings:
        accel "box" (make bench-box: the machine itself, no emulator), kvm
        or the QEMU TCG default."""
        ncpu = self.m("guest_cpus") or self.m("vcpus")
        a = self.m("accel")
        if a == "box":
            tcg = f"measured on {self.m('guest_cpu_model')}, {ncpu} CPUs"
        elif a == "kvm":
            tcg = f"measured in a KVM guest, {ncpu} vCPUs"
        else:
            tcg = f"measured in a QEMU TCG guest (software emulation), {ncpu} vCPUs"
        self.tcg = tcg
        self.TCG = f"_({tcg})_"
        return tcg

    def head(self, title, note=""):
        """The report's title, where it was measured, the note, and the
        command, commit and date lines."""
        tcg = self.where()
        out = ["# foliotune: " + title, ""]
        if self.m("accel") == "box":
            out.append(f"**{tcg}** (machine {self.m('host')}, not an emulator: hardware figures). "
                       "Other work on the machine adds noise: trust differences larger than the spread of the reps.")
        else:
            out.append(f"**{tcg}** (guest CPU: {self.m('guest_cpu_model')}; host: {self.m('host_cpu')}, "
                       f"{self.m('host_cpus')} CPUs). Absolute figures are emulator figures, not hardware figures; "
                       "only ratios between runs of the same boot mean anything.")
        out.append("")
        if note:
            out += ["> **Note:** " + note, ""]
        out += [f"- command: `{self.m('command')}`", f"- commit: `{self.m('commit')}`",
                f"- date: {self.m('date')} (guest: {self.m('guest_date')})"]
        return out

    def common_warnings(self, pairs, fewer, exit_hint):
        """The warnings of a session as a whole: stopped early, too few reps
        (PAIRS: what is paired, "{n}" the reps; FEWER: what the report says
        then), the test box's exit status (EXIT_HINT: where to look, what
        to do about a stall)."""
        if self.m("fatal"):
            self.warn("the guest script stopped early: " + self.m("fatal"))
        reps = self.m("reps")
        if reps != "" and num(reps) < 6:
            self.warn(f"BENCH_REPS={reps}: {pairs.format(n=reps)} no difference can be shown at p < 0.05 "
                      f"(the exact signed-rank test needs 6; bench/README.md): {fewer}; the medians stand")
        ex = self.m("vmrun_exit")
        if ex != "" and ex != "0":
            gate = self.gate()
            self.warn(f"test box exit status {ex}" + (f", console: `{gate}`" if gate else "") + " " + exit_hint)


def out_line(run, w, line):
    """The lines of a run's .out file every report reads alike (a reclaim
    benchmark's result lines, the folio orders, a failed check) into
    run.val; returns the orders of a "# orders:" line, else None."""
    if not w:
        return None
    k = w[0]
    if k == "reclaim_seconds":
        run.val["metric"] = w[1] if len(w) > 1 else ""
    elif k == "reclaimed_kb":
        run.val["reclaimed"] = w[1] if len(w) > 1 else ""
    elif k == "reclaim_request_kb":
        run.val["request"] = w[1] if len(w) > 1 else ""
    elif k == "#" and len(w) > 1 and w[1] == "orders:":
        return re.sub(r"^# orders: ", "", line)
    elif k == "not" and len(w) > 1 and w[1] == "ok":
        run.val["notok"] = line
    return None


def run_checks(sess, runs, metric_missing, more=None):
    """The checks every run of a reclaim-style benchmark gets: its exit
    status, a failed check, a result line, what it reclaimed; then
    MORE(run), the report's own."""
    for r in runs:
        if r.rec.get("exit_code", "") != "0":
            sess.warn(f"{r.id}: benchmark exit status {r.rec.get('exit_code', '')}")
        if "notok" in r.val:
            sess.warn(f"{r.id}: {r.val['notok']}")
        if "metric" not in r.val:
            sess.warn(f"{r.id}: {metric_missing}")
        req = num(r.val.get("request"))
        if req > 0 and num(r.val.get("reclaimed")) < 0.9 * req:
            sess.warn(f"{r.id}: reclaimed {r.val.get('reclaimed', '')} kB of {r.val.get('request', '')} kB requested")
        if more:
            more(r)


def outliers(sess, st, s, configs, say):
    """Warn of each run of s.CONFIG far off the others of its
    configuration (foliotune analyze' outliers of sample "s|CONFIG" of the
    runs' metric): SAY(run, samples) says it.  It stays in the medians,
    which it barely moves."""
    for c in configs:
        sm = st.get(f"{s}|{c}")
        pos = 0
        for r in sess.of(s, c):
            if "metric" not in r.val:
                continue
            pos += 1
            if pos in sm["out"]:
                sess.warn(say(r, sm))


def bt_line(w):
    """A bpftrace map line "@PREFIX_MAP[ORDER]: N" -> (PREFIX_MAP, ORDER, N),
    else None."""
    if not w:
        return None
    m = re.match(r"^@([a-z_]*)\[([^]]*)\]:$", w[0])
    if not m or len(w) < 2:
        return None
    return m.group(1), m.group(2), w[1]


def main(build, argv=None):
    """Run a report: BUILD(session, stats) returns its lines; they are
    written to DIR/results.md and printed.  Exit 2 when there are no raw
    files, no runs, no foliotune analyze, or the report fails."""
    argv = sys.argv if argv is None else argv
    if len(argv) != 2:
        print(f"usage: {PROG} RESULTS_DIR", file=sys.stderr)
        return 2
    d = argv[1]
    sys.stdout.reconfigure(encoding="utf-8", errors="surrogateescape")
    try:
        sess = Session(d)
    except ReportError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    tmp = os.path.join(d, "results.md.tmp")
    try:
        if not sess.has_runs():
            raise ReportError(f"no runs in {sess.raw}")
        stats = Stats(foliotune())
        lines = build(sess, stats)
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("".join(line + "\n" for line in lines))
        os.replace(tmp, os.path.join(d, "results.md"))
    except (ReportError, OSError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        if os.path.exists(tmp):
            os.unlink(tmp)
        return 2
    finally:
        sess.close()
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0
