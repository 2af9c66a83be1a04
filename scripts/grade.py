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
    lab 2 (kprobes): resume_execution: pushf .............. FAIL (10 pts)
        # fixup_pushf_popf: kprobes_fixups.c:212: EXPECT_EQ(...) failed: got 0x346, want 0x246
        log: build/grade-logs/lab2/batch0.log
    ...
    Score: 40/100

A case that fails, or crashes the kernel (a stub's panic), scores nothing;
under its FAIL line the grader prints the first check that failed (the
KTAP "# file.c:N: EXPECT..." line) or the panic or oops line, and the
serial log that has the rest.  In a student tree (made by scripts/mklab.py) the
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
import mklab  # noqa: E402  (the .lab file of a student tree)

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


class Outcome:
    """How one graded case went: passed?, why not (one line) and the log."""

    def __init__(self, ok, why, log):
        self.ok, self.why, self.log = ok, why, log


def results_of(lines):
    """{"suite.case": passed?} from a serial log."""
    parser = run_tests.parse_ktap(lines)
    if parser.root is None:
        return {}
    return {path: r.ok for path, r in parser.root.leaves()}


def first_failed_check(result):
    """The first line that says why a case failed: the KTAP '# file.c:N:
    EXPECT...' line of ktest_fail(), or else the last line it printed."""
    context = [l.strip() for l in result.context]
    for line in context:
        if run_tests.FAILED_CHECK_RE.match(line):
            return line
    shown = run_tests.diagnostics(result)
    return shown[-1] if shown else "no reason printed"


# A stub's message, as the handouts' stubs print it: "lab 2: kprobe_handler: not yet".
STUB_SAID_RE = re.compile(r"^(?:PANIC: )?lab \d+: .*not yet")


def first_crash(lines):
    """The first panic or oops line of a log, after the stub message that
    led to it if one was printed first (an oops of its own does not name
    the stub); None if the kernel did not crash."""
    said = None
    for line in lines:
        if run_tests.OOPS_RE.match(line):
            crash = line.strip()
            return f"{said} -> {crash}" if said and said not in crash else crash
        if said is None and STUB_SAID_RE.match(line.strip()):
            said = line.strip()
    return None


def outcomes_of(lines, log):
    """{"suite.case": Outcome} of every case a serial log reports."""
    parser = run_tests.parse_ktap(lines)
    if parser.root is None:
        return {}
    return {path: Outcome(r.ok, None if r.ok else first_failed_check(r), log)
            for path, r in parser.root.leaves()}


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
    """Boot the test image on these cases with smp CPUs; return {case: Outcome}."""
    cmd = run_tests.qemu_command(["-kernel", str(build / run_tests.TEST_IMAGE)],
                                 f"test={','.join(cases)} nosmoke panic_exit",
                                 log.with_suffix(".qemu.log"), smp)
    status, lines = run_logged(cmd, log)
    found = outcomes_of(lines, log)
    return {c: found[c] for c in cases if c in found}, lines, status


def run_logged(cmd, log):
    """run_tests.run_logged() with the grader's timeout."""
    return run_tests.run_logged(cmd, log, GRADE_TIMEOUT)


def no_result(lines, status, log):
    """The Outcome of a case that never reported: why, from its own boot."""
    crash = first_crash(lines)
    if crash is None:
        crash = (f"no result: timed out after {GRADE_TIMEOUT} s" if status is None
                 else f"no result (QEMU exited with status {status})")
    return Outcome(False, crash, log)


def run_graded(build, lab, logs):
    """{case: Outcome} for every graded case of lab, each judged on its own.

    The cases run in batches; a stub that panics ends its batch, so a
    case that never reported runs again alone: a crash then fails only
    that case, and a later case still shows whether it passes.
    """
    cases = [t.case for t in lab.tests]
    results = {}
    for i, batch in enumerate(batches(cases)):
        results.update(boot_cases(build, batch, logs / f"batch{i}.log", lab.smp)[0])
    for case in cases:
        if case not in results:
            log = logs / f"{case}.log"
            alone, lines, status = boot_cases(build, [case], log, lab.smp)
            results[case] = alone.get(case) or no_result(lines, status, log)
    return results


def score(tests, results):
    """[(Graded, Outcome or None)] and the points earned."""
    marks = [(t, results.get(t.case)) for t in tests]
    return marks, sum(t.points for t, o in marks if o is not None and o.ok)


def passed(outcome):
    """A graded case passed: it reported, and ok."""
    return outcome is not None and outcome.ok


def report(number, name, marks):
    """The JOS-style lines for one lab; returns (earned, possible).

    Under a FAIL: the first failed check (or the panic), and the log to
    read for the rest."""
    earned = possible = 0
    for t, outcome in marks:
        ok = passed(outcome)
        label = f"lab {number} ({name}): {t.what} "
        print(f"{label.ljust(LINE_WIDTH, '.')} {'OK' if ok else 'FAIL'} "
              f"({t.points} pts)")
        if not ok:
            print(f"    {outcome.why if outcome else 'no result: the case never ran'}")
            if outcome is not None:
                print(f"    log: {outcome.log}")
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
    try:
        here = mklab.read_lab_file(ROOT)
    except mklab.MarkerError as e:
        print(f"grade: {e}")
        return 2
    chosen = args.lab or (here[0] if here else None)
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
            log = Path(args.log)
            results = outcomes_of(log.read_text(errors="replace").splitlines(), log)
        else:
            results = run_graded(build, lab, build / "grade-logs" / f"lab{n}")
        marks, _ = score(lab.tests, results)
        e, p = report(n, lab.name, marks)
        earned, possible = earned + e, possible + p
    print(f"Score: {earned}/{possible}")
    return 0 if earned == possible else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
