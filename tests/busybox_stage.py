#!/usr/bin/env python3
"""busybox_stage.py - Debian's static busybox runs its shell on this kernel.

    python3 tests/busybox_stage.py --build build [--busybox PATH]

Makes BUILD/busybox.cpio (scripts/busybox_initramfs.py: busybox and
its applet links), boots BUILD/kernel.elf with it and, at the kernel's
own prompt, runs each case of tests/busybox/cases.txt with
`exec /bin/sh -c 'LINE'` (or "LINE" when the line has single quotes:
the kernel's shell keeps either literally): the output and the exit
status must be the case's.  Then

  exec_chain_leaks_no_pages   200 busybox shells, each exec'ing the next
                              (sh -c CHAIN CHAIN 200): the free pages
                              `meminfo` counts are the same before and after;
  sh_c_loop_leaks_no_pages    one shell runs `sh -c true` 200 times in a
                              loop (200 forks, execs, exits and waits):
                              the free pages are the same before and after;
  missing_call_named_once     every busybox start calls rseq (386), which
                              this kernel lacks: -ENOSYS, the program goes
                              on, and the log names it exactly once;
  docs_uprobe_session         the walked session of docs/busybox.md
                              (section 8: a uprobe on echo_main, found
                              by scripts/busybox_applets.py), replayed:
                              its host command run here, its lines typed
                              at the kernel's prompt, the output matched;
  init_sh_interactive         a second boot with init=/bin/sh: busybox's
                              interactive shell reads lines typed on the
                              console (the terminal of kernel/tty.c),
                              Ctrl-C during its `read` is SIGINT to its
                              trap, and its exit gives the console to the
                              kernel's shell.

Prints flat KTAP (tests/run_tests.py's busybox stage); exits non-zero on
any failure, and when busybox is missing (scripts/bootstrap.sh fetches it).
"""
import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import console_sessions as cs  # noqa: E402  (the Console over COM1)
sys.path.insert(0, str(HERE.parent / "scripts"))
import busybox_applets  # noqa: E402  (the applets' mains in the stripped file)

CASES = HERE / "busybox" / "cases.txt"
DEFAULT_BUSYBOX = "/var/cache/kprobes-i386/busybox-static/root/bin/busybox"
CHAIN_LENGTH = 200
# $0 is the script itself, $1 how many shells are left to start.
CHAIN = 'if [ "$1" -gt 0 ]; then exec /bin/sh -c "$0" "$0" $(($1-1)); fi; echo chain done'
# 200 children, each forked, exec'ing a shell that runs true and exits.
LOOP = 'i=0; while [ $i -lt %d ]; do sh -c true || exit 1; i=$((i+1)); done; echo loop done' % CHAIN_LENGTH
ENOSYS_LINE = re.compile(r"^\S+: syscall \d+ \(.*\) not implemented$")
EXIT_LINE = re.compile(r"^\[\d+\] /bin/sh: exit status (\d+)$")
FREE_PAGES = re.compile(r"^Pages:\s+(\d+) free of")
RSEQ_LINE = re.compile(r"^\S+: syscall 386 \(rseq\) not implemented$")
TIMEOUT = 30
# A case that execs busybox a few times (the uprobe cases: five or six
# 2 MB execs) takes seconds alone, and far longer while other QEMUs load
# the host's CPUs: it gets this long before its prompt is missing.
CASE_TIMEOUT = 120
# {{echo}} in a case: the file offset of echo's main in this busybox.
PLACE = re.compile(r"\{\{([^{}\s]+)\}\}")
DOC = HERE.parent / "docs" / "busybox.md"
DOC_BLOCK = re.compile(r"<!-- replay:uprobe_session -->\s*```\w*\n(.*?)```", re.S)
HOST_PROMPT = "$ "
HEX = re.compile(r"0x[0-9a-f]+")
ADDRESS = re.compile(r"0x[0-9a-f]{5,}")	# an address or offset: this busybox's own
READ_SETTLE = 3	# seconds for the shell to reach its read()


def parse_cases(text):
    """[(name, script line, expected lines, exit status)] from cases.txt."""
    cases, name = [], None
    for line in text.splitlines():
        if line.startswith("$ "):
            cases.append([name or "case_%d" % (len(cases) + 1), line[2:], [], 0])
            name = None
        elif line.startswith("# "):
            name = line[2:].strip() if " " not in line[2:].strip() else name
        elif line.startswith("<exit ") and cases:
            cases[-1][3] = int(line[len("<exit "):-1])
        elif line.strip() and cases:
            cases[-1][2].append(line)
    return cases


def busybox_places(busybox):
    """{name: file offset}: every applet's main, and _start (the entry)."""
    offsets, entry = busybox_applets.applet_offsets(busybox)
    return dict(offsets, _start=entry)


def fill_places(cases, places):
    """Write each case's {{APPLET}} as the offset this busybox has it at."""
    for case in cases:
        case[1] = PLACE.sub(lambda m: "0x%x" % places[m.group(1)], case[1])


def make_cpio(build, busybox):
    out = build / "busybox.cpio"
    subprocess.run([sys.executable, str(HERE.parent / "scripts" / "busybox_initramfs.py"),
                    str(out), busybox], check=True, stdout=subprocess.DEVNULL)
    return out


def quoted(script):
    """The script as one word of the kernel's shell line."""
    if "'" not in script:
        return "'%s'" % script
    if '"' in script:
        raise ValueError("a case has both kinds of quotes: " + script)
    return '"%s"' % script


class BusyboxConsole(cs.Console):
    """The kernel's console with the busybox initramfs as its only module."""

    def __init__(self, kernel, cpio, cmdline="nosmoke"):
        cmd = [cs.QEMU, "-m", "128M", "-display", "none", "-smp", "2",
               "-accel", "tcg,thread=multi", "-serial", "stdio", "-monitor", "none",
               "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
               "-kernel", str(kernel), "-append", cmdline, "-initrd", str(cpio)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = b""
        self.since_typed = b""
        self.log = []
        self.transcript = []	# every line printed after a typed one

    def run(self, line, timeout=TIMEOUT):
        """Type a line; the lines it printed (its echo dropped), or None."""
        self.send(line.encode() + b"\r")
        got = self.read_until(cs.PROMPT.encode(), timeout)
        if got is None:
            return None
        self.transcript += cs.clean(got)[1:]
        return cs.clean(got)[1:]


def output_and_status(lines):
    """A case's own lines, its exit status, and the log's ENOSYS lines apart."""
    out, status = [], None
    for line in lines:
        m = EXIT_LINE.match(line)
        if m:
            status = int(m.group(1))
        elif not ENOSYS_LINE.match(line):
            out.append(line)
    return out, status


def free_pages(con):
    for line in con.run("meminfo") or []:
        m = FREE_PAGES.match(line)
        if m:
            return int(m.group(1))
    return None


def check_case(con, case):
    name, script, want, want_status = case
    lines = con.run("exec /bin/sh -c " + quoted(script), CASE_TIMEOUT)
    if lines is None:
        return ["no prompt after: " + script]
    out, status = output_and_status(lines)
    if out == want and status == want_status:
        return []
    return (["script: " + script, "expected (exit %d):" % want_status] +
            ["  " + w for w in want] + ["got (exit %s):" % status] + ["  " + o for o in out])


def pages_kept(con, run, label, want):
    """Run once to warm up, then again between two free-page counts."""
    run(con)
    before = free_pages(con)
    out, status = output_and_status(run(con) or [])
    after = free_pages(con)
    problems = []
    if out != [want] or status != 0:
        problems.append("%s: %s, exit %s" % (label, out, status))
    if before is None or after is None or before != after:
        problems.append("free pages before %s, after %s" % (before, after))
    print("# %s: free pages %s before, %s after" % (label, before, after))
    return problems


def check_chain(con):
    chain = "exec /bin/sh -c %s %s %d" % (quoted(CHAIN), quoted(CHAIN), CHAIN_LENGTH)
    return pages_kept(con, lambda c: c.run(chain, 300),
                      "chain of %d execs" % CHAIN_LENGTH, "chain done")


def check_loop(con):
    loop = "exec /bin/sh -c " + quoted(LOOP)
    return pages_kept(con, lambda c: c.run(loop, 300),
                      "%d sh -c true in a loop" % CHAIN_LENGTH, "loop done")


def check_init_sh(kernel, cpio):
    """init=/bin/sh: busybox's interactive shell reads the console's keys."""
    con = BusyboxConsole(kernel, cpio, "nosmoke init=/bin/sh")
    steps = [(None, b"init: /bin/sh is pid "), (None, b"built-in shell (ash)"),
             (b"echo $((6*7))\r", b"42"), (b"false; echo status=$?\r", b"status=1"),
             # read's terminal is canonical, ISIG on: Ctrl-C is SIGINT to sh's group
             # (the handler prints what the typed line, echoed, does not contain)
             (b"trap 'echo got$((1+1))INT' INT; read x\r", None), (b"\x03", b"got2INT"),
             (b"exit\r", b"the kernel's shell takes the console"), (None, cs.PROMPT.encode())]
    try:
        for typed, marker in steps:
            if typed:
                con.send(typed)
            if marker is None:
                time.sleep(READ_SETTLE)		# sh is in read() when the key comes
                continue
            if con.read_until(marker, TIMEOUT) is None:
                return ["never came: %r" % marker.decode()] + cs.clean(con.out)[-10:]
        return []
    finally:
        con.close()


def doc_steps(text):
    """[(host?, typed line, [expected lines])] of the page's replayed block."""
    m = DOC_BLOCK.search(text)
    if not m:
        return None
    steps = []
    for line in m.group(1).splitlines():
        for prompt, host in ((HOST_PROMPT, True), (cs.PROMPT, False)):
            if line.startswith(prompt):
                steps.append((host, line[len(prompt):], []))
                break
        else:
            if steps and line.strip():
                steps[-1][2].append(line.rstrip())
    return steps


def host_step(typed, busybox):
    """Run the page's host command on this busybox; what it printed."""
    argv = typed.split()
    argv = [sys.executable if a == "python3" else busybox if a == DEFAULT_BUSYBOX else a
            for a in argv]
    out = subprocess.run(argv, cwd=HERE.parent, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True).stdout
    return out.splitlines()


def learn_offsets(expected, actual, subst):
    """The page's offsets (Debian's busybox) -> this busybox's, pairwise."""
    for e, a in zip(expected, actual):
        for de, da in zip(HEX.findall(e), HEX.findall(a)):
            subst[de] = da


def replace_all(line, subst):
    return HEX.sub(lambda m: subst.get(m.group(0), m.group(0)), line)


def check_doc_session(con, busybox):
    """docs/busybox.md's uprobe session: the page's offsets become this
    busybox's, then its lines must come out as the page shows them ("..."
    any text; other addresses in the output are this busybox's own)."""
    steps = doc_steps(DOC.read_text())
    if not steps:
        return ["%s lost its <!-- replay:uprobe_session --> block" % DOC]
    subst = {}
    for host, typed, expected in steps:
        if host:
            actual = host_step(typed, busybox)
            learn_offsets(expected, actual, subst)
        else:
            typed = replace_all(typed, subst)
            got = con.run(typed, CASE_TIMEOUT)
            if got is None:
                return ["no prompt after: " + typed]
            actual = [l for l in got if not ENOSYS_LINE.match(l)]
            expected = [ADDRESS.sub("0x...", l) for l in expected]
        if not cs.lines_match(expected, actual):
            return (["after: " + typed, "expected:"] + ["  " + e for e in expected] +
                    ["got:"] + ["  " + a for a in actual])
    return []


def report(n, name, problems):
    for p in problems:
        print("# %s: %s" % (name, p))
    print("%s %d %s" % ("not ok" if problems else "ok", n, name))
    return not problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--busybox", default=os.environ.get("BUSYBOX", DEFAULT_BUSYBOX))
    args = ap.parse_args()
    build = Path(args.build)
    cases = parse_cases(CASES.read_text())
    print("KTAP version 1")
    print("1..%d" % (len(cases) + 5))
    if not os.access(args.busybox, os.X_OK):
        print("# busybox: %s missing: run scripts/bootstrap.sh as root "
              "(it fetches Debian's busybox-static:i386)" % args.busybox)
        print("not ok 1 busybox_present")
        return 1
    places = busybox_places(args.busybox)
    fill_places(cases, places)
    cpio = make_cpio(build, args.busybox)
    con = BusyboxConsole(build / "kernel.elf", cpio)
    ok = True
    try:
        if con.read_until(cs.PROMPT.encode(), TIMEOUT * 2) is None:
            print("# no prompt after boot")
            print("not ok 1 boot")
            return 1
        for i, case in enumerate(cases):
            ok &= report(i + 1, case[0], check_case(con, case))
        ok &= report(len(cases) + 1, "exec_chain_leaks_no_pages", check_chain(con))
        ok &= report(len(cases) + 2, "sh_c_loop_leaks_no_pages", check_loop(con))
        told = sum(1 for line in con.transcript if RSEQ_LINE.match(line))
        doc_problems = check_doc_session(con, args.busybox)
    finally:
        con.close()
    ok &= report(len(cases) + 3, "missing_call_named_once",
                 [] if told == 1 else ["'syscall 386 (rseq) not implemented' %d times" % told])
    ok &= report(len(cases) + 4, "init_sh_interactive", check_init_sh(build / "kernel.elf", cpio))
    ok &= report(len(cases) + 5, "docs_uprobe_session", doc_problems)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
