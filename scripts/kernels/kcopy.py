#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kcopy.py REPO KSRC OUT - foliotune's copies of kernel code for one build,
made from that build's own source the way kpatch makes a livepatch: the
source files, a patch, the result.

KSRC is the build's linux-source-6.12 (scripts/kernels/fetch.sh KVER source:
the files module/kcopy/sources.list names).  The patch is the line of
module/kcopy/patches.list for KSRC's upstream version.  OUT (under build/,
made afresh, renamed into place only when every check passed; a failure
leaves no OUT) gets:

  a/FILE, b/FILE    the kernel files as KSRC has them, and with the patch
  kcopy-gen/NAME.c  one per line of sources.list: its definitions as the
                    patched source (b/) has them, each with the comment
                    right above it: what module/ #includes and compiles
  deviations.diff   the patch as it reads per definition (a/ vs b/)
  patch             which patch, and the source version

Checks, each fatal with one line naming it (and the patch's own output):
  * the patch applies with no fuzz (patch -F0; offsets are fine: the file
    moved around the definitions, the definitions' text did not);
  * every definition of sources.list exists in a/ (the kernel's name) and
    in b/ (foliotune's name, OURS=KERNEL);
  * every change is marked: each hunk of deviations.diff (the definitions
    with foliotune's names put back to the kernel's) adds a line with
    "foliotune:" (or "/* foliotune */");
  * the patch changes nothing but the copied definitions: b/ with each
    copied definition put back as a/ has it equals a/.
So the compiled copies are the build's source except marked deviations, by
construction: there is no other copy to compare.

kcopy.py --refresh REPO OUT - after an edit of the patched kernel files in
OUT/b/: rewrite the patch OUT was made with as the difference of OUT/a/ and
OUT/b/ (its leading text kept), the way a kpatch patch is a diff of an
edited tree.  Then make the copies again: the checks above apply."""
import difflib
import os
import re
import shutil
import subprocess
import sys


CLEAN = []     # what a failure removes: OUT's tmp and a stale OUT


def die(msg):
    for d in CLEAN:
        shutil.rmtree(d, ignore_errors=True)
    sys.stderr.write('kcopy: %s\n' % msg)
    sys.exit(1)


def definition(lines, name):
    """(start, end) of NAME's definition (function, macro, typedef or struct),
    with the comment block right above it, or None: lines[start:end]."""
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
        return start, end + 1
    return None


def spec(repo):
    """[(GEN-NAME, KERNEL-FILE, [(OURS, KERNEL)...])] of sources.list."""
    out = []
    with open(repo + '/module/kcopy/sources.list') as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            gen, kfile, *names = line.split()
            out.append((gen, kfile, [(n.partition('=')[0], n.partition('=')[2] or n)
                                     for n in names]))
    return out


def upstream(ksrc):
    """6.12.N of the source tree (its Makefile), as a tuple."""
    v = {}
    for line in open(ksrc + '/Makefile'):
        m = re.match(r'^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$', line)
        if m:
            v[m.group(1)] = int(m.group(2))
    return (v['VERSION'], v['PATCHLEVEL'], v['SUBLEVEL'])


def pick_patch(repo, ksrc):
    """The patch for KSRC: the last line of patches.list whose FIRST version
    is not newer than the source's; None if the source is older than all."""
    have = upstream(ksrc)
    best = None
    for line in open(repo + '/module/kcopy/patches.list'):
        if not line.strip() or line.startswith('#'):
            continue
        name, first = line.split()[:2]
        if tuple(int(x) for x in first.split('.')) <= have:
            best = name
    return best, '%d.%d.%d' % have


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


def refresh(repo, out):
    name = open(out + '/patch').read().split()[0]
    path = repo + '/module/kcopy/' + name
    head = []
    for line in open(path):
        if line.startswith('--- a/'):
            break
        head.append(line)
    body = []
    for f in sorted(spec_files(repo)):
        r = subprocess.run(['diff', '-u', '--label', 'a/' + f, '--label', 'b/' + f,
                            '%s/a/%s' % (out, f), '%s/b/%s' % (out, f)],
                           stdout=subprocess.PIPE, text=True)
        if r.returncode > 1:
            die('diff of %s/a/%s and b/%s failed' % (out, f, f))
        body.append(r.stdout)
    with open(path + '.tmp', 'w') as f:
        f.writelines(head + body)
    os.rename(path + '.tmp', path)
    sys.stderr.write('kcopy: wrote module/kcopy/%s\n' % name)
    return 0


def spec_files(repo):
    return {k for _, k, _ in spec(repo)}


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--refresh':
        return refresh(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
    if len(sys.argv) != 4:
        sys.exit('usage: kcopy.py REPO KSRC OUT | kcopy.py --refresh REPO OUT')
    repo, ksrc, out = (os.path.abspath(a) for a in sys.argv[1:])
    CLEAN.extend([out + '.tmp', out])
    # fetch.sh writes .version, ksrc.sh (a whole tree) .ft-version
    srcver = ksrc
    for v in ('/.version', '/.ft-version'):
        if os.path.exists(ksrc + v):
            srcver = open(ksrc + v).read().strip()
    name, up = pick_patch(repo, ksrc)
    if name is None:
        die('no patch in module/kcopy/patches.list fits linux-source-6.12 %s '
            '(upstream %s): the copies need a port to this source' % (srcver, up))
    patch = repo + '/module/kcopy/' + name
    s = spec(repo)
    if len({g for g, _, _ in s}) != len(s):
        die('module/kcopy/sources.list names a generated file twice')
    files = sorted({k for _, k, _ in s})

    tmp = out + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    for side in 'ab':
        for f in files:
            os.makedirs(os.path.dirname('%s/%s/%s' % (tmp, side, f)), exist_ok=True)
            try:
                shutil.copyfile(ksrc + '/' + f, '%s/%s/%s' % (tmp, side, f))
            except OSError as e:
                die('%s/%s: %s' % (ksrc, f, e.strerror))

    # -F0: no fuzz; -N: a patch that looks applied already is a failure;
    # -r -: no .rej files; --dry-run first, so that a failed hunk leaves no
    # half-patched tree (b/ is thrown away anyway).
    for extra in (['--dry-run'], []):
        r = subprocess.run(['patch', '-s', '-p1', '-F0', '-N', '-r', '-', '--no-backup-if-mismatch',
                            '-d', tmp + '/b', '-i', patch] + extra,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout)
            die('module/kcopy/%s does not apply without fuzz to linux-source-6.12 %s '
                '(above): port it, or add a variant to module/kcopy/patches.list'
                % (name, srcver))
    touched = set(re.findall(r'^\+\+\+ b/(\S+)', open(patch).read(), re.M))
    if not touched <= set(files):
        die('module/kcopy/%s changes %s, which sources.list copies nothing from'
            % (name, ' '.join(sorted(touched - set(files)))))

    text = {}
    for side in 'ab':
        for f in files:
            text[side, f] = open('%s/%s/%s' % (tmp, side, f)).read().split('\n')

    diff, gen = [], {}
    put_back = {f: list(text['b', f]) for f in files}
    spans = {f: [] for f in files}
    for g, kfile, names in s:
        for ours, kern in names:
            a = definition(text['a', kfile], kern)
            b = definition(text['b', kfile], ours)
            if a is None:
                die('%s not found in %s of linux-source-6.12 %s: the kernel renamed or '
                    'removed it; the copies need a port' % (kern, kfile, srcver))
            if b is None:
                die('%s not found in %s once module/kcopy/%s is applied' % (ours, kfile, name))
            al, bl = text['a', kfile][a[0]:a[1]], text['b', kfile][b[0]:b[1]]
            gen.setdefault(g, []).append(bl)
            spans[kfile].append((b, al))
            # A renamed copy is compared under the kernel's name.
            bk = [re.sub(r'\b%s\b' % re.escape(ours), kern, l) for l in bl]
            diff.append('=== %s %s\n' % (kfile, kern))
            for line in difflib.unified_diff(al, bk, lineterm='', n=1):
                if not line.startswith(('---', '+++')):
                    diff.append(('@@' if line.startswith('@@') else line) + '\n')
    bad = unmarked(diff)
    if bad:
        sys.stderr.write(''.join(bad))
        die('module/kcopy/%s makes changes without a "foliotune:" marker (above)' % name)
    for f in files:
        for (start, end), al in sorted(spans[f], reverse=True):
            put_back[f][start:end] = al
        if put_back[f] != text['a', f]:
            d = difflib.unified_diff(text['a', f], put_back[f], 'a/' + f, 'b/' + f,
                                     lineterm='', n=1)
            sys.stderr.write('\n'.join(list(d)[:20]) + '\n')
            die('module/kcopy/%s changes %s outside the definitions sources.list '
                'copies (above)' % (name, f))

    os.makedirs(tmp + '/kcopy-gen')
    for g, defs in gen.items():
        kfile = next(k for n, k, _ in s if n == g)
        with open('%s/kcopy-gen/%s.c' % (tmp, g), 'w') as f:
            f.write('// SPDX-License-Identifier: GPL-2.0\n'
                    '/*\n'
                    ' * Generated by scripts/kernels/kcopy.py: %s of\n'
                    ' * linux-source-6.12 %s with module/kcopy/%s.\n'
                    ' * Do not edit (docs/kernels.md).\n'
                    ' */\n'
                    % (kfile, srcver, name))
            f.write('\n\n'.join('\n'.join(d) for d in defs) + '\n')
    with open(tmp + '/deviations.diff', 'w') as f:
        f.writelines(diff)
    with open(tmp + '/patch', 'w') as f:
        f.write('%s linux-source-6.12 %s\n' % (name, srcver))
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    return 0


sys.exit(main())
