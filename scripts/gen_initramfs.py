#!/usr/bin/env python3
"""Write a newc cpio archive: the initramfs (docs/exec.md).

    gen_initramfs.py OUT.cpio DEST=SRC [DEST=SRC ...] [DEST=@OTHER ...]

Each DEST (an absolute path in the archive) gets the bytes of the host
file SRC, mode 0755 if SRC is executable, else 0644; every directory
above a DEST is made first, 0755.  DEST=@OTHER makes DEST a hard link
of the archive's file OTHER: the same ino, nlink counting every name,
the bytes only with the first name (busybox's applets: /bin/sh=@/bin/busybox).  The format is the one Linux's
usr/gen_init_cpio writes and init/initramfs.c reads ("070701", 13 hex
fields, the name and the data each padded to 4 bytes, a TRAILER!!!
entry last), which QEMU's -initrd or GRUB's `module` hands the kernel
as a Multiboot module.
"""
import os
import stat
import sys

S_IFDIR, S_IFREG = 0o040000, 0o100000


def entry(ino, name, mode, data=b""):
    """One newc entry: header, name + NUL, padding, data, padding."""
    namez = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(namez), 0]
    out = b"070701" + b"".join(b"%08X" % f for f in fields) + namez
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


def entry_fields(ino, name, mode, data=b"", nlink=1):
    """entry() with nlink: one name of a file that has several."""
    namez = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(namez), 0]
    out = b"070701" + b"".join(b"%08X" % f for f in fields) + namez
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


def main(out_path, pairs):
    archive, dirs, ino = b"", set(), 1
    files = {}      # dest -> (ino, mode): the files so far, for links
    nlinks = {}     # dest of a linked file -> how many names it has
    for pair in pairs:
        dest, src = pair.split("=", 1)
        if src.startswith("@"):
            nlinks[src[1:]] = nlinks.get(src[1:], 1) + 1
    for pair in pairs:
        dest, src = pair.split("=", 1)
        parts = dest.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.add(d)
                archive += entry(ino, d, S_IFDIR | 0o755)
                ino += 1
        if src.startswith("@"):
            target = src[1:]
            if target not in files:
                sys.exit("gen_initramfs.py: %s links to %s, which comes later or not at all"
                         % (dest, target))
            link_ino, mode = files[target]
            archive += entry_fields(link_ino, "/".join(parts), mode, b"", nlinks[target])
            continue
        mode = S_IFREG | (0o755 if os.stat(src).st_mode & stat.S_IXUSR else 0o644)
        with open(src, "rb") as f:
            archive += entry_fields(ino, "/".join(parts), mode, f.read(), nlinks.get(dest, 1))
        files[dest] = (ino, mode)
        ino += 1
    archive += entry(0, "TRAILER!!!", 0)
    with open(out_path, "wb") as f:
        f.write(archive)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
