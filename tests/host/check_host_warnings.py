#!/usr/bin/env python3
"""
check_host_warnings.py - the host build of lib/ and tests/host/ is free
of compiler warnings.

    check_host_warnings.py --build BUILD      (BUILD is not used)

The host tests compile the kernel's lib/ against the C library's headers
(glibc), which define some of the names the kernel's headers define too
(__always_inline in <sys/cdefs.h>): a clash prints one warning per file
on every `make test`, and a real warning drowns among them.  This runs
each compiler command `make -n host-test` would run, with -fsyntax-only
in place of -o (nothing is written, and no sanitizer runtime is linked),
and fails on any "warning:" the compiler prints.

One KTAP result per host program; exit status non-zero if any fails.
"""
import argparse
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent


def host_compiles(scratch):
    """{program: argv} of every compiler command of `make host-test`."""
    out = subprocess.run(["make", "-s", "-n", "-B", "-C", str(ROOT), "host-test",
                          f"B={scratch}"],
                         capture_output=True, text=True, check=True).stdout
    commands = {}
    for line in out.replace("\\\n", " ").splitlines():
        words = shlex.split(line)
        # A compiler command; not the fuzz targets' "if clang ...; then"
        # (check_fuzz.py builds those).
        if words and shutil.which(words[0]) and "-o" in words and "-DHOST_BUILD" in words:
            i = words.index("-o")
            commands[Path(words[i + 1]).name] = words[:i] + ["-fsyntax-only"] + words[i + 2:]
    return commands


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        commands = host_compiles(scratch)
    results = []
    for name, argv in sorted(commands.items()):
        run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        lines = run.stderr.splitlines()
        problems = [l for l in lines if "warning:" in l]
        if run.returncode:
            problems.append(f"the compiler failed ({run.returncode}): " +
                            " / ".join(lines[-3:]))
        results.append((name, problems))
    if not results:
        results = [("host_build", ["make -n host-test printed no compiler command"])]
    return ktap.report(results)


if __name__ == "__main__":
    sys.exit(main())
