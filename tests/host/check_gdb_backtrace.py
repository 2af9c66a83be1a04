#!/usr/bin/env python3
"""
check_gdb_backtrace.py - gdb's `bt` in a probe handler goes through the
trap frame into the probed function.

    python3 tests/host/check_gdb_backtrace.py --build build

Boots BUILD/kernel.elf halted (QEMU's gdb stub on a free port of
127.0.0.1), attaches `gdb -batch`, breaks in kprobe_dispatcher (the
handler of every tracefs probe), and on the serial console puts an int3
probe on fib+3 and runs `run fib 2`, as docs/tracing.md does.  Then `bt` must
show, in this order: the handler, exc_int3 (#BP's C handler, which
entry.S's stub calls directly), the trap frame (gdb prints
"<signal handler called>" for a frame whose CFI says signal frame:
entry.S's), fib - the interrupted function - and run_fib, its caller; no
"??" frame anywhere.  Without entry.S's CFI gdb stops below the entry
stub with "?? ()".

The probe is past fib's prologue (push %ebp; mov %esp,%ebp) because a
handler's regs->ip is one past the int3, as on Linux: at fib+0 gdb would
read fib's CFI as if the push had run, and miss run_fib (docs/kprobes.md).

Prints KTAP (one case); exit status 1 on failure.  SKIP if gdb is missing.
"""
import argparse
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

QEMU = os.environ.get("QEMU", "qemu-system-i386")
PROMPT = b"kprobes# "
TIMEOUT = 60            # seconds for the whole check
COMMANDS = [
    # An int3 probe: an optimized one enters through its detour, code made
    # at run time that has no CFI, so gdb cannot unwind through it.
    "echo 0 > /sys/kernel/debug/kprobes/optimize",
    "echo 'p:gdbfib fib+3' >> /sys/kernel/tracing/kprobe_events",
    "echo 1 > /sys/kernel/tracing/events/kprobes/gdbfib/enable",
    "run fib 2",
]
FRAME_RE = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)")


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


def gdb_command(kernel, port):
    return ["gdb", "-nx", "-batch",
            "-ex", "set architecture i386",
            "-ex", "set pagination off",
            "-ex", f"file {kernel}",
            "-ex", f"target remote 127.0.0.1:{port}",
            "-ex", "break kprobe_dispatcher",
            "-ex", "continue",
            "-ex", "bt",
            "-ex", "kill"]


def run(kernel):
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
        gdb = subprocess.Popen(gdb_command(kernel, port), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.time() + TIMEOUT
        found, out = read_until(qemu, b"", PROMPT, deadline)
        if not found:
            return ["no shell prompt on the serial console"] + \
                out.decode("utf-8", "replace").splitlines()[-10:]
        for line in COMMANDS:
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


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args(argv)
    kernel = Path(args.build) / "kernel.elf"

    print("KTAP version 1")
    print("1..1")
    name = "gdb_bt_through_trap_frame"
    if shutil.which("gdb") is None:
        print(f"ok 1 {name} # SKIP gdb is not installed")
        return 0
    if not kernel.exists():
        print(f"# {kernel} missing: run make")
        print(f"not ok 1 {name}")
        return 1
    lines = run(kernel)
    bt = [l for l in lines if FRAME_RE.match(l)]
    problems = problems_in(frames(lines)) if bt else ["gdb printed no backtrace"]
    for p in problems:
        print(f"# {name}: {p}")
    for line in (lines if problems else bt):
        print(f"# {line}")
    print(f"{'not ok' if problems else 'ok'} 1 {name}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
