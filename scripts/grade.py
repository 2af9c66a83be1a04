#!/usr/bin/env python3
"""
grade.py - grade the labs, JOS style (make grade).

    python3 scripts/grade.py --build build [--lab N] [--log FILE]

Each lab's graded tests are the in-kernel KTAP cases listed in
labs/NN-name/grade.txt, one a line:

    suite.case   points   what it proves

and, for a lab about more than one CPU, one line

    smp N

that says how many CPUs its cases need: the grader boots them with
-smp N on multi-threaded TCG (the CPUs really run at once), as
run_tests.py boots its SMP runs.  Without it a lab's cases boot on one.

The grader boots BUILD/kernel-test.elf with `test=suite.case,...
nosmoke panic_exit` (only the graded cases; the smoke test would run a
student's half-written probe code before any graded case; a panic
before the cases start - a stub hit while the CPUs boot - leaves QEMU
at once instead of halting until the timeout), and boots again for each case
a crash kept from reporting, so that each case is judged on its own.  It
prints one line per graded test and the score:

    lab 2 (kprobes): resume_execution: call rel32 ......... OK (15 pts)
    ...
    Score: 40/100

A case that fails, or crashes the kernel (a stub's panic), scores nothing.  In a student tree (made by scripts/mklab.py) the
file .lab names the lab; in the full tree every lab is graded unless
--lab says which.  --log FILE grades an existing serial log instead of
booting.  Exit status 0 only for full marks.
"""

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import run_tests  # noqa: E402  (the KTAP parser and the QEMU command line)

LINE_WIDTH = 70         # the dots pad each description to this column
GRADE_TIMEOUT = 120     # seconds for one boot
TEST_LIST_MAX = 120     # the kernel's boot-mode argument holds 127 characters


class Graded:
    """One graded test: a KTAP case path, its points and what it proves."""

    def __init__(self, case, points, what):
        self.case, self.points, self.what = case, points, what


class Lab:
    """One lab's grade.txt: its name, graded tests and CPU count."""

    def __init__(self, name, tests, smp):
        self.name, self.tests, self.smp = name, tests, smp


SMP_LINE_RE = re.compile(r"^smp\s+(\d+)$")
CASE_LINE_RE = re.compile(r"^(\w+\.\w+)\s+(\d+)\s+(.+)$")


def read_grade_file(path):
    """The graded tests and CPU count of one lab; a malformed line is an error."""
    tests, smp = [], 1
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cpus, case = SMP_LINE_RE.match(line), CASE_LINE_RE.match(line)
        if cpus and int(cpus.group(1)) >= 1:
            smp = int(cpus.group(1))
        elif case:
            tests.append(Graded(case.group(1), int(case.group(2)), case.group(3)))
        else:
            raise ValueError(f"{path}:{n}: want 'suite.case POINTS what' or 'smp N'")
    if not tests:
        raise ValueError(f"{path}: no graded tests")
    return tests, smp


def labs(root=ROOT):
    """{number: Lab} for every labs/NN-name/grade.txt."""
    out = {}
    for f in sorted((root / "labs").glob("[0-9][0-9]-*/grade.txt")):
        name = f.parent.name
        out[int(name[:2])] = Lab(name[3:], *read_grade_file(f))
    return out


def results_of(lines):
    """{"suite.case": passed?} from a serial log."""
    parser = run_tests.parse_ktap(lines)
    if parser.root is None:
        return {}
    return {path: r.ok for path, r in parser.root.leaves()}


def batches(cases):
    """The cases in runs of test=a.x,b.y whose list fits the command line."""
    batch = []
    for case in cases:
        if batch and len(",".join(batch + [case])) > TEST_LIST_MAX:
            yield batch
            batch = []
        batch.append(case)
    if batch:
        yield batch


def boot_cases(build, cases, log, smp):
    """Boot the test image on these cases with smp CPUs; return {case: passed?}."""
    cmd = run_tests.qemu_command(["-kernel", str(build / run_tests.TEST_IMAGE)],
                                 f"test={','.join(cases)} nosmoke panic_exit",
                                 log.with_suffix(".qemu.log"), smp)
    _, lines = run_tests.run_logged(cmd, log, GRADE_TIMEOUT)
    found = results_of(lines)
    return {c: found[c] for c in cases if c in found}


def run_graded(build, lab, logs):
    """{case: passed?} for every graded case of lab, each judged on its own.

    The cases run in batches; a stub that panics ends its batch, so a
    case that never reported runs again alone: a crash then fails only
    that case, and a later case still shows whether it passes.
    """
    cases = [t.case for t in lab.tests]
    results = {}
    for i, batch in enumerate(batches(cases)):
        results.update(boot_cases(build, batch, logs / f"batch{i}.log", lab.smp))
    for case in cases:
        if case not in results:
            alone = boot_cases(build, [case], logs / f"{case}.log", lab.smp)
            results[case] = alone.get(case, False)
    return results


def score(tests, results):
    """[(Graded, passed?)] and the points earned."""
    marks = [(t, results.get(t.case, False)) for t in tests]
    return marks, sum(t.points for t, ok in marks if ok)


def report(number, name, marks):
    """The JOS-style lines for one lab; returns (earned, possible)."""
    earned = possible = 0
    for t, ok in marks:
        label = f"lab {number} ({name}): {t.what} "
        print(f"{label.ljust(LINE_WIDTH, '.')} {'OK' if ok else 'FAIL'} "
              f"({t.points} pts)")
        possible += t.points
        earned += t.points if ok else 0
    return earned, possible


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--lab", type=int, help="grade only this lab")
    ap.add_argument("--log", help="grade this serial log instead of booting")
    args = ap.parse_args(argv)
    build = Path(args.build)
    try:
        all_labs = labs()
    except ValueError as e:
        print(f"grade: {e}")
        return 2
    lab_file = ROOT / ".lab"
    chosen = args.lab or (int(lab_file.read_text()) if lab_file.exists() else None)
    if chosen is not None and chosen not in all_labs:
        print(f"grade: no lab {chosen}; the labs are {sorted(all_labs)}")
        return 2
    numbers = [chosen] if chosen is not None else sorted(all_labs)
    if not args.log and not (build / run_tests.TEST_IMAGE).exists():
        print(f"grade: {build / run_tests.TEST_IMAGE} missing (make test-image)")
        return 2

    earned = possible = 0
    for n in numbers:
        lab = all_labs[n]
        if args.log:
            results = results_of(Path(args.log).read_text(errors="replace").splitlines())
        else:
            results = run_graded(build, lab, build / "grade-logs" / f"lab{n}")
        marks, _ = score(lab.tests, results)
        e, p = report(n, lab.name, marks)
        earned, possible = earned + e, possible + p
    print(f"Score: {earned}/{possible}")
    return 0 if earned == possible else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
