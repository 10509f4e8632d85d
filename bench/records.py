#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read `foliotune record` files for the benchmark reports and plots.

The one reader of record files outside C (userspace/util/record_file.c; format:
foliotune(8), RECORD FILES).  `records.py RAWDIR|FILE.rec...` prints every
record as tab-separated lines, each starting with the run's ID (the file
name without .rec, BENCH.CONFIG.REP):

    ID  record   PATH                  first line of every record file
    ID  KEY      VALUE                 a "KEY VALUE" line (VALUE: the rest)
    ID  knob     NAME  VALUE
    ID  set      NAME  VALUE  OLD
    ID  counter  SOURCE  NAME  DELTA

in file order, comments left out, bytes as in the file; record values hold
no tab (the writer turns control characters into "?").  A directory stands
for its *.rec files in the order of the shell's glob (LC_COLLATE), the
order the reports have always read them in.  A file that is not a record
is left out with a message on stderr, as the C reader rejects it; so is a
malformed line (C rejects its file), so that a report still gets written.
Python 3 standard library only; import it for read_record() and records().
"""
import locale
import os
import re
import signal
import sys

MAGIC = "# foliotune record v"
VERSION = 1
# structured keys and their number of words (set: OLD may be missing)
WORDS = {"knob": (2,), "set": (2, 3), "counter": (3,)}


def read_record(path):
    """The lines of one record file as lists of fields (without the ID).

    Raises ValueError for a file that is not a record, or a newer one."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    head = lines[0].rstrip("\r") if lines else ""
    version = head[len(MAGIC):]
    if not head.startswith(MAGIC) or not re.fullmatch("[0-9]+", version) or int(version) < 1:
        raise ValueError(f"{path}: not a foliotune record (no '{MAGIC}1' line)")
    if int(version) > VERSION:
        raise ValueError(f"{path}: record format v{version} is newer than this reader (v{VERSION})")
    out = []
    for n, line in enumerate(lines[1:], 2):
        line = line.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key in WORDS:
            words = re.findall("[^ \t]+", value)
            if len(words) not in WORDS[key] or (key == "counter" and not _integer(words[2])):
                print(f"records.py: {path}:{n}: malformed {key} line, left out", file=sys.stderr)
                continue
            out.append([key] + words)
        else:
            out.append([key, value])
    return out


def _integer(s):
    try:
        int(s)
        return True
    except ValueError:
        return False


def records(args):
    """(ID, path, lines) of every record file of args (directories or files)."""
    for arg in args:
        if os.path.isdir(arg):
            names = sorted((n for n in os.listdir(arg) if n.endswith(".rec") and not n.startswith(".")),
                           key=locale.strxfrm)
            paths = [os.path.join(arg, n) for n in names]
        else:
            paths = [arg]
        for path in paths:
            try:
                lines = read_record(path)
            except ValueError as e:
                print(f"records.py: {e}, left out", file=sys.stderr)
                continue
            yield os.path.basename(path).removesuffix(".rec"), path, lines


def main(argv):
    if len(argv) < 2:
        print("usage: records.py RAWDIR|FILE.rec...", file=sys.stderr)
        return 2
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet end in `| head`
    locale.setlocale(locale.LC_COLLATE, "")
    sys.stdout.reconfigure(encoding="utf-8", errors="surrogateescape")
    try:
        for run, path, lines in records(argv[1:]):
            print(run, "record", path, sep="\t")
            for fields in lines:
                print(run, *fields, sep="\t")
    except OSError as e:
        print(f"records.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
