#!/usr/bin/env python3
"""
check_linux_builtin.py - Linux's built-in kprobes sanity test, built in.

    python3 tests/host/check_linux_builtin.py --build build

Linux 2.6.25-5.13 tested kprobes with lib/test_kprobes.c linked into the
kernel (obj-y) and called from init_kprobes() when CONFIG_KPROBES_SANITY_TEST=y.
For each of our files in one of its two shapes (tests/linux-builtin/),
this builds a kernel the documented way, in BUILD/linux-builtin/NAME:

    make BUILTIN=tests/linux-builtin/NAME.c CONFIG_KPROBES_SANITY_TEST=y

boots it, and expects Linux's two lines at boot, in order, and nothing
else from the test:

    Kprobe smoke test: started
    Kprobe smoke test: passed successfully

  jprobe_generation   lb_sanity_jprobes.c: kprobe, jprobe, kretprobe (2.6.25-4.14)
  no_jprobes          lb_sanity.c: kprobes and kretprobes, one and two at a time (4.15-5.13)

Prints KTAP; exit status 1 on failure.
"""
import argparse
import os
import select
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

TREE = Path(__file__).resolve().parents[2]
QEMU = "qemu-system-i386"
BOOT_TIMEOUT = 120      # seconds: a boot to the prompt, under load
BUILD_TIMEOUT = 900     # a whole kernel, at make -j2
PROMPT = b"kprobes# "
TAIL = 15               # output lines shown on failure
STARTED = "Kprobe smoke test: started"
PASSED = "Kprobe smoke test: passed successfully"

SHAPES = [
    ("jprobe_generation", "lb_sanity_jprobes.c"),
    ("no_jprobes", "lb_sanity.c"),
]


def build(builddir, source):
    """make the kernel with source built in; (problems, output lines)."""
    cmd = ["make", "--no-print-directory", "-j2", "-C", str(TREE),
           f"B={builddir}", f"BUILTIN=tests/linux-builtin/{source}",
           "CONFIG_KPROBES_SANITY_TEST=y", "all"]
    p = subprocess.run(cmd, capture_output=True, text=True,
                       timeout=BUILD_TIMEOUT)
    lines = (p.stdout + p.stderr).splitlines()
    if p.returncode:
        return [f"`{' '.join(cmd[3:])}` failed ({p.returncode})"], lines
    return [], lines


def boot(kernel):
    """Boot kernel to its prompt, then power it off; the serial output lines."""
    cmd = [QEMU, "-m", "128M", "-no-reboot", "-display", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
           "-serial", "stdio", "-kernel", str(kernel), "-append", "panic_exit"]
    qemu = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    out = b""
    deadline = time.monotonic() + BOOT_TIMEOUT
    try:
        # The shell reads the serial line only once it runs: type at its prompt.
        while PROMPT not in out and time.monotonic() < deadline:
            ready, _, _ = select.select([qemu.stdout], [], [], 1)
            if ready:
                chunk = os.read(qemu.stdout.fileno(), 4096)
                if not chunk:
                    break
                out += chunk
        if PROMPT in out:
            qemu.stdin.write(b"poweroff\n")
            qemu.stdin.flush()
            out += qemu.communicate(timeout=BOOT_TIMEOUT)[0]
    finally:
        if qemu.poll() is None:
            qemu.kill()
            qemu.wait()
    return out.decode(errors="replace").splitlines()


def check_shape(build_root, name, source):
    builddir = build_root / "linux-builtin" / name
    problems, lines = build(builddir, source)
    if not problems:
        lines = boot(builddir / "kernel.elf")
        said = [l.strip() for l in lines if "Kprobe smoke test" in l]
        if said != [STARTED, PASSED]:
            problems.append(f"the boot said {said}, want {[STARTED, PASSED]}")
    if problems:
        problems += lines[-TAIL:]
    return problems


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--build", default="build", type=Path)
    args = ap.parse_args(argv)
    build_root = args.build if args.build.is_absolute() else TREE / args.build
    return ktap.report([(name, check_shape(build_root, name, src))
                        for name, src in SHAPES])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
