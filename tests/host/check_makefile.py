#!/usr/bin/env python3
"""
check_makefile.py - the Makefile keeps its promises to a newcomer.

    check_makefile.py --build BUILD

  help_lists_every_target    every .PHONY target appears in `make help`
  help_lists_every_variable  every variable a user may set (?=, or
                             tested with ifeq/ifneq/origin) appears too
  build_steps_are_quiet      every recipe line of a rule that makes a
                             file under $(B)/ is hidden (@ or $(Q)): the
                             user sees one "CC/LD/GEN file" line per step
                             unless V=1
  run_exits_after_oops       `make run` adds panic_exit; `make debug` does
                             not, and keeps QEMU halted at a reset
  run_vga_without_display    no $DISPLAY: curses, and no GUI packages
  run_vga_display_modes      DISPLAY_MODE=gtk|sdl|vnc|curses picks it;
                             an unknown mode is refused
  test_builds_on_every_core  plain `make test` (as .ci/run calls it):
                             bootstrap, then the build with -jN (N: the
                             cores, nproc), then the tests; with make -j2
                             the build keeps make's own jobs

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
MAKEFILE = ROOT / "Makefile"


def make(*args, env=None):
    return subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT),
                           *args], capture_output=True, text=True, env=env)


def phony_targets(text):
    found = set()
    for line in re.findall(r"^\.PHONY:(.*)$", text, re.M):
        found.update(line.split())
    return found - {"external-modules"}     # the M= default goal, not typed


def user_variables(text):
    names = set(re.findall(r"^(\w+)\s*\?=", text, re.M))
    names |= set(re.findall(r"if(?:n)?eq \(\$\((\w+)\)", text))
    names |= set(re.findall(r"\$\(origin (\w+)\)", text))
    return names


def recipe_problems(text):
    """Recipe lines of $(B)/... rules that would print a whole command."""
    problems, target, continued = [], None, False
    for n, line in enumerate(text.splitlines(), 1):
        was_continued, continued = continued, line.endswith("\\")
        if was_continued:
            continue                # the rest of the line above
        if not line.startswith("\t"):
            m = re.match(r"^(\S[^:=]*):(?!=)", line)
            target = m.group(1) if m else (None if line.strip() else target)
            continue
        if not target or not target.strip().startswith(("$(B)/", "$(M)/")):
            continue
        body = line.strip()
        # $$(Q): the same, inside a define expanded by $(eval) (LINK_IMAGE)
        if body and not body.startswith(("@", "$(Q)", "$(call say",
                                         "$$(Q)", "$$(call say")):
            problems.append(f"Makefile:{n}: {target}: shows {body[:60]!r}")
    return problems


def qemu_line(output):
    joined = output.replace("\\\n", " ")
    return next((l for l in joined.splitlines() if "qemu-system" in l), "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    build = f"B={args.build}"
    text = MAKEFILE.read_text()
    helptext = make("help", build).stdout
    results = []

    missing = sorted(t for t in phony_targets(text)
                     if not re.search(rf"\bmake {re.escape(t)}\b", helptext))
    results.append(("help_lists_every_target",
                    [f"`make help` does not list target {t!r}" for t in missing]))

    missing = sorted(v for v in user_variables(text)
                     if not re.search(rf"\b{v}=", helptext))
    results.append(("help_lists_every_variable",
                    [f"`make help` does not list variable {v}=" for v in missing]))

    results.append(("build_steps_are_quiet", recipe_problems(text)))

    run = qemu_line(make("-n", "run", build, "CMDLINE=crash=null").stdout)
    debug = qemu_line(make("-n", "debug", build, "CMDLINE=crash=null").stdout)
    problems = []
    if "panic_exit" not in run:
        problems.append(f"make run: no panic_exit in {run!r}")
    if "panic_exit" in debug or "-no-reboot" not in debug:
        problems.append(f"make debug must halt, not exit: {debug!r}")
    if "mon:stdio" not in run or "mon:stdio" not in debug:
        problems.append("run/debug: the serial console must be mon:stdio "
                        "(Ctrl-A X quits)")
    results.append(("run_exits_after_oops", problems))

    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = make("-n", "run-vga", build, env=env).stdout
    problems = []
    if "-display curses" not in qemu_line(out):
        problems.append(f"no display: want -display curses, got {qemu_line(out)!r}")
    if "--gui" in out:
        problems.append("no display: must not install GUI packages (--gui)")
    if "curses" not in out.split("qemu-system")[0]:
        problems.append("no display: the user is not told curses is used")
    results.append(("run_vga_without_display", problems))

    problems = []
    for mode, want in (("gtk", "-display gtk"), ("sdl", "-display sdl"),
                       ("vnc", "-display vnc="), ("curses", "-display curses")):
        line = qemu_line(make("-n", "run-vga", build, f"DISPLAY_MODE={mode}").stdout)
        if want not in line:
            problems.append(f"DISPLAY_MODE={mode}: want {want!r} in {line!r}")
    bad = make("run-vga", build, "DISPLAY_MODE=bogus")
    if bad.returncode == 0 or "pick one of" not in bad.stdout + bad.stderr:
        problems.append("DISPLAY_MODE=bogus was not refused with the choices")
    results.append(("run_vga_display_modes", problems))
    results.append(("test_builds_on_every_core", test_build_problems(build)))

    return ktap.report(results)


def test_build_problems(build):
    """make test: bootstrap alone, the build on every core, then the tests."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    problems = []
    for flags, want in (((), f"-j{len(os.sched_getaffinity(0))} "), (("-j2",), None)):
        lines = make("-n", *flags, "test", build, env=env).stdout.splitlines()
        at = [next((i for i, l in enumerate(lines) if word in l), None)
              for word in ("scripts/bootstrap.sh", " all test-image ", "tests/run_tests.py")]
        if None in at or at != sorted(at):
            problems.append(f"make {' '.join(flags)} test: want bootstrap, the build, "
                            f"the tests, in order; lines {at}")
            continue
        jobs = re.findall(r" -j\d* ", lines[at[1]] + " ")
        if (want and want.strip() not in [j.strip() for j in jobs]) or (not want and jobs):
            problems.append(f"make {' '.join(flags)} test builds with {jobs or 'no -j'}, "
                            f"want {want or 'none: make -j2 shares its own'}: "
                            f"{lines[at[1]]}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
