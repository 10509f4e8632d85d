#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kcopy-diff.py REPO KSRC - the differences between foliotune's copies of
kernel code (module/kcopy/sources.list) and the same definitions in the
kernel source tree KSRC, as a unified diff without line numbers: one
section per definition, "=== OUR-FILE NAME".

The copies equal the kernel except their "foliotune:" deviations, and those
are exactly module/kcopy/deviations.diff.  So for a kernel build whose
source is KSRC, this script's output must equal that file, byte for byte:
any change in the kernel's text of a copied definition (a fix in
try_to_unmap_one, a new line in folio_pte_batch) changes the output.
--check compares and prints the difference; --write rewrites
deviations.diff (after a deliberate change of a copy; every hunk must then
carry a "foliotune:" (or "/* foliotune */") marker, or --write refuses)."""
import difflib
import re
import sys


def definition(lines, name):
    """Lines of NAME's definition (function, macro, typedef or struct) with the
    comment block right above it, or None."""
    pats = [re.compile(r'^#define\s+%s\b' % re.escape(name)),
            re.compile(r'^typedef\b.*\b%s;' % re.escape(name)),
            re.compile(r'^[A-Za-z_].*[\s*]%s\(' % re.escape(name)),
            # the name at the start of the line, its type on the line above
            re.compile(r'^%s\(' % re.escape(name)),
            re.compile(r'^struct\s+%s\s*\{' % re.escape(name))]
    for i, line in enumerate(lines):
        if not any(p.match(line) for p in pats):
            continue
        start = i
        if pats[4].match(line):
            end = i
            while end < len(lines) and lines[end] != '};':
                end += 1
        elif pats[2].match(line) or pats[3].match(line):
            if pats[3].match(line):
                if i == 0 or not re.match(r'^[A-Za-z_][^;{}()]*$', lines[i - 1]):
                    continue
                start = i - 1
            # A prototype (ends with ';' before any '{') is not the definition.
            j = i
            while j < len(lines) and '{' not in lines[j] and ';' not in lines[j]:
                j += 1
            if j >= len(lines) or '{' not in lines[j]:
                continue
            end = j
            while end < len(lines) and lines[end] != '}':
                end += 1
        elif line.startswith('#define'):
            end = i
            while lines[end].endswith('\\'):
                end += 1
        else:
            end = i
        if start > 0 and lines[start - 1].rstrip().endswith('*/'):
            start -= 1
            while not lines[start].lstrip().startswith('/*'):
                start -= 1
        return lines[start:end + 1]
    return None


def sections(repo, ksrc):
    out = []
    with open(repo + '/module/kcopy/sources.list') as f:
        spec = [l.split() for l in f if l.strip() and not l.startswith('#')]
    for ours_file, kfile, *names in spec:
        ours = open(repo + '/' + ours_file).read().split('\n')
        try:
            kern = open(ksrc + '/' + kfile).read().split('\n')
        except OSError as e:
            sys.exit('kcopy-diff: %s: %s' % (kfile, e.strerror))
        for n in names:
            o, _, k = n.partition('=')
            k = k or o
            a = definition(kern, k)
            # A renamed copy is compared under the kernel's name.
            b = definition([re.sub(r'\b%s\b' % re.escape(o), k, l) for l in ours], k)
            if b is None:
                sys.exit('kcopy-diff: %s not found in %s' % (o, ours_file))
            if a is None:
                sys.exit('kcopy-diff: %s not found in %s/%s: the kernel renamed or '
                         'removed it; foliotune cannot patch this build' % (k, ksrc, kfile))
            out.append('=== %s %s\n' % (ours_file, k))
            for line in difflib.unified_diff(a, b, lineterm='', n=1):
                if line.startswith(('---', '+++')):
                    continue
                out.append(('@@' if line.startswith('@@') else line) + '\n')
    return out


MARK = re.compile(r'foliotune(:| \*/)')


def unmarked(diff):
    """Hunks whose added lines carry no 'foliotune:' marker."""
    bad, hunk = [], []
    for line in diff + ['@@\n']:
        if line.startswith(('@@', '===')):
            if hunk and not any(l.startswith('+') and MARK.search(l) for l in hunk) \
               and any(l[0] in '+-' for l in hunk):
                bad.append(''.join(hunk))
            hunk = [] if line.startswith('===') else [line]
        else:
            hunk.append(line)
    return bad


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ('--check', '--write', '--print'):
        sys.exit('usage: kcopy-diff.py REPO KSRC --check|--write|--print')
    repo, ksrc, mode = sys.argv[1:]
    diff = sections(repo, ksrc)
    ref = repo + '/module/kcopy/deviations.diff'
    if mode == '--print':
        sys.stdout.writelines(diff)
        return 0
    if mode == '--write':
        with open(ref + '.tmp', 'w') as f:
            f.writelines(diff)
        import os
        os.rename(ref + '.tmp', ref)
    if mode == '--write':
        bad = unmarked(diff)
        if bad:
            sys.stdout.write('kcopy-diff: changes without a "foliotune:" marker:\n' + ''.join(bad))
            return 1
        return 0
    expected = open(ref).read().splitlines(True)
    if diff == expected:
        return 0
    def split(lines):
        secs, cur = {}, None
        for line in lines:
            if line.startswith('=== '):
                cur = line[4:].strip()
            secs.setdefault(cur, []).append(line)
        return secs
    e, d = split(expected), split(diff)
    names = [n for n in d if e.get(n) != d[n]]
    sys.stdout.write('kcopy-diff: the copied kernel code differs from %s in: %s\n'
                     '(the deviation diff, - as for the verified builds, + as for this source):\n'
                     % (ksrc, ', '.join(names)))
    sys.stdout.writelines(difflib.unified_diff(expected, diff, 'deviations.diff',
                                               'this kernel', n=2))
    return 1


sys.exit(main())
