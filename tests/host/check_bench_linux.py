#!/usr/bin/env python3
"""
check_bench_linux.py - make bench-linux's reading and tables, without the
network or Debian's packages: on a real Linux 6.1 serial log kept in
tests/linux-bench/linux-6.1-boot.log.

    check_bench_linux.py --build BUILD

  fixture_rows_parse       every row the module prints is read, with its
                           path, hits = iterations, and fprobe's absence
  timestamps_and_crlf      a line with printk's [time] prefix and a CR
                           end reads the same
  failed_row_refused       an error line, or a half that never said
                           "BENCH done", fails the run
  table_side_by_side       this kernel's rows (as make bench writes them)
                           next to Linux's: matched rows, a ratio on the
                           extra instructions, and "-" where one lacks it
  bench_md_read_back       the first table of bench.md is read back
                           (what make bench-linux uses when it exists)
  initramfs_is_newc        the initramfs reads back as newc records:
                           /init, busybox, the module, /dev/console
  headers_fixed_up         the -686 headers' include of the -common tree
                           by its installed path points at the unpacked
                           tree, and again after the tree moved

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import os
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))
import ktap          # noqa: E402
import bench         # noqa: E402
import bench_linux   # noqa: E402

FIXTURE = TESTS / "linux-bench" / "linux-6.1-boot.log"
DASH = bench_linux.DASH

# The rows the module measures on Debian's 686 kernel, and their paths.
LINUX_PATHS = {
    "no probe": "plain", "kprobe (pre)": "int3-stepped",
    "kprobe (pre+post)": "int3-stepped", "optimized": "optimized",
    "emulated (jmp)": "emulated", "emulated (call)": "emulated",
    "kretprobe": "int3-stepped", "kretprobe, optimized entry": "optimized",
    "kretprobe + kprobe": "int3-stepped",
    "kprobe on ftrace": "ftrace", "kretprobe on ftrace": "ftrace",
}

# This kernel's rows as tests/bench.py reads them from an icount boot.
OURS = {
    "no probe": {"tsc_per_hit": "8.00", "exceptions_per_hit": "0.00"},
    "kprobe (pre)": {"tsc_per_hit": "306.00", "exceptions_per_hit": "2.00"},
    "boosted": {"tsc_per_hit": "167.00", "exceptions_per_hit": "1.00"},
    "optimized": {"tsc_per_hit": "83.00", "exceptions_per_hit": "0.00"},
    "emulated (jmp)": {"tsc_per_hit": "179.00", "unprobed_per_hit": "9.00",
                       "exceptions_per_hit": "1.00"},
}


def fixture_rows():
    return bench_linux.parse_linux_log(FIXTURE.read_text())


def check_fixture_rows():
    problems = []
    rows, absent = fixture_rows()
    if sorted(rows) != sorted(LINUX_PATHS):
        problems.append("rows %s, want %s" % (list(rows), list(LINUX_PATHS)))
    for name, fields in rows.items():
        if fields.get("mode") != LINUX_PATHS.get(name):
            problems.append("%s: mode %s, want %s" % (name, fields.get("mode"),
                                                      LINUX_PATHS.get(name)))
        if fields["hits"] != fields["iters"]:
            problems.append("%s: hits %s != iters %s" % (name, fields["hits"], fields["iters"]))
    if "fprobe" not in absent:
        problems.append("fprobe's absence not read: %s" % absent)
    return problems


def check_timestamps():
    line = ('[    3.141592] BENCH row="kprobe (pre)" mode=int3-stepped iters=10 hits=10 '
            'tsc=3000 tsc_per_hit=300.00 exceptions_per_hit=2.00 exceptions_from=path\r\n'
            "BENCH done optimize=0\r\nBENCH done optimize=1\r\n")
    rows, _ = bench_linux.parse_linux_log(line)
    got = rows.get("kprobe (pre)", {})
    if got.get("tsc_per_hit") != "300.00" or got.get("exceptions_from") != "path":
        return ["read %s" % got]
    return []


def refused(text):
    try:
        bench_linux.parse_linux_log(text)
    except bench_linux.BenchLinuxError:
        return True
    return False


def check_failed_row():
    problems = []
    text = FIXTURE.read_text()
    bad = text.replace('BENCH row="optimized" ',
                       'BENCH row="optimized" error=probe did not take the optimized path\n'
                       'BENCH row="optimized" ', 1)
    if bad == text:
        problems.append("the fixture has no optimized row to break")
    elif not refused(bad):
        problems.append("an error line was accepted")
    if not refused(text.replace("BENCH done optimize=1", "")):
        problems.append("a log without the optimized half was accepted")
    return problems


def check_table():
    problems = []
    rows, absent = fixture_rows()
    linux = bench_linux.kernel_costs(rows)
    ours = bench_linux.kernel_costs(OURS)
    head, body, ladder = bench_linux.build_table(ours, linux, absent)
    by_row = {r[0]: r for r in body}
    pre = by_row.get("kprobe (pre)")
    if not pre:
        return ["no kprobe (pre) row: %s" % list(by_row)]
    want = "%.2f" % (linux["kprobe (pre)"][1] / 298.0)
    if pre[1] != "306.0" or pre[2] != "298.0" or pre[7] != want:
        problems.append("kprobe (pre): %s, want ours 306.0/298.0 and ratio %s" % (pre, want))
    jmp = by_row.get("emulated (jmp)")
    if not jmp or jmp[2] != "170.0":
        problems.append("emulated (jmp) must subtract its own unprobed cost: %s" % jmp)
    boosted = by_row.get("boosted")
    if not boosted or boosted[4:] != [DASH] * 4:
        problems.append("boosted (Linux lacks it) must show %s: %s" % (DASH, boosted))
    ftrace = by_row.get("kprobe on ftrace")
    if not ftrace or ftrace[1:4] != [DASH] * 3 or ftrace[4] == DASH:
        problems.append("kprobe on ftrace (this kernel lacks it here): %s" % ftrace)
    fprobe = by_row.get("fprobe")
    if not fprobe or set(fprobe[1:]) != {DASH}:
        problems.append("fprobe (neither kernel has it here): %s" % fprobe)
    if len(ladder) != len(body) or len(head) != len(body[0]):
        problems.append("the chart's ladder or the header does not match the table")
    ours["int3-stepped"] = (300.0, 292.0, 2.0)
    _, body, _ = bench_linux.build_table(ours, linux, absent)
    if not any(r[0] == "kprobe (pre) (here: int3-stepped)" for r in body):
        problems.append("Linux's int3-stepped kprobe is not compared with ours")
    return problems


def check_bench_md():
    head, body = bench.build_table(OURS, [OURS], 1)
    text = "# make bench\n\n%s\n\nnote\n\n## Registration\n\n| mode | n |\n|---|---:|\n| classic | 10 |\n" \
        % bench.markdown(head, body)
    got = bench_linux.parse_bench_md(text)
    want = bench_linux.kernel_costs(OURS)
    if got != want:
        return ["read %s, want %s" % (got, want)]
    return []


def read_newc(data):
    """{name: (mode, rdev major, rdev minor, data)} of a newc archive."""
    entries, at = {}, 0
    while True:
        if data[at:at + 6] != b"070701":
            raise ValueError("no newc magic at %d" % at)
        f = [int(data[at + 6 + 8 * i: at + 14 + 8 * i], 16) for i in range(13)]
        name_at = at + 110
        name = data[name_at:name_at + f[11] - 1].decode()
        body_at = name_at + f[11] + (-(110 + f[11]) % 4)
        if name == "TRAILER!!!":
            return entries
        entries[name] = (f[1], f[9], f[10], data[body_at:body_at + f[6]])
        at = body_at + f[6] + (-f[6] % 4)


def check_initramfs():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "bin"))
        with open(os.path.join(tmp, "bin", "busybox"), "wb") as f:
            f.write(b"\x7fELF busybox")
        ko = os.path.join(tmp, "m.ko")
        with open(ko, "wb") as f:
            f.write(b"\x7fELF module!")
        out = os.path.join(tmp, "initramfs.cpio")
        bench_linux.make_initramfs(tmp, ko, 123, out)
        try:
            entries = read_newc(open(out, "rb").read())
        except ValueError as e:
            return [str(e)]
    init = entries.get("init", (0, 0, 0, b""))[3].decode()
    for want in ("kprobes-optimization", "optimize=0 iters=123", "optimize=1 iters=123",
                 "poweroff -f"):
        if want not in init:
            problems.append("/init lacks %r" % want)
    if entries.get("bin/busybox", (0, 0, 0, b""))[3] != b"\x7fELF busybox":
        problems.append("busybox not stored whole")
    if entries.get(bench_linux.MODULE + ".ko", (0, 0, 0, b""))[3] != b"\x7fELF module!":
        problems.append("the module not stored whole")
    console = entries.get("dev/console")
    if not console or console[0] & 0o170000 != bench_linux.S_IFCHR or console[1:3] != (5, 1):
        problems.append("/dev/console is not char 5,1: %s" % (console,))
    return problems


def fixed_include(root):
    """Unpack a -686 headers Makefile as Debian ships it under root, fix it."""
    headers = os.path.join(root, "usr", "src", "linux-headers-6.1.0-9-686")
    os.makedirs(headers, exist_ok=True)
    makefile = os.path.join(headers, "Makefile")
    if not os.path.exists(makefile):
        with open(makefile, "w") as f:
            f.write("include /usr/src/linux-headers-6.1.0-9-common/Makefile\n")
    if bench_linux.fix_headers(root) != headers:
        return None
    return open(makefile).read()


def check_headers():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        first = os.path.join(tmp, "a")
        want = "include %s/usr/src/linux-headers-6.1.0-9-common/Makefile\n"
        got = fixed_include(first)
        if got != want % first:
            problems.append("fixed to %r" % got)
        moved = os.path.join(tmp, "b")
        os.rename(first, moved)
        got = fixed_include(moved)
        if got != want % moved:
            problems.append("after a move, fixed to %r" % got)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.parse_args()
    results = []
    for name, check in (("fixture_rows_parse", check_fixture_rows),
                        ("timestamps_and_crlf", check_timestamps),
                        ("failed_row_refused", check_failed_row),
                        ("table_side_by_side", check_table),
                        ("bench_md_read_back", check_bench_md),
                        ("initramfs_is_newc", check_initramfs),
                        ("headers_fixed_up", check_headers)):
        try:
            results.append((name, check()))
        except (bench_linux.BenchLinuxError, OSError, KeyError) as e:
            results.append((name, ["%s: %s" % (type(e).__name__, e)]))
    return ktap.report(results)


if __name__ == "__main__":
    sys.exit(main())
