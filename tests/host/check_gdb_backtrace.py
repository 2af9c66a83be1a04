#!/usr/bin/env python3
"""
check_gdb_backtrace.py - gdb's `bt` in a probe handler goes through the
trap frame into the probed function.

    python3 tests/host/check_gdb_backtrace.py --build build

Boots BUILD/kernel.elf halted (QEMU's gdb stub on a free port of
127.0.0.1), attaches `gdb -batch`, breaks in kprobe_dispatcher (the
handler of every tracefs probe), and on the serial console puts an int3
probe on fib+8 and runs `run fib 2`.  Then `bt` must
show, in this order: the handler, exc_int3 (#BP's C handler, which
entry.S's stub calls directly), the trap frame (gdb prints
"<signal handler called>" for a frame whose CFI says signal frame:
entry.S's), fib - the interrupted function - and run_fib, its caller; no
"??" frame anywhere.  Without entry.S's CFI gdb stops below the entry
stub with "?? ()".

The probe is past fib's call site and prologue (the 5-byte nop of
docs/ftrace.md; push %ebp; mov %esp,%ebp) because a handler's regs->ip is
one past the int3, as on Linux: inside the prologue gdb would read fib's
CFI as if the push had run, and miss run_fib (docs/kprobes.md).

A second boot follows the README's first probe, `p:myfib fib n=$arg1`,
on fib's first byte, its call site, where the probe rides on ftrace and
plain `bt` cannot walk (ftrace_regs_caller has no CFI):
scripts/gdbinit's `ibt regs` must show fib, then run_fib, with no "??"
frame, and leave the registers as they were (a `bt` after it starts in
the handler again).  gdbinit's definitions are sourced without its
session lines (file, target remote, break, continue).

Prints KTAP (two cases); exit status 1 on failure.  SKIP if gdb is missing.
"""
import argparse
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QEMU = os.environ.get("QEMU", "qemu-system-i386")
PROMPT = b"kprobes# "
TIMEOUT = 60            # seconds for the whole check
COMMANDS = [
    # An int3 probe: an optimized one enters through its detour, code made
    # at run time that has no CFI, so gdb cannot unwind through it.
    "echo 0 > /sys/kernel/debug/kprobes/optimize",
    "echo 'p:gdbfib fib+8' >> /sys/kernel/tracing/kprobe_events",
    "echo 1 > /sys/kernel/tracing/events/kprobes/gdbfib/enable",
    "run fib 2",
]
# The README's first probe: on fib's first byte.
FIRST_BYTE_COMMANDS = [
    "echo 0 > /sys/kernel/debug/kprobes/optimize",
    "echo 'p:myfib fib n=$arg1' >> /sys/kernel/tracing/kprobe_events",
    "echo 1 > /sys/kernel/tracing/events/kprobes/myfib/enable",
    "run fib 2",
]
FRAME_RE = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)")
GDBINIT = Path(__file__).resolve().parent.parent.parent / "scripts" / "gdbinit"
SESSION_LINE_RE = re.compile(r"^(file|target remote|break|continue)\b")
IBT_MARK = "==ibt=="
AFTER_MARK = "==after=="


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_until(proc, out, marker, deadline):
    """Read QEMU's serial output until marker; (found, output so far)."""
    while marker not in out:
        left = deadline - time.time()
        if left <= 0 or proc.poll() is not None:
            return False, out
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                return False, out
            out += chunk
    return True, out


def gdb_command(kernel, port, at_stop=("bt",)):
    cmd = ["gdb", "-nx", "-batch",
           "-ex", "set architecture i386",
           "-ex", "set pagination off",
           "-ex", f"file {kernel}",
           "-ex", f"target remote 127.0.0.1:{port}",
           "-ex", "break kprobe_dispatcher",
           "-ex", "continue"]
    for c in at_stop:
        cmd += ["-ex", c]
    return cmd + ["-ex", "kill"]


def gdbinit_definitions(path):
    """scripts/gdbinit without the lines that start a session, for
    `source`: its commands (regs, ibt, eflags, sym, idt) only."""
    lines = GDBINIT.read_text().splitlines()
    path.write_text("\n".join(l for l in lines if not SESSION_LINE_RE.match(l)) + "\n")
    return path


def run(kernel, commands=COMMANDS, at_stop=("bt",)):
    """Boot, attach, drive the console; return gdb's output lines."""
    port = free_port()
    qemu = subprocess.Popen(
        [QEMU, "-m", "128M", "-no-reboot", "-display", "none", "-monitor", "none",
         "-serial", "stdio", "-gdb", f"tcp:127.0.0.1:{port}", "-S",
         "-kernel", str(kernel)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    gdb = None
    try:
        time.sleep(0.5)                 # the stub listens before the CPU runs
        gdb = subprocess.Popen(gdb_command(kernel, port, at_stop), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.time() + TIMEOUT
        found, out = read_until(qemu, b"", PROMPT, deadline)
        if not found:
            return ["no shell prompt on the serial console"] + \
                out.decode("utf-8", "replace").splitlines()[-10:]
        for line in commands:
            qemu.stdin.write(line.encode() + b"\r")
            qemu.stdin.flush()
            found, out = read_until(qemu, out, PROMPT, deadline)
            out = out.rpartition(PROMPT)[2]
            if line.startswith("run"):
                break           # gdb holds the CPU at the breakpoint now
        text, _ = gdb.communicate(timeout=max(1, deadline - time.time()))
        return text.decode("utf-8", "replace").splitlines()
    except subprocess.TimeoutExpired:
        return ["gdb did not finish in %d s" % TIMEOUT]
    finally:
        for p in (gdb, qemu):
            if p and p.poll() is None:
                p.kill()
                p.wait()


def frames(lines):
    """The function of each `bt` line, in order."""
    return [m.group(2) for m in map(FRAME_RE.match, lines) if m]


def problems_in(fns):
    want = ["kprobe_dispatcher", "exc_int3", "<signal", "fib", "run_fib"]
    where = []
    for name in want:
        start = where[-1] + 1 if where else 0
        if name not in fns[start:]:
            return [f"no frame {name!r} after {want[len(where) - 1]!r}"
                    if where else f"no frame {name!r}"]
        where.append(fns.index(name, start))
    trap = where[2]
    problems = []
    if where[3] != trap + 1 or where[4] != trap + 2:
        problems.append("the trap frame is not followed by fib, then run_fib")
    if "??" in fns:
        problems.append("an unknown frame (??) in the backtrace")
    return problems


def ibt_problems(lines):
    """`ibt regs` from a probe on fib's first byte: fib, then run_fib, no
    "??"; and the `bt` after it starts in the handler again."""
    text = "\n".join(lines)
    if IBT_MARK not in text or AFTER_MARK not in text:
        return ["gdb did not reach the ibt command"]
    ibt, _, after = text.partition(IBT_MARK)[2].partition(AFTER_MARK)
    fns = frames(ibt.splitlines())
    problems = []
    if fns[:2] != ["fib", "run_fib"]:
        problems.append(f"ibt regs shows {fns[:2]}, want ['fib', 'run_fib']")
    if "??" in fns:
        problems.append("an unknown frame (??) in ibt's backtrace")
    if "Undefined command" in ibt:
        problems.append("scripts/gdbinit defines no ibt command")
    if frames(after.splitlines())[:1] != ["kprobe_dispatcher"]:
        problems.append("the registers were not put back: bt after ibt does "
                        "not start in kprobe_dispatcher")
    return problems


def report(n, name, problems, lines, shown):
    for p in problems:
        print(f"# {name}: {p}")
    for line in (lines if problems else shown):
        print(f"# {line}")
    print(f"{'not ok' if problems else 'ok'} {n} {name}")
    return bool(problems)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args(argv)
    kernel = Path(args.build) / "kernel.elf"
    names = ["gdb_bt_through_trap_frame", "gdb_ibt_from_first_byte_probe"]

    print("KTAP version 1")
    print(f"1..{len(names)}")
    if shutil.which("gdb") is None:
        for n, name in enumerate(names, 1):
            print(f"ok {n} {name} # SKIP gdb is not installed")
        return 0
    if not kernel.exists():
        print(f"# {kernel} missing: run make")
        for n, name in enumerate(names, 1):
            print(f"not ok {n} {name}")
        return 1

    lines = run(kernel)
    bt = [l for l in lines if FRAME_RE.match(l)]
    problems = problems_in(frames(lines)) if bt else ["gdb printed no backtrace"]
    failed = report(1, names[0], problems, lines, bt)

    with tempfile.TemporaryDirectory() as tmp:
        defs = gdbinit_definitions(Path(tmp) / "gdbinit-defs")
        lines = run(kernel, FIRST_BYTE_COMMANDS,
                    (f"source {defs}", f"echo {IBT_MARK}\\n", "ibt regs",
                     f"echo {AFTER_MARK}\\n", "bt 1"))
    shown = [l for l in lines if FRAME_RE.match(l) or "==" in l]
    failed |= report(2, names[1], ibt_problems(lines), lines, shown)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
