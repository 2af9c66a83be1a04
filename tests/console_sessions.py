#!/usr/bin/env python3
"""
console_sessions.py - replay scripted shell sessions over COM1 and compare.

    python3 tests/console_sessions.py --build build [SESSION.txt ...]

Each session is a transcript, as you would see it on the serial console:

    // a comment (the whole line); blank lines are ignored everywhere
    kprobes# run fib 5
    fib(5) = 15
    kprobes# cat /sys/kernel/tracing/trace
    # tracer: nop
    ...
          shell-0       [000] d..1.     1.234...: myfib: (fib+0x0/0x...) n=0x5

A line starting with the prompt "kprobes# " is typed (followed by Enter);
the lines after it, up to the next prompt, are the output it must print.
If the last of them is "<qemu exits>", the machine must go away instead
of printing a prompt (poweroff, exit).  QEMU runs without -no-reboot,
as under `make run`: after `reboot` the kernel boots again and the
next prompt is the new kernel's.
A line "<await> TEXT" types nothing: it waits for TEXT to come by
itself, as a background program's end does ("[4] spin: killed by
SIGKILL"), in what the console printed since the last typed line.  Then
it reads until the console is quiet and eats every prompt the line
editor drew again after such output, so the next typed line starts
clean.  (Output that comes by itself while a line is typed still splits
that step: keep such steps away from a program that prints on its own.)  A line "<cpus> 1 2" (anywhere) boots the session once with each
of those CPU counts instead of only at -smp 2.
In an expected line "..." matches any text; a line that is only "..."
matches any number of lines (including none).  In a typed line these
are keys: <ctrl-c> <ctrl-p> <ctrl-u> <ctrl-w> <up> <down> <left> <right>
<home> <end> <del> <bs> <tab> <enter>, and <sleep> waits half a second
before typing the rest.  A typed line ending in <ctrl-c>, <ctrl-p>,
<tab> or <enter> gets no second Enter (a final <tab> must list
candidates, so that the line is drawn again after them).

Every session boots a fresh kernel (qemu -serial stdio, our stdin/stdout
on the pipes).  tests/sessions/*.txt are the sessions, and the ```console
blocks of docs/tracing.md are one more: the tutorial must work exactly as
written.  Output is KTAP, one result per session, so tests/run_tests.py
runs this through tests/host/check_console_sessions.py.
"""

import argparse
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

PROMPT = "kprobes# "
QEMU = os.environ.get("QEMU", "qemu-system-i386")
# What a terminal (xterm, QEMU's serial console) sends for each key.
KEYS = {"<ctrl-c>": b"\x03", "<ctrl-p>": b"\x10", "<ctrl-u>": b"\x15",
        "<ctrl-w>": b"\x17", "<up>": b"\x1b[A", "<down>": b"\x1b[B",
        "<right>": b"\x1b[C", "<left>": b"\x1b[D", "<home>": b"\x1b[H",
        "<end>": b"\x1b[F", "<del>": b"\x1b[3~", "<bs>": b"\x7f",
        "<tab>": b"\t", "<enter>": b"\r"}
KEY_RE = re.compile("(" + "|".join(map(re.escape, KEYS)) + "|<sleep>)")
NO_ENTER_AFTER = ("<ctrl-c>", "<ctrl-p>", "<tab>", "<enter>")
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ROOT = Path(__file__).resolve().parent.parent


AWAIT = "<await> "
AWAIT_QUIET = 0.3	# seconds without output: what came by itself is over
CPUS = "<cpus> "


def parse_session(text):
    """[(typed line, [expected lines])] from a transcript; an <await>
    step has typed None and its one expected line."""
    steps = []
    for line in text.splitlines():
        if line.startswith("//") or not line.strip() or line.startswith(CPUS):
            continue
        if line.startswith(PROMPT) or line == PROMPT.rstrip():
            steps.append((line[len(PROMPT):], []))
        elif line.startswith(AWAIT):
            steps.append((None, [line[len(AWAIT):].rstrip()]))
        elif steps:
            steps[-1][1].append(line.rstrip())
    return steps


def session_cpus(text):
    """The CPU counts a session asks for with "<cpus> 1 2"; default 2."""
    for line in text.splitlines():
        if line.startswith(CPUS):
            return [int(n) for n in line[len(CPUS):].split()]
    return [2]


def doc_session(path):
    """The ```console blocks of a Markdown file, as one transcript."""
    blocks = re.findall(r"^```console\n(.*?)^```", path.read_text(), re.M | re.S)
    return "\n".join(blocks)


def line_matches(pattern, line):
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*".join(parts), line) is not None


def lines_match(expected, actual):
    """Match with "..." lines as wildcards (backtracking, lists are short)."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(lines_match(expected[1:], actual[i:])
                   for i in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and \
        lines_match(expected[1:], actual[1:])


class Console:
    """One QEMU boot with COM1 on our pipes."""

    def __init__(self, kernel, cmdline="", cpus=2):
        # Two CPUs on multi-threaded TCG, as make run boots.
        cmd = [QEMU, "-m", "128M", "-display", "none",
               "-smp", str(cpus), "-accel", "tcg,thread=multi",
               "-serial", "stdio", "-monitor", "none",
               "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
               "-kernel", str(kernel), "-append", cmdline]
        # The sample probe modules ride along as Multiboot modules, so a
        # session can insmod them exactly as a user would (make modules).
        samples = sorted(Path(kernel).parent.joinpath("samples").glob("*.ko"))
        if samples:
            cmd += ["-initrd", ",".join(str(k) for k in samples)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = b""
        self.since_typed = b""	# consumed since the last typed line
        self.log = []

    def read_until(self, marker, timeout):
        """Read until marker appears after what was already consumed."""
        deadline = time.time() + timeout
        while marker not in self.out:
            left = deadline - time.time()
            if left <= 0 or self.proc.poll() is not None:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    return None
                self.out += chunk
        head, _, self.out = self.out.partition(marker)
        self.since_typed += head + marker
        return head

    def read_some(self, timeout):
        """Add what QEMU prints within timeout; False once it is gone."""
        ready, _, _ = select.select([self.proc.stdout], [], [], max(timeout, 0))
        if ready:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return False
            self.out += chunk
        return True

    def settle(self, quiet=AWAIT_QUIET):
        """Nothing is typed: whatever comes is output of its own, and the
        line editor draws its prompt again after each piece (maybe more
        than once).  Read until nothing comes for `quiet` seconds, then
        eat everything up to the last prompt: the next typed line starts
        clean."""
        while self.proc.poll() is None:
            before = len(self.out)
            if not self.read_some(quiet) or len(self.out) == before:
                break
        head, marker, tail = self.out.rpartition(PROMPT.encode())
        if marker:
            self.since_typed += head + marker
            self.out = tail

    def await_text(self, pattern, timeout):
        """Wait for a line matching pattern ("..." wildcards) among what
        came since the last typed line, then settle().  False if it never
        came."""
        regex = re.compile(".*".join(re.escape(p) for p in pattern.split("...")))
        deadline = time.time() + timeout
        while True:
            # Only whole lines: a line still being printed may match early.
            done, nl, _ = self.out.rpartition(b"\n")
            if any(regex.fullmatch(l) for l in clean(self.since_typed + done + nl)):
                break
            left = deadline - time.time()
            if left <= 0 or self.proc.poll() is not None or not self.read_some(left):
                return False
        self.settle()
        return True

    def send(self, data):
        self.since_typed = b""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def screen_line(raw):
    """What a terminal shows for one line of output: CR goes back to
    column 0 and BS one column left, without erasing; characters
    overwrite what is under the cursor (the line editor relies on it)."""
    cells, col = [], 0
    for ch in raw:
        if ch == "\r":
            col = 0
        elif ch == "\b":
            col = max(col - 1, 0)
        else:
            cells[len(cells):col + 1] = [" "] * (col + 1 - len(cells))
            cells[col] = ch
            col += 1
    return "".join(cells).rstrip()


def clean(raw):
    text = ANSI_RE.sub("", raw.decode("utf-8", errors="replace"))
    lines = [screen_line(l) for l in text.replace("\r\n", "\n").split("\n")]
    return [l for l in lines if l.strip()]


def type_line(con, typed):
    """Send one typed line; return True if Enter should follow."""
    enter = True
    for part in KEY_RE.split(typed):
        if part == "<sleep>":
            time.sleep(0.5)
        elif part in KEYS:
            con.send(KEYS[part])
        elif part:
            con.send(part.encode())
    if typed.endswith(NO_ENTER_AFTER):
        enter = False
    if enter:
        con.send(b"\r")
    return enter


def run_session(kernel, name, text, timeout, verbose, record=False):
    """Returns a list of problems (empty: the session passed)."""
    problems = []
    for cpus in session_cpus(text):
        problems += [f"-smp {cpus}: {p}" for p in
                     run_session_once(kernel, name, text, timeout, verbose,
                                      record, cpus)]
    return problems


def run_session_once(kernel, name, text, timeout, verbose, record, cpus):
    steps = parse_session(text)
    if not steps:
        return [f"{name}: no typed lines"]
    con = Console(kernel, cpus=cpus)
    try:
        if con.read_until(PROMPT.encode(), timeout) is None:
            return ["no prompt after boot"] + clean(con.out)[-20:]
        for typed, expected in steps:
            if typed is None:
                if verbose or record:
                    print(AWAIT + expected[0])
                if not con.await_text(expected[0], timeout):
                    return [f"never came: {expected[0]}"] + clean(con.since_typed + con.out)[-30:]
                continue
            type_line(con, typed)
            if expected and expected[-1] == "<qemu exits>":
                expected = expected[:-1]
                try:
                    con.proc.wait(timeout)
                except subprocess.TimeoutExpired:
                    return [f"QEMU still running after: {typed}"]
                con.out += con.proc.stdout.read()
                got = con.out
            else:
                got = con.read_until(PROMPT.encode(), timeout)
            if got is None:
                return [f"no prompt after: {typed}"] + clean(con.out)[-30:]
            actual = clean(got)
            # The first line is our own line echoed back (as edited):
            # drop it.  Not when the line stays open: after SysRq the
            # editor blanked it to make room for the dump, and after a
            # final Tab the echo, the candidate list and the line drawn
            # again are all compared.
            still_open = (typed.endswith(("<ctrl-p>", "<tab>")) and
                          "<enter>" not in typed)
            if actual and not still_open:
                actual = actual[1:]
            if verbose:
                print(f"# {PROMPT}{typed}")
                for l in actual:
                    print(f"#   {l}")
            if record:
                print(PROMPT + typed)
                print("\n".join(actual))
                continue
            if not lines_match(expected, actual):
                return ([f"after: {PROMPT}{typed}", "expected:"] +
                        ["  " + e for e in expected] + ["got:"] +
                        ["  " + a for a in actual])
        return []
    finally:
        con.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=float, default=20,
                    help="seconds to wait for each prompt")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--record", action="store_true",
                    help="print the transcript the kernel gives (to write a "
                         "session), compare nothing")
    ap.add_argument("sessions", nargs="*",
                    help="session files (default: tests/sessions/*.txt "
                         "and docs/tracing.md)")
    args = ap.parse_args()

    kernel = Path(args.build) / "kernel.elf"
    files = [Path(s) for s in args.sessions]
    if not files:
        files = sorted((ROOT / "tests" / "sessions").glob("*.txt"))
        files.append(ROOT / "docs" / "tracing.md")
    print("KTAP version 1")
    print(f"1..{len(files)}")
    failed = 0
    for i, f in enumerate(files, 1):
        name = f.stem if f.suffix == ".txt" else f"doc_{f.stem}"
        if not kernel.exists():
            problems = [f"{kernel} missing (run make)"]
        elif not f.exists():
            problems = [f"{f} missing"]
        else:
            text = doc_session(f) if f.suffix == ".md" else f.read_text()
            problems = run_session(kernel, name, text, args.timeout,
                                   args.verbose, args.record)
        for p in problems:
            print(f"# {p}")
        print(f"{'not ok' if problems else 'ok'} {i} {name}")
        failed += bool(problems)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
