#!/usr/bin/env python3
"""Write an initramfs of Debian's busybox: /bin/busybox and its applets.

    busybox_initramfs.py OUT.cpio BUSYBOX [DEST=SRC ...]

Every applet busybox names (`busybox --list-full`: bin/sh, usr/bin/cat,
sbin/mount, ...) becomes a hard link of /bin/busybox, as Debian's
`busybox --install` would make links: one copy of the 2 MB file in the
archive and in the kernel's memory (init/initramfs.c).  Busybox looks
at argv[0] to know which applet it is.  Further DEST=SRC pairs add host
files (a test script).  Asking the binary for its list needs the host
to run an i386 program (an x86-64 Linux with ia32 emulation does).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_initramfs  # noqa: E402


def applets(busybox):
    try:
        out = subprocess.run([busybox, "--list-full"], stdout=subprocess.PIPE,
                             check=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("busybox_initramfs.py: cannot run %s --list-full (%s): this host "
                 "runs no i386 programs?" % (busybox, e))
    return ["/" + line.strip() for line in out.splitlines() if line.strip()]


def main(out, busybox, extra):
    pairs = ["/bin/busybox=" + busybox]
    pairs += ["%s=@/bin/busybox" % a for a in applets(busybox) if a != "/bin/busybox"]
    gen_initramfs.main(out, pairs + extra)
    print("busybox_initramfs.py: %s: /bin/busybox and %d applet links"
          % (out, len(pairs) - 1))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
