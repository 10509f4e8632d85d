#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""binary-check.py [--kaslr] REPO KALLSYMS VMLINUX KSRC CONFIG - prove on one kernel
build's binary what foliotune's livepatch assumes, or name what fails:

  * each function foliotune replaces (the sources list module/kcopy/
    patches.list names for KSRC: the OURS=KERNEL names whose copy is
    foliotune_KERNEL) exists exactly once
    in kallsyms, with no .isra/.constprop/.part clone: a clone would keep
    running the old code for the callers that use it.  A NAME.cold part
    is not a clone but the function's own cold blocks (GCC's hot/cold
    splitting), which the livepatched entry never reaches: it is accepted
    when every instruction in vmlinux that refers to it lies inside NAME
    (7.2's try_to_unmap_one() has one);
  * every call of it in its own source file (the only place the compiler
    can inline it: CONFIG_LTO_NONE) is a real call in the binary, found
    by disassembling the calling function: an inlined copy would silently
    bypass the livepatch;
  * every name in module/klp-symbols.list that applies to KSRC's version
    (scripts/kernels/klp_list.py) is in kallsyms, exactly once or as often
    as its sympos allows.

KALLSYMS must come from a boot with nokaslr, so that its addresses are the
vmlinux's; with --kaslr (a running machine's /proc/kallsyms) they are moved
back by the offset of its _text from the start of the vmlinux's .text (KASLR
moves the kernel's image as one piece: sizes do not change).  Prints "NAME SIZE" per replaced function (kallsyms' size: the
distance to the next symbol, what the module's load-time check compares).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcopy      # noqa: E402  (the sources list of a source)
import klp_list   # noqa: E402  (the klp-symbols.list lines of a version)

CLONE = re.compile(r'^(.*?)\.(isra|constprop|part|cold|llvm)\.?\d*')
COLD = re.compile(r'^(.*?)\.cold(\.\d+)?$')


def cold_refs_outside(vmlinux, cold, cold_end, start, end):
    """Instructions of vmlinux outside [start, end) (the function) and
    [cold, cold_end) (its cold part) whose operand lies in the cold part:
    what would make a NAME.cold part an entry of its own."""
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', vmlinux],
                         capture_output=True, text=True, check=True).stdout
    hexnum = re.compile(r'\b(?:0x)?(ffffffff[0-9a-f]{8})\b')
    bad = []
    for line in out.split('\n'):
        m = re.match(r'^\s*([0-9a-f]+):\t(.*)$', line)
        if not m:
            continue
        refs = [int(h, 16) for h in hexnum.findall(m.group(2))]
        if not any(cold <= r < cold_end for r in refs):
            continue
        at = int(m.group(1), 16)
        if not (start <= at < end or cold <= at < cold_end):
            bad.append('%x: %s' % (at, m.group(2).strip()))
    return bad


def die(msg):
    sys.exit('binary-check: ' + msg)


def text_start(vmlinux):
    """The address of the vmlinux's .text section, where _text is."""
    out = subprocess.run(['readelf', '-SW', vmlinux], capture_output=True, text=True,
                         check=True).stdout
    for line in out.split('\n'):
        f = line.replace('[ ', '[').split()
        if len(f) > 3 and f[1] == '.text':
            return int(f[3], 16)
    die('%s has no .text section' % vmlinux)


def main():
    args = sys.argv[1:]
    kaslr = args[:1] == ['--kaslr']
    if kaslr:
        args = args[1:]
    repo, kallsyms, vmlinux, ksrc, config = args[:5]
    cfg = open(config).read()
    if 'CONFIG_LTO_NONE=y' not in cfg:
        die('%s is built with LTO: a call site in another file could be inlined; '
            'this check does not cover that' % config)
    syms = []
    for line in open(kallsyms):
        f = line.split()
        if len(f) == 3:			# vmlinux only, not [module] symbols
            syms.append((int(f[0], 16), f[1], f[2]))
    by_name = {}
    for a, t, n in syms:
        by_name.setdefault(n, []).append(a)
    if not by_name.get('_text') or by_name['_text'][0] == 0:
        die('%s has no addresses (kptr_restrict?)' % kallsyms)
    if kaslr:
        off = by_name['_text'][0] - text_start(vmlinux)
        syms = [(a - off, t, n) for a, t, n in syms]
        by_name = {n: [a - off for a in v] for n, v in by_name.items()}
    addrs = sorted({a for a, _, _ in syms})
    nxt = {a: b for a, b in zip(addrs, addrs[1:])}

    replaced = []
    _, slist, _ = kcopy.pick_patch(repo, ksrc)
    if slist is None:
        die('no patch in module/kcopy/patches.list fits %s' % ksrc)
    for _, kfile, names in kcopy.spec(repo, slist):
        for o, k in names:
            if o == 'foliotune_' + k:
                replaced.append((k, kfile))

    ok = True
    out = []
    for fn, kfile in replaced:
        clones = sorted({n for n in by_name if CLONE.match(n) and CLONE.match(n).group(1) == fn})
        for c in [c for c in clones if COLD.match(c)]:
            if len(by_name.get(fn, [])) != 1 or len(by_name[c]) != 1:
                continue    # reported below, or ambiguous: stays a clone
            bad = cold_refs_outside(vmlinux, by_name[c][0], nxt[by_name[c][0]],
                                    by_name[fn][0], nxt[by_name[fn][0]])
            if bad:
                print('binary-check: %s is reached from outside %s (%s): an entry the '
                      'livepatch would miss' % (c, fn, '; '.join(bad[:3])))
                ok = False
            clones.remove(c)
        if clones:
            print('binary-check: %s has compiler clones %s: callers of a clone would '
                  'not be patched; foliotune cannot patch this build' % (fn, ' '.join(clones)))
            ok = False
        if len(by_name.get(fn, [])) != 1:
            print('binary-check: %s occurs %d times in kallsyms, expected exactly once'
                  % (fn, len(by_name.get(fn, []))))
            ok = False
            continue
        addr = by_name[fn][0]
        out.append('%s 0x%x' % (fn, nxt[addr] - addr))
        # Callers in the function's own file.
        src = open(ksrc + '/' + kfile).read().split('\n')
        callers, cur = [], None
        for line in src:
            m = re.match(r'^[A-Za-z_].*?\b(\w+)\(', line)
            if m and not line.rstrip().endswith(';'):
                cur = m.group(1)
            if re.search(r'\b%s\(' % fn, line) and cur != fn and not line.startswith((' *', '/*')):
                callers.append(cur)
        for caller in sorted(set(callers)):
            if len(by_name.get(caller, [])) != 1:
                print('binary-check: %s calls %s in %s but is not one symbol in kallsyms '
                      '(inlined or cloned): cannot prove the call is real' % (caller, fn, kfile))
                ok = False
                continue
            start = by_name[caller][0]
            dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn',
                                  '--start-address=0x%x' % start, '--stop-address=0x%x' % nxt[start],
                                  vmlinux], capture_output=True, text=True, check=True).stdout
            if not re.search(r'\s(call|jmp)\s+(0x)?%x\b' % addr, dis):
                print('binary-check: %s calls %s in the source, but its code in vmlinux has no '
                      'call to it (an inlined copy the livepatch would miss)' % (caller, fn))
                ok = False
    ver = kcopy.upstream(ksrc)
    for line in open(repo + '/module/klp-symbols.list'):
        kept = klp_list.applies(line, ver)
        if not kept:
            continue
        f = kept.split()
        n = f[0]
        pos = int(f[1]) if len(f) > 1 and f[1].isdigit() else 0
        count = len(by_name.get(n, []))
        if count == 0 or (pos == 0 and count != 1) or pos > count:
            print('binary-check: klp-symbols.list: %s occurs %d times in kallsyms%s' %
                  (n, count, ' (sympos %d)' % pos if pos else ', expected once'))
            ok = False
    if not ok:
        return 1
    print('\n'.join(out))
    return 0


sys.exit(main())
