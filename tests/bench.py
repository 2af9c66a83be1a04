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

The kernel also prints the cost of registering and unregistering 10 to
10,000 probes ("BENCH reg ..." lines, icount boot), which becomes a
second table, the memory each probe takes ("BENCH mem ..."), and of the
optimization switch - on until the optimizer
has settled, then off - for 10 to 10,000 probes and for every instruction
of whole functions ("BENCH switch ..."), a third: guest instructions from
the icount boot, milliseconds of QEMU time from the TCG boots.

The tables go to stdout and to BUILD/bench.md, and a bar chart of the
guest instructions per hit to BUILD/bench.png (gnuplot; skipped with a
warning when gnuplot is missing).  Exit status is non-zero only when the
kernel did not produce results (boot failure, a row that could not arm
its probe or did not take its path, a probe that did not fire once per
call).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

QEMU = os.environ.get("QEMU", "qemu-system-i386")
# One CPU: -icount counts the instructions of one execution thread, and
# QEMU refuses it with multi-threaded TCG (make run's SMP > 1).
QEMU_ARGS = ["-m", "128M", "-no-reboot", "-display", "none", "-serial", "stdio",
             "-smp", "1", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
QEMU_EXIT_PASS = 33           # isa-debug-exit: (0x10 << 1) | 1
REFERENCE_ROW = "kprobe (pre)"

LINE = re.compile(r'^BENCH row="(?P<row>[^"]*)" (?P<rest>.*)$')
REG_LINE = re.compile(r'^BENCH reg (?P<rest>.*)$')
MEM_LINE = re.compile(r'^BENCH mem (?P<rest>.*)$')
SWITCH_LINE = re.compile(r'^BENCH (?P<kind>switch|switch-funcs) (?P<rest>.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')


class BenchError(Exception):
    pass


def run_qemu(cmd, timeout):
    """Run one QEMU boot to its end; return (exit status, serial output)."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError("QEMU timed out after %ds: %s" % (timeout, " ".join(cmd)))
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def boot(kernel, iters, icount, timeout, regs=None, switches=None, mems=None):
    """Boot once; return {row: {field: value}} in the kernel's row order.
    The registration lines are appended to regs (a list) when given, the
    switch lines to switches, the memory lines to mems."""
    cmd = [QEMU] + QEMU_ARGS + ["-kernel", kernel, "-append", "bench=%d" % iters]
    if icount:
        cmd[1:1] = ["-icount", "shift=0"]
    returncode, out = run_qemu(cmd, timeout)
    rows, errors = {}, []
    for line in out.splitlines():
        line = line.strip()
        sw = SWITCH_LINE.match(line)
        if sw:
            fields = dict(FIELD.findall(sw.group("rest")))
            fields["kind"] = sw.group("kind")
            if "error" in fields:
                errors.append(line)
            elif switches is not None:
                switches.append(fields)
            continue
        mem = MEM_LINE.match(line)
        if mem:
            if mems is not None:
                mems.append(dict(FIELD.findall(mem.group("rest"))))
            continue
        r = REG_LINE.match(line)
        if r:
            fields = dict(FIELD.findall(r.group("rest")))
            if "error" in fields:
                errors.append(line)
            elif regs is not None:
                regs.append(fields)
            continue
        m = LINE.match(line)
        if not m:
            continue
        fields = dict(FIELD.findall(m.group("rest")))
        if "error" in fields:
            errors.append(line)
        else:
            rows[m.group("row")] = fields
    if "BENCH done" not in out or returncode != QEMU_EXIT_PASS:
        tail = "\n".join(out.splitlines()[-25:])
        raise BenchError("kernel did not finish the benchmark (QEMU exit %d):\n%s"
                         % (returncode, tail))
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

    # A row on a function of its own also timed it unprobed: extra is against that.
    own_base = {n: float(icount_rows[n]["unprobed_per_hit"]) for n in names
                if "unprobed_per_hit" in icount_rows[n]}

    head = ["row", "guest insns/call (icount)", "extra insns vs unprobed",
            "exceptions/call", "QEMU time: TSC/call under TCG (median of %d)" % runs, "TCG min-max",
            "x %s (insns)" % REFERENCE_ROW, "x %s (TCG)" % REFERENCE_ROW]
    body = []
    for n in names:
        b = own_base.get(n, base)
        extra = None if b is None else insns[n] - b
        body.append([n, fmt(insns[n]), fmt(extra), fmt(exc[n], 2), fmt(tcg[n]), spread[n],
                     fmt(ratio(insns[n], ref_i), 2), fmt(ratio(tcg[n], ref_t), 2)])
    return head, body


def reg_table(regs):
    head = ["mode", "probes", "register: insns/probe", "settle: insns/probe",
            "unregister: insns/probe", "optimized", "register total (insns)",
            "settle total (insns)", "unregister total (insns)"]
    body = [[r["mode"], r["n"], fmt(float(r["register_per_probe"]), 0),
             fmt(float(r["settle_per_probe"]), 0), fmt(float(r["unregister_per_probe"]), 0),
             r["optimized"], r["register_tsc"], r["settle_tsc"], r["unregister_tsc"]]
            for r in regs]
    return head, body


def mem_table(mems):
    head = ["what", "n", "bytes taken (heap + pages)", "bytes each", "the caller's struct (bytes)"]
    names = {"kprobe": "registered kprobe", "optimized": "optimized probe (kprobe included)",
             "kretprobe_instance": "kretprobe instance"}
    body = [[names.get(m["kind"], m["kind"]), m["n"], m["bytes"], m["bytes_per"],
             m["struct_bytes"]] for m in mems]
    return head, body


def switch_key(sw):
    if sw["kind"] == "switch":
        return "sled, %s probes" % sw["n"]
    return "%s functions, %s probes%s" % (sw["functions"], sw["n"],
                                          ", workload running" if sw["load"] == "1" else "")


def switch_table(icount_switches, tcg_switches):
    """icount_switches: the lines of the icount boot; tcg_switches: one list per TCG boot."""
    head = ["probes", "optimized", "on: write returns (insns)", "on: settled (insns)",
            "settled: insns/probe", "off (insns)", "TCG on, settled (ms, median)",
            "TCG off (ms, median)"]
    body = []
    for sw in icount_switches:
        key = switch_key(sw)
        tcg = [t for run in tcg_switches for t in run if switch_key(t) == key]
        on_ms = statistics.median(float(t["on_ms"]) for t in tcg) if tcg else None
        off_ms = statistics.median(float(t["off_ms"]) for t in tcg) if tcg else None
        body.append([key, sw["optimized"], sw["on_return_tsc"], sw["on_tsc"],
                     fmt(float(sw["on_per_probe"]), 0), sw["off_tsc"], fmt(on_ms, 0),
                     fmt(off_ms, 0)])
    return head, body


def chart(names, insns, exc, path):
    """A bar chart of guest instructions per call, with gnuplot."""
    if not shutil.which("gnuplot"):
        print("bench.py: gnuplot not found, no chart (scripts/bootstrap.sh installs it)",
              file=sys.stderr)
        return False
    data = path + ".dat"
    with open(data, "w") as f:
        for n in names:
            f.write('"%s" %s %s\n' % (n.replace(" ", "\\n", 1), insns[n], exc[n]))
    script = "\n".join([
        'set terminal pngcairo size 1000,520 font ",10"' if gnuplot_has("pngcairo")
        else 'set terminal png size 1000,520',
        'set output "%s"' % path,
        'set title "Guest instructions per call of an almost empty function (QEMU -icount)"',
        'set ylabel "guest instructions per call"',
        'set style data histograms', 'set style fill solid 0.8 border -1',
        'set boxwidth 0.7', 'set grid ytics', 'set yrange [0:*]', 'set bmargin 5',
        'set xtics font ",8"', 'unset key',
        'plot "%s" using 2:xtic(1) lc rgb "#4477aa", '
        '"" using 0:2:(sprintf("%%d (%%g exc)", $2, $3)) with labels offset 0,0.8 font ",8"'
        % data,
    ])
    subprocess.run(["gnuplot"], input=script.encode(), check=True)
    os.remove(data)
    return True


def gnuplot_has(term):
    out = subprocess.run(["gnuplot", "-e", "set terminal"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT).stdout.decode("utf-8", "replace")
    return term in out


def markdown(head, body):
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def append_table(out, title, head_body, note):
    """Print a table and append it, with a title and a note, to bench.md."""
    table = markdown(*head_body)
    print()
    print(table)
    with open(out, "a") as f:
        f.write("\n## %s\n\n%s\n\n%s\n" % (title, table, note))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory (kernel-test.elf)")
    ap.add_argument("--runs", type=int, default=5, help="boots without icount")
    ap.add_argument("--iters", type=int, default=20000, help="calls per row")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per boot")
    args = ap.parse_args()

    kernel = os.path.join(args.build, "kernel-test.elf")
    if not os.path.exists(kernel):
        print("bench.py: %s not found (run make first)" % kernel, file=sys.stderr)
        return 2
    try:
        print("bench: booting under -icount shift=0 ...", flush=True)
        regs, switches, tcg_switches, mems = [], [], [], []
        icount_rows = boot(kernel, args.iters, True, args.timeout, regs, switches, mems)
        tcg_runs = []
        for i in range(args.runs):
            print("bench: TCG run %d/%d ..." % (i + 1, args.runs), flush=True)
            tcg_switches.append([])
            tcg_runs.append(boot(kernel, args.iters, False, args.timeout,
                                 switches=tcg_switches[-1]))
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
    if regs:
        append_table(out, "Registration", reg_table(regs),
                     "Probes on distinct sites of tests/kernel/bench_sled.S, "
                     "interrupts off, icount boot.")
    if mems:
        append_table(out, "Memory", mem_table(mems),
                     "What the kernel takes per probe while it is registered: heap "
                     "bytes asked for plus pages (slots, detours), icount boot.")
    if switches:
        append_table(out, "The optimization switch", switch_table(switches, tcg_switches),
                     "Instructions: icount boot.  ms: jiffies (10 ms each) in the TCG "
                     "boots, QEMU time.")
    png = os.path.join(args.build, "bench.png")
    names = [r[0] for r in body]
    if chart(names, {r[0]: r[1] for r in body}, {r[0]: r[3] for r in body}, png):
        print("wrote %s" % png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
