#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kcopy.py REPO KSRC OUT - foliotune's copies of kernel code for one build,
made from that build's own source the way kpatch makes a livepatch: the
source files, a patch, the result.

KSRC is the build's linux-source-X.Y (scripts/kernels/fetch.sh KVER source:
the files the sources lists name).  The line of module/kcopy/patches.list
for KSRC's upstream version names the patch and its sources list (a
generation of the copies: the definitions to copy, one line per generated
file).  OUT (under build/, made afresh, renamed into place only when every
check passed; a failure leaves no OUT) gets:

  a/FILE, b/FILE    the kernel files as KSRC has them, and with the patch
  kcopy-gen/NAME.c  one per line of the sources list: its definitions as
                    the patched source (b/) has them, each with the comment
                    right above it: what module/ #includes and compiles
  deviations.diff   the patch as it reads per definition (a/ vs b/)
  patch             which patch, the source package and version

Checks, each fatal with one line naming it (and the patch's own output):
  * the patch applies with no fuzz (patch -F0; offsets are fine: the file
    moved around the definitions, the definitions' text did not);
  * each hunk lands in the definitions it names (the text after its "@@
    ... @@", kernel names of the sources list): every line it adds or
    removes lies inside one of them in b/.  An offset that carried a hunk
    into another function (try_to_unmap_one's context also occurs in
    try_to_migrate_one) fails naming the hunk and where it landed;
  * every definition of the sources list exists in a/ (the kernel's name)
    and in b/ (foliotune's name, OURS=KERNEL);
  * every change is marked: each hunk of deviations.diff (the definitions
    with foliotune's names put back to the kernel's) adds a line with
    "foliotune:" (or "/* foliotune */");
  * the patch changes nothing but the copied definitions: b/ with each
    copied definition put back as a/ has it equals a/.
So the compiled copies are the build's source except marked deviations, by
construction: there is no other copy to compare.

kcopy.py --refresh REPO OUT - after an edit of the patched kernel files in
OUT/b/: rewrite the patch OUT was made with as the difference of OUT/a/ and
OUT/b/ (its leading text kept, each hunk named by the copied definitions
it changes), the way a kpatch patch is a diff of an edited tree.  Then
make the copies again: the checks above apply.

kcopy.py --files REPO - the kernel files every sources list copies from,
one per line (what scripts/kernels/fetch.sh takes from a source package).

Importable (binary-check.py): pick_patch(), spec(), upstream()."""
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


def spec(repo, listname='sources.list'):
    """[(GEN-NAME, KERNEL-FILE, [(OURS, KERNEL)...])] of a sources list."""
    out = []
    with open(repo + '/module/kcopy/' + listname) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            gen, kfile, *names = line.split()
            out.append((gen, kfile, [(n.partition('=')[0], n.partition('=')[2] or n)
                                     for n in names]))
    return out


def patches(repo):
    """[(PATCH, FIRST-VERSION-TUPLE, SOURCES-LIST)] of patches.list."""
    out = []
    for line in open(repo + '/module/kcopy/patches.list'):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split()
        out.append((f[0], tuple(int(x) for x in f[1].split('.')),
                    f[2] if len(f) > 2 else 'sources.list'))
    return out


def upstream(ksrc):
    """X.Y.Z of the source tree (its Makefile), as a tuple."""
    v = {}
    for line in open(ksrc + '/Makefile'):
        m = re.match(r'^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$', line)
        if m:
            v[m.group(1)] = int(m.group(2))
    return (v['VERSION'], v['PATCHLEVEL'], v['SUBLEVEL'])


def source_package(version):
    """linux-source-X.Y, the package a source of upstream VERSION comes in."""
    return 'linux-source-%d.%d' % version[:2]


def pick_patch(repo, ksrc):
    """(PATCH, SOURCES-LIST, 'X.Y.Z') for KSRC: the last line of patches.list
    whose FIRST version is not newer than the source's; PATCH is None if the
    source is older than all."""
    have = upstream(ksrc)
    best, sources = None, None
    for name, first, slist in patches(repo):
        if first <= have:
            best, sources = name, slist
    return best, sources, '%d.%d.%d' % have


def all_files(repo):
    """Every kernel file some sources list of patches.list copies from."""
    return sorted({k for _, _, slist in patches(repo) for _, k, _ in spec(repo, slist)})


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


HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$')


def hunks(text):
    """[(FILE, N, HEADER, NAMES, BODY)] of a unified diff: N counts from 1 in
    each file, as patch(1) numbers its hunks; NAMES is what follows the
    second "@@", the kernel names of the definitions the hunk changes."""
    out, f, n = [], None, 0
    cur = None
    for line in text.split('\n'):
        if line.startswith('+++ b/'):
            f, n, cur = line[6:].split('\t')[0], 0, None
            continue
        if line.startswith('--- '):
            cur = None
            continue
        m = HUNK.match(line)
        if m and f:
            n += 1
            cur = (f, n, line, m.group(5).split(), [])
            out.append(cur)
        elif cur is not None and line[:1] in (' ', '+', '-', '\\'):
            cur[4].append(line)
    return out


def changed(body, first):
    """The changes of a hunk body whose new side starts at line FIRST
    (1-based): ('+', i) for a line added at index i of the new file,
    ('-', i) for lines removed just before index i."""
    out, i = [], first - 1
    for line in body:
        if line.startswith('+'):
            out.append(('+', i))
            i += 1
        elif line.startswith('-'):
            out.append(('-', i))
        elif line.startswith(' '):
            i += 1
    return out


def inside(change, span):
    kind, i = change
    start, end = span
    return start <= i < end if kind == '+' else start <= i <= end


def enclosing(lines, i):
    """The definition line i lies in, for a message: the name of the nearest
    line above that starts one at column 0."""
    for j in range(min(i, len(lines) - 1), -1, -1):
        m = re.match(r'^[A-Za-z_][^;]*?\b(\w+)\(', lines[j])
        if m and not lines[j].rstrip().endswith(';'):
            return m.group(1) + '()'
        m = re.match(r'^(?:#define|struct|typedef)\s+.*?(\w+)', lines[j])
        if m:
            return m.group(1)
    return 'the top of the file'


def name_hunks(diff, blines, defs):
    """DIFF (one file, diff -u) with each hunk header naming the copied
    definitions (DEFS: [(KERNEL, (start, end) in b/)]) its changes lie in."""
    out = []
    text = diff.split('\n')
    for k, line in enumerate(text):
        m = HUNK.match(line)
        if m:
            body = []
            for b in text[k + 1:]:
                if HUNK.match(b) or b[:1] not in (' ', '+', '-', '\\'):
                    break
                body.append(b)
            names = []
            for c in changed(body, int(m.group(3))):
                for kern, span in defs:
                    if inside(c, span) and kern not in names:
                        names.append(kern)
                        break
            line = line[:m.end(4) if m.group(4) else m.end(3)] + ' @@' + \
                ''.join(' ' + n for n in names)
        out.append(line)
    return '\n'.join(out)


def refresh(repo, out):
    name = open(out + '/patch').read().split()[0]
    slist = next((sl for p, _, sl in patches(repo) if p == name), None)
    if slist is None:
        die('module/kcopy/patches.list does not name %s' % name)
    s = spec(repo, slist)
    path = repo + '/module/kcopy/' + name
    head = []
    for line in open(path):
        if line.startswith('--- a/'):
            break
        head.append(line)
    body = []
    for f in sorted({k for _, k, _ in s}):
        r = subprocess.run(['diff', '-u', '--label', 'a/' + f, '--label', 'b/' + f,
                            '%s/a/%s' % (out, f), '%s/b/%s' % (out, f)],
                           stdout=subprocess.PIPE, text=True)
        if r.returncode > 1:
            die('diff of %s/a/%s and b/%s failed' % (out, f, f))
        blines = open('%s/b/%s' % (out, f)).read().split('\n')
        defs = []
        for _, kfile, names in s:
            for ours, kern in names:
                span = definition(blines, ours) if kfile == f else None
                if span:
                    defs.append((kern, span))
        body.append(name_hunks(r.stdout, blines, defs))
    with open(path + '.tmp', 'w') as f:
        f.writelines(head + body)
    os.rename(path + '.tmp', path)
    sys.stderr.write('kcopy: wrote module/kcopy/%s\n' % name)
    return 0


def landings(output):
    """{(FILE, N): new-side line} from patch --verbose: where each hunk went."""
    out, f = {}, None
    for line in output.split('\n'):
        m = re.match(r'^patching file (\S+)', line)
        if m:
            f = m.group(1)
        m = re.match(r'^Hunk #(\d+) succeeded at (\d+)', line)
        if m and f:
            out[f, int(m.group(1))] = int(m.group(2))
    return out


def check_landings(name, patchtext, land, text, s, srcpkg):
    """Each hunk of the patch changes lines inside the definitions it names
    (in b/); otherwise one line naming the hunk and where it went."""
    ours = {(k, kern): o for _, k, names in s for o, kern in names}
    for f, n, header, names, body in hunks(patchtext):
        where = 'module/kcopy/%s, hunk #%d of %s (%s)' % (name, n, f, header)
        if not names:
            die('%s names no copied definition: make kcopy-refresh names its hunks' % where)
        spans = []
        for kern in names:
            if (f, kern) not in ours:
                die('%s names %s, which the sources list does not copy from %s'
                    % (where, kern, f))
            spans.append(definition(text['b', f], ours[f, kern]))
        if (f, n) not in land:
            die('%s: patch did not say where it applied' % where)
        for c in changed(body, land[f, n]):
            if not any(sp and inside(c, sp) for sp in spans):
                die('%s lands at line %d, in %s, not in %s: the source differs there; '
                    'port the patch to %s (docs/kernels.md)'
                    % (where, c[1] + 1, enclosing(text['b', f], c[1]),
                       ' or '.join(names), srcpkg))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--refresh':
        return refresh(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == '--files':
        print('\n'.join(all_files(os.path.abspath(sys.argv[2]))))
        return 0
    if len(sys.argv) != 4:
        sys.exit('usage: kcopy.py REPO KSRC OUT | kcopy.py --refresh REPO OUT | '
                 'kcopy.py --files REPO')
    repo, ksrc, out = (os.path.abspath(a) for a in sys.argv[1:])
    CLEAN.extend([out + '.tmp', out])
    # fetch.sh writes .version, ksrc.sh (a whole tree) .ft-version
    srcver = ksrc
    for v in ('/.version', '/.ft-version'):
        if os.path.exists(ksrc + v):
            srcver = open(ksrc + v).read().strip()
    name, slist, up = pick_patch(repo, ksrc)
    srcpkg = '%s %s' % (source_package(upstream(ksrc)), srcver)
    if name is None:
        die('no patch in module/kcopy/patches.list fits %s '
            '(upstream %s): the copies need a port to this source' % (srcpkg, up))
    patch = repo + '/module/kcopy/' + name
    s = spec(repo, slist)
    if len({g for g, _, _ in s}) != len(s):
        die('module/kcopy/%s names a generated file twice' % slist)
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
    # half-patched tree (b/ is thrown away anyway).  --verbose: where each
    # hunk applied (check_landings()).
    for extra in (['-s', '--dry-run'], ['--verbose']):
        r = subprocess.run(['patch', '-p1', '-F0', '-N', '-r', '-', '--no-backup-if-mismatch',
                            '-d', tmp + '/b', '-i', patch] + extra,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout)
            die('module/kcopy/%s does not apply without fuzz to %s '
                '(above): port it, or add a variant to module/kcopy/patches.list'
                % (name, srcpkg))
    land = landings(r.stdout)
    patchtext = open(patch).read()
    touched = set(re.findall(r'^\+\+\+ b/(\S+)', patchtext, re.M))
    if not touched <= set(files):
        die('module/kcopy/%s changes %s, which %s copies nothing from'
            % (name, ' '.join(sorted(touched - set(files))), slist))

    text = {}
    for side in 'ab':
        for f in files:
            text[side, f] = open('%s/%s/%s' % (tmp, side, f)).read().split('\n')
    check_landings(name, patchtext, land, text, s, srcpkg)

    diff, gen = [], {}
    put_back = {f: list(text['b', f]) for f in files}
    spans = {f: [] for f in files}
    for g, kfile, names in s:
        for ours, kern in names:
            a = definition(text['a', kfile], kern)
            b = definition(text['b', kfile], ours)
            if a is None:
                die('%s not found in %s of %s: the kernel renamed or '
                    'removed it; the copies need a port' % (kern, kfile, srcpkg))
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
            die('module/kcopy/%s changes %s outside the definitions %s '
                'copies (above)' % (name, f, slist))

    os.makedirs(tmp + '/kcopy-gen')
    for g, defs in gen.items():
        kfile = next(k for n, k, _ in s if n == g)
        with open('%s/kcopy-gen/%s.c' % (tmp, g), 'w') as f:
            f.write('// SPDX-License-Identifier: GPL-2.0\n'
                    '/*\n'
                    ' * Generated by scripts/kernels/kcopy.py: %s of\n'
                    ' * %s with module/kcopy/%s.\n'
                    ' * Do not edit (docs/kernels.md).\n'
                    ' */\n'
                    % (kfile, srcpkg, name))
            f.write('\n\n'.join('\n'.join(d) for d in defs) + '\n')
    with open(tmp + '/deviations.diff', 'w') as f:
        f.writelines(diff)
    with open(tmp + '/patch', 'w') as f:
        f.write('%s %s\n' % (name, srcpkg))
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
