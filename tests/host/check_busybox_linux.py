#!/usr/bin/env python3
"""
check_busybox_linux.py - the busybox stage's cases against Linux's output,
without the network or Debian's packages: on the serial log of one run of
tests/busybox_linux.py kept as tests/busybox/linux-6.1.log (Debian's
Linux 6.1, the same busybox.cpio; rerun it and copy
BUILD/linux-ref/busybox-cases.log there when cases are added).

    check_busybox_linux.py --build BUILD

  linux_log_read           the log is read behind the BIOS's screen codes
                           and CRs: each case Linux ran, its output and
                           its exit status, and only lines of cases.txt
  cases_agree_with_linux   every case Linux ran prints there what
                           cases.txt expects, but the ones about this
                           kernel's own fib (Linux has none), which must
                           differ; a case added since the run is named,
                           not failed
  comparison_sees_a_change a case whose expected line is changed is
                           reported as differing

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))
import ktap            # noqa: E402
import busybox_linux   # noqa: E402
import busybox_stage   # noqa: E402

LOG = TESTS / "busybox" / "linux-6.1.log"
# Cases about this kernel: a kprobe on its fib, its kallsyms' fib; the
# uprobe cases, whose {{APPLET}} places the busybox stage fills in and
# busybox_linux.py does not (their Linux run was by hand: docs/busybox.md
# section 10); its debugfs count of sysenter calls (Linux has none); the
# vDSO's address (Linux's is random, here fixed: docs/vdso.md).
THIS_KERNEL_ONLY = {"kallsyms_grep", "tracefs_echo_cat",
                    "uprobe_echo_main_counts_exact", "uprobe_entry_once_per_exec",
                    "uretprobe_false_returns_1", "uprobe_in_a_running_busybox",
                    "glibc_calls_by_sysenter", "vdso_in_maps"}
NOT_RUN = []    # cases added since the fixture was made


def cases():
    return busybox_stage.parse_cases(busybox_stage.CASES.read_text())


def runs():
    return busybox_linux.parse_log(LOG.read_bytes().decode("utf-8", "replace"))


def linux_log_read():
    text = LOG.read_bytes().decode("utf-8", "replace")
    problems = []
    if "\r" not in text or "\x1b" not in text:
        problems.append("the fixture is no longer QEMU's raw log (CRs, screen codes)")
    lines = {c[1] for c in cases()}
    got = runs()
    if len(got) < 20:
        problems.append("only %d cases read" % len(got))
    problems += ["not a line of cases.txt: %s" % r[0] for r in got if r[0] not in lines]
    problems += ["no exit status: %s" % r[0] for r in got if r[2] is None]
    return problems


def cases_agree_with_linux():
    problems = []
    rows = busybox_linux.compare(cases(), runs())
    ran = {r[0] for r in rows}
    for name, line, agrees, want, got in rows:
        if agrees == (name in THIS_KERNEL_ONLY):
            problems.append("%s: %s on Linux: cases.txt %r, Linux %r" % (
                name, "agrees" if agrees else "differs", want, got))
    NOT_RUN.extend(c[0] for c in cases() if c[0] not in ran)
    return problems


def comparison_sees_a_change():
    changed = [list(c) for c in cases()]
    target = next(c for c in changed if c[0] == "wc_l_on_a_pipe")
    target[2] = ["2"]
    rows = {r[0]: r[2] for r in busybox_linux.compare(changed, runs())}
    return [] if rows.get("wc_l_on_a_pipe") is False else ["a changed case still agrees"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.parse_args()
    results = []
    for check in [linux_log_read, cases_agree_with_linux, comparison_sees_a_change]:
        try:
            results.append((check.__name__, check()))
        except Exception as e:          # a crash is a failure with its reason
            results.append((check.__name__, ["%s: %s" % (type(e).__name__, e)]))
    status = ktap.report(results)
    for name in NOT_RUN:
        print("# not run on Linux yet (tests/busybox_linux.py): %s" % name)
    return status


if __name__ == "__main__":
    sys.exit(main())
