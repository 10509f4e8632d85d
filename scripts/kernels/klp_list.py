#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""klp_list.py KVER LIST... - the lines of module/klp-symbols.list (and any
further LIST) that apply to kernel release KVER (e.g. 7.3.4+deb13-amd64),
without their version qualifiers: what scripts/klp-convert and
binary-check.py read for that build.

A line may end with qualifiers naming the upstream versions it applies to:
"<7" (before 7.0), ">=7.3" (7.3 on), both for a range.  Such a symbol
exists, or is referenced, in one kernel generation only (module/
kernel_syms.h declares it under the same #if).  Comments and blank lines
are dropped.

Importable: applies(line, version) -> the line without qualifiers, or None.
"""
import re
import sys

QUAL = re.compile(r'^(<|>=)(\d+(?:\.\d+){0,2})$')


def version(text):
    """(X, Y, Z) of a release or version string: 7.3.4+deb13-amd64, 6.12.117-ftdebug."""
    m = re.match(r'^(\d+)\.(\d+)(?:\.(\d+))?', text)
    if not m:
        raise ValueError('%r is not a kernel release' % text)
    return tuple(int(x or 0) for x in m.groups())


def applies(line, ver):
    """LINE without its qualifiers if it applies to VER, else None."""
    words = line.split('#')[0].split()
    if not words:
        return None
    keep = []
    for w in words:
        m = QUAL.match(w)
        if not m:
            keep.append(w)
            continue
        bound = tuple(int(x) for x in m.group(2).split('.'))
        bound += (0,) * (3 - len(bound))
        if (m.group(1) == '<' and not ver < bound) or \
           (m.group(1) == '>=' and not ver >= bound):
            return None
    return ' '.join(keep)


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: klp_list.py KVER LIST...')
    ver = version(sys.argv[1])
    for path in sys.argv[2:]:
        for line in open(path):
            kept = applies(line, ver)
            if kept:
                print(kept)
    return 0


if __name__ == '__main__':
    sys.exit(main())
