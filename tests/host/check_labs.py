#!/usr/bin/env python3
"""
check_labs.py - the lab markers and grade files are well formed.

    check_labs.py --build BUILD      (BUILD is not used: labs are source)

  markers_parse            every LAB region in the sources has a BEGIN,
                           at least one STUB and an END of the same lab,
                           and names a lab that has a labs/NN-name/ folder
  stub_replaces_region     scripts/mklab.py turns a region of lab N or
                           later into its stub and keeps an earlier lab's
                           code without markers
  stub_says_lab_not_done   each stub comes with the weak labN_not_done
                           symbol the boot's smoke test reads (in C an
                           __asm__ statement, in a .S file the directives);
                           a kept region defines none
  malformed_is_refused     a region without STUB, without END, or nested
                           in another is an error naming file and line
  grade_files_name_cases   every suite.case of labs/*/grade.txt is a
                           KTEST_CASE of that suite in tests/kernel/
  grade_file_says_cpus     a grade.txt line "smp N" sets how many CPUs
                           the lab's cases boot with (1 without it);
                           "smp 0" or a malformed one is refused

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import grade  # noqa: E402
import mklab  # noqa: E402

SAMPLE = """int f(void)
{
\t/* LAB 1: BEGIN first */
\treturn 1;
\t/* LAB 1: STUB return -ENOSYS; */
\t/* LAB 1: END */
}
int g(void)
{
\t/* LAB 2: BEGIN second */
\treturn 2;
\t/* LAB 2: STUB panic("lab 2: g: not yet"); */
\t/* LAB 2: END */
}"""


def markers_parse():
    problems, labs = [], mklab.labs_in_tree(ROOT)
    used = set()
    for rel in mklab.tree_files(ROOT):
        if not rel.endswith(mklab.MARKED_SUFFIXES):
            continue
        lines = (ROOT / rel).read_text().split("\n")
        try:
            for _, _, lab, _, _, _ in mklab.regions(lines, rel):
                used.add(lab)
        except mklab.MarkerError as e:
            problems.append(str(e))
    problems += [f"LAB {n} regions but no labs/{n:02d}-*/ folder"
                 for n in sorted(used - set(labs))]
    problems += [f"labs/{labs[n].name}/ but no LAB {n} region in the sources"
                 for n in sorted(set(labs) - used)]
    return problems


def stub_replaces_region():
    problems = []
    lab2 = mklab.student_text(SAMPLE, 2, "sample.c")
    if "\treturn 1;\n}" not in lab2 or "LAB 1" in lab2:
        problems.append("lab 2's tree does not keep lab 1's code without markers")
    if '\tpanic("lab 2: g: not yet");' not in lab2 or "return 2;" in lab2:
        problems.append("lab 2's tree does not replace lab 2's region by its stub")
    lab1 = mklab.student_text(SAMPLE, 1, "sample.c")
    if "return -ENOSYS;" not in lab1 or "return 2;" in lab1:
        problems.append("lab 1's tree keeps a later lab's solution")
    if mklab.student_text("int x;\n", 1, "plain.c") is not None:
        problems.append("a file without regions is rewritten")
    return problems


def stub_says_lab_not_done():
    problems = []
    mark = ".weak lab{0}_not_done; .set lab{0}_not_done, 1"
    lab2 = mklab.student_text(SAMPLE, 2, "sample.c")
    if f'__asm__("{mark.format(2)}");' not in lab2:
        problems.append("lab 2's stub in a .c file does not define lab2_not_done")
    if "lab1_not_done" in lab2:
        problems.append("lab 1's kept region defines lab1_not_done")
    asm = mklab.student_text(SAMPLE, 2, "sample.S")
    if "__asm__" in asm or f"\t{mark.format(2)}" not in asm:
        problems.append("lab 2's stub in a .S file is not the bare directives")
    lab1 = mklab.student_text(SAMPLE, 1, "sample.c")
    if lab1.count("_not_done;") != 2 or "lab1_not_done" not in lab1:
        problems.append("lab 1's tree does not mark both stubs")
    return problems


def malformed_is_refused():
    problems = []
    cases = {
        "no STUB": "/* LAB 1: BEGIN a */\nx;\n/* LAB 1: END */",
        "no END": "/* LAB 1: BEGIN a */\nx;\n/* LAB 1: STUB y; */",
        "nested": "/* LAB 1: BEGIN a */\n/* LAB 2: BEGIN b */\n/* LAB 2: STUB y; */\n"
                  "/* LAB 2: END */\n/* LAB 1: STUB y; */\n/* LAB 1: END */",
        "END of another lab": "/* LAB 1: BEGIN a */\n/* LAB 1: STUB y; */\n/* LAB 2: END */",
    }
    for what, text in cases.items():
        try:
            mklab.student_text(text, 1, "bad.c")
            problems.append(f"{what}: accepted")
        except mklab.MarkerError as e:
            if not re.match(r"bad\.c:\d+: ", str(e)):
                problems.append(f"{what}: the error names no line: {e}")
    return problems


def grade_files_name_cases():
    cases = {}
    for f in (ROOT / "tests" / "kernel").glob("*.c"):
        text = f.read_text()
        for suite in re.findall(r'\.name = "(\w+)"', text):
            cases.setdefault(suite, set()).update(
                re.findall(r"KTEST_CASE\((\w+)\)", text))
    problems = []
    for n, lab in grade.labs(ROOT).items():
        for t in lab.tests:
            suite, case = t.case.split(".")
            if case not in cases.get(suite, ()):
                problems.append(f"lab {n}: {t.case} is no KTEST_CASE of suite {suite}")
    return problems


def grade_file_says_cpus():
    problems = []
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "grade.txt"
        f.write_text("# a lab on two CPUs\nsmp 2\nspinlock.lock_unlock_trylock 10 x\n")
        tests, smp = grade.read_grade_file(f)
        if smp != 2 or [t.case for t in tests] != ["spinlock.lock_unlock_trylock"]:
            problems.append(f"'smp 2' read as smp {smp}, cases {[t.case for t in tests]}")
        f.write_text("traps.idt_gate_types 10 x\n")
        if grade.read_grade_file(f)[1] != 1:
            problems.append("a grade file without an smp line does not boot one CPU")
        for bad in ("smp 0", "smp two", "smp"):
            f.write_text(f"{bad}\ntraps.idt_gate_types 10 x\n")
            try:
                grade.read_grade_file(f)
                problems.append(f"{bad!r}: accepted")
            except ValueError:
                pass
    return problems


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.parse_args(argv)
    return ktap.report([(f.__name__, f()) for f in (
        markers_parse, stub_replaces_region, stub_says_lab_not_done,
        malformed_is_refused,
        grade_files_name_cases, grade_file_says_cpus)])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
