#!/usr/bin/env python3
"""busybox_applets.py - where each applet's main is in a stripped busybox.

    python3 scripts/busybox_applets.py BUSYBOX                 every applet
    python3 scripts/busybox_applets.py BUSYBOX echo true       those applets
    python3 scripts/busybox_applets.py BUSYBOX --entry         the entry point

prints one line per applet, "NAME 0xFILEOFFSET" of the main function
`busybox NAME` calls - echo_main for echo - (the entry: "_start
0xFILEOFFSET"): the offset a uprobe takes, as in
`p:ev /bin/busybox:0xFILEOFFSET` (docs/busybox.md, section 8).

Debian's busybox has no symbol table, but it carries its own: the
applet names, sorted, as one string "[\\0[[\\0acpid\\0...\\0zcat\\0\\0"
(applet_names[] of busybox's generated applet_tables.h), and in the
same order an array of pointers to each applet's main (applet_main[]),
which `busybox NAME` calls.  The names are found by their first two,
"[" and "[[" (test's names; every busybox has them); the array is the
one run of len(names) words, each an address in the executable
segment, where "[", "[[" and "test" point at the same function.  An
address becomes a file offset through the PT_LOAD that holds it:
offset = vaddr - p_vaddr + p_offset.  The ELF file alone is read.
"""
import struct
import sys

PT_LOAD = 1
PF_X = 1
WORD = 4
TEST_NAMES = (b"[", b"[[", b"test")	# one applet, three names


class AppletError(Exception):
    pass


def load_segments(data):
    """[(p_offset, p_vaddr, p_filesz, p_flags)] of the PT_LOADs; checks the header."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise AppletError("not a 32-bit little-endian ELF file")
    e_phoff, = struct.unpack_from("<I", data, 28)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 42)
    segs = []
    for i in range(e_phnum):
        p_type, p_offset, p_vaddr, _, p_filesz, _, p_flags, _ = \
            struct.unpack_from("<8I", data, e_phoff + i * e_phentsize)
        if p_type == PT_LOAD:
            segs.append((p_offset, p_vaddr, p_filesz, p_flags))
    return segs


def entry_vaddr(data):
    return struct.unpack_from("<I", data, 24)[0]


def vaddr_to_offset(segs, vaddr):
    """The file offset the address is loaded from (Linux's vma_offset, reversed)."""
    for off, va, size, _ in segs:
        if va <= vaddr < va + size:
            return vaddr - va + off
    raise AppletError("0x%x is in no loaded segment" % vaddr)


def applet_names(data):
    """The sorted names, from the string that starts "[\\0[[\\0"."""
    start = data.find(b"[\x00[[\x00")
    if start < 0 or data.find(b"[\x00[[\x00", start + 1) >= 0:
        raise AppletError("no single applet name table")
    end = data.find(b"\x00\x00", start)
    names = data[start:end].split(b"\x00")
    if names != sorted(names):
        raise AppletError("the applet names are not sorted")
    return names


def text_range(segs):
    (lo, hi), = [(va, va + size) for _, va, size, flags in segs if flags & PF_X]
    return lo, hi


def applet_mains(data, segs, names):
    """applet_main[]: the run of len(names) text addresses, test's three names equal."""
    lo, hi = text_range(segs)
    n = len(names)
    words = struct.unpack_from("<%dI" % (len(data) // WORD), data)
    same = [names.index(t) for t in TEST_NAMES]
    found, run = [], 0
    for i, w in enumerate(words):
        run = run + 1 if lo <= w < hi else 0
        if run >= n:
            table = words[i - n + 1:i + 1]
            if len({table[j] for j in same}) == 1:
                found.append(table)
    if len(found) != 1:
        raise AppletError("%d candidate applet_main[] tables, not 1" % len(found))
    return dict(zip((x.decode() for x in names), found[0]))


def applet_offsets(path):
    """{applet name: file offset of its main}, and the entry point's offset."""
    with open(path, "rb") as f:
        data = f.read()
    segs = load_segments(data)
    mains = applet_mains(data, segs, applet_names(data))
    offsets = {name: vaddr_to_offset(segs, va) for name, va in mains.items()}
    return offsets, vaddr_to_offset(segs, entry_vaddr(data))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        offsets, entry = applet_offsets(argv[1])
    except (AppletError, OSError) as e:
        print("busybox_applets: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    wanted = argv[2:] or sorted(offsets)
    for name in wanted:
        if name == "--entry":
            print("_start 0x%x" % entry)
        elif name in offsets:
            print("%s 0x%x" % (name, offsets[name]))
        else:
            print("busybox_applets: no applet %s" % name, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
