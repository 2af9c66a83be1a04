#!/usr/bin/env python3
"""
check_initramfs.py - an initramfs given to the boot loader ends up as
files at / (init/initramfs.c, docs/exec.md).

    check_initramfs.py --build BUILD

  unpacked_at_boot      BUILD/kernel.elf booted with -initrd
                        BUILD/initramfs.cpio (make initramfs) says how many
                        files it unpacked; `exec cat /etc/motd` prints the
                        archive's motd from ring 3 and `exec /bin/wc` runs
                        the archive's copy of a program
  truncated_is_refused  the same archive cut short: the kernel says it is
                        refused, boots to the prompt, and /etc/motd does
                        not exist (ENOENT, error -2)
  make_run_initrd       `make -n run INITRD=F` boots with -initrd F

Prints KTAP; exit status non-zero on failure.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402
from qmp import Machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
PROMPT = b"kprobes# "
TIMEOUT = 60            # seconds to the prompt, under load
MOTD = ROOT / "scripts/initramfs/motd"


def boot(kernel, initrd, commands):
    """Boot, run each command at the prompt; the console's text, or None if no prompt."""
    cmd = [os.environ.get("QEMU", "qemu-system-i386"), "-m", "128M", "-display", "none",
           "-serial", "stdio", "-monitor", "none", "-no-reboot",
           "-kernel", str(kernel), "-append", "nosmoke", "-initrd", str(initrd)]
    with Machine(cmd, qmp=False) as m:
        if not m.expect(PROMPT, TIMEOUT):
            return None
        for n, c in enumerate(commands, 1):
            m.type(c.encode() + b"\r")
            for _ in range(TIMEOUT * 2):    # until the n-th program has ended
                if m.text().count("exit status") >= n:
                    break
                m.read_for(0.5)
        return m.text()


def unpacked_at_boot(build):
    cpio = build / "initramfs.cpio"
    if not cpio.exists():
        return [f"{cpio} missing (run make initramfs)"]
    out = boot(build / "kernel.elf", cpio, ["exec cat /etc/motd", "exec /bin/wc"])
    if out is None:
        return ["no prompt"]
    problems = []
    nfiles = len(list((build / "user/image").glob("*.elf"))) + 1
    if f"initramfs.cpio: {nfiles} files, 2 directories unpacked" not in out:
        problems.append(f"no line saying {nfiles} files and 2 directories were unpacked")
    if MOTD.read_text().splitlines()[0] not in out:
        problems.append("exec cat /etc/motd did not print the archive's motd")
    if "0 0 0\n" not in out:
        problems.append("exec /bin/wc did not count an empty input")
    return problems + ([] if not problems else ["console:"] + out.splitlines()[-20:])


def truncated_is_refused(build):
    cpio = build / "initramfs.cpio"
    if not cpio.exists():
        return [f"{cpio} missing (run make initramfs)"]
    data = cpio.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        cut = Path(tmp) / "cut.cpio"
        cut.write_bytes(data[:len(data) // 2])
        out = boot(build / "kernel.elf", cut, ["exec cat /etc/motd"])
    if out is None:
        return ["no prompt after a truncated archive"]
    problems = []
    if "cut.cpio refused: truncated data; the filesystem is unchanged" not in out:
        problems.append("no refusal naming the truncation")
    if "cat: /etc/motd: error -2" not in out:
        problems.append("/etc/motd exists after a refused archive")
    return problems


def make_run_initrd(build):
    out = subprocess.run(["make", "-s", "-n", "-C", str(ROOT), "run", f"B={build}",
                          "INITRD=x.cpio"], capture_output=True, text=True)
    if "-initrd \"x.cpio\"" not in out.stdout and "-initrd x.cpio" not in out.stdout:
        return [f"make -n run INITRD=x.cpio has no -initrd x.cpio: {out.stdout[-300:]!r}"]
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", default="build", type=Path)
    build = ap.parse_args().build.resolve()
    sys.exit(ktap.report([(f.__name__, f(build)) for f in
                          (unpacked_at_boot, truncated_is_refused, make_run_initrd)]))


if __name__ == "__main__":
    main()
