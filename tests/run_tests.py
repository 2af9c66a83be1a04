#!/usr/bin/env python3
"""
run_tests.py - the one test driver behind `make test`.

    python3 tests/run_tests.py --build build [--only self-test,host,kernel,...]
                               [--suites traps,kprobes] [--timeout 120]
    python3 tests/run_tests.py --self-test      # test this file's parser

It runs these kinds of test.  All of them speak KTAP, the text format of
Linux's KUnit (docs/testing.md has an example):

  self-test  this file's own parser tests, run as a child process with
          --self-test; each unittest case counts as one result

  host    BUILD/host/test_*        lib/ unit tests, built with ASan/UBSan
          tests/host/check_*.py    scripts that check a build artefact;
                                   each is run as  check_x.py --build BUILD
                                   (or see CHECK_SCRIPT_ARGS)
  kernel  BUILD/kernel-test.elf, the test image (the kernel plus the
          in-kernel suites of tests/kernel/), booted by
          qemu -kernel ... -append test, once per CPU count of --smp
          (default 1 and 2; more than one on multi-threaded TCG); the
          concurrency suites (smp, spinlock, sched) also at 4 CPUs, and smp at 4 with one
          CPU kept from answering (smp_skip_cpu=2)
  oops    BUILD/kernel.elf, the kernel a student boots, with crash=null:
          it must oops, print the register dump and call trace, and exit
          with failure
  iso     the test image booted through GRUB from BUILD/kernel-test.iso,
          running the "boot" suite (test=boot expect_loader=GRUB), which
          checks what GRUB handed over in the Multiboot info.
  smoke   BUILD/kernel.elf booted to the shell twice: a plain boot must
          print "Kprobe smoke test: passed" (probes/kprobes_smoke.c) before
          the prompt, a boot with nosmoke must not print the line at all
  labs    for each lab of labs/ (scripts/mklab.py, scripts/grade.py): its
          student tree is written and built (reusing BUILD's objects); its
          kernel must boot to the shell at make run's 2 CPUs (1 for a lab
          graded on several, whose stubs are SMP races) with a smoke line
          that skips what the lab's stubs leave out; its test image is
          booted on the lab's graded cases (with as many CPUs as its
          grade.txt says: "smp N"), and every graded case must fail there;
          the full tree must pass them all (its results come from the
          kernel run at that CPU count); and the lab solved with the later
          labs still stubbed (the next lab's tree) must score full marks
  lab-regions  (only when named: make test-all) each LAB region stubbed
          alone must make some graded case of its lab fail
  bochs-short  the test image booted through GRUB in Bochs
          (scripts/bochsrc.txt): the suites of BOCHS_SHORT_RUNS at one CPU
          (traps, kprobes, optprobes, user, smp, ...) and boot,smp at two;
          COM1 goes to a file whose KTAP the same parser reads.  Bochs has
          no isa-debug-exit: the run is over at the kernel's
          "# ktest: N failed" line (or its oops/panic line), and Bochs is
          stopped there.  docs/testing.md: why a second x86.
  bochs   (only when named: make test-all) the same with every suite (or
          --suites), at one CPU and at two
  busybox tests/busybox_stage.py: Debian's static busybox (bootstrap
          fetches it; missing, the stage fails) runs the one-line cases of
          tests/busybox/cases.txt through its sh, 200 shells exec'ing one
          another leak no page, a call the kernel lacks is named once
  bench   tests/bench_smp.py --smoke: the SMP benchmark's short run (2
          CPUs, per-CPU and kprobes.lock=global, 50 calls per CPU) must
          print a complete table; no figure is judged
  modules-doc  docs/modules.md followed to the letter: its hello_probe.c
          is built with make -C TREE M=DIR in a fresh directory and booted
          with insmod=hello_probe until the output the page shows appears.

The test-image boot also gets every BUILD/samples/*.ko, BUILD/test-modules/*.ko
and BUILD/linux-modules/*.ko (tests/linux-modules/, built with Linux's
make -C TREE M=DIR modules) as Multiboot modules (-initrd) for the
"modules" and "linux_modules" suites.  A KUnit module loaded by a case
prints its KTAP nested under that case, so each KUnit case counts too.

Every `ok`/`not ok` line of a single test case counts as one result.  A
crash, a hang, a missing plan or a missing result counts as a failure too.
The last line printed is always "N passed, M failed", and the exit status
is 0 only when M is 0.  Serial logs go to BUILD/test-logs/.
"""

import argparse
import contextlib
import io
import os
import re
import resource
import selectors
import shlex
import shutil
import subprocess
import sys
import threading
import time
import traceback
import unittest
from pathlib import Path

# The kernel ends a test run by writing to QEMU's isa-debug-exit port;
# QEMU then exits with status (value << 1) | 1.  See tests/kernel/ktest.h.
QEMU_EXIT_PASS = 33     # kernel wrote QEMU_EXIT_PASS (0x10): all passed
QEMU_EXIT_FAIL = 35     # kernel wrote QEMU_EXIT_FAIL (0x11): something failed
# With -no-reboot a triple fault (or any reset) makes QEMU exit with 0.

QEMU = os.environ.get("QEMU", "qemu-system-i386")
# The image with the in-kernel suites (see the Makefile); BUILD/kernel.elf
# has none and answers "test" by saying so.
TEST_IMAGE = "kernel-test.elf"
QEMU_ARGS = ["-m", "128M", "-no-reboot", "-display", "none",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]

# The kernel suites boot once per CPU count here (-smp N); the suites
# about concurrency also at CONCURRENCY_SMP.  More than one CPU runs with
# QEMU's multi-threaded TCG, so the vCPUs really run at the same time.
KERNEL_SMP = (1, 2)
CONCURRENCY_SUITES = ("smp", "spinlock", "sched", "kprobes_smp", "stepmode")
CONCURRENCY_SMP = 4
ISO_SMP = 2             # the GRUB boot: as make run boots

# kprobes' SMP suite once more with the 2005 design: one kprobe_lock for
# every hit (probes/kprobe_lock.c).  The same cases must pass.
KPROBES_GLOBAL_LOCK_ARG = "kprobes.lock=global"
KPROBES_SMP_SUITE = "kprobes_smp"
# ... and once stepped with TF and a #DB, 2005's step, chosen on the
# command line (arch/i386/kprobes/step_design.c).
KPROBES_STEP_TF_ARG = "kprobes.step=tf"

CRASH_TAIL_LINES = 40   # log lines shown when a run crashes or hangs
DIAG_LINES = 30         # at most this many diagnostic lines per failure
OOPS_RE = re.compile(r"^(?:#\s*)?(Oops|PANIC):")   # printed by die()/panic()


# ---------------------------------------------------------------------------
# KTAP parser
#
# A KTAP document is a version line, a plan "1..N" and N result lines.  A
# suite is a nested document, indented by four more spaces, that starts
# before its parent's result line for it:
#
#   KTAP version 1                       <- root document, plan = 2 suites
#   1..2
#       KTAP version 1                   <- suite "traps"
#       # Subtest: traps
#       1..2
#       ok 1 idt_gate_types              <- a leaf: one test case
#       # traps.c:42: EXPECT_EQ(...) failed: got 13, want 14
#       not ok 2 pf_null_read            <- the '#' lines before it explain it
#   not ok 1 traps                       <- closes the suite
#   ...
#
# The parser keeps a stack of open documents; indentation says which one
# a line belongs to.  Lines that are not KTAP (boot messages, printk) are
# kept as context for the next result line.
# ---------------------------------------------------------------------------

ANSI_RE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[()][A-Z0-9]|[=>])")
VERSION_RE = re.compile(r"^K?TAP version \d+$")
PLAN_RE = re.compile(r"^1\.\.(\d+)")
SUBTEST_RE = re.compile(r"^# Subtest: (.*)$")
RESULT_RE = re.compile(r"^(ok|not ok) (\d+)\s*(?:- )?(.*)$")


class Result:
    """One `ok N name [# directive]` line and the lines printed before it."""

    def __init__(self, ok, number, name, directive, context, lineno):
        self.ok = ok
        self.number = number
        self.name = name
        self.directive = directive      # e.g. "SKIP no fpu", or ""
        self.context = context          # lines since the previous result
        self.lineno = lineno
        self.subtest = None             # the suite this line closes, if any

    @property
    def skipped(self):
        return self.directive.upper().startswith("SKIP")


class Document:
    """One KTAP document: the top level, or one suite nested in it."""

    def __init__(self, indent, lineno):
        self.indent = indent
        self.lineno = lineno
        self.name = None
        self.plan = None
        self.results = []
        self.unfinished = []    # nested suites that never got a result line

    def leaves(self, prefix=""):
        """Yield (path, Result) for every test case, suites flattened."""
        for r in self.results:
            path = prefix + r.name
            if r.subtest is None:
                yield path, r
            else:
                yield from r.subtest.leaves(path + ".")
        for doc in self.unfinished:
            yield from doc.leaves(prefix + (doc.name or "?") + ".")

    def problems(self, label):
        """What is wrong with the shape of this document, as sentences."""
        found = []
        if self.plan is None:
            found.append(f"{label}: no plan line (1..N)")
        elif len(self.results) < self.plan:
            found.append(f"{label}: only {len(self.results)} of "
                         f"{self.plan} planned results (crash or hang?)")
        elif len(self.results) > self.plan:
            found.append(f"{label}: {len(self.results)} results but the "
                         f"plan said {self.plan}")
        for i, r in enumerate(self.results, start=1):
            if r.number != i:
                found.append(f"{label}: result {i} is numbered {r.number}")
                break
        for r in self.results:
            if r.subtest is not None:
                found += r.subtest.problems(f"{label}/{r.name}")
                if not r.ok and r.subtest.all_cases_ok():
                    found.append(f"{label}/{r.name}: suite says 'not ok' "
                                 f"but no case failed")
        for doc in self.unfinished:
            found.append(f"{label}/{doc.name or '?'}: suite stopped after "
                         f"{len(doc.results)} of {doc.plan} cases "
                         f"(crash or hang?)")
        return found

    def all_cases_ok(self):
        return all(r.ok for _, r in self.leaves())


class KtapParser:
    """Feed it lines; finish() returns the root Document (or None)."""

    def __init__(self):
        self.lines = []         # every line seen, cleaned up
        self.root = None
        self.stack = []         # open documents, innermost last
        self.context = []       # non-result lines since the last result
        self.oopses = []        # (line index, where) of each Oops:/PANIC:

    def feed(self, raw):
        line = ANSI_RE.sub("", raw.rstrip("\r\n")).rstrip()
        if "\r" in line:                    # keep what a terminal shows
            line = line.rsplit("\r", 1)[1]
        lineno = len(self.lines)
        self.lines.append(line)

        text = line.lstrip()
        indent = len(line) - len(text)
        if OOPS_RE.match(text):
            self.oopses.append((lineno, self._running_case()))

        if self.root is None:               # boot noise before the KTAP
            if VERSION_RE.match(text):
                self.root = Document(indent, lineno)
                self.stack = [self.root]
                self.context = []
            return

        if RESULT_RE.match(text):
            self._result(indent, text, lineno)
        elif VERSION_RE.match(text):
            self._doc_at(indent, lineno)
        elif SUBTEST_RE.match(text):
            self._subtest(indent, SUBTEST_RE.match(text).group(1), lineno)
        elif PLAN_RE.match(text):
            self._plan(indent, int(PLAN_RE.match(text).group(1)), lineno)
        elif text:
            self.context.append(line)

    def finish(self):
        """End of log: suites still open never got their result line."""
        if self.root is not None:
            stray = self._close_deeper_than(self.root.indent)
            if stray is not None:
                self.root.unfinished.append(stray)
        return self.root

    def _running_case(self):
        """Which case was running: the one after the last result seen."""
        if not self.stack:
            return "before the tests started"
        doc = self.stack[-1]
        return (f"in {doc.name or 'the top level'}, "
                f"case {len(doc.results) + 1}")

    # -- helpers, one per kind of line --------------------------------------

    def _close_deeper_than(self, indent):
        """Pop documents nested deeper than `indent`; return the outermost.

        A popped document that is not returned had no result line in its
        parent, so the parent records it as unfinished.
        """
        closed = None
        while len(self.stack) > 1 and self.stack[-1].indent > indent:
            doc = self.stack.pop()
            if closed is not None:
                doc.unfinished.append(closed)
            closed = doc
        return closed

    def _doc_at(self, indent, lineno):
        """The document a header line at `indent` belongs to (new if deeper)."""
        stray = self._close_deeper_than(indent)
        top = self.stack[-1]
        if stray is not None:
            top.unfinished.append(stray)
        if indent > top.indent:
            top = Document(indent, lineno)
            self.stack.append(top)
        return top

    def _subtest(self, indent, name, lineno):
        doc = self._doc_at(indent, lineno)
        if doc is self.root or doc.plan is not None or doc.results:
            self.context.append(self.lines[lineno])   # just a comment
        else:
            doc.name = name

    def _plan(self, indent, count, lineno):
        doc = self._doc_at(indent, lineno)
        if doc.plan is None:
            doc.plan = count
        else:
            self.context.append(self.lines[lineno])

    def _result(self, indent, text, lineno):
        m = RESULT_RE.match(text)
        name, _, directive = m.group(3).partition("#")
        result = Result(ok=(m.group(1) == "ok"), number=int(m.group(2)),
                        name=name.strip(), directive=directive.strip(),
                        context=self.context, lineno=lineno)
        self.context = []
        result.subtest = self._close_deeper_than(indent)
        doc = self._doc_at(indent, lineno)
        doc.results.append(result)


def parse_ktap(lines):
    parser = KtapParser()
    for line in lines:
        parser.feed(line)
    parser.finish()
    return parser


# ---------------------------------------------------------------------------
# Counting results and remembering failures
# ---------------------------------------------------------------------------

class Tally:
    """Passed/failed counts over the whole run, and what each failure was."""

    def __init__(self):
        self.passed = 0
        self.skipped = 0
        self.failed = 0
        self.failures = []      # (title, detail lines, log path)

    def fail(self, title, details=(), log=None):
        self.failed += 1
        self.failures.append((title, list(details), log))

    def count_ktap(self, label, parser, log):
        """Count the leaves of a parsed KTAP log; record what went wrong.

        Returns True when the log's shape was broken (no KTAP, missing
        plan or results): the caller then shows the end of the log.
        """
        root = parser.root
        if root is None:
            self.fail(f"{label}: no KTAP output", log=log)
            return True
        for path, r in root.leaves():
            if r.ok:
                self.passed += 1
                self.skipped += r.skipped
            else:
                why = f" # {r.directive}" if r.directive else ""
                self.fail(f"{label} {path}{why}", diagnostics(r), log)
        broken = root.problems(label)
        for problem in broken:
            self.fail(problem, log=log)
        if not any(True for _ in root.leaves()):
            self.fail(f"{label}: no test results at all (unknown suite name?)",
                      log=log)
            return True
        return bool(broken)


# A failed expectation, as ktest_fail() prints it: "# case: file.c:123: ...".
FAILED_CHECK_RE = re.compile(r"^#\s*(?:\S+: )?[\w.-]+\.[chS]:\d+: ")
FAILED_CHECKS_SHOWN = 10    # of those scrolled out of the tail, at most


def diagnostics(result):
    """The lines printed just before a failed result, shortest useful form.

    The tail shows what the case printed last; a check that failed
    earlier (a long case prints pages of progress after it) is brought
    back in front, since it names the line that failed."""
    lines = [line.strip() for line in result.context]
    tail = lines[-DIAG_LINES:]
    earlier = [line for line in lines[:-DIAG_LINES]
               if FAILED_CHECK_RE.match(line)][:FAILED_CHECKS_SHOWN]
    if earlier:
        earlier.append("... (the failed checks above scrolled out of the tail)")
    return earlier + tail


def tail(lines, n=CRASH_TAIL_LINES):
    return ["... (last %d lines of the log)" % min(n, len(lines))] + lines[-n:]


# ---------------------------------------------------------------------------
# Running things
# ---------------------------------------------------------------------------

def run_logged(cmd, log_path, timeout, env=None):
    """Run cmd with stdout+stderr into log_path; return (status, lines).

    status is None when the command was killed after `timeout` seconds.
    The log is written while the command runs: `tail -f` it to watch.
    """
    run = run_child(cmd, log_path, timeout, env=env)
    return run.status, run.lines


class ChildRun:
    """What run_child() saw: the exit status (None: killed at the
    timeout), the output's lines, the time each "\\n" line arrived
    (stamps, [(seconds since the start, line)]), and the wall and CPU
    seconds it took (CPU: the child's and its reaped children's user +
    system time, every thread of a QEMU counted)."""

    def __init__(self, status, lines, stamps, wall, cpu):
        self.status = status
        self.lines = lines
        self.stamps = stamps
        self.wall = wall
        self.cpu = cpu


def run_child(cmd, log_path, timeout, stop=None, env=None):
    """Run cmd until it exits, `stop(line, complete)` says True for a
    line of its output (it is killed then), or `timeout` seconds pass
    (killed too, status None).  The output goes to log_path as it comes.
    stop sees each line once with complete True, and the unfinished last
    line (a prompt waits without its newline) with complete False.

    One select() waits for both the output and the child's end (a
    pidfd), so nothing polls: a run ends the moment its line appears.
    The child is reaped with wait4() for its CPU time (clock_child)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env)
    pidfd = os.pidfd_open(proc.pid)
    out = proc.stdout.fileno()
    os.set_blocking(out, False)
    stamps, partial, data = [], b"", bytearray()
    exited = stopped = False
    with open(log_path, "wb") as log, selectors.DefaultSelector() as sel:
        sel.register(out, selectors.EVENT_READ)
        sel.register(pidfd, selectors.EVENT_READ)

        def take(chunk):
            nonlocal partial, stopped
            log.write(chunk)
            log.flush()
            data.extend(chunk)
            *done, partial = (partial + chunk).split(b"\n")
            now = time.monotonic() - start
            for raw in done:
                line = raw.decode("utf-8", errors="replace").rstrip("\r")
                stamps.append((now, line))
                stopped = stopped or bool(stop and stop(line, True))
            if partial and stop and not stopped:
                stopped = bool(stop(partial.decode("utf-8", errors="replace"), False))

        while not (exited or stopped):
            left = start + timeout - time.monotonic()
            if left <= 0:
                break
            for key, _ in sel.select(left):
                if key.fd == pidfd:
                    exited = True
                    continue
                chunk = os.read(out, 65536)
                if chunk:
                    take(chunk)
                else:
                    sel.unregister(out)
        # What is still in the pipe (a grandchild may hold it open: no wait).
        try:
            while chunk := os.read(out, 65536):
                take(chunk)
        except BlockingIOError:
            pass
    if not exited:
        proc.kill()
    _, wstatus, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(wstatus)
    os.close(pidfd)
    proc.stdout.close()
    cpu = usage.ru_utime + usage.ru_stime
    clock_child(cpu)
    status = proc.returncode if exited or stopped else None
    text = bytes(data).decode("utf-8", errors="replace")
    return ChildRun(status, text.splitlines(), stamps, time.monotonic() - start, cpu)


def note(msg):
    """Print a line, or keep it in the running job's buffer (run_jobs())."""
    job = getattr(_buffer, "job", None)
    if job is None:
        print(msg, flush=True)
        return
    with job.lock:
        if job.live:
            print(msg, flush=True)
        else:
            job.out.append(msg)


def summary(tally, before, label, log):
    passed = tally.passed - before[0]
    failed = tally.failed - before[1]
    state = "ok  " if failed == 0 else "FAIL"
    note(f"  {state} {label:32} {passed:4} passed, {failed} failed"
         f"   ({log})")


def suite_summaries(root, smp, seconds=None):
    """One line per suite of a kernel run: name, CPUs, passed, failed,
    and the seconds it took when `seconds` ({suite: s}) says."""
    if root is None:
        return
    suites = [(r.name, r.subtest) for r in root.results if r.subtest]
    suites += [(d.name or "?", d) for d in root.unfinished]
    if suites:
        note(f"         {'suite':24} {'SMP':>3}")
    for name, doc in suites:
        cases = [r for _, r in doc.leaves()]
        bad = sum(not r.ok for r in cases)
        took = f"   {seconds[name]:6.1f} s" if seconds and name in seconds else ""
        note(f"         {name:24} {smp:3} {len(cases) - bad:4} passed, "
             f"{bad} failed{took}")


def run_host_program(tally, label, cmd, log, timeout):
    """Run one host test or check script that prints flat KTAP."""
    before = (tally.passed, tally.failed)
    run = run_child(cmd, log, timeout)
    RUN_TIMES.append((label, run.wall, run.cpu))
    status, lines = run.status, run.lines
    parser = parse_ktap(lines)
    broken = tally.count_ktap(label, parser, log)
    if status is None:
        tally.fail(f"{label}: timed out after {timeout} s", tail(lines), log)
    elif status != 0:
        # Sanitizer reports and crashes end the output: show its end.
        tally.fail(f"{label}: exit status {status}", tail(lines), log)
    elif broken:
        tally.failures[-1][1].extend(tail(lines))
    summary(tally, before, label, log)


# Check scripts that want their inputs named one by one (the default is
# --build BUILD, see check_script_args).
CHECK_SCRIPT_ARGS = {
    "check_insn_objdump": lambda build: [
        "--decoder", str(build / "host" / "insn-decode"),
        "--kernel", str(build / "kernel.elf"),
        "--kernel", str(build / TEST_IMAGE)],
}


def check_script_args(script, build):
    """Command line for a tests/host/check_*.py script.

    Convention: a check script takes --build BUILD and finds what it needs
    under it (unless listed in CHECK_SCRIPT_ARGS); it prints KTAP on
    stdout and exits non-zero on failure.
    """
    args = CHECK_SCRIPT_ARGS.get(script.stem,
                                 lambda build: ["--build", str(build)])
    return [sys.executable, str(script)] + args(build)


# Check scripts that keep both cores busy: the console sessions boot at
# -smp 2 on multi-threaded TCG, and 16_long_lines' 10,000 echoed keys
# take some 20 s of CPU within a 20 s prompt timeout.  They run alone.
HOST_ALL_CORES = ("check_console_sessions",)


def host_programs():
    """The host stage's programs in order: tests/host/test_*.c's
    executables, then tests/host/check_*.py; (name, source) each."""
    return ([(src.stem, src) for src in sorted(Path("tests/host").glob("test_*.c"))] +
            [(s.stem, s) for s in sorted(Path("tests/host").glob("check_*.py"))])


def run_host_tests(tally, build, logs, timeout, names=None):
    """Every host program, or those named (one part of the stage)."""
    programs = host_programs()
    if names is None or programs[:1] and programs[0][0] in names:
        note("host tests:")
    for name, src in programs:
        if names is not None and name not in names:
            continue
        if src.suffix == ".py":
            run_host_program(tally, f"host {name}", check_script_args(src, build),
                             logs / f"host-{name}.log", timeout)
            continue
        exe = build / "host" / name
        if not exe.exists():
            tally.fail(f"host {name}: not built ({exe} missing; run make host-test)")
            note(f"  FAIL host {name:27} not built")
            continue
        run_host_program(tally, f"host {name}", [str(exe)],
                         logs / f"host-{name}.log", timeout)


def host_jobs(build, logs, timeout):
    """The host stage as jobs, in its order: runs of one-core programs
    (the first starts first, beside the kernel run at one CPU) and the
    programs of HOST_ALL_CORES alone."""
    jobs, part = [], []

    def close_part():
        if part:
            jobs.append(Job("host" if not jobs else f"host ({part[0]}...)",
                            run_host_tests, build, logs, timeout, list(part),
                            rank=START_FIRST))
            part.clear()

    for name, _ in host_programs():
        if name in HOST_ALL_CORES:
            close_part()
            jobs.append(Job(f"host {name}", run_host_tests, build, logs, timeout,
                            [name], cores=ALL_CORES))
        else:
            part.append(name)
    close_part()
    return jobs


def triple_faulted(qemu_log):
    """Did QEMU log a triple fault (-d cpu_reset)?"""
    return qemu_log.exists() and "Triple fault" in qemu_log.read_text(
        errors="replace")


def triple_fault_hint(cmd):
    """How to see the exception chain that led to a reset."""
    again = [a for a in cmd if a not in ("-d", "cpu_reset")]
    return ["... to see every exception up to the reset, rerun with -d int:",
            "    " + shlex.join(again).replace(" -D ", " -d int,cpu_reset -D ")]


def smp_args(smp):
    """QEMU arguments for smp CPUs: several run as host threads at once."""
    if smp == 1:
        return []
    return ["-smp", str(smp), "-accel", "tcg,thread=multi"]


def qemu_command(media, cmdline, qemu_log, smp=1):
    """The QEMU command line: serial on stdout, QEMU's log (resets) to a file."""
    cmd = [QEMU] + QEMU_ARGS + smp_args(smp) + [
        "-serial", "stdio", "-d", "cpu_reset", "-D", str(qemu_log)]
    cmd += media
    if cmdline is not None:
        cmd += ["-append", cmdline]
    return cmd


def boot(tally, label, media, cmdline, logs, name, timeout, smp=1):
    """Boot QEMU once, parse the serial log as KTAP and judge the run."""
    log = logs / f"{name}.log"
    qemu_log = logs / f"{name}.qemu.log"
    cmd = qemu_command(media, cmdline, qemu_log, smp)
    note(f"{label}: booting (timeout {timeout} s): {shlex.join(cmd)}")

    before = (tally.passed, tally.failed)
    run = run_child(cmd, log, timeout)
    RUN_TIMES.append((label, run.wall, run.cpu))
    status, lines = run.status, run.lines
    parser = parse_ktap(lines)
    for i, where in parser.oopses:
        tally.fail(f"{label}: kernel oops {where} (log line {i + 1})",
                   parser.lines[i:i + CRASH_TAIL_LINES], log)
    broken = tally.count_ktap(label, parser, log)
    crash = None
    if status is None:
        crash = f"{label}: timed out after {timeout} s (hang?)"
    elif status == 0:
        what = "triple fault" if triple_faulted(qemu_log) else "reset"
        crash = (f"{label}: QEMU exited 0 without isa-debug-exit: "
                 f"{what} (the CPU reset; -no-reboot stopped QEMU)")
    elif status == QEMU_EXIT_FAIL:
        if tally.failed == before[1]:
            crash = f"{label}: kernel exited with failure ({status}) " \
                    f"but printed no 'not ok'"
    elif status != QEMU_EXIT_PASS:
        crash = f"{label}: QEMU exited with status {status}"

    if crash:
        details = tail(parser.lines)
        if status == 0:
            details += triple_fault_hint(cmd)
        tally.fail(crash, details, log)
    elif broken and not parser.oopses:
        tally.failures[-1][1].extend(tail(parser.lines))
    summary(tally, before, label, log)
    suite_summaries(parser.root, smp, suite_times(label, run.stamps))


def grub_test_cfg(cmdline, modules):
    """grub.cfg for the test ISO: no menu delay, straight to the tests.
    Each .ko becomes a GRUB `module` line: a Multiboot module, as -initrd.
    GRUB passes only the words after the file as the module's string, so
    the file name is repeated there: the kernel names modules after it."""
    module_lines = "".join("\tmodule /boot/modules/%s %s\n" % (m, m)
                           for m in modules)
    return (
        "# Generated by tests/run_tests.py; see iso/boot/grub/grub.cfg.\n"
        "serial --unit=0 --speed=115200\n"
        "terminal_input serial console\n"
        "terminal_output serial console\n"
        "set timeout=0\n"
        "set default=0\n"
        "menuentry \"kprobes-i386 (%s)\" {\n"
        "\tmultiboot /boot/%s %s\n"
        "%s"
        "\tboot\n"
        "}\n" % (cmdline, TEST_IMAGE, cmdline, module_lines))


def build_test_iso(build, kernel, cmdline, logs, name="kernel-test"):
    """Make BUILD/NAME.iso with grub-mkrescue; return its path."""
    isodir = build / f"isodir-{name}"
    shutil.rmtree(isodir, ignore_errors=True)
    (isodir / "boot" / "grub").mkdir(parents=True)
    (isodir / "boot" / "modules").mkdir()
    shutil.copy(kernel, isodir / "boot" / TEST_IMAGE)
    kos = test_modules(build)
    for ko in kos:
        shutil.copy(ko, isodir / "boot" / "modules" / ko.name)
    cfg = grub_test_cfg(cmdline, [ko.name for ko in kos])
    (isodir / "boot" / "grub" / "grub.cfg").write_text(cfg)
    iso = build / f"{name}.iso"
    log = logs / f"grub-mkrescue-{name}.log"
    status, lines = run_logged(["grub-mkrescue", "-o", str(iso), str(isodir)],
                               log, 120)
    if status != 0:
        return None, lines, log
    return iso, lines, log


def module_initrd(kos):
    """QEMU arguments passing .ko files as Multiboot modules (none: [])."""
    return ["-initrd", ",".join(str(k) for k in kos)] if kos else []


def test_modules(build):
    """The .ko files the "modules" suite loads (make modules test-modules)."""
    return (sorted((build / "samples").glob("*.ko")) +
            sorted((build / "test-modules").glob("*.ko")) +
            sorted((build / "linux-modules").glob("*.ko")))


# The concurrency run once more with one CPU kept from answering (the
# "smp" suite checks it was left out cleanly): the third the firmware lists.
SKIP_CPU_ARG = "smp_skip_cpu=2"


def kernel_runs(suites, smps):
    """(label, log name, command line, CPUs) of each kernel boot."""
    wanted = suites.split(",") if suites else None
    cmdline = "test=" + suites if suites else "test"
    runs = [(f"kernel smp={n}", "kernel" if n == 1 else f"kernel-smp{n}",
             cmdline, n) for n in smps]
    conc = [x for x in CONCURRENCY_SUITES if wanted is None or x in wanted]
    if conc and CONCURRENCY_SMP not in smps:
        test = "test=" + ",".join(conc)
        runs.append((f"kernel smp={CONCURRENCY_SMP}",
                     f"kernel-smp{CONCURRENCY_SMP}", test, CONCURRENCY_SMP))
    if "smp" in conc:
        runs.append((f"kernel smp={CONCURRENCY_SMP} {SKIP_CPU_ARG}",
                     "kernel-smp-skip", f"test=smp {SKIP_CPU_ARG}",
                     CONCURRENCY_SMP))
    if KPROBES_SMP_SUITE in conc:
        runs.append((f"kernel smp={CONCURRENCY_SMP} {KPROBES_GLOBAL_LOCK_ARG}",
                     "kernel-kprobes-global",
                     f"test={KPROBES_SMP_SUITE} {KPROBES_GLOBAL_LOCK_ARG}",
                     CONCURRENCY_SMP))
        runs.append((f"kernel smp={CONCURRENCY_SMP} {KPROBES_STEP_TF_ARG}",
                     "kernel-kprobes-step-tf",
                     f"test={KPROBES_SMP_SUITE} {KPROBES_STEP_TF_ARG}",
                     CONCURRENCY_SMP))
    return runs


def run_kernel_tests(tally, build, logs, suites, timeout, smps):
    kernel = build / TEST_IMAGE
    if not kernel.exists():
        tally.fail(f"kernel: {kernel} missing (run make test-image)")
        return
    for label, name, cmdline, smp in kernel_runs(suites, smps):
        run_kernel_boot(tally, build, logs, label, name, cmdline, timeout, smp)


def run_kernel_boot(tally, build, logs, label, name, cmdline, timeout, smp):
    """One boot of the test image with every module (kernel_runs())."""
    media = ["-kernel", str(build / TEST_IMAGE)] + module_initrd(test_modules(build))
    boot(tally, label, media, cmdline, logs, name, timeout, smp)


def kernel_jobs(build, logs, suites, timeout, smps):
    """The kernel stage as one job per boot: a boot at one CPU keeps one
    host core busy, a boot at more (multi-threaded TCG) every core."""
    if not (build / TEST_IMAGE).exists():
        return [Job("kernel", run_kernel_tests, build, logs, suites, timeout, smps)]
    return [Job(label, run_kernel_boot, build, logs, label, name, cmdline, timeout, smp,
                cores=1 if smp == 1 else ALL_CORES,
                rank=START_FIRST)
            for label, name, cmdline, smp in kernel_runs(suites, smps)]


# A deliberate NULL dereference: proves that die() prints the dump and
# fails the run, and that this harness would notice.  (kernel/main.c)
# loglevel=1 quietens the console, as a test killing thousands of
# processes does: the oops report must show all the same.
OOPS_CMDLINE = "crash=null panic_exit loglevel=1"
OOPS_MUST_PRINT = ["Oops: page fault", "CR2: 00000000", "Call Trace:",
                   "crash_null+"]


def run_oops_check(tally, build, logs, timeout):
    """Boot with crash=null: the kernel must oops, dump, and exit 35."""
    kernel = build / "kernel.elf"
    if not kernel.exists():
        tally.fail(f"oops: {kernel} missing (run make)")
        return
    log = logs / "oops.log"
    cmd = qemu_command(["-kernel", str(kernel)], OOPS_CMDLINE,
                       logs / "oops.qemu.log")
    note(f"oops: booting (timeout {timeout} s): {shlex.join(cmd)}")
    before = (tally.passed, tally.failed)
    status, lines = run_logged(cmd, log, timeout)
    text = "\n".join(lines)
    missing = [s for s in OOPS_MUST_PRINT if s not in text]
    if status == QEMU_EXIT_FAIL and not missing:
        tally.passed += 1
    else:
        why = [f"QEMU status {status} (want {QEMU_EXIT_FAIL})"]
        why += [f"missing from the log: {s!r}" for s in missing]
        tally.fail(f"oops: {OOPS_CMDLINE} did not give the expected oops",
                   why + tail(lines), log)
    summary(tally, before, "oops (crash=null)", log)


def run_busybox_stage(tally, build, logs, timeout):
    """Debian's busybox sh on this kernel: tests/busybox_stage.py (flat KTAP)."""
    note("busybox: Debian's static busybox, its shell's cases (tests/busybox/cases.txt)")
    run_host_program(tally, "busybox", [sys.executable, "tests/busybox_stage.py",
                                        "--build", str(build)],
                     logs / "busybox.log", timeout)


def run_iso_tests(tally, build, logs, suites, timeout):
    kernel = build / TEST_IMAGE
    if not kernel.exists():
        tally.fail(f"iso: {kernel} missing (run make test-image)")
        return
    # expect_loader makes the boot suite check the loader's name; the
    # modules suite loads the .ko files GRUB passed as `module` lines.
    cmdline = "test=" + (suites or "boot,modules") + " expect_loader=GRUB"
    iso, lines, log = build_test_iso(build, kernel, cmdline, logs)
    if iso is None:
        tally.fail("iso: grub-mkrescue failed", tail(lines), log)
        return
    # Two CPUs: GRUB leaves its Multiboot data in low memory too, and the
    # boot suite reads it after the AP trampoline was copied below 1 MiB.
    boot(tally, f"iso smp={ISO_SMP}", ["-cdrom", str(iso), "-boot", "d"], None, logs,
         "iso", timeout, ISO_SMP)


# ---------------------------------------------------------------------------
# The same suites on a second x86: Bochs, which does what the manuals say
# where QEMU's TCG is lenient (docs/testing.md).
# ---------------------------------------------------------------------------

BOCHS = os.environ.get("BOCHS", "bochs")
BOCHSRC = Path("scripts/bochsrc.txt")
# Debian's Bochs is built with SMP: the long stage boots every suite at
# one CPU and at two (two CPUs interleave in Bochs's one thread, so the
# concurrency suites prove what they prove there, as on a 1-core host).
BOCHS_SMP = (1, 2)
# make test's short stage: the exception, kprobe and ring-3 suites that
# found QEMU's leniencies, at one CPU, and the APIC's at two - under a
# minute on an idle 2-core host.
BOCHS_SHORT_RUNS = (
    (1, "boot,traps,kprobes,kprobes_fixups,optprobes,jprobes,kretprobes,user,smp"),
    (2, "boot,smp"),
)
# The last line of a test run (tests/kernel/ktest.c), or the line its oops and
# panic notifiers print before they try to leave QEMU.
BOCHS_RUN_OVER = re.compile(
    r"^# ktest: \d+ failed|^not ok - kernel (oops|panic) during test run")
BOCHS_POLL_SECONDS = 0.25    # how often the serial file is read for the end of the run
BOCHS_STOP_SECONDS = 10


def bochs_env(iso, serial, log, cpus):
    """The variables scripts/bochsrc.txt reads."""
    env = dict(os.environ)
    env.update(BOCHS_ISO=str(iso), BOCHS_SERIAL_MODE="file",
               BOCHS_SERIAL_DEV=str(serial), BOCHS_LOG=str(log),
               BOCHS_CPUS=str(cpus))
    return env


def reap_within(proc, seconds):
    """Reap proc if it ends within `seconds` (wait4(), for its CPU time,
    counted to the stage: clock_child()); its exit status, or None."""
    deadline = time.monotonic() + seconds
    while True:
        pid, wstatus, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(wstatus)
            clock_child(usage.ru_utime + usage.ru_stime)
            return proc.returncode
        if time.monotonic() >= deadline:
            return None
        time.sleep(min(BOCHS_POLL_SECONDS, max(deadline - time.monotonic(), 0)))


def run_bochs_until_over(cmd, env, serial, out, timeout):
    """Run Bochs until the serial log shows the run over, it exits or
    `timeout` passes.  Returns (how it ended, serial log lines)."""
    serial.unlink(missing_ok=True)
    start = time.monotonic()
    with open(out, "wb") as out_file:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                stdout=out_file, stderr=subprocess.STDOUT)
        ended = "timeout"
        while time.monotonic() - start < timeout:
            if reap_within(proc, BOCHS_POLL_SECONDS) is not None:
                ended = f"exited ({proc.returncode})"
                break
            if serial.exists() and any(
                    BOCHS_RUN_OVER.match(line) for line in
                    serial.read_text(errors="replace").splitlines()):
                ended = "over"
                break
        if proc.returncode is None:
            proc.terminate()
            if reap_within(proc, BOCHS_STOP_SECONDS) is None:
                proc.kill()
                reap_within(proc, BOCHS_STOP_SECONDS)
    text = serial.read_text(errors="replace") if serial.exists() else ""
    return ended, text.splitlines()


def run_bochs_tests(tally, build, logs, suites, timeout, cpus):
    """The in-kernel suites booted through GRUB in Bochs with `cpus` CPUs,
    judged like QEMU's."""
    kernel = build / TEST_IMAGE
    if not kernel.exists():
        tally.fail(f"bochs: {kernel} missing (run make test-image)")
        return
    if shutil.which(BOCHS) is None:
        tally.fail(f"bochs: {BOCHS} not found (scripts/bootstrap.sh installs it)")
        return
    cmdline = "test=" + suites if suites else "test"
    if cpus > 1:
        # Bochs runs its CPUs in turns in one host thread: a test that
        # proves concurrency by losing updates skips, saying why.
        cmdline += " cpus_interleaved"
    iso, lines, log = build_test_iso(build, kernel, cmdline, logs,
                                     f"kernel-test-bochs-smp{cpus}")
    if iso is None:
        tally.fail("bochs: grub-mkrescue failed", tail(lines), log)
        return
    serial = logs / f"bochs-smp{cpus}.log"
    rc = logs / f"bochs-smp{cpus}.debugger-rc"     # one each: the runs may overlap
    rc.write_text("continue\n")     # Bochs's debugger waits at reset otherwise
    cmd = [BOCHS, "-q", "-f", str(BOCHSRC), "-rc", str(rc)]
    own_log = logs / f"bochs-smp{cpus}.bochs.log"
    env = bochs_env(iso, serial, own_log, cpus)
    label = f"bochs smp={cpus}"
    note(f"{label}: booting {iso} (timeout {timeout} s): {shlex.join(cmd)}")

    before = (tally.passed, tally.failed)
    start = time.monotonic()
    ended, lines = run_bochs_until_over(cmd, env, serial,
                                        logs / f"bochs-smp{cpus}.stdout.log", timeout)
    parser = parse_ktap(lines)
    for i, where in parser.oopses:
        tally.fail(f"{label}: kernel oops {where} (log line {i + 1})",
                   parser.lines[i:i + CRASH_TAIL_LINES], serial)
    broken = tally.count_ktap(label, parser, serial)
    if ended != "over":
        tally.fail(f"{label}: the run never ended: Bochs {ended} "
                   f"(its own log: {own_log})",
                   tail(parser.lines), serial)
    elif broken and not parser.oopses:
        tally.failures[-1][1].extend(tail(parser.lines))
    summary(tally, before, label, serial)
    note(f"         {(time.monotonic() - start) / 60:.1f} minutes in Bochs")
    suite_summaries(parser.root, cpus)


# ---------------------------------------------------------------------------
# The boot-time kprobe smoke test, seen from outside: a plain boot of the
# student's kernel prints its line before the shell; nosmoke skips it.
# ---------------------------------------------------------------------------

SMOKE_PASSED = "Kprobe smoke test: passed"
SMOKE_ANY = re.compile(r"Kprobe smoke test:")
SHELL_PROMPT = re.compile(r"^kprobes# ")
SMOKE_BOOT_SECONDS = 20


def smoke_boot(build, logs, cmdline, name, timeout):
    """Boot kernel.elf until the shell prompt; return (prompt seen, lines)."""
    log = logs / f"{name}.log"
    cmd = qemu_command(["-kernel", str(build / "kernel.elf")], cmdline,
                       logs / f"{name}.qemu.log")
    note(f"smoke: booting (until the shell prompt): {shlex.join(cmd)}")
    missing, lines = wait_for_lines(cmd, log, [SHELL_PROMPT],
                                    min(timeout, SMOKE_BOOT_SECONDS))
    return not missing, lines, log


def run_smoke_check(tally, build, logs, timeout):
    """A plain boot says "Kprobe smoke test: passed"; nosmoke says nothing."""
    if not (build / "kernel.elf").exists():
        tally.fail(f"smoke: {build / 'kernel.elf'} missing (run make)")
        return
    before = (tally.passed, tally.failed)
    up, lines, log = smoke_boot(build, logs, "", "smoke", timeout)
    said = [l for l in lines if SMOKE_ANY.search(l)]
    if up and said == [SMOKE_PASSED]:
        tally.passed += 1
    else:
        tally.fail("smoke: a plain boot did not print exactly one "
                   f"{SMOKE_PASSED!r} before the prompt",
                   [f"shell prompt seen: {up}", f"smoke lines: {said}"] +
                   tail(lines), log)
    up, lines, log = smoke_boot(build, logs, "nosmoke", "smoke-nosmoke",
                                timeout)
    said = [l for l in lines if SMOKE_ANY.search(l)]
    if up and not said:
        tally.passed += 1
    else:
        tally.fail("smoke: nosmoke did not boot to the shell without the "
                   "smoke test", [f"shell prompt seen: {up}",
                                  f"smoke lines: {said}"] + tail(lines), log)
    summary(tally, before, "smoke (boot, nosmoke)", log)


# ---------------------------------------------------------------------------
# make bench-smp, cut short: every row at every CPU count it boots must come
# out (a boot that fails, a row that misses a hit, a missing figure), but
# no time is judged: the host is shared and the figures are noise here.
# ---------------------------------------------------------------------------

BENCH_SMP = Path("tests/bench_smp.py")


def run_bench_smoke(tally, build, logs, timeout):
    """bench_smp.py --smoke: exit 0 only with a complete table."""
    log = logs / "bench-smp-smoke.log"
    cmd = [sys.executable, str(BENCH_SMP), "--build", str(build), "--smoke"]
    note(f"bench: {shlex.join(cmd)}")
    before = (tally.passed, tally.failed)
    status, lines = run_logged(cmd, log, timeout)
    if status == 0:
        tally.passed += 1
    else:
        why = "timed out" if status is None else f"exit status {status}"
        tally.fail(f"bench: the SMP benchmark's smoke run printed no complete "
                   f"table ({why})", tail(lines), log)
    summary(tally, before, "bench (bench_smp.py --smoke)", log)


# ---------------------------------------------------------------------------
# docs/modules.md, replayed: build its module as the page says, boot it
# ---------------------------------------------------------------------------

MODULES_DOC = Path("docs/modules.md")
DOC_BLOCK_RE = re.compile(r"<!-- replay:(\w+)(?: (\S+))? -->\s*```\w*\n(.*?)```", re.S)
NUMBER_RE = re.compile(r"(0x[0-9a-fA-F]+|\d+)")
DOC_BOOT_SECONDS = 20


def doc_blocks(text):
    """{"source": (file name, code), "output": (None, text)} from the page."""
    return {m.group(1): (m.group(2), m.group(3))
            for m in DOC_BLOCK_RE.finditer(text)}


def output_pattern(line):
    """A documented output line as a regex: its numbers may differ."""
    parts = NUMBER_RE.split(line.strip())
    return re.compile("".join(re.escape(p) if i % 2 == 0 else NUMBER_RE.pattern
                              for i, p in enumerate(parts)))


def wait_for_lines(cmd, log_path, patterns, timeout):
    """Run cmd until its output has matched every pattern in order; kill it.

    Returns the patterns never matched (empty list: all seen) and the log.
    """
    todo = list(patterns)

    def seen(line, complete):
        # An unfinished line counts only as the last pattern: it is read
        # again, whole, when its newline comes.
        if todo and todo[0].search(line) and (complete or len(todo) == 1):
            todo.pop(0)
        return not todo

    run = run_child(cmd, log_path, timeout, stop=seen)
    RUN_TIMES.append((log_path.stem, run.wall, run.cpu))
    return todo, run.lines


def run_modules_doc(tally, build, logs, timeout):
    """Follow docs/modules.md: write hello_probe.c, make -C TREE M=DIR, boot."""
    import tempfile
    before = (tally.passed, tally.failed)
    blocks = doc_blocks(MODULES_DOC.read_text())
    if "source" not in blocks or "output" not in blocks:
        tally.fail(f"modules-doc: {MODULES_DOC} lost its replay markers")
        return
    name, source = blocks["source"]
    expected = [l for l in blocks["output"][1].splitlines() if l.strip()]
    with tempfile.TemporaryDirectory(prefix="moddoc-") as tmp:
        (Path(tmp) / name).write_text(source)
        log = logs / "modules-doc-build.log"
        status, lines = run_logged(["make", "-C", str(Path.cwd()), f"M={tmp}"],
                                   log, timeout)
        ko = Path(tmp) / (Path(name).stem + ".ko")
        if status != 0 or not ko.exists():
            tally.fail("modules-doc: make -C TREE M=DIR failed", tail(lines), log)
            summary(tally, before, "modules-doc (build)", log)
            return
        log = logs / "modules-doc.log"
        cmd = qemu_command(["-kernel", str(build / "kernel.elf")] +
                           module_initrd([ko]), "insmod=" + ko.stem,
                           logs / "modules-doc.qemu.log")
        note(f"modules-doc: booting (until the documented output appears): "
             f"{shlex.join(cmd)}")
        missing, lines = wait_for_lines(cmd, log,
                                        [output_pattern(l) for l in expected],
                                        min(timeout, DOC_BOOT_SECONDS))
    if missing:
        tally.fail("modules-doc: the output docs/modules.md shows did not appear",
                   [f"missing (in order): {p.pattern}" for p in missing] +
                   tail(lines), log)
    else:
        tally.passed += 1
    summary(tally, before, "modules-doc (docs/modules.md)", log)


# ---------------------------------------------------------------------------
# The labs: every graded test fails on the stubs and passes on the solution
# ---------------------------------------------------------------------------

def lab_tools():
    """scripts/mklab.py and scripts/grade.py, imported."""
    sys.path.insert(0, str(Path("scripts").resolve()))
    import grade
    import mklab
    return mklab, grade


def build_student_tree(tally, mklab, n, build, logs, timeout):
    """Write lab n's tree with BUILD's objects; build its kernel and test image."""
    tree = build / "labs" / f"lab{n}"
    try:
        mklab.write_tree(Path.cwd(), n, tree.resolve(), build.resolve())
    except mklab.MarkerError as e:
        tally.fail(f"labs: lab {n}: scripts/mklab.py: {e}")
        return None
    log = logs / f"lab{n}-build.log"
    status, lines = run_logged(["make", "-C", str(tree), "-j2", "all", "test-image"],
                               log, timeout)
    if status != 0:
        tally.fail(f"labs: lab {n}: the student tree does not build", tail(lines), log)
        return None
    tally.passed += 1
    return tree / "build"


# make run's CPU count (the Makefile's SMP default): a student tree must
# boot to the shell with it, not only with the one CPU the grader uses.
MAKE_RUN_SMP = 2


def lab_boot_smp(lab):
    """The CPUs a lab's tree boots to the shell with: make run's default;
    one for a lab whose own stubs are the races of several CPUs (its
    grade.txt says smp N, its handout says make run SMP=1)."""
    return 1 if lab.smp > 1 else MAKE_RUN_SMP


def check_lab_boot(tally, n, lab, student_build, logs, timeout):
    """A plain boot of the student's kernel reaches the shell: the smoke
    test passes, or skips what needs lab n (probes/kprobes_smoke.c)."""
    smp = lab_boot_smp(lab)
    name = f"lab{n}-boot-smp{smp}"
    log = logs / f"{name}.log"
    cmd = qemu_command(["-kernel", str(student_build / "kernel.elf")], "",
                       logs / f"{name}.qemu.log", smp)
    note(f"labs: lab {n}: booting (until the shell prompt): {shlex.join(cmd)}")
    missing, lines = wait_for_lines(cmd, log, [SHELL_PROMPT],
                                    min(timeout, SMOKE_BOOT_SECONDS))
    said = [l for l in lines if SMOKE_ANY.search(l)]
    skips = f"skipped: lab {n} not done"
    if not missing and len(said) == 1 and "FAILED" not in said[0] and \
            (said[0] == SMOKE_PASSED or skips in said[0]):
        tally.passed += 1
    else:
        tally.fail(f"labs: lab {n}: the student kernel does not boot cleanly "
                   f"at {smp} CPUs without nosmoke (want {SMOKE_PASSED!r} or {skips!r})",
                   [f"shell prompt seen: {not missing}", f"smoke lines: {said}"] +
                   tail(lines), log)


def kernel_ran(log):
    """The kernel got to its tests, or stopped with its own panic or oops
    (a stub hit while the CPUs boot: lab 6's scheduler): not a broken image."""
    lines = log.read_text(errors="replace").splitlines()
    return any("KTAP version" in l or OOPS_RE.match(l) for l in lines)


def check_lab(tally, grade, n, lab, student_build, full_results, logs):
    """Every graded case fails in the student tree, passes in the full one."""
    student_logs = logs / f"lab{n}-student"
    shutil.rmtree(student_logs, ignore_errors=True)
    student_logs.mkdir(parents=True)
    results = grade.run_graded(student_build, lab, student_logs)
    booted = any(kernel_ran(p) for p in student_logs.glob("*.log"))
    on_stub = [c for c, o in results.items() if o.ok]
    if not booted:
        tally.fail(f"labs: lab {n}: the student tree did not boot into its tests "
                   "(no KTAP output, no panic or oops)",
                   log=student_logs)
    elif on_stub:
        tally.fail(f"labs: lab {n}: graded tests pass on the stubs",
                   [f"passes without the solution: {c}" for c in on_stub],
                   student_logs)
    else:
        tally.passed += 1
    missed = [t.case for t in lab.tests if not full_results.get(t.case)]
    if missed:
        tally.fail(f"labs: lab {n}: the full tree does not score full",
                   [f"fails with the solution: {c}" for c in missed])
    else:
        tally.passed += 1


def check_solved(tally, grade, n, lab, solved_build, next_lab, logs):
    """Lab n solved (the reference code), the later labs not: full marks.

    That tree is lab n+1's student tree, so this also proves that lab
    n+1's stubs and the later labs' placeholders leave lab n's graded
    cases alone (a student in lab n+1 can still grade lab n)."""
    solved_logs = logs / f"lab{n}-solved"
    shutil.rmtree(solved_logs, ignore_errors=True)
    solved_logs.mkdir(parents=True)
    results = grade.run_graded(solved_build, lab, solved_logs)
    missed = [(t.case, results.get(t.case)) for t in lab.tests
              if not grade.passed(results.get(t.case))]
    if missed:
        tally.fail(f"labs: lab {n}: solved (lab {next_lab}'s tree) it does not "
                   "score full marks",
                   [f"{c}: {o.why if o else 'no result'}" for c, o in missed],
                   solved_logs)
    else:
        tally.passed += 1


def full_kernel_log(logs, smp, kernel_smps):
    """The full run's log at smp CPUs, if this run booted every suite so."""
    if kernel_smps is None or smp not in kernel_smps:
        return None
    return logs / ("kernel.log" if smp == 1 else f"kernel-smp{smp}.log")


def run_labs_check(tally, build, logs, timeout, kernel_smps):
    """For each lab: the student tree builds, boots, scores 0; the full tree full.

    kernel_smps: the CPU counts a full kernel run (every suite) of this
    run booted; a lab graded at one of them takes the full tree's
    results from that log instead of booting again.
    """
    if Path(".lab").exists():
        note("labs: this is a student tree (.lab): no answers to check against")
        return
    mklab, grade = lab_tools()
    before = (tally.passed, tally.failed)
    labs = sorted(grade.labs().items())
    for i, (n, lab) in enumerate(labs):
        note(f"labs: lab {n} ({lab.name}): student tree, build, boot")
        student = build_student_tree(tally, mklab, n, build, logs, timeout)
        kernel_log = full_kernel_log(logs, lab.smp, kernel_smps)
        if kernel_log is not None:
            full = grade.results_of(kernel_log.read_text(errors="replace").splitlines())
        else:
            full_logs = logs / f"lab{n}-full"
            full_logs.mkdir(parents=True, exist_ok=True)
            full = {c: o.ok for c, o in grade.run_graded(build, lab, full_logs).items()}
        if student is None:
            continue
        check_lab_boot(tally, n, lab, student, logs, timeout)
        check_lab(tally, grade, n, lab, student, full, logs)
        if i > 0:       # the last lab solved is the full tree: check_lab did it
            prev_n, prev_lab = labs[i - 1]
            check_solved(tally, grade, prev_n, prev_lab, student, n, logs)
    summary(tally, before, "labs (student trees, solved, full tree)", logs)


def run_lab_regions_check(tally, build, logs, timeout):
    """Each region alone stubbed: some graded case of its lab must fail.

    The labs stage proves that a lab's stubs together fail every graded
    case; this proves that no region is left out of the grading (a region
    whose stub passes every case would be a lab exercise nobody checks).
    """
    if Path(".lab").exists():
        note("lab-regions: this is a student tree (.lab): nothing to check")
        return
    mklab, grade = lab_tools()
    before = (tally.passed, tally.failed)
    labs = grade.labs()
    tree = build / "labs" / "region"
    for i, (lab, title, rel) in enumerate(mklab.all_regions(Path.cwd())):
        note(f"lab-regions: LAB {lab}: {title} ({rel}) stubbed alone")
        mklab.write_tree(Path.cwd(), lab, tree.resolve(), build.resolve(), only=title)
        log = logs / f"lab-region{i}-build.log"
        status, lines = run_logged(["make", "-C", str(tree), "-j2", "test-image"],
                                   log, timeout)
        if status != 0:
            tally.fail(f"lab-regions: LAB {lab}: {title}: the tree does not build",
                       tail(lines), log)
            continue
        region_logs = logs / f"lab-region{i}"
        shutil.rmtree(region_logs, ignore_errors=True)
        region_logs.mkdir(parents=True)
        results = grade.run_graded(tree / "build", labs[lab], region_logs)
        if all(o.ok for o in results.values()):
            tally.fail(f"lab-regions: LAB {lab}: {title} ({rel}): every graded "
                       f"case of lab {lab} passes with this region stubbed",
                       log=region_logs)
        else:
            tally.passed += 1
    summary(tally, before, "lab-regions (one stub at a time)", logs)


# ---------------------------------------------------------------------------
# Stages side by side
#
# Most stages keep one host core busy: one single-threaded QEMU (-smp 1)
# or Bochs, or a script that boots such machines one after another.  On a
# host with two cores they run two at a time (as many as it has cores).
# The runs that need every core run alone: QEMU at 2 and 4 CPUs on
# multi-threaded TCG, whose vCPUs must really run at once for the
# concurrency suites to prove anything, and the SMP benchmark.  On one
# core everything runs one after another, as listed.
#
# Each job prints into its own buffer (note() writes there), and counts
# into its own Tally.  A buffer comes out whole when its job is over and
# every job listed before it has come out: the output reads as if the
# jobs had run one after another, in the order of STAGES.
# ---------------------------------------------------------------------------

ALL_CORES = 0           # a job's `cores`: every core of the host
# A job's rank among the one-core jobs: the longest start first, in a
# lane each, the short ones fill whichever lane comes free.  The jobs
# that need every core come after all of them, one at a time, as listed:
# a job waiting for every core would leave a lane idle until the other
# lane's job ends.
START_FIRST, START_LATER = 0, 1


class Job:
    """One stage, or one boot of a stage: run(tally, *args)."""

    def __init__(self, name, run, *args, cores=1, after=(), rank=START_LATER):
        self.name = name
        self.run = run
        self.args = args
        self.cores = cores      # 1, or ALL_CORES
        self.after = set(after)  # names of jobs that must be over first
        self.rank = rank        # START_*: which jobs start first
        self.tally = Tally()
        self.out = []           # its output lines, printed when it is over...
        self.live = False       # ...or at once, when every job before it is shown
        self.lock = threading.Lock()


_buffer = threading.local()     # the job this thread runs, if any


def host_cores():
    """The cores this process may run on (nproc)."""
    return len(os.sched_getaffinity(0))


def start_order(jobs):
    """The jobs in the order they may start: the one-core jobs by rank,
    then those that need every core; as listed where that is equal."""
    return sorted(jobs, key=lambda j: (j.cores == ALL_CORES, j.rank))


def run_job(job):
    """Run one job in this thread, its output into job.out."""
    _buffer.job = job
    try:
        timed_stage(job.name, job.run, job.tally, *job.args)
    except Exception as e:       # a broken stage is a failure, not the end of the run
        job.tally.fail(f"{job.name}: the harness crashed: {e!r}",
                       traceback.format_exc().splitlines())
    finally:
        _buffer.job = None


def next_jobs(waiting, running, done, cores):
    """The jobs to start now, from `waiting` (in start order)."""
    if any(j.cores == ALL_CORES for j in running):
        return []
    start = []
    busy = len(running)
    for job in waiting:
        if not job.after <= done:
            continue
        if job.cores == ALL_CORES:
            if busy == 0 and not start:
                return [job]
            break               # it waits for the cores; nothing overtakes it
        if busy + len(start) < cores:
            start.append(job)
    return start


def run_jobs(jobs, tally, cores):
    """Run every job, `cores` one-core jobs at a time; print each job's
    output whole, in list order; add their counts to tally."""
    names = {j.name for j in jobs}
    for job in jobs:
        job.after &= names      # a job not in this run is no reason to wait
    waiting, running, done = start_order(jobs), [], set()
    shown = 0
    over = threading.Condition()

    def work(job):
        run_job(job)
        with over:
            running.remove(job)
            done.add(job.name)
            over.notify()

    with over:
        while shown < len(jobs):
            for job in next_jobs(waiting, running, done, cores):
                waiting.remove(job)
                running.append(job)
                threading.Thread(target=work, args=(job,), daemon=True).start()
            while shown < len(jobs) and jobs[shown].name in done:
                show_job(jobs[shown], tally)
                shown += 1
            if shown < len(jobs):
                go_live(jobs[shown])
                over.wait()


def go_live(job):
    """Every job before this one is shown: print what it has said so far,
    and from now on each line as it comes (progress, not a long silence)."""
    with job.lock:
        for line in job.out:
            print(line)
        job.out.clear()
        job.live = True
    sys.stdout.flush()


def show_job(job, tally):
    """Print a finished job's output and add its counts to the run's."""
    go_live(job)
    tally.passed += job.tally.passed
    tally.skipped += job.tally.skipped
    tally.failed += job.tally.failed
    tally.failures += job.tally.failures


# ---------------------------------------------------------------------------
# Where the time goes: every stage's wall and CPU seconds, the slowest
# runs (a QEMU boot, a host check) and the slowest kernel suites, printed
# as a table before the last line.  On a shared host the wall time swells
# with the load; the CPU time (user + system of the children, every QEMU
# thread counted) is the work done, and compares from run to run.
# ---------------------------------------------------------------------------

STAGE_TIMES = []        # (stage, wall seconds, CPU seconds), in run order
RUN_TIMES = []          # (label, wall seconds, CPU seconds) of each run
SUITE_TIMES = []        # (run label, suite, wall seconds)
SLOWEST_SHOWN = 8       # rows of each "slowest" table
RUN_STARTED = time.monotonic()
_clock = threading.local()      # the running stage's CPU seconds, per thread


def clock_child(cpu):
    """Count a reaped child's CPU seconds to the stage running."""
    _clock.cpu = getattr(_clock, "cpu", 0.0) + cpu


def thread_cpu():
    """This thread's own CPU seconds (parsing logs, writing lab trees)."""
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    return usage.ru_utime + usage.ru_stime


def timed_stage(name, run, *args):
    """run(*args), its wall and CPU seconds noted under `name`."""
    _clock.cpu = 0.0
    start, own = time.monotonic(), thread_cpu()
    run(*args)
    STAGE_TIMES.append((name, time.monotonic() - start,
                        _clock.cpu + thread_cpu() - own))


def suite_times(label, stamps):
    """Each suite's seconds in a kernel run, from the time its "# Subtest:"
    line came to the next one's (the last: to the run's last line)."""
    starts = [(t, m.group(1)) for t, line in stamps
              for m in [SUBTEST_RE.match(line.strip())] if m]
    ends = [t for t, _ in starts[1:]] + [stamps[-1][0] if stamps else 0.0]
    times = {}
    for (t, name), end in zip(starts, ends):
        times[name] = times.get(name, 0.0) + end - t    # nested: outermost wins
    for name, secs in times.items():
        SUITE_TIMES.append((label, name, secs))
    return times


def time_report():
    """The stages, slowest first, then the slowest runs and suites."""
    if not STAGE_TIMES:
        return
    note("")
    note(f"time: {'stage':34} {'wall s':>8} {'CPU s':>8}")
    for name, wall, cpu in sorted(STAGE_TIMES, key=lambda x: -x[1]):
        note(f"time: {name:34} {wall:8.1f} {cpu:8.1f}")
    total = sum(w for _, w, _ in STAGE_TIMES), sum(c for *_, c in STAGE_TIMES)
    note(f"time: {'(all stages, added up)':34} {total[0]:8.1f} {total[1]:8.1f}")
    note(f"time: {'(this run, start to end)':34} {time.monotonic() - RUN_STARTED:8.1f}"
         f"   on {host_cores()} cores")
    if RUN_TIMES:
        note(f"time: slowest runs (CPU s), of {len(RUN_TIMES)}:")
        for label, wall, cpu in sorted(RUN_TIMES, key=lambda x: -x[2])[:SLOWEST_SHOWN]:
            note(f"time:   {label:32} {wall:8.1f} {cpu:8.1f}")
    if SUITE_TIMES:
        note("time: slowest kernel suites (wall s):")
        for label, name, secs in sorted(SUITE_TIMES, key=lambda x: -x[2])[:SLOWEST_SHOWN]:
            note(f"time:   {name + ' (' + label + ')':41} {secs:8.1f}")


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def report(tally):
    for title, details, log in tally.failures:
        note("")
        note(f"FAILED: {title}")
        for line in details:
            note(f"    {line}")
        if log:
            note(f"    log: {log}")
    if tally.skipped:
        note(f"({tally.skipped} of the passed cases were skipped)")
    time_report()
    note(f"{tally.passed} passed, {tally.failed} failed")


# What a full run does, in order.  See the top of this file.
STAGES = ("self-test", "host", "kernel", "oops", "smoke", "bench", "iso",
          "modules-doc", "labs", "bochs-short", "busybox")
# Longer stages, run only when named (--only lab-regions; make test-all).
LONG_STAGES = ("lab-regions", "bochs")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="build directory")
    ap.add_argument("--only", default=None,
                    help="comma list of: " + ", ".join(STAGES + LONG_STAGES) +
                         " (default: all; with --suites: host,kernel)")
    ap.add_argument("--suites", default="",
                    help="kernel suites to run (test=a,b)")
    # One boot runs every suite: about 1.5 minutes at -smp 2 on an idle
    # 2-core host, and 8.5 minutes was seen at a load of 5-7 (other builds
    # and QEMUs sharing the cores).  A real hang is caught the same way at
    # any budget, only later, so the budget is generous: a slow boot must
    # not read as a hang.
    ap.add_argument("--timeout", type=int, default=900,
                    help="seconds per QEMU boot or host test")
    ap.add_argument("--smp", default=",".join(map(str, KERNEL_SMP)),
                    help="CPU counts to boot the kernel suites with "
                         "(default %(default)s; the concurrency suites also "
                         f"run at {CONCURRENCY_SMP})")
    ap.add_argument("--self-test", action="store_true",
                    help="run this script's own parser tests")
    args = ap.parse_args(argv)
    if args.only is None:
        args.only = ({"self-test", "host", "kernel"} if args.suites
                     else set(STAGES))
    else:
        args.only = set(args.only.split(","))
    try:
        args.smp = tuple(int(n) for n in args.smp.split(","))
    except ValueError:
        ap.error("--smp: a comma list of CPU counts, e.g. 1,2")
    unknown = args.only - set(STAGES + LONG_STAGES)
    if unknown:
        ap.error("unknown --only value(s): " + ",".join(sorted(unknown)))
    return args


def main(argv):
    args = parse_args(argv)
    if args.self_test:
        return self_test()
    # Work from the repo root; --build may be relative to where we started.
    build = Path(args.build).resolve()
    root = Path(__file__).resolve().parent.parent
    os.chdir(root)
    if root in build.parents:
        build = build.relative_to(root)     # short paths in the messages
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")

    logs = build / "test-logs"
    logs.mkdir(parents=True, exist_ok=True)
    tally = Tally()

    # Each stage is one job or more (run_jobs(): side by side where they
    # keep one core busy each); the output comes in this order.
    jobs = []
    if "self-test" in args.only:
        jobs.append(Job("self-test", run_self_test, logs, args.timeout))
    if "host" in args.only:
        jobs += host_jobs(build, logs, args.timeout)
    if "kernel" in args.only:
        jobs += kernel_jobs(build, logs, args.suites, args.timeout, args.smp)
    if "oops" in args.only:
        jobs.append(Job("oops", run_oops_check, build, logs, args.timeout))
    if "smoke" in args.only:
        jobs.append(Job("smoke", run_smoke_check, build, logs, args.timeout))
    if "bench" in args.only:
        jobs.append(Job("bench", run_bench_smoke, build, logs, args.timeout,
                        cores=ALL_CORES))
    if "iso" in args.only:
        jobs.append(Job("iso", run_iso_tests, build, logs, args.suites,
                        args.timeout, cores=ALL_CORES))
    if "modules-doc" in args.only:
        jobs.append(Job("modules-doc", run_modules_doc, build, logs,
                        args.timeout))
    if "labs" in args.only:
        # A full kernel run (every suite) already has the full tree's results.
        full_run = "kernel" in args.only and not args.suites
        jobs.append(Job("labs", run_labs_check, build, logs, args.timeout,
                        args.smp if full_run else None, cores=ALL_CORES,
                        after=[j.name for j in jobs if j.run is run_kernel_boot]))
    if "lab-regions" in args.only:
        jobs.append(Job("lab-regions", run_lab_regions_check, build, logs,
                        args.timeout, cores=ALL_CORES))
    if "bochs-short" in args.only:
        for cpus, suites in BOCHS_SHORT_RUNS:
            jobs.append(Job(f"bochs-short smp={cpus}", run_bochs_tests, build,
                            logs, suites, args.timeout, cpus))
    if "bochs" in args.only:
        for cpus in BOCHS_SMP:
            jobs.append(Job(f"bochs smp={cpus}", run_bochs_tests, build, logs,
                            args.suites, args.timeout, cpus))
    if "busybox" in args.only:
        jobs.append(Job("busybox", run_busybox_stage, build, logs, args.timeout,
                        cores=ALL_CORES))
    run_jobs(jobs, tally, host_cores())

    if tally.passed + tally.failed == 0:
        tally.fail("no tests ran at all")
    report(tally)
    return 0 if tally.failed == 0 else 1


# ---------------------------------------------------------------------------
# Self-test: the parser and the tally against hand-written logs
# ---------------------------------------------------------------------------

GOOD_LOG = """\
booting kprobes-i386...
KTAP version 1
1..2
    KTAP version 1
    # Subtest: traps
    1..2
    ok 1 idt_gate_types
    ok 2 ud2_fixup # SKIP no fpu
ok 1 traps
    KTAP version 1
    # Subtest: kprobes
    1..1
    ok 1 register_unregister
ok 2 kprobes
"""

FAILING_LOG = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: traps
    1..2
    # traps.c:42: EXPECT_EQ(vector, 14) failed: got 13 (0xd), want 14 (0xe)
    not ok 1 pf_null_read
    ok 2 ud2_fixup
not ok 1 traps
"""

CRASHED_LOG = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: traps
    1..3
    ok 1 idt_gate_types
Oops: general protection fault 0000 at 0x00101234
EAX=00000000 EBX=00000000
"""


class ParserSelfTest(unittest.TestCase):
    def tally(self, log):
        t = Tally()
        broken = t.count_ktap("kernel", parse_ktap(log.splitlines()), None)
        return t, broken

    def test_good_log_counts_every_case(self):
        t, broken = self.tally(GOOD_LOG)
        self.assertEqual((t.passed, t.failed, t.skipped), (3, 0, 1))
        self.assertFalse(broken)

    def test_leaf_paths_name_suite_and_case(self):
        root = parse_ktap(GOOD_LOG.splitlines()).root
        self.assertEqual([p for p, _ in root.leaves()],
                         ["traps.idt_gate_types", "traps.ud2_fixup",
                          "kprobes.register_unregister"])

    def test_failure_keeps_its_diagnostic(self):
        t, _ = self.tally(FAILING_LOG)
        self.assertEqual((t.passed, t.failed), (1, 1))
        title, details, _ = t.failures[0]
        self.assertEqual(title, "kernel traps.pf_null_read")
        self.assertIn("got 13", details[0])

    def test_failed_check_survives_a_long_tail(self):
        progress = "".join(f"    # sweep: batch {i}\n" for i in range(2 * DIAG_LINES))
        log = FAILING_LOG.replace("    not ok 1 pf_null_read",
                                  progress + "    not ok 1 pf_null_read")
        t, _ = self.tally(log)
        _, details, _ = t.failures[0]
        self.assertIn("got 13", details[0])
        self.assertIn(f"batch {2 * DIAG_LINES - 1}", details[-1])

    def test_crash_mid_suite_is_a_failure(self):
        parser = parse_ktap(CRASHED_LOG.splitlines())
        self.assertEqual(parser.oopses, [(6, "in traps, case 2")])
        t, broken = self.tally(CRASHED_LOG)
        self.assertTrue(broken)
        self.assertEqual(t.passed, 1)
        titles = " | ".join(f[0] for f in t.failures)
        self.assertIn("only 0 of 2", titles)         # root plan
        self.assertIn("traps: suite stopped after 1 of 3", titles)

    def test_missing_plan(self):
        t, broken = self.tally("KTAP version 1\nok 1 a\n")
        self.assertTrue(broken)
        self.assertIn("no plan", t.failures[0][0])

    def test_no_ktap_at_all(self):
        t, broken = self.tally("hello\nworld\n")
        self.assertTrue(broken)
        self.assertEqual(t.failed, 1)

    def test_empty_run_is_a_failure(self):
        t, _ = self.tally("KTAP version 1\n1..0\n")
        self.assertEqual(t.failed, 1)

    def test_suite_not_ok_without_failed_case(self):
        log = GOOD_LOG.replace("ok 2 kprobes", "not ok 2 kprobes")
        t, _ = self.tally(log)
        self.assertEqual(t.failed, 1)
        self.assertIn("no case failed", t.failures[0][0])

    def test_grub_noise_and_crlf_are_ignored(self):
        noisy = "\x1b[2J\x1b[H  Booting `kprobes'\r\n" + \
            GOOD_LOG.replace("\n", "\r\n")
        t, broken = self.tally(noisy)
        self.assertEqual((t.passed, t.failed), (3, 0))
        self.assertFalse(broken)

    def test_flat_host_document(self):
        log = "KTAP version 1\n1..3\nok 1 a\n# x.c:3: bad\nnot ok 2 b\nok 3 c\n"
        t, broken = self.tally(log)
        self.assertEqual((t.passed, t.failed), (2, 1))
        self.assertEqual(t.failures[0][1], ["# x.c:3: bad"])
        self.assertFalse(broken)

    def test_wrong_numbering(self):
        t, _ = self.tally("KTAP version 1\n1..2\nok 1 a\nok 3 b\n")
        self.assertIn("numbered 3", t.failures[0][0])

    def test_kernel_runs_every_smp_and_concurrency(self):
        runs = kernel_runs("", (1, 2))
        conc = "test=" + ",".join(CONCURRENCY_SUITES)
        self.assertEqual([(n, c, smp) for _, n, c, smp in runs],
                         [("kernel", "test", 1), ("kernel-smp2", "test", 2),
                          ("kernel-smp4", conc, CONCURRENCY_SMP),
                          ("kernel-smp-skip", "test=smp " + SKIP_CPU_ARG,
                           CONCURRENCY_SMP),
                          ("kernel-kprobes-global",
                           "test=kprobes_smp " + KPROBES_GLOBAL_LOCK_ARG,
                           CONCURRENCY_SMP),
                          ("kernel-kprobes-step-tf",
                           "test=kprobes_smp " + KPROBES_STEP_TF_ARG,
                           CONCURRENCY_SMP)])
        self.assertEqual([smp for *_, smp in kernel_runs("traps", (1, 2))],
                         [1, 2])
        # Only the concurrency suites asked for; the skip run is smp's.
        self.assertEqual([(c, smp) for *_, c, smp in kernel_runs("sched", (1,))],
                         [("test=sched", 1), ("test=sched", CONCURRENCY_SMP)])
        self.assertEqual(smp_args(1), [])
        self.assertIn("tcg,thread=multi", smp_args(2))

    def test_grub_cfg_passes_cmdline(self):
        cfg = grub_test_cfg("test=boot expect_loader=GRUB", [])
        self.assertIn("multiboot /boot/kernel-test.elf test=boot expect_loader=GRUB",
                      cfg)
        self.assertIn("set timeout=0", cfg)
        self.assertNotIn("module ", cfg)

    def test_grub_cfg_names_each_module(self):
        cfg = grub_test_cfg("test=modules", ["a.ko", "b.ko"])
        self.assertIn("\tmodule /boot/modules/a.ko a.ko\n", cfg)
        self.assertIn("\tmodule /boot/modules/b.ko b.ko\n", cfg)


class SchedulerSelfTest(unittest.TestCase):
    """run_jobs(): who runs with whom, and what the output looks like."""

    @staticmethod
    def job(name, cores=1, after=(), rank=START_LATER):
        return Job(name, None, cores=cores, after=after, rank=rank)

    def test_one_core_runs_one_job_at_a_time(self):
        a, b = self.job("a"), self.job("b")
        self.assertEqual(next_jobs([a, b], [], set(), 1), [a])
        self.assertEqual(next_jobs([b], [a], set(), 1), [])

    def test_two_cores_pair_one_core_jobs(self):
        a, b, c = self.job("a"), self.job("b"), self.job("c")
        self.assertEqual(next_jobs([a, b, c], [], set(), 2), [a, b])
        self.assertEqual(next_jobs([c], [a], set(), 2), [c])

    def test_a_job_on_every_core_runs_alone(self):
        a, smp, b = self.job("a"), self.job("smp", ALL_CORES), self.job("b")
        self.assertEqual(next_jobs([smp, b], [a], set(), 2), [])      # waits for a
        self.assertEqual(next_jobs([smp, b], [], set(), 2), [smp])    # b waits too
        self.assertEqual(next_jobs([b], [smp], set(), 2), [])

    def test_a_job_waits_for_what_it_reads(self):
        k, labs = self.job("kernel"), self.job("labs", after=["kernel"])
        self.assertEqual(next_jobs([labs], [k], set(), 2), [])
        self.assertEqual(next_jobs([labs], [], {"kernel"}, 2), [labs])

    def test_long_one_core_jobs_first_every_core_last(self):
        smp = self.job("smp", ALL_CORES)
        short, long = self.job("short"), self.job("long", rank=START_FIRST)
        self.assertEqual([j.name for j in start_order([smp, short, long])],
                         ["long", "short", "smp"])

    def test_output_whole_in_list_order_counts_merged(self):
        # b ends first and a waits until b has run: they overlap, and
        # a's lines still come out before b's, none interleaved.
        b_over = threading.Event()

        def run_a(tally):
            note("a 1")
            b_over.wait(10)
            note("a 2")
            tally.passed += 2

        def run_b(tally):
            note("b 1")
            tally.fail("b broke")
            b_over.set()

        jobs = [Job("a", run_a), Job("b", run_b)]
        tally = Tally()
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            run_jobs(jobs, tally, 2)
        self.assertTrue(b_over.is_set())
        self.assertEqual(printed.getvalue().splitlines(), ["a 1", "a 2", "b 1"])
        self.assertEqual((tally.passed, tally.failed), (2, 1))
        self.assertEqual([n for n, *_ in STAGE_TIMES[-2:]], ["b", "a"])

    def test_the_first_job_not_shown_prints_as_it_goes(self):
        printed, a_may_end, seen = io.StringIO(), threading.Event(), []

        def run_a(tally):
            note("a 1")
            a_may_end.wait(10)

        def run_b(tally):
            deadline = time.monotonic() + 10
            while "a 1" not in printed.getvalue() and time.monotonic() < deadline:
                time.sleep(0.01)
            seen.append("a 1" in printed.getvalue())
            a_may_end.set()

        with contextlib.redirect_stdout(printed):
            run_jobs([Job("a", run_a), Job("b", run_b)], Tally(), 2)
        self.assertEqual(seen, [True])

    def test_a_crashing_job_is_a_failure(self):
        def broken(tally):
            raise KeyError("x")
        tally = Tally()
        with contextlib.redirect_stdout(io.StringIO()):
            run_jobs([Job("broken", broken)], tally, 2)
        self.assertEqual(tally.failed, 1)
        self.assertIn("harness crashed", tally.failures[0][0])


def self_test():
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(ParserSelfTest)
    suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(SchedulerSelfTest))
    ok = unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful()
    return 0 if ok else 1


def run_self_test(tally, logs, timeout):
    """The harness's own parser tests, counted like any other test.

    They run in a child process so that a broken parser (or a self-test
    that no longer matches the code, e.g. a changed signature) is a
    counted failure with its traceback in the log, not a crash of the
    run that is judging everything else.
    """
    before = (tally.passed, tally.failed)
    log = logs / "self-test.log"
    status, lines = run_logged([sys.executable, str(Path(__file__).resolve()),
                                "--self-test"], log, timeout)
    ran = next((int(m.group(1)) for m in map(SELF_TEST_RAN_RE.match, lines)
                if m), 0)
    if status == 0 and ran:
        tally.passed += ran
    else:
        tally.fail(f"self-test: status {status}, {ran} test(s) ran",
                   tail(lines), log)
    summary(tally, before, "self-test (run_tests.py)", log)


SELF_TEST_RAN_RE = re.compile(r"^Ran (\d+) tests? in ")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
