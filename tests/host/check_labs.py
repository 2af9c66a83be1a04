#!/usr/bin/env python3
"""
check_labs.py - the lab markers and grade files are well formed.

    check_labs.py --build BUILD      (BUILD: only for student_tree_reuses_objects)

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
  later_labs_get_placeholders  a later lab's region becomes its LATER
                           lines (a placeholder, still labN_not_done), or
                           its STUB lines without LATER; the lab's own
                           tree gets the STUB; first=M keeps the regions
                           of labs M..N stubs (a carried-forward handout)
  malformed_is_refused     a region without STUB, without END, or nested
                           in another is an error naming file and line
  grade_files_name_cases   every suite.case of labs/*/grade.txt is a
                           KTEST_CASE of that suite in tests/kernel/
  grade_file_says_cpus     a grade.txt line "smp N" sets how many CPUs
                           the lab's cases boot with (1 without it);
                           "smp 0" or a malformed one is refused
  lab_trees_keep_work      in a temporary folder: make lab 1 makes a git
                           repository (one commit, the handout); a second
                           make lab 1 over an edit is refused, --force
                           (FORCE=1) replaces it; make lab 2 refuses
                           uncommitted lab 1 work and, once committed,
                           carries it forward with lab 2's stubs merged in
  grade_says_why           under a FAIL line the grader prints the first
                           failed EXPECT line, or the panic or oops (after
                           the stub's "lab N: ...: not yet"), and the log
  student_tree_reuses_objects  lab 1's tree written with BUILD's objects
                           (as make test's labs stage writes it): make -n
                           all test-image compiles only the files the lab
                           stubbed and those that include one of them

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import contextlib
import io
import re
import subprocess
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
            for r in mklab.regions(lines, rel):
                used.add(r.lab)
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


LATER_SAMPLE = """int h(void)
{
\t/* LAB 3: BEGIN third */
\treturn 3;
\t/* LAB 3: STUB panic("lab 3: h: not yet"); */
\t/* LAB 3: LATER return 0; */
\t/* LAB 3: END */
}"""


def later_labs_get_placeholders():
    problems = []
    text = SAMPLE + "\n" + LATER_SAMPLE
    lab1 = mklab.student_text(text, 1, "sample.c")
    if "\treturn 0;\n}" not in lab1 or 'panic("lab 3' in lab1 or "return 3;" in lab1:
        problems.append("lab 1's tree does not get lab 3's LATER placeholder")
    if 'panic("lab 2: g: not yet");' not in lab1:
        problems.append("a later region without LATER lines is not its STUB")
    if "lab3_not_done" not in lab1:
        problems.append("lab 3's placeholder does not say lab 3 is not done")
    lab3 = mklab.student_text(text, 3, "sample.c")
    if 'panic("lab 3: h: not yet");' not in lab3 or "return 0;" in lab3:
        problems.append("lab 3's own tree gets the placeholder, not the STUB")
    carried = mklab.student_text(text, 3, "sample.c", first=2)
    if 'panic("lab 2: g: not yet");' not in carried or "return 1;" not in carried:
        problems.append("first=2: lab 2's region is not kept a stub, lab 1's not solved")
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


def run_mklab(work, lab, force=False):
    """make lab LAB=lab in work: (exit status, what it printed)."""
    cmd = [sys.executable, str(ROOT / "scripts" / "mklab.py"), "--lab", str(lab),
           "--work", str(work)] + (["--force"] if force else [])
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def git_out(tree, *args):
    return subprocess.run(["git", "-C", str(tree), "-c", "user.name=student",
                           "-c", "user.email=student@example.invalid"] + list(args),
                          capture_output=True, text=True).stdout


# A line the test writes into lab 1's region of idt.c, as a student would.
STUDENT_LINE = "\t/* my lab 1 answer */"
LAB1_FILE = "arch/i386/idt.c"


def student_edit(tree):
    """Put STUDENT_LINE where lab 1's stub is (after its "your code here")."""
    f = tree / LAB1_FILE
    text = f.read_text()
    mark = text.index("/* LAB 1: your code here")
    end = text.index("\n", mark)
    f.write_text(text[:end + 1] + STUDENT_LINE + "\n" + text[end + 1:])


def lab_trees_keep_work():
    """make lab twice refuses, FORCE replaces, lab 2 carries lab 1 forward."""
    problems = []
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        tree1, tree2 = mklab.tree_of(work, 1), mklab.tree_of(work, 2)
        status, out = run_mklab(work, 1)
        if status != 0 or not (tree1 / ".git").is_dir():
            return [f"make lab 1 did not write a repository: {out.strip()}"]
        if len(git_out(tree1, "rev-list", "--all").split()) != 1 or \
                "lab 1 handed out" not in git_out(tree1, "log", "--format=%s"):
            problems.append("lab 1's tree does not start with the handout as its one commit")
        student_edit(tree1)
        status, out = run_mklab(work, 1)
        if status == 0 or "FORCE=1" not in out or \
                STUDENT_LINE not in (tree1 / LAB1_FILE).read_text():
            problems.append(f"a second make lab 1 over an edit was not refused: {out.strip()}")
        status, out = run_mklab(work, 1, force=True)
        if status != 0 or STUDENT_LINE in (tree1 / LAB1_FILE).read_text():
            problems.append(f"FORCE=1 did not replace the tree: {out.strip()}")
        student_edit(tree1)
        status, out = run_mklab(work, 2)
        if status == 0 or "commit" not in out or tree2.exists():
            problems.append(f"lab 2 was made from uncommitted lab 1 work: {out.strip()}")
        git_out(tree1, "commit", "-qam", "my lab 1")
        status, out = run_mklab(work, 2)
        if status != 0:
            return problems + [f"make lab 2 after lab 1 failed: {out.strip()}"]
        idt = (tree2 / LAB1_FILE).read_text()
        if STUDENT_LINE not in idt:
            problems.append("lab 2's tree lost the student's lab 1 code")
        if "/* LAB 1: your code here" not in idt:
            problems.append("lab 2's tree replaced lab 1's stub by the reference answer")
        core = (tree2 / "arch/i386/kprobes/core.c").read_text()
        if "/* LAB 2: your code here (kprobe_handler" not in core:
            problems.append("lab 2's tree does not have lab 2's stubs")
        if "lab 2" not in (tree2 / ".lab").read_text():
            problems.append("lab 2's tree does not say it is lab 2 (.lab)")
        subjects = git_out(tree2, "log", "--format=%s").splitlines()
        if not any("my lab 1" in x for x in subjects) or \
                not any("lab 2 handed out" in x for x in subjects):
            problems.append(f"lab 2's history is not lab 1's plus lab 2's handout: {subjects}")
        if git_out(tree2, "status", "--porcelain").strip():
            problems.append("lab 2's tree is left with uncommitted changes (a conflict?)")
        status, out = run_mklab(work, 2)
        if status != 0:
            problems.append(f"an untouched lab 2 tree is not simply rewritten: {out.strip()}")
    return problems


FAILING_LOG = """KTAP version 1
1..1
    KTAP version 1
    # Subtest: traps
    1..2
    ok 1 idt_gate_types
    # frame_breakpoint: lines it printed
    # frame_breakpoint: test_traps.c:90: EXPECT_EQ(regs->orig_ax, 0) failed: got 3, want 0
    # frame_breakpoint: test_traps.c:91: EXPECT_EQ(regs->ip, 1) failed: got 2, want 1
    not ok 2 frame_breakpoint
not ok 1 traps
"""
CRASH_LOG = ("KTAP version 1\n1..1\nlab 2: kprobe_handler: not yet\n"
             "Oops: breakpoint (int3) [vector 3] error code 00000000\nCPU: 0\n")


def grade_says_why():
    """Under a FAIL: the first failed check or the panic, and the log."""
    problems = []
    tests = [grade.Graded("traps.idt_gate_types", 10, "gates"),
             grade.Graded("traps.frame_breakpoint", 15, "the frame"),
             grade.Graded("kprobes.kprobe_smoke", 5, "a probe fires")]
    with tempfile.TemporaryDirectory() as d:
        log, crash_log = Path(d) / "batch0.log", Path(d) / "kprobes.kprobe_smoke.log"
        results = grade.outcomes_of(FAILING_LOG.splitlines(), log)
        results["kprobes.kprobe_smoke"] = grade.no_result(CRASH_LOG.splitlines(), 1, crash_log)
        marks, earned = grade.score(tests, results)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            grade.report(1, "traps", marks)
    lines = out.getvalue().splitlines()
    if earned != 10 or len(lines) != 7:
        problems.append(f"scored {earned}, printed {lines}")
        return problems
    if "FAIL" not in lines[1] or "test_traps.c:90: EXPECT_EQ(regs->orig_ax, 0)" not in lines[2]:
        problems.append(f"the first failed check is not under the FAIL: {lines[1:3]}")
    if lines[3].split() != ["log:", str(log)]:
        problems.append(f"the log is not named: {lines[3]}")
    if "lab 2: kprobe_handler: not yet -> Oops: breakpoint (int3)" not in lines[5] or \
            str(crash_log) not in lines[6]:
        problems.append(f"a crash does not show its panic line and log: {lines[4:]}")
    return problems


COMPILED_RE = re.compile(r" -c (\S+\.[cS]) -o ")


def student_tree_reuses_objects(build):
    """A student tree compiles what its stubs changed, nothing else."""
    if not (build / "kernel-test.elf").exists():
        return [f"{build}/kernel-test.elf missing (make test-image)"]
    with tempfile.TemporaryDirectory(prefix="labobj-") as tmp:
        tree = Path(tmp) / "lab1"
        changed = mklab.write_tree(ROOT, 1, tree, build.resolve())
        p = subprocess.run(["make", "-n", "-C", str(tree), "all", "test-image"],
                           capture_output=True, text=True)
    if p.returncode:
        return [f"make -n failed ({p.returncode})"] + p.stderr.splitlines()[-5:]
    needless = []
    for src in sorted(set(COMPILED_RE.findall(p.stdout)) - set(changed)):
        deps = build / f"{src}.d"
        if not src.startswith("build/") and not (
                deps.exists() and any(c in deps.read_text() for c in changed)):
            needless.append(src)
    return [f"{len(needless)} files compiled again though the lab left them and "
            f"their headers alone, e.g. {', '.join(needless[:5])}"] if needless else []


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build", type=Path)
    args = ap.parse_args(argv)
    build = args.build if args.build.is_absolute() else ROOT / args.build
    return ktap.report([(f.__name__, f()) for f in (
        markers_parse, stub_replaces_region, stub_says_lab_not_done,
        later_labs_get_placeholders, malformed_is_refused, lab_trees_keep_work,
        grade_files_name_cases, grade_file_says_cpus, grade_says_why)] +
        [("student_tree_reuses_objects", student_tree_reuses_objects(build))])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
