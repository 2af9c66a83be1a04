#!/usr/bin/env python3
"""
crash_demos.py - boot every crash= mode the way `make run` does, and an
NMI, and check that each report says what docs and `help` promise.

    python3 tests/crash_demos.py --build build      (make crash-demos)

The QEMU command of each boot is the one `make -n run CMDLINE=crash=X`
prints, so this also checks that `make run` leaves QEMU after an oops
(panic_exit) and that `make debug` does not (the CPU stays halted for
gdb, and the kernel says how to quit).  The list of modes is read from
console/crash.c: a new mode without an entry in EXPECT fails here.

README.md's crash table is checked against the same boots: every
code-quoted string in a row's "what you see" column must be in what that
mode printed (`...` in a quote stands for any text), and the table must
have one row per mode of console/crash.c.

Output is KTAP, one result per demonstration; tests/host/
check_crash_demos.py runs it under `make test`.
"""
import argparse
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from qmp import Machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROMPT = b"kprobes# "
EXIT_OOPS = 35          # isa-debug-exit with QEMU_EXIT_FAIL: panic_exit
EXIT_POWER_OFF = 0      # ACPI power off, or a reset under -no-reboot

OOPS_END = "---[ end trace: leaving QEMU (panic_exit) ]---"


def oops(title, *lines):
    return [f"Oops: {title}", *lines, "Call Trace:", OOPS_END]


# What each crash= mode must print (in this order) and how QEMU must end.
EXPECT = {
    "null": (EXIT_OOPS, oops("page fault", "CR2: 00000000",
                             "Mode: kernel (CS 0008), in kernel thread", "crash_null+")),
    "text": (EXIT_OOPS, oops("page fault", "protection violation, write access",
                             "crash_text+")),
    "ud2": (EXIT_OOPS, oops("invalid opcode", "crash_ud2+")),
    "div0": (EXIT_OOPS, oops("divide error", "crash_div0+")),
    "int3": (EXIT_OOPS, oops("breakpoint", "crash_int3+")),
    "gp": (EXIT_OOPS, oops("general protection fault [vector 13] error code 00000080",
                           "Selector: GDT index 16 (EXT=0 IDT=0 TI=0), past the GDT limit",
                           "crash_gp+")),
    "intn": (EXIT_OOPS, oops("general protection fault [vector 13] error code 0000040a",
                             "Selector: IDT vector 129 (EXT=0 IDT=1 TI=0)",
                             "crash_intn+")),
    "np": (EXIT_OOPS, oops("segment not present [vector 11] error code 00000028",
                           "Selector: GDT index 5 (EXT=0 IDT=0 TI=0)", "crash_np+")),
    "ss": (EXIT_OOPS, oops("stack-segment fault [vector 12] error code 00000028",
                           "Selector: GDT index 5 (EXT=0 IDT=0 TI=0)", "crash_ss+")),
    "ts": (EXIT_OOPS, oops("invalid TSS [vector 10] error code 00000010",
                           "Selector: GDT index 2 (EXT=0 IDT=0 TI=0)", "crash_ts+")),
    # The thread dies, the kernel lives: the shell comes up, exit powers off.
    "stack": (EXIT_POWER_OFF, [
        "now running the #DF task, TR=0020, back link 0018",
        "cpu_tss[0], as the task switch saved it:", "[recurse_forever+",
        "(the page fault that could not be delivered)",
        "stack overflow in thread 'stack-hog'",
        "crash: thread 'stack-hog' ended with -14 (EFAULT); the kernel carries on",
        "kprobes# ", "Power off."]),
    # CPU 1 dies; CPU 0, stopped by an NMI, is shown spinning.
    "smp": (EXIT_OOPS, [
        "Oops: page fault", "CPU: 1 (APIC id 1)", "crash_null+",
        "Call Trace:", "crash_smp_victim+", "generic_smp_call_function_interrupt+",
        "Stopping the other CPUs (NMI)",
        "NMI backtrace for CPU 0 (APIC id 0), stopping it", "crash_smp_spin+",
        OOPS_END]),
    # The explanation comes first: nothing prints after a triple fault.
    "triple": (EXIT_POWER_OFF, [
        "#DF has no gate -> triple fault", "QEMU with -no-reboot exits"]),
}
SURVIVES = {"stack"}                    # type `exit` at its prompt
QEMU_LOG_MUST = {"triple": "Triple fault"}


def crash_modes():
    """The modes, in the order of console/crash.c's table."""
    src = (ROOT / "console" / "crash.c").read_text()
    table = src[src.index("crashes[] = {"):]
    return re.findall(r'\{ "(\w+)",', table[:table.index("};")])


README = ROOT / "README.md"
CODE_SPAN_RE = re.compile(r"`([^`]+)`")


def readme_crash_table(readme=README):
    """{mode: [code-quoted strings of its "what you see" column]} from the
    table under README.md's "### Crash modes" heading."""
    text = readme.read_text()
    start = text.find("### Crash modes")
    if start < 0:
        return {}
    rows = {}
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break                       # the next heading ends the section
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3:
            continue
        mode = re.fullmatch(r"`(\w+)`", cells[0])
        if mode:
            rows[mode.group(1)] = CODE_SPAN_RE.findall(cells[-1])
    return rows


def readme_missing(text, quotes):
    """The README quotes that the boot's output does not contain; `...`
    in a quote matches any text on the same line."""
    missing = []
    for q in quotes:
        pattern = ".*?".join(re.escape(part) for part in q.split("..."))
        if not re.search(pattern, text):
            missing.append(q)
    return missing


def make_qemu_command(build, target, cmdline):
    """The QEMU command `make TARGET CMDLINE=...` would run."""
    out = subprocess.run(["make", "-s", "-n", "-C", str(ROOT), target,
                          f"B={build}", f"CMDLINE={cmdline}"],
                         capture_output=True, text=True, check=True).stdout
    joined = out.replace("\\\n", " ")
    for line in joined.splitlines():
        words = shlex.split(line)
        if words and "qemu-system" in words[0]:
            # What follows "||" explains QEMU's exit status to make.
            return words[:words.index("||")] if "||" in words else words
    raise RuntimeError(f"make -n {target} printed no QEMU command:\n{out}")


def missing_in_order(text, wanted):
    """The wanted strings that do not appear in order in text."""
    pos, missing = 0, []
    for w in wanted:
        i = text.find(w, pos)
        if i < 0:
            missing.append(w)
        else:
            pos = i + len(w)
    return missing


def run_mode(build, mode, timeout, readme_quotes):
    """Boot crash=MODE; readme_quotes is its README row's "what you see"
    (None: the table has no row for it)."""
    status_want, wanted = EXPECT[mode]
    cmd = make_qemu_command(build, "run", f"crash={mode}")
    with tempfile.NamedTemporaryFile(suffix=".log") as qlog:
        cmd += ["-d", "cpu_reset", "-D", qlog.name]
        with Machine(cmd, qmp=False) as m:
            if mode in SURVIVES and m.expect(PROMPT, timeout):
                m.type(b"exit\r")
            status = m.wait(timeout)
            text = m.text()
        qemu_log = Path(qlog.name).read_text(errors="replace")
    problems = [f"missing (in order): {w!r}" for w in missing_in_order(text, wanted)]
    if status != status_want:
        problems.append(f"QEMU status {status}, want {status_want}")
    if mode in QEMU_LOG_MUST and QEMU_LOG_MUST[mode] not in qemu_log:
        problems.append(f"QEMU's log lacks {QEMU_LOG_MUST[mode]!r}")
    if readme_quotes is None:
        problems.append(f"README.md's crash table has no row for {mode}")
    else:
        problems += [f"README.md's crash table says {q!r}, which crash={mode} "
                     f"does not print" for q in readme_missing(text, readme_quotes)]
    return problems, text


def run_nmi(build, timeout):
    """An NMI from the monitor: reported, and the shell still answers."""
    with Machine(make_qemu_command(build, "run", "")) as m:
        if not m.expect(PROMPT, timeout):
            return ["no prompt"], m.text()
        m.out = b""
        m.qmp("inject-nmi")
        m.expect(b"continuing", timeout)
        m.type(b"echo still alive\r")
        m.expect(b"still alive\r\n", timeout)
        text = m.text()
    wanted = ["NMI received (port 0x61 reason", "not an error in that code, continuing",
              "still alive"]
    problems = [f"missing (in order): {w!r}" for w in missing_in_order(text, wanted)]
    return problems, text


def run_debug(build, timeout):
    """make debug: no panic_exit, the CPU stays halted, the kernel says
    how to quit.  (Without -s -S: no gdb, and no port to collide on.)"""
    cmd = [w for w in make_qemu_command(build, "debug", "crash=null")
           if w not in ("-s", "-S")]
    with Machine(cmd, qmp=False) as m:
        m.expect(b"Press Ctrl-A X to quit QEMU", timeout)
        status = m.wait(2)
        text = m.text()
    problems = [f"missing (in order): {w!r}" for w in missing_in_order(
        text, ["Oops: page fault", "---[ end trace: system halted ]---",
               "Press Ctrl-A X to quit QEMU"])]
    if status is not None:
        problems.append(f"QEMU exited ({status}): make debug must stay halted")
    return problems, text


def run_make_run(build, timeout):
    """make run itself, crash=null: after the oops make explains QEMU's
    exit status 35 and succeeds, instead of "make: *** ... Error 35"
    (which reads as a broken build)."""
    try:
        run = subprocess.run(["make", "-s", "-C", str(ROOT), "run", f"B={build}",
                              "CMDLINE=crash=null"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [f"make run did not end in {timeout} s"], ""
    text = run.stdout + run.stderr
    problems = [f"missing (in order): {w!r}" for w in missing_in_order(
        text, ["Oops: page fault", OOPS_END,
               "make run: QEMU exit status 35: the kernel oopsed as crash=null asked",
               "The demo worked"])]
    if run.returncode != 0:
        problems.append(f"make run ended with status {run.returncode}, want 0: "
                        f"the oops was asked for")
    if "Error 35" in text:
        problems.append("make printed \"Error 35\"")
    return problems, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    build = Path(args.build).resolve()

    modes = crash_modes()
    table = readme_crash_table()
    demos = [(m, lambda m=m: run_mode(build, m, args.timeout, table.get(m)))
             if m in EXPECT else
             (m, lambda m=m: ([f"crash={m} is in console/crash.c but not in "
                               f"tests/crash_demos.py's EXPECT"], ""))
             for m in modes]
    demos += [(f"stale_{m}", lambda m=m: ([f"EXPECT has {m}, console/crash.c "
                                           f"does not"], ""))
              for m in EXPECT if m not in modes]
    demos += [(f"readme_{m}", lambda m=m: ([f"README.md's crash table has {m}, "
                                            f"console/crash.c does not"], ""))
              for m in table if m not in modes]
    demos += [("nmi", lambda: run_nmi(build, args.timeout)),
              ("debug_stays_halted", lambda: run_debug(build, args.timeout)),
              ("make_run_explains_exit", lambda: run_make_run(build, args.timeout))]

    print("KTAP version 1")
    print(f"1..{len(demos)}")
    failed = 0
    for i, (name, fn) in enumerate(demos, 1):
        if not (build / "kernel.elf").exists():
            problems, text = [f"{build}/kernel.elf missing (run make)"], ""
        else:
            problems, text = fn()
        for p in problems:
            print(f"# {name}: {p}")
        if problems or args.verbose:
            for line in text.splitlines()[-15:]:
                print(f"#   {line.rstrip()}")
        print(f"{'not ok' if problems else 'ok'} {i} crash_{name}")
        sys.stdout.flush()
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
