#!/usr/bin/env python3
"""bench_profile.py - one probe hit of a `make bench` row, instruction by instruction.

    python3 tests/bench_profile.py --build build --arm arm_kprobe_fentry \\
            --target bench_fentry_0
    python3 tests/bench_profile.py --arm arm_kprobe_pre --nth 3 --trace

It boots the test image as `make bench` does (`bench=ITERS`, `-icount
shift=0`, one CPU) under QEMU's gdb stub, stops when the row's arm
function has run (--nth: the row that calls it the nth time, as
"int3-stepped" is the third row to call arm_kprobe_pre), lets the loop
call the target --skip times (QEMU has translated the code, any boost
or optimization is in), then `stepi`s one call of the target until it
returns to its caller.  Each instruction is counted in the function it
belongs to (the ELF's symbols; a slot, a detour buffer or an ftrace
trampoline copy that no symbol covers is "(no symbol)").  Under icount
one stepped instruction is one tick of the TSC, so the total is the
row's insns/call and the total minus the unprobed call is its extra:
docs/performance.md's profiles are this tool's tables.
"""
import argparse
import bisect
import os
import socket
import subprocess
import sys
import tempfile

QEMU = os.environ.get("QEMU", "qemu-system-i386")
QEMU_ARGS = ["-icount", "shift=0", "-m", "128M", "-no-reboot", "-display", "none",
             "-serial", "null", "-smp", "1",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-S"]
MAX_STEPS = 5000       # one hit is a few hundred; more means the return was missed

GDB_SCRIPT = r'''
import gdb
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :%(port)d")
arm = gdb.Breakpoint("%(arm)s")
arm.ignore_count = %(nth)d - 1
gdb.execute("continue")
arm.delete()
gdb.execute("finish", to_string=True)
tgt = gdb.Breakpoint("*%(target)#x")
tgt.ignore_count = %(skip)d
gdb.execute("continue")
tgt.delete()
ret = int(gdb.parse_and_eval("*(unsigned int *)$esp")) & 0xffffffff
sp = int(gdb.parse_and_eval("$esp")) & 0xffffffff
with open("%(out)s", "w") as out:
    for _ in range(%(max)d):
        pc = int(gdb.parse_and_eval("$pc")) & 0xffffffff
        esp = int(gdb.parse_and_eval("$esp")) & 0xffffffff
        if pc == ret and esp == sp + 4:
            break
        out.write("%%x\n" %% pc)
        gdb.execute("stepi", to_string=True)
    else:
        out.write("unfinished\n")
gdb.execute("kill")
'''


def symbols(elf):
    """Sorted (address, size, name) of the ELF's functions and labels."""
    out = subprocess.run(["nm", "-S", "-n", elf], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
        elif len(f) == 3 and f[1] in "tT":
            syms.append((int(f[0], 16), 0, f[2]))
    syms.sort()
    return syms


def owner(syms, starts, pc):
    """The function holding pc: the last symbol at or below it whose size
    covers it (a label without a size covers up to the next symbol)."""
    i = bisect.bisect_right(starts, pc) - 1
    while i >= 0:
        addr, size, name = syms[i]
        if size == 0 or pc < addr + size:
            nxt = syms[i + 1][0] if i + 1 < len(syms) else None
            if size or (nxt is not None and pc < nxt):
                return name
            return "(no symbol)"
        if pc >= addr + size and size:
            return "(no symbol)"
        i -= 1
    return "(no symbol)"


def profile(pcs, syms):
    """[(function, instructions)] in the order each function is first met."""
    starts = [s[0] for s in syms]
    counts, order = {}, []
    for pc in pcs:
        name = owner(syms, starts, pc)
        if name not in counts:
            order.append(name)
            counts[name] = 0
        counts[name] += 1
    return [(n, counts[n]) for n in order]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(args):
    elf = os.path.join(args.build, "kernel-test.elf")
    syms = symbols(elf)
    addr = {name: a for a, _, name in syms}
    if args.target not in addr:
        sys.exit("bench_profile: no symbol %s in %s" % (args.target, elf))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "pcs")
        script = os.path.join(tmp, "profile.py")
        with open(script, "w") as f:
            f.write(GDB_SCRIPT % {"port": port, "arm": args.arm, "nth": args.nth,
                                  "target": addr[args.target], "skip": args.skip,
                                  "out": out, "max": MAX_STEPS})
        qemu = subprocess.Popen([QEMU] + QEMU_ARGS + ["-gdb", "tcp::%d" % port,
                                "-kernel", elf, "-append", "bench=%d" % args.iters],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            subprocess.run(["gdb", "-nx", "-batch", "-ex", "file " + elf, "-x", script],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=args.timeout)
        finally:
            qemu.kill()
            qemu.wait()
        with open(out) as f:
            lines = f.read().split()
    if lines and lines[-1] == "unfinished":
        sys.exit("bench_profile: the call did not return within %d steps" % MAX_STEPS)
    pcs = [int(x, 16) for x in lines]
    starts = [s[0] for s in syms]
    if args.trace:
        for pc in pcs:
            print("%08x %s" % (pc, owner(syms, starts, pc)))
    print("| where | insns |")
    print("|---|---:|")
    for name, n in profile(pcs, syms):
        print("| `%s` | %d |" % (name, n))
    print("| total (the call, the target's own instructions included) | %d |" % len(pcs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory (kernel-test.elf)")
    ap.add_argument("--arm", required=True, help="the row's arm function (bench.c)")
    ap.add_argument("--nth", type=int, default=1, help="the nth call of --arm is the row")
    ap.add_argument("--target", default="bench_target", help="the function the row calls")
    ap.add_argument("--skip", type=int, default=150, help="calls before the one stepped")
    ap.add_argument("--iters", type=int, default=2000, help="bench=ITERS")
    ap.add_argument("--trace", action="store_true", help="print every instruction too")
    ap.add_argument("--timeout", type=int, default=600, help="seconds for gdb")
    run(ap.parse_args())


if __name__ == "__main__":
    main()
