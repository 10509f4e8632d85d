#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mm-compare.py STOCK_DIR FOLIOTUNE_DIR MD_OUT
   mm-compare.py --control FOLIOTUNE_DIR

Compare two runs of mm-selftests.sh (same boot, with foliotune, then
without it):

 - print one result line per test:
     ok - peer: mm/NAME: ...            same or better with foliotune
     not ok - peer: mm/NAME # ...       passes stock, fails with foliotune
   A test, or a kselftest subtest (matched by its number), that passes
   stock and fails, times out or is not reached with foliotune is a
   failure.  A test that fails or skips stock is judged by its subtests
   that pass stock; with none, it judges nothing and is reported as
   "not ok" (it must be fixed or dropped from the set, not counted as a
   pass).  The stock run may hold only some tests: one that passes with
   foliotune with no failed or skipped subtest needs no control; any
   other test without a stock result is "not ok";
 - write the pass/skip/fail table to MD_OUT.

--control prints, on one line, the tests of FOLIOTUNE_DIR that need the
stock run: every one that did not pass cleanly (a failure, a timeout, a
skip, a failed or skipped subtest).

One process (the shell version forked ~600 times: a minute under TCG).
"""
import datetime
import os
import re
import subprocess
import sys

OK_RE = re.compile(r'^ok (\d+)(.*)$')
NOT_RE = re.compile(r'^not ok (\d+)(.*)$')


def verdict(rc):
    if rc is None:
        return 'not run'
    return {0: 'pass', 4: 'skip', 124: 'timeout', 137: 'timeout'}.get(rc, 'fail(%d)' % rc)


def summary(d):
    res = {}
    order = []
    try:
        with open(os.path.join(d, 'summary')) as f:
            for line in f:
                p = line.split()
                if len(p) == 3:
                    res[p[0]] = (int(p[1]), int(p[2]))
                    order.append(p[0])
    except OSError:
        pass
    return res, order


def subtests(path):
    """{number: 'ok'|'not'|'skip'} from kselftest TAP lines."""
    out = {}
    try:
        with open(path, errors='replace') as f:
            for line in f:
                line = line.rstrip('\n')
                m = OK_RE.match(line)
                if m:
                    out[m.group(1)] = 'skip' if re.search(r'#\s*SKIP', m.group(2), re.I) else 'ok'
                    continue
                m = NOT_RE.match(line)
                if m:
                    out[m.group(1)] = 'not'
    except OSError:
        pass
    return out


def counts(st):
    return '%d/%d/%d' % (sum(v == 'ok' for v in st.values()),
                         sum(v == 'not' for v in st.values()),
                         sum(v == 'skip' for v in st.values()))


def clean_pass(rc, st):
    """Passed with no failed or skipped subtest: no control needed."""
    return rc == 0 and all(v == 'ok' for v in st.values())


def control(ft):
    res, order = summary(ft)
    need = [n for n in order if not clean_pass(res[n][0], subtests(os.path.join(ft, n + '.out')))]
    print(' '.join(need))
    return 0


def first_match(path, pattern, n=1):
    try:
        with open(path, errors='replace') as f:
            hits = [l.strip() for l in f if re.search(pattern, l, re.I)]
    except OSError:
        return ''
    return ' '.join(hits[:n])


def failure_context(path, n=12):
    """The lines just before each failing subtest (kselftest prints its
    reason there, as "# ..." lines): what CI shows of a regression, whose
    .out file stays in the box's run directory."""
    try:
        with open(path, errors='replace') as f:
            text = [l.rstrip('\n') for l in f]
    except OSError:
        return []
    out = []
    for i, line in enumerate(text):
        if NOT_RE.match(line):
            for l in text[max(0, i - 2):i + 1]:
                if l not in out[-3:]:
                    out.append(l)
    if not out:
        out = text[-5:]
    return out[:n]


def main():
    if sys.argv[1:2] == ['--control']:
        return control(sys.argv[2])
    stock, ft, md = sys.argv[1:4]
    repo = os.environ.get('FT_REPO') or os.path.abspath(os.path.join(os.path.dirname(__file__), '../..'))
    try:
        commit = subprocess.run(['git', '-C', repo, 'rev-parse', '--short', 'HEAD'],
                                capture_output=True, text=True).stdout.strip() or 'unknown'
        dirty = subprocess.run(['git', '-C', repo, 'status', '--porcelain', '--', 'module', 'include'],
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        commit, dirty = 'unknown', ''
    s_res, _ = summary(stock)
    f_res, order = summary(ft)
    features = ''.join(', %s on' % k for k in ('fault_around_mkold', 'fault_around_auto')
                       if os.path.exists('/sys/kernel/debug/foliotune/' + k) or
                       os.path.exists(os.path.join(ft, 'feature.' + k)))
    with open('/proc/meminfo') as f:
        mem = int(f.readline().split()[1]) // 1024
    rows, lines, regressions = [], [], 0
    for name in order:
        rc_f, t_f = f_res[name]
        fs = subtests(os.path.join(ft, name + '.out'))
        out_rel = os.path.relpath(os.path.join(ft, name + '.out'), repo)
        if name not in s_res:
            vf = verdict(rc_f)
            if clean_pass(rc_f, fs):
                lines.append('ok - peer: mm/%s: passes with foliotune (%s subtests), no control needed' %
                             (name, counts(fs)))
                vmd = 'passes with foliotune'
            else:
                regressions += 1
                lines.append('not ok - peer: mm/%s # %s with foliotune (%s subtests) and no stock run '
                             'to compare (see %s)' % (name, vf, counts(fs), out_rel))
                vmd = '**NO CONTROL**: %s with foliotune, not run stock' % vf
            rows.append('| %s | not run | %s | - | %s | - / %s | %s |' % (name, vf, counts(fs), t_f, vmd))
            continue
        rc_s, t_s = s_res[name]
        vs, vf = verdict(rc_s), verdict(rc_f)
        ss = subtests(os.path.join(stock, name + '.out'))
        lost = sorted((k for k, v in ss.items() if v == 'ok' and k in fs and fs[k] != 'ok'), key=int)
        missing = sorted((k for k, v in ss.items() if v == 'ok' and k not in fs), key=int)
        why = []
        if vs == 'pass' and vf != 'pass':
            why.append('passes stock, %s with foliotune' % vf)
        if lost:
            why.append('subtests passing stock, failing with foliotune: ' + ' '.join(lost))
        if missing and vf != 'pass':
            why.append('subtests not reached with foliotune: ' + ' '.join(missing))
        if why:
            regressions += 1
            lines.append('not ok - peer: mm/%s # %s (see %s)' % (name, '; '.join(why), out_rel))
            lines.extend('#   ' + l for l in failure_context(os.path.join(ft, name + '.out')))
            vmd = '**REGRESSION**: ' + '; '.join(why)
        elif vs == 'pass':
            lines.append('ok - peer: mm/%s: passes stock and with foliotune (%s subtests)' % (name, counts(fs)))
            vmd = 'same'
        elif sum(v == 'ok' for v in ss.values()):
            # The test as a whole fails or skips stock, but its subtests
            # that pass stock are compared (the check above).
            n = sum(v == 'ok' for v in ss.values())
            lines.append('ok - peer: mm/%s: %s stock, %s with foliotune; its %d subtests passing stock '
                         'pass with foliotune' % (name, vs, vf, n))
            vmd = '%s stock; the %d subtests passing stock pass with foliotune' % (vs, n)
        else:
            # Nothing passes stock: nothing about foliotune can be learnt.
            reason = first_match(os.path.join(stock, name + '.out'),
                                 r'skip|not supported|not available|fail|Bail out')[:100]
            lines.append('not ok - peer: mm/%s # %s on the stock kernel (%s), no subtest passes '
                         'stock: it cannot judge foliotune; fix its setup or drop it from the set' %
                         (name, vs, reason or 'no message'))
            vmd = '%s stock: judges nothing' % vs
        rows.append('| %s | %s | %s | %s | %s | %s / %s | %s |' % (
            name, vs, vf, counts(ss), counts(fs), t_s, t_f, vmd))
    print('\n'.join(lines))
    now = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    with open(md, 'w') as f:
        f.write('# mm selftests: stock kernel vs. foliotune loaded\n\n')
        f.write('Generated by `tests/guest/reliability/peer.sh` (via tests/mm-selftests/mm-compare.py)\n')
        f.write('on %s, foliotune commit %s%s, kernel %s,\n' % (
            now, commit, ' (module/ or include/ modified)' if dirty else '', os.uname().release))
        f.write('test box: %d vCPUs, %d MB, QEMU TCG; selftests from linux-source-6.12\n' % (os.cpu_count(), mem))
        f.write('(tests/mm-selftests/build-mm-selftests.sh).  Both runs in the same boot: first\n')
        f.write('with the module loaded (unmap_batch=1%s), then without it: the\n' % features)
        f.write('whole set (a record run), or only the tests that did not pass cleanly with it.\n')
        f.write('Subtests are kselftest TAP results: pass/fail/skip.\n\n')
        f.write('| test | stock | foliotune | subtests stock | subtests foliotune | time stock / foliotune (s) | verdict |\n')
        f.write('|---|---|---|---|---|---|---|\n')
        f.write('\n'.join(rows) + '\n')
        f.write('\nRegressions (passing stock, failing with foliotune): %d.\n\n' % regressions)
        f.write('Failures and skips of the stock kernel, first lines of their reasons:\n\n')
        for name in order:
            rc = s_res.get(name, (0, 0))[0]
            if rc == 0:
                continue
            why = first_match(os.path.join(stock, name + '.out'), r'^not ok|SKIP|Bail out|fail', 3)
            f.write('* `%s` (%s): %s\n' % (name, verdict(rc), why[:300] or 'no message'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
