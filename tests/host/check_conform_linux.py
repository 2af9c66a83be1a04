#!/usr/bin/env python3
"""
check_conform_linux.py - make conform-linux's reading and comparing,
without the network or Debian's packages: on the transcripts of one run
kept in tests/conform/ (linux-6.1.log, Linux's serial log as QEMU gave it;
this-kernel.log, ours as typed at the prompt).

    check_conform_linux.py --build BUILD

  linux_transcript_read     every case line is found, in order, with its
                            output, behind the BIOS's screen codes and CRs
  our_transcript_read       the same for this kernel's transcript
  fixtures_run_the_cases    both transcripts ran exactly the lines of
                            tests/conform/tracefs.txt (rerun make
                            conform-linux and copy them when it changes)
  normalize_boot_to_boot    timestamps, tasks, CPUs, offsets, ids and the
                            shells' wording of errors compare equal
  side_by_side_aligned      a file one kernel lacks is one row against a
                            blank; equal lines are not shown; the count
  mismatched_runs_refused   transcripts of different lines, or of a
                            different length, are an error, not a table
  initramfs_is_newc         /init and cases.txt read back as newc records

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))
import ktap            # noqa: E402
import conform_linux   # noqa: E402

CONFORM = TESTS / "conform"
LINUX_LOG = CONFORM / "linux-6.1.log"
OUR_LOG = CONFORM / "this-kernel.log"


def cases():
    return conform_linux.case_lines((CONFORM / "tracefs.txt").read_text())


def outputs(pairs, line):
    return [o for l, o in pairs if l == line]


def linux_log():
    """As QEMU wrote it: no newline translation."""
    return LINUX_LOG.read_bytes().decode("utf-8", "replace")


def linux_transcript_read():
    text = linux_log()
    problems = []
    if "\r" not in text or "\x1b" not in text:
        problems.append("the fixture is no longer QEMU's raw log (CRs, screen codes)")
    pairs = conform_linux.parse_linux(text)
    if [l for l, _ in pairs] != cases():
        problems.append("the lines read are not the case lines, in order")
    if outputs(pairs, "cat tracing_on") != [["1"]]:
        problems.append("cat tracing_on: %r" % outputs(pairs, "cat tracing_on"))
    clock = outputs(pairs, "cat trace_clock")
    if not clock or not clock[0] or not clock[0][0].startswith("[local] global"):
        problems.append("cat trace_clock: %r" % clock[:1])
    return problems


def our_transcript_read():
    pairs = conform_linux.parse_ours(OUR_LOG.read_text())
    problems = []
    if [l for l, _ in pairs] != cases():
        problems.append("the lines read are not the case lines, in order")
    if outputs(pairs, "mkdir instances/foo")[1:] != [
            ["mkdir: cannot create directory 'instances/foo': File exists"]]:
        problems.append("the second mkdir: %r" % outputs(pairs, "mkdir instances/foo"))
    return problems


def fixtures_run_the_cases():
    linux = conform_linux.parse_linux(linux_log())
    ours = conform_linux.parse_ours(OUR_LOG.read_text())
    want = cases()
    problems = []
    for name, pairs in (("linux-6.1.log", linux), ("this-kernel.log", ours)):
        if len(pairs) != len(want):
            problems.append("%s ran %d lines, tracefs.txt has %d" % (name, len(pairs), len(want)))
    return problems


def normalize_boot_to_boot():
    norm = conform_linux.normalize
    pairs = [
        (["              sh-123     [000] d..1.    12.345678: myfib: (fib+0x0/0x36) n=0x5"],
         ["              sh-0       [001] d..1.     0.169378: myfib: (fib+0x4/0x3b) n=0x5"]),
        (["[    3.829483] trace_kprobe: error: Invalid stack number"],
         ["[    0.203210] trace_kprobe: error: Invalid stack number"]),
        (["ID: 1417"], ["ID: 12"]),
        (["# entries-in-buffer/entries-written: 0/0   #P:1"],
         ["# entries-in-buffer/entries-written: 0/0   #P:2"]),
        (["sh: write error: Invalid argument"],
         ["sh: echo: write error: Invalid argument", "no tracer 'x' (available_tracers lists them)"]),
        (["mkdir: can't create directory 'instances/foo': File exists"],
         ["mkdir: cannot create directory 'instances/foo': File exists"]),
        (["rmdir: 'events': Operation not permitted"],
         ["rmdir: failed to remove 'events': Operation not permitted"]),
    ]
    problems = []
    for linux, ours in pairs:
        a, b = norm(linux, False), norm(ours, True)
        if a != b:
            problems.append("%r and %r read %r and %r" % (linux, ours, a, b))
    if norm(["n=0x5"], False) == norm(["n=0x6"], True):
        problems.append("a value that differs compares equal")
    if norm(["d..1."], False) == norm(["....."], True):
        problems.append("flags that differ compare equal")
    return problems


def side_by_side_aligned():
    rows = conform_linux.compare(
        [("ls", ["a", "b", "c"]), ("cat x", ["1"]), ("cat y", ["2"])],
        [("ls", ["a", "c"]), ("cat x", ["1"]), ("cat y", ["3"])])
    text = conform_linux.side_by_side(rows, width=10)
    problems = []
    if "  * b          | \n" not in text + "\n":
        problems.append("b, which only Linux has, is not one row against a blank:\n" + text)
    if "=== cat x" in text:
        problems.append("an equal line is shown")
    if "  * 2          | 3" not in text:
        problems.append("the differing values are not side by side:\n" + text)
    if not text.endswith("3 lines, 1 the same, 2 differ"):
        problems.append("the count: %r" % text.splitlines()[-1])
    # the fixtures themselves: the tracers differ (blk, mmiotrace), the headers
    # and the clocks (tai included) do not
    real = conform_linux.compare(conform_linux.parse_linux(linux_log()),
                                 conform_linux.parse_ours(OUR_LOG.read_text()))
    same = {l: s for l, _, _, s in real}
    if same.get("cat events/header_page") is not True:
        problems.append("header_page differs in the fixtures")
    if same.get("cat available_tracers") is not False:
        problems.append("available_tracers reads the same in the fixtures (blk is Linux's alone)")
    if same.get("cat trace_clock") is not True:
        problems.append("trace_clock differs in the fixtures (tai is in both)")
    return problems


def mismatched_runs_refused():
    problems = []
    for a, b in (([("ls", [])], [("cat x", [])]),
                 ([("ls", []), ("cat x", [])], [("ls", [])])):
        try:
            conform_linux.compare(a, b)
            problems.append("%r against %r gave a table" % (a, b))
        except conform_linux.ConformError:
            pass
    return problems


def read_newc(data):
    """{name: bytes} of a newc archive."""
    files, pos = {}, 0
    while pos < len(data):
        head = data[pos:pos + 110]
        size, namesize = int(head[54:62], 16), int(head[94:102], 16)
        name = data[pos + 110:pos + 110 + namesize - 1].decode()
        pos += 110 + namesize
        pos += -pos % 4
        files[name] = data[pos:pos + size]
        pos += size
        pos += -pos % 4
        if name == "TRAILER!!!":
            break
    return files


def initramfs_is_newc():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "root")
        (root / "bin").mkdir(parents=True)
        (root / "bin" / "busybox").write_bytes(b"\x7fELF fake")
        out = Path(tmp, "i.cpio")
        conform_linux.make_initramfs(str(root), ["cat trace_clock", "ls"], str(out))
        files = read_newc(out.read_bytes())
    problems = []
    if files.get("cases.txt") != b"cat trace_clock\nls\n":
        problems.append("cases.txt: %r" % files.get("cases.txt"))
    init = files.get("init", b"").decode()
    for want in ("mount -t tracefs nodev /sys/kernel/tracing", "eval \"$line\" 2>&1",
                 conform_linux.END, "ls -1p"):
        if want not in init:
            problems.append("/init lacks %r" % want)
    if files.get("bin/busybox") != b"\x7fELF fake" or "dev/console" not in files:
        problems.append("busybox or /dev/console missing: %s" % sorted(files))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--build", default="build")
    ap.parse_args()
    checks = [linux_transcript_read, our_transcript_read, fixtures_run_the_cases,
              normalize_boot_to_boot, side_by_side_aligned, mismatched_runs_refused,
              initramfs_is_newc]
    results = []
    for check in checks:
        try:
            results.append((check.__name__, check()))
        except Exception as e:          # a crash is a failure with its reason
            results.append((check.__name__, ["%s: %s" % (type(e).__name__, e)]))
    return ktap.report(results)


if __name__ == "__main__":
    sys.exit(main())
