#!/usr/bin/env python3
"""busybox_linux.py - the busybox stage's cases, run on Debian's Linux 6.1.

    python3 tests/busybox_linux.py --build build [--log L]

Where a case of tests/busybox/cases.txt says what busybox prints, Linux
is the reference.  This boots Debian's i386 Linux 6.1 (fetched once by
tests/bench_linux.py's fetch() into BUILD/linux-ref/) under QEMU with
the very initramfs the busybox stage gives this kernel (BUILD/busybox.cpio,
scripts/busybox_initramfs.py) and a second archive after it - Linux
unpacks both - holding /init and /dev/console.  /init mounts proc,
sysfs, tracefs, debugfs and devtmpfs where this kernel has them and runs each
case with `/bin/sh -c LINE`, as the stage does, printing a marker, the
output and the exit status.  Then each case's lines are put beside the
ones cases.txt expects.

Some cases are about this kernel (a kprobe on its `fib`, its kallsyms):
Linux has no `fib`, and they differ there by design; the report says
which cases Linux and cases.txt agree on.  Exit status: 0 when Linux ran
every case (the differences are the report), as make conform-linux.
"""
import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_linux     # noqa: E402  (fetch(), cpio_entry())
import busybox_stage   # noqa: E402  (parse_cases(), make_cpio(), CASES)
import conform_linux   # noqa: E402  (boot_linux())

MARK = "@@@ "
END = MARK + "END"
STATUS = MARK + "status "
BB = "/bin/busybox"


def init_script():
    """/init: the mounts this kernel makes at boot, then each case in a shell of its own."""
    return "\n".join([
        "#!%s sh" % BB,
        "%s mkdir -p /proc /sys /tmp" % BB,
        "mount -t proc proc /proc",
        "mount -t sysfs sysfs /sys",
        "mount -t tracefs nodev /sys/kernel/tracing",
        "mount -t debugfs nodev /sys/kernel/debug",
        "mount -t devtmpfs devtmpfs /dev",
        "cd /",
        "while IFS= read -r line; do",
        "  echo \"%s$line\"" % MARK,
        "  /bin/sh -c \"$line\" 2>&1",
        "  echo \"%s$?\"" % STATUS,
        "done < /cases.txt",
        "echo \"%s\"" % END,
        "poweroff -f",
    ]) + "\n"


def make_initrd(build, busybox, cases, path):
    """BUILD/busybox.cpio, then a second archive with /init, /dev/console, /cases.txt."""
    cpio = bench_linux.cpio_entry
    first = busybox_stage.make_cpio(build, busybox).read_bytes()
    second = b"".join([
        cpio("dev", 0o040755), cpio("dev/console", 0o020600, rdev=(5, 1)),
        cpio("init", 0o100755, init_script().encode()),
        cpio("cases.txt", 0o100644, "".join(c[1] + "\n" for c in cases).encode()),
        cpio("TRAILER!!!", 0),
    ])
    Path(path).write_bytes(first + second)


def parse_log(text):
    """[(line, [output], status)] in the order run."""
    runs = []
    for raw in text.replace("\r", "").split("\n"):
        at = raw.find(MARK)
        if at >= 0:
            raw = raw[at:]
        if raw.startswith(END):
            return runs
        if raw.startswith(STATUS) and runs:
            runs[-1][2] = int(raw[len(STATUS):])
        elif raw.startswith(MARK):
            runs.append([raw[len(MARK):], [], None])
        elif runs and raw.strip():
            runs[-1][1].append(raw.rstrip())
    raise SystemExit("busybox_linux.py: Linux's log ends before %r" % END)


def compare(cases, runs):
    """[(name, line, agrees, want, got)] for each case Linux ran (found by its
    line: cases added since the run are left out).  The stage ignores the
    kernel's ENOSYS lines and trailing blanks; so does this."""
    by_line = {line: (out, status) for line, out, status in runs}
    rows = []
    for name, line, want, want_status in cases:
        if line not in by_line:
            continue
        got, status = by_line[line]
        want = [w.rstrip() for w in want]
        rows.append((name, line, want == got and want_status == status,
                     (want_status, want), (status, got)))
    return rows


def report(cases, runs):
    rows = compare(cases, runs)
    for name, line, agrees, want, got in rows:
        if agrees:
            print("same     %s" % name)
            continue
        print("differs  %s: %s" % (name, line))
        print("         cases.txt (exit %d): %r" % want)
        print("         Linux     (exit %s): %r" % got)
    print("%d of %d cases print on Linux what cases.txt expects"
          % (sum(r[2] for r in rows), len(cases)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--busybox", default=os.environ.get("BUSYBOX", busybox_stage.DEFAULT_BUSYBOX))
    ap.add_argument("--log", help="a saved Linux log instead of a boot")
    ap.add_argument("--timeout", type=int, default=600)
    args = ap.parse_args()
    build = Path(args.build)
    cases = busybox_stage.parse_cases(busybox_stage.CASES.read_text())
    if args.log:
        text = Path(args.log).read_text()
    else:
        ref = os.path.abspath(build / "linux-ref")
        root = bench_linux.fetch(ref)
        initrd = os.path.join(ref, "busybox-cases.cpio")
        make_initrd(build, args.busybox, cases, initrd)
        text = conform_linux.boot_linux(root, initrd, args.timeout)
        Path(ref, "busybox-cases.log").write_text(text)
    runs = parse_log(text)
    if len(runs) != len(cases):
        print("busybox_linux.py: Linux ran %d of %d cases" % (len(runs), len(cases)))
        return 1
    report(cases, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
