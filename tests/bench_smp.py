#!/usr/bin/env python3
"""bench_smp.py - every CPU hitting one probe at once: the article's global
kprobe_lock against the per-CPU design, at 1, 2 and 4 CPUs.

    python3 tests/bench_smp.py --build build        (make bench-smp, and the
                                                     second half of make bench)
    python3 tests/bench_smp.py --build build --smp 1,2 --iters 20000 --reps 5
    python3 tests/bench_smp.py --build build --smoke  (make test: a short run
                                                       that must print a whole table)

The kernel (tests/kernel/bench_smp.c, boot mode "bench_smp") binds one
thread to each CPU; all of them call one probed function ITERS times,
starting together, interrupts off, and it prints one line per row and
repeat:

    BENCHSMP row="classic" lock=percpu cpus=2 rep=1 iters=... calls=... \\
             hits=... wall_tsc=... cpu_tsc=... taken=... contended=... spin_tsc=...

Each CPU count is booted twice, under multi-threaded TCG (-accel
tcg,thread=multi, no icount: each vCPU is a host thread): once per-CPU
(the default kprobes.lock=percpu: rows no probe, classic, boosted,
optimized) and once with kprobes.lock=global (the classic row with the
2005 lock).  The rows repeat --reps times inside a boot, round robin.

Clock: the guest's TSC under TCG without icount is the host's TSC, so
wall_tsc is host cycles.  We turn cycles into seconds with the host
TSC's frequency, measured here on the host (rdtsc against
time.perf_counter() over half a second); the kernel's own estimate
(TSC cycles over 25 timer ticks) is printed next to it, and is less
trustworthy on a loaded host, where QEMU may deliver ticks late.

Per row and CPU count we print min/median/max of the aggregate hits per
second (all CPUs' calls over the time from the first CPU's start to the
last one's end), the median time one call takes on its CPU, and for the
global lock the time spent spinning on kprobe_lock per hit.  The
article's prediction - per-CPU scales with CPUs, the global lock does
not - is reported against two targets, never asserted: a busy host or
one with fewer free cores than vCPUs changes the figures, so the host's
core count and load average are printed first.

Output: stdout and BUILD/bench-smp.md.  Exit status is non-zero only
when the kernel did not produce a complete table (boot failure, a row
that could not arm its probe, took another path, missed a hit or got a
wrong result).
"""
import argparse
import ctypes
import mmap
import os
import platform
import re
import statistics
import sys
import time

from bench import QEMU, QEMU_EXIT_PASS, FIELD, BenchError, fmt, markdown, run_qemu

QEMU_ARGS = ["-m", "128M", "-no-reboot", "-display", "none", "-serial", "stdio",
             "-accel", "tcg,thread=multi",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
LOCK_MODES = ("percpu", "global")
GLOBAL_LOCK_ARG = "kprobes.lock=global"
# (lock mode, kernel row) -> what the table calls it, in table order.
ROWS = [(("percpu", "no probe"), "no probe"),
        (("percpu", "classic"), "per-CPU classic"),
        (("global", "classic"), "global-lock classic"),
        (("percpu", "boosted"), "boosted"),
        (("percpu", "optimized"), "optimized")]
BASE_ROW = "no probe"
# The targets at 2 CPUs against 1 (reported, never asserted).
TARGETS = [("per-CPU classic", ">=", 1.8), ("global-lock classic", "<=", 1.2)]
SMOKE = {"smp": (2,), "iters": 50, "reps": 1}

LINE = re.compile(r'^BENCHSMP row="(?P<row>[^"]*)" (?P<rest>.*)$')
CAL_LINE = re.compile(r'^BENCHSMP calibration (?P<rest>.*)$')


# ---- the host's TSC ------------------------------------------------------------

# rdtsc; shl $32,%rdx; or %rdx,%rax; ret  (x86-64, the System V ABI)
RDTSC_CODE = bytes([0x0f, 0x31, 0x48, 0xc1, 0xe2, 0x20, 0x48, 0x09, 0xd0, 0xc3])
HOST_CAL_SECONDS = 0.5


def host_tsc_hz():
    """The host TSC's frequency, or None where there is no x86-64 rdtsc."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return None
    try:
        buf = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE |
                        mmap.PROT_EXEC)
    except (OSError, ValueError):
        return None
    buf.write(RDTSC_CODE)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    rdtsc = ctypes.CFUNCTYPE(ctypes.c_uint64)(addr)
    t0, c0 = time.perf_counter(), rdtsc()
    time.sleep(HOST_CAL_SECONDS)
    t1, c1 = time.perf_counter(), rdtsc()
    del rdtsc
    return (c1 - c0) / (t1 - t0)


# ---- booting ---------------------------------------------------------------------

def boot(kernel, smp, lock, iters, reps, timeout):
    """Boot once; return (list of row lines as dicts, calibration dict)."""
    cmdline = "bench_smp=%d,%d" % (iters, reps)
    if lock == "global":
        cmdline += " " + GLOBAL_LOCK_ARG
    cmd = [QEMU] + QEMU_ARGS + ["-smp", str(smp), "-kernel", kernel, "-append", cmdline]
    returncode, out = run_qemu(cmd, timeout)
    rows, errors, cal = [], [], {}
    for line in out.splitlines():
        line = line.strip()
        c = CAL_LINE.match(line)
        if c:
            cal = dict(FIELD.findall(c.group("rest")))
            continue
        m = LINE.match(line)
        if not m:
            continue
        fields = dict(FIELD.findall(m.group("rest")))
        fields["row"] = m.group("row")
        if "error" in fields:
            errors.append(line)
        else:
            rows.append(fields)
    if "BENCHSMP done" not in out or returncode != QEMU_EXIT_PASS:
        tail = "\n".join(out.splitlines()[-25:])
        raise BenchError("kernel did not finish the benchmark (QEMU exit %d): %s\n%s"
                         % (returncode, " ".join(cmd), tail))
    if errors:
        raise BenchError("rows failed:\n" + "\n".join(errors))
    want = reps * sum(1 for (mode, _), _ in ROWS if mode == lock)
    if len(rows) != want or any(int(r["cpus"]) != smp for r in rows):
        raise BenchError("%d CPUs, %s: %d row lines, want %d on %d CPUs"
                         % (smp, lock, len(rows), want, smp))
    return rows, cal


def run_all(kernel, smps, iters, reps, boots, timeout):
    """{(row name, cpus): [line, ...]} and the kernel's calibrations."""
    names = dict(ROWS)
    runs, cals = {}, []
    for smp in smps:
        for lock in LOCK_MODES:
            for b in range(boots):
                print("bench-smp: %d CPU%s, kprobes.lock=%s, boot %d/%d ..."
                      % (smp, "" if smp == 1 else "s", lock, b + 1, boots), flush=True)
                rows, cal = boot(kernel, smp, lock, iters, reps, timeout)
                cals.append(cal)
                for r in rows:
                    runs.setdefault((names[(lock, r["row"])], smp), []).append(r)
    return runs, cals


# ---- the table ---------------------------------------------------------------------

def figures(lines, hz):
    """Per-run figures of one row at one CPU count."""
    out = []
    for r in lines:
        calls = int(r["calls"])
        out.append({
            "hits_per_s": calls / (int(r["wall_tsc"]) / hz),
            "ns_per_hit": int(r["cpu_tsc"]) / calls / hz * 1e9,
            "spin_ns": int(r["spin_tsc"]) / calls / hz * 1e9,
            "contended": int(r["contended"]) / calls,
        })
    return out


def med(runs, key):
    return statistics.median(f[key] for f in runs)


def per_second(x):
    return "{:,.0f}".format(x)


def times(x):
    """A multiple, with enough digits to tell 0.004x from 0."""
    return "-" if x is None else "%.2f" % x if x >= 0.1 else "%.4f" % x


def build_table(runs, smps, hz):
    head = ["row", "CPUs", "runs", "hits/s, median", "hits/s, min-max", "x 1 CPU",
            "ns per call on its CPU (median)", "extra ns vs no probe",
            "spin on kprobe_lock, ns/hit", "hits that waited"]
    body, speedup = [], {}
    for _, name in ROWS:
        for smp in smps:
            f = figures(runs.get((name, smp), []), hz)
            if not f:
                continue
            rate = med(f, "hits_per_s")
            one = figures(runs.get((name, smps[0]), []), hz)
            x = rate / med(one, "hits_per_s") if one and smps[0] == 1 else None
            speedup[(name, smp)] = x
            base = figures(runs.get((BASE_ROW, smp), []), hz)
            extra = med(f, "ns_per_hit") - med(base, "ns_per_hit") if base else None
            spin = fmt(med(f, "spin_ns"), 0) if name.startswith("global") else "-"
            waited = ("%.1f%%" % (100 * med(f, "contended"))
                      if name.startswith("global") else "-")
            body.append([name, str(smp), str(len(f)), per_second(rate),
                         "%s - %s" % (per_second(min(g["hits_per_s"] for g in f)),
                                      per_second(max(g["hits_per_s"] for g in f))),
                         times(x), fmt(med(f, "ns_per_hit"), 0), fmt(extra, 0),
                         spin, waited])
    return head, body, speedup


def targets(speedup):
    """The issue's targets at 2 CPUs, each "met" or "missed" (never a failure)."""
    lines = []
    for name, op, limit in TARGETS:
        x = speedup.get((name, 2))
        if x is None:
            lines.append("%s: 2 CPUs %s %.1fx of 1: not measured" % (name, op, limit))
            continue
        met = x >= limit if op == ">=" else x <= limit
        lines.append("%s: 2 CPUs give %sx of 1 (target %s %.1fx): %s"
                     % (name, times(x), op, limit, "met" if met else "missed"))
    return lines


BAR_UNIT = 0.1        # one '#' per tenth of the 1-CPU throughput
BAR_MAX = 50


def chart(speedup, smps):
    """ASCII bars: aggregate hits/s at N CPUs as a multiple of 1 CPU."""
    lines = ["aggregate hits/s at N CPUs as a multiple of 1 CPU "
             "(each # = %.1fx; ideal scaling: N)" % BAR_UNIT]
    for _, name in ROWS:
        for smp in smps:
            x = speedup.get((name, smp))
            if x is None:
                continue
            bar = "#" * min(BAR_MAX, int(round(x / BAR_UNIT)))
            label = name if smp == smps[0] else ""
            lines.append("%-20s %d CPU%s %-*s %sx" % (label, smp, " " if smp == 1 else "s",
                                                      BAR_MAX, bar, times(x)))
    return "\n".join(lines)


def host_line(when):
    load = " ".join("%.2f" % x for x in os.getloadavg())
    return "host %s: %d cores (nproc), load average %s" % (when, len(os.sched_getaffinity(0)), load)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory (kernel-test.elf)")
    ap.add_argument("--smp", default="1,2,4", help="CPU counts (the first should be 1)")
    ap.add_argument("--iters", type=int, default=2000, help="calls per CPU per row")
    ap.add_argument("--reps", type=int, default=3, help="repeats of every row in a boot")
    ap.add_argument("--boots", type=int, default=1, help="boots per CPU count and lock mode")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per boot")
    ap.add_argument("--smoke", action="store_true",
                    help="a short run for make test: 2 CPUs, %d calls, 1 repeat; "
                         "only checks that the table is complete" % SMOKE["iters"])
    args = ap.parse_args()
    if args.smoke:
        smps, args.iters, args.reps, args.boots = SMOKE["smp"], SMOKE["iters"], SMOKE["reps"], 1
    else:
        smps = tuple(int(n) for n in args.smp.split(","))

    kernel = os.path.join(args.build, "kernel-test.elf")
    if not os.path.exists(kernel):
        print("bench_smp.py: %s not found (run make test-image)" % kernel, file=sys.stderr)
        return 2
    start = host_line("at the start")
    print("bench-smp: " + start, flush=True)
    try:
        runs, cals = run_all(kernel, smps, args.iters, args.reps, args.boots, args.timeout)
    except BenchError as e:
        print("bench_smp.py: %s" % e, file=sys.stderr)
        return 1
    end = host_line("at the end")

    guest_hz = [float(c["tsc_hz_start"]) for c in cals if "tsc_hz_start" in c]
    guest_hz += [float(c["tsc_hz_end"]) for c in cals if "tsc_hz_end" in c]
    hz = host_tsc_hz()
    clock = "host TSC at %.1f MHz (measured on the host with rdtsc)" % (hz / 1e6) if hz else ""
    if not hz:
        hz = statistics.median(guest_hz)
        clock = "TSC at %.1f MHz (the kernel's estimate: no rdtsc on this host)" % (hz / 1e6)
    if guest_hz:
        clock += "; the kernel's estimates over 25 timer ticks: %.1f-%.1f MHz" % (
            min(guest_hz) / 1e6, max(guest_hz) / 1e6)

    missing = ["%s at %d CPU%s" % (name, smp, "" if smp == 1 else "s")
               for _, name in ROWS for smp in smps if (name, smp) not in runs]
    if missing:
        print("bench_smp.py: no figures for " + ", ".join(missing), file=sys.stderr)
        return 1
    head, body, speedup = build_table(runs, smps, hz)
    table = markdown(head, body)
    note = "\n".join([
        "%d calls per CPU per row, %d repeat%s in each of %d boot%s per CPU count and lock "
        "mode, interrupts off in the loop, multi-threaded TCG (no icount)."
        % (args.iters, args.reps, "" if args.reps == 1 else "s", args.boots,
           "" if args.boots == 1 else "s"),
        "Clock: " + clock + ".",
        start + "; " + end + ".",
    ])
    report = "\n".join(targets(speedup)) if 1 in smps and 2 in smps else ""
    bars = chart(speedup, smps) if smps[0] == 1 else ""
    for part in (table, note, report, bars):
        if part:
            print()
            print(part)
    out = os.path.join(args.build, "bench-smp.md")
    with open(out, "w") as f:
        f.write("# make bench-smp\n\n%s\n\n%s\n" % (table, note))
        if report:
            f.write("\n%s\n" % report)
        if bars:
            f.write("\n```\n%s\n```\n" % bars)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
