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

and, for each, NAME_fails_without_probes: the same kernel booted with
kprobes.enabled=0 (every probe registered but disarmed) must say
"started", then "BUG: N out of N tests failed" - the test tests the
probes, not itself.

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

# (case name, file, tests it counts)
SHAPES = [
    ("jprobe_generation", "lb_sanity_jprobes.c", 3),
    ("no_jprobes", "lb_sanity.c", 4),
]
PROBES_OFF = "kprobes.enabled=0"


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


def boot(kernel, cmdline):
    """Boot kernel to its prompt, then power it off; the serial output lines."""
    cmd = [QEMU, "-m", "128M", "-no-reboot", "-display", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
           "-serial", "stdio", "-kernel", str(kernel), "-append", f"{cmdline} panic_exit".strip()]
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


def smoke_lines(lines):
    return [l.strip() for l in lines if "Kprobe smoke test" in l]


def check_shape(build_root, name, source, ntests):
    """Build name's kernel; boot it as is and with every probe disarmed."""
    builddir = build_root / "linux-builtin" / name
    problems, lines = build(builddir, source)
    if problems:
        return [(name, problems + lines[-TAIL:]),
                (f"{name}_fails_without_probes", ["not built"])]
    results = []
    lines = boot(builddir / "kernel.elf", "")
    said = smoke_lines(lines)
    want = [STARTED, PASSED]
    results.append((name, [] if said == want else
                    [f"the boot said {said}, want {want}"] + lines[-TAIL:]))
    # With the switch off no handler runs: every test must say so.
    lines = boot(builddir / "kernel.elf", PROBES_OFF)
    said = smoke_lines(lines)
    failed = f"Kprobe smoke test: BUG: {ntests} out of {ntests} tests failed"
    problems = []
    if not said or said[0] != STARTED or said[-1] != failed or PASSED in said:
        problems = [f"with {PROBES_OFF} the boot said {said}, "
                    f"want {STARTED!r} ... {failed!r}"] + lines[-TAIL:]
    results.append((f"{name}_fails_without_probes", problems))
    return results


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--build", default="build", type=Path)
    args = ap.parse_args(argv)
    build_root = args.build if args.build.is_absolute() else TREE / args.build
    results = []
    for name, source, ntests in SHAPES:
        results += check_shape(build_root, name, source, ntests)
    return ktap.report(results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
