#!/usr/bin/env python3
"""bench.py - boot the kernel with "bench" and tabulate what a probe hit costs.

    python3 tests/bench.py --build build            (what `make bench` runs)
    python3 tests/bench.py --build build-me --runs 7 --iters 50000

The kernel (tests/kernel/bench.c) prints one line per row:

    BENCH row="kprobe (pre)" iters=20000 hits=20000 tsc=... tsc_per_hit=93.50 ...

We boot it twice over:
  1. under `-icount shift=0`: QEMU then counts guest instructions and the
     guest's TSC is that count (one tick per instruction), so tsc_per_hit
     is *guest instructions per call* - exact and repeatable;
  2. without icount, --runs times: the TSC follows the host clock, so
     tsc_per_hit is QEMU TCG time (host ticks per call).  It is not what
     real hardware would measure; we report the median and never judge it.

The table goes to stdout and to BUILD/bench.md.  Exit status is non-zero
only when the kernel did not produce results (boot failure, a row that
could not arm its probe, a probe that did not fire once per call).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

QEMU = os.environ.get("QEMU", "qemu-system-i386")
QEMU_ARGS = ["-m", "128M", "-no-reboot", "-display", "none", "-serial", "stdio",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
QEMU_EXIT_PASS = 33           # isa-debug-exit: (0x10 << 1) | 1
REFERENCE_ROW = "kprobe (pre)"

LINE = re.compile(r'^BENCH row="(?P<row>[^"]*)" (?P<rest>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')


class BenchError(Exception):
    pass


def boot(kernel, iters, icount, timeout):
    """Boot once; return {row: {field: value}} in the kernel's row order."""
    cmd = [QEMU] + QEMU_ARGS + ["-kernel", kernel, "-append", "bench=%d" % iters]
    if icount:
        cmd[1:1] = ["-icount", "shift=0"]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError("QEMU timed out after %ds: %s" % (timeout, " ".join(cmd)))
    out = proc.stdout.decode("utf-8", "replace")
    rows, errors = {}, []
    for line in out.splitlines():
        line = line.strip()
        m = LINE.match(line)
        if not m:
            continue
        fields = dict(FIELD.findall(m.group("rest")))
        if "error" in fields:
            errors.append(line)
        else:
            rows[m.group("row")] = fields
    if "BENCH done" not in out or proc.returncode != QEMU_EXIT_PASS:
        tail = "\n".join(out.splitlines()[-25:])
        raise BenchError("kernel did not finish the benchmark (QEMU exit %d):\n%s"
                         % (proc.returncode, tail))
    if errors:
        raise BenchError("rows failed:\n" + "\n".join(errors))
    if not rows:
        raise BenchError("no BENCH rows in the output")
    return rows


def fmt(x, digits=1):
    return "-" if x is None else "%.*f" % (digits, x)


def ratio(x, ref):
    return None if x is None or not ref else x / ref


def build_table(icount_rows, tcg_runs, runs):
    names = list(icount_rows)
    insns = {n: float(icount_rows[n]["tsc_per_hit"]) for n in names}
    exc = {n: float(icount_rows[n]["exceptions_per_hit"]) for n in names}
    tcg, spread = {}, {}
    for n in names:
        vals = [float(r[n]["tsc_per_hit"]) for r in tcg_runs if n in r]
        tcg[n] = statistics.median(vals) if vals else None
        spread[n] = "%.0f-%.0f" % (min(vals), max(vals)) if vals else "-"
    base = insns.get("no probe")
    ref_i, ref_t = insns.get(REFERENCE_ROW), tcg.get(REFERENCE_ROW)

    head = ["row", "guest insns/call (icount)", "extra insns vs no probe",
            "exceptions/call", "TSC/call, TCG (median of %d)" % runs, "TCG min-max",
            "x %s (insns)" % REFERENCE_ROW, "x %s (TCG)" % REFERENCE_ROW]
    body = []
    for n in names:
        extra = None if base is None else insns[n] - base
        body.append([n, fmt(insns[n]), fmt(extra), fmt(exc[n], 2), fmt(tcg[n]), spread[n],
                     fmt(ratio(insns[n], ref_i), 2), fmt(ratio(tcg[n], ref_t), 2)])
    return head, body


def markdown(head, body):
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory (kernel.elf)")
    ap.add_argument("--runs", type=int, default=5, help="boots without icount")
    ap.add_argument("--iters", type=int, default=20000, help="calls per row")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per boot")
    args = ap.parse_args()

    kernel = os.path.join(args.build, "kernel.elf")
    if not os.path.exists(kernel):
        print("bench.py: %s not found (run make first)" % kernel, file=sys.stderr)
        return 2
    try:
        print("bench: booting under -icount shift=0 ...", flush=True)
        icount_rows = boot(kernel, args.iters, True, args.timeout)
        tcg_runs = []
        for i in range(args.runs):
            print("bench: TCG run %d/%d ..." % (i + 1, args.runs), flush=True)
            tcg_runs.append(boot(kernel, args.iters, False, args.timeout))
    except BenchError as e:
        print("bench.py: %s" % e, file=sys.stderr)
        return 1

    head, body = build_table(icount_rows, tcg_runs, args.runs)
    table = markdown(head, body)
    note = ("%d calls per row, interrupts off.  icount: QEMU -icount shift=0, one TSC "
            "tick per guest instruction.  TCG: host-clock TSC under QEMU's "
            "translator - not hardware time." % args.iters)
    print()
    print(table)
    print()
    print(note)
    out = os.path.join(args.build, "bench.md")
    with open(out, "w") as f:
        f.write("# make bench\n\n%s\n\n%s\n" % (table, note))
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
