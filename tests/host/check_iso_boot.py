#!/usr/bin/env python3
"""
check_iso_boot.py - the ISO boots the way README.md says.

    check_iso_boot.py --build BUILD

Two cases:

  readme_cdrom_command   the qemu command README.md's "Booting the ISO"
                         shows (the line with -cdrom), run as written -
                         build/ becomes BUILD/, and -display none is added
                         when the line has no -display (no window here).
                         GRUB's menu must come up on the serial console,
                         then the kernel's prompt; `poweroff` must end QEMU
                         with status 0.
  make_run_iso           `make -n run-iso` boots BUILD/kernel.iso from the
                         CD drive (-cdrom, -boot d).

BUILD/kernel.iso comes from `make iso` (make test builds it first).
Prints KTAP; exit status non-zero on failure.
"""
import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402
from qmp import Machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
PROMPT = b"kprobes# "
GRUB_MENU = b"kprobes-i386 with the sample probe modules"   # grub.cfg's 2nd entry
TIMEOUT = 60            # seconds: GRUB's 3 s menu, then the boot, under load
SECTION = "### Booting the ISO"


def readme_command():
    """The qemu command line of README.md's "Booting the ISO" section."""
    text = (ROOT / "README.md").read_text()
    start = text.find(SECTION)
    if start < 0:
        return None
    body = text[start + len(SECTION):]
    body = body[:body.find("\n#")] if "\n#" in body else body
    for line in body.splitlines():
        if line.startswith("qemu-system") and "-cdrom" in line:
            return line
    return None


def boot_readme(build):
    line = readme_command()
    if line is None:
        return ["README.md has no qemu ... -cdrom line under "
                f"{SECTION!r}"], ""
    words = [w.replace("build/", f"{build}/", 1) if w.startswith("build/") else w
             for w in shlex.split(line)]
    if not any(w.startswith("-display") for w in words):
        words += ["-display", "none"]
    iso = next((w for w in words if w.endswith(".iso")), None)
    if iso is None or not Path(iso).exists():
        return [f"{iso} missing (run make iso)"], ""
    problems = []
    with Machine(words, qmp=False) as m:
        if not m.expect(GRUB_MENU, TIMEOUT):
            problems.append("no GRUB menu on the serial console")
        elif not m.expect(PROMPT, TIMEOUT):
            problems.append("GRUB's default entry did not boot to the prompt")
        else:
            m.type(b"poweroff\r")
            status = m.wait(TIMEOUT)
            if status != 0:
                problems.append(f"after poweroff QEMU's status is {status}, want 0")
        text = m.text()
    return problems, text


def make_run_iso(build):
    out = subprocess.run(["make", "-s", "-n", "-C", str(ROOT), "run-iso", f"B={build}"],
                         capture_output=True, text=True)
    line = next((l for l in out.stdout.replace("\\\n", " ").splitlines()
                 if "qemu-system" in l), "")
    if not line:
        return [f"make -n run-iso printed no QEMU command: {out.stderr.strip()}"]
    problems = []
    if not re.search(rf"-cdrom\s+{re.escape(str(build))}/kernel\.iso\b", line):
        problems.append(f"make run-iso does not boot {build}/kernel.iso: {line!r}")
    if "-boot d" not in line:
        problems.append("make run-iso does not boot from the CD drive (-boot d)")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    build = Path(args.build).resolve()
    problems, text = boot_readme(build)
    tails = {"readme_cdrom_command": text.splitlines()[-15:]}
    return ktap.report([("readme_cdrom_command", problems),
                        ("make_run_iso", make_run_iso(build))],
                       context=lambda name: tails.get(name, []))


if __name__ == "__main__":
    sys.exit(main())
