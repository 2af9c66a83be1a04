#!/usr/bin/env python3
"""conform_linux.py - the same tracefs lines on Debian's Linux 6.1 and here.

    python3 tests/conform_linux.py --build build        (what `make conform-linux` runs)
    python3 tests/conform_linux.py --build build --linux-log L [--ours-log O]
                                                       (compare saved transcripts)

The lines are tests/conform/tracefs.txt: file listings, grammar forms,
errors with their error_log carets, filters, triggers, hist.  Each is run
once in each kernel, in /sys/kernel/tracing, one CPU each:

  Linux   Debian's i386 6.1 (linux-image-6.1.0-N-686 and busybox-static,
          fetched and unpacked by tests/bench_linux.py's fetch(), kept in
          BUILD/linux-ref/), an initramfs whose /init reads the lines and
          runs each with busybox sh, printing "@@@ LINE" before it;
  here    build/kernel.elf, each line typed at the shell's prompt as a user
          would (tests/console_sessions.py's Console).

Both transcripts go through normalize() (timestamps, pids, CPUs,
addresses, symbol offsets: what differs between any two boots) and are
printed side by side where they differ, with a count; BUILD/conform-linux.md
keeps the table and BUILD/linux-ref/conform.log Linux's transcript.
The differences are listed, each fixed or explained, in docs/tracing.md
("Where this kernel differs from Linux 6.1").  Exit status: 0 when both
kernels ran every line (differences are the report, not a failure).
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_linux        # noqa: E402  (fetch(), cpio_entry(), QEMU)
import console_sessions   # noqa: E402  (Console, type_line(), clean(), PROMPT)

CASES = HERE / "conform" / "tracefs.txt"
MARK = "@@@ "
END = MARK + "END"
BB = "/bin/busybox"


class ConformError(Exception):
    pass


def case_lines(text):
    """The lines to run: not comments, not blank."""
    return [l.rstrip("\n") for l in text.splitlines()
            if l.strip() and not l.lstrip().startswith("//")]


# ---- Linux ----------------------------------------------------------------------

def init_script():
    """/init: mount tracefs, run each line of /cases.txt after its marker.
    ls is -1p, as this kernel's ls prints: one name a line, dirs with '/'."""
    return "\n".join([
        "#!%s sh" % BB,
        "%s --install -s /bin" % BB,
        "mount -t proc proc /proc",
        "mount -t sysfs sysfs /sys",
        "mount -t tracefs nodev /sys/kernel/tracing",
        "ls() { %s ls -1p \"$@\"; }" % BB,
        "while IFS= read -r line; do",
        "  echo \"%s$line\"" % MARK,
        "  eval \"$line\" 2>&1",
        "done < /cases.txt",
        "echo \"%s\"" % END,
        "poweroff -f",
    ]) + "\n"


def make_initramfs(root, lines, path):
    cpio = bench_linux.cpio_entry
    with open(os.path.join(root, "bin", "busybox"), "rb") as f:
        busybox = f.read()
    out = b"".join([
        cpio("bin", 0o040755), cpio("proc", 0o040755), cpio("sys", 0o040755),
        cpio("dev", 0o040755), cpio("dev/console", 0o020600, rdev=(5, 1)),
        cpio("bin/busybox", 0o100755, busybox),
        cpio("init", 0o100755, init_script().encode()),
        cpio("cases.txt", 0o100644, ("\n".join(lines) + "\n").encode()),
        cpio("TRAILER!!!", 0),
    ])
    with open(path, "wb") as f:
        f.write(out)


def boot_linux(root, initrd, timeout):
    vmlinuz = sorted(Path(root, "boot").glob("vmlinuz-6.1.0-*-686"))[0]
    cmd = [bench_linux.QEMU, "-m", "256M", "-smp", "1", "-nographic", "-no-reboot",
           "-kernel", str(vmlinuz), "-initrd", initrd,
           "-append", "console=ttyS0 quiet loglevel=0 panic=-1"]
    print("conform-linux: %s" % " ".join(cmd), flush=True)
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ConformError("Linux did not power off within %d s" % timeout)
    return proc.stdout.decode("utf-8", "replace")


def parse_linux(text):
    """{line: [output lines]} in the order run, from the markers."""
    out, cur = [], None
    for raw in text.replace("\r\n", "\n").replace("\r", "").split("\n"):
        at = raw.find(MARK)		# the BIOS's screen codes may come first
        if at >= 0:
            raw = raw[at:]
        if raw.startswith(END):
            return out
        if raw.startswith(MARK):
            cur = (raw[len(MARK):], [])
            out.append(cur)
        elif cur is not None and raw.strip():
            cur[1].append(raw.rstrip())
    raise ConformError("Linux's transcript ends before %r" % END)


# ---- this kernel -----------------------------------------------------------------

def run_ours(kernel, lines, timeout):
    """[(line, [output lines])], each line typed at the prompt."""
    con = console_sessions.Console(kernel, cpus=1)
    prompt = console_sessions.PROMPT.encode()
    out = []
    try:
        if con.read_until(prompt, timeout) is None:
            raise ConformError("this kernel gave no prompt")
        for line in lines:
            console_sessions.type_line(con, line)
            got = con.read_until(prompt, timeout)
            if got is None:
                raise ConformError("no prompt after: %s" % line)
            out.append((line, console_sessions.clean(got)[1:]))
    finally:
        con.close()
    return out


def parse_ours(text):
    """A saved transcript of ours: "kprobes# LINE" then its output."""
    out = []
    for raw in text.splitlines():
        if raw.startswith(console_sessions.PROMPT):
            out.append((raw[len(console_sessions.PROMPT):], []))
        elif out and raw.strip():
            out[-1][1].append(raw.rstrip())
    return out


def ours_transcript(pairs):
    return "".join(console_sessions.PROMPT + l + "\n" + "".join(o + "\n" for o in outs)
                   for l, outs in pairs)


# ---- comparing -------------------------------------------------------------------

NORMALIZE = [
    (re.compile(r" *\b\d+\.\d{6}\b"), " T"),                   # a timestamp, any width
    (re.compile(r"\[\s*T\]"), "[T]"),                           # error_log's stamp
    (re.compile(r"^\s*\S+-\d+\s+\[\d{3}\]"), "COMM-PID [CPU]"),  # a record's task
    (re.compile(r"\+0x[0-9a-f]+/0x[0-9a-f]+"), "+OFF/SIZE"),    # %pS offsets
    (re.compile(r"\b0x[0-9a-f]{8}\b"), "ADDR"),                 # an address
    (re.compile(r"^ID: \d+$"), "ID: N"),                        # event ids
    (re.compile(r"#P:\d+"), "#P:N"),
]
# busybox's mkdir and rmdir word their errors their own way; coreutils' is
# ours.  The errno's text is what the kernel said.
TOOL_ERROR = re.compile(r"^(mkdir|rmdir): (?:can't create directory|cannot create directory|"
                        r"'[^']*'|failed to remove) ?('[^']*')?:? (.*)$")
# The shells word a failed write differently: busybox "sh: write error: X",
# ours "sh: echo: write error: X" and then its explanation (Linux users read
# error_log for that, and the cases cat it).
OUR_WRITE_ERROR = re.compile(r"^sh: echo: write error: (.*)$")


def normalize(outs, ours):
    lines = []
    for l in outs:
        m = OUR_WRITE_ERROR.match(l) if ours else None
        if m:
            lines.append("sh: write error: " + m.group(1))
            break
        m = TOOL_ERROR.match(l)
        if m:
            l = "%s: %s" % (m.group(1), m.group(3))
        for regex, repl in NORMALIZE:
            l = regex.sub(repl, l)
        lines.append(l.rstrip())
    return lines


def compare(linux, ours):
    """[(line, linux lines, our lines, same?)] for each line both ran."""
    rows = []
    for (line, lo), (oline, oo) in zip(linux, ours):
        if line != oline:
            raise ConformError("the transcripts disagree on the lines: %r vs %r"
                               % (line, oline))
        a, b = normalize(lo, False), normalize(oo, True)
        rows.append((line, a, b, a == b))
    if len(linux) != len(ours):
        raise ConformError("Linux ran %d lines, this kernel %d" % (len(linux), len(ours)))
    return rows


def aligned(a, b):
    """[(left, right)]: the lines both have side by side, a line only one
    has against a blank (difflib's alignment, so one file missing from a
    listing is one row, not a shifted column)."""
    pairs = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            pairs.append((left[k] if k < len(left) else "", right[k] if k < len(right) else ""))
    return pairs


def side_by_side(rows, width=60):
    """Text: each differing line, Linux's output left, ours right, '*'
    where they differ, and the count."""
    out = []
    for line, a, b, same in rows:
        if same:
            continue
        out.append("=== %s" % line)
        out.append("    %-*s | %s" % (width, "Linux 6.1", "this kernel"))
        for left, right in aligned(a, b):
            mark = " " if left == right else "*"
            out.append("  %s %-*s | %s" % (mark, width, left[:width].expandtabs(8), right.expandtabs(8)))
    differ = sum(1 for r in rows if not r[3])
    out.append("%d lines, %d the same, %d differ" % (len(rows), len(rows) - differ, differ))
    return "\n".join(out)


# ---- the run -----------------------------------------------------------------------

def linux_side(args, lines):
    if args.linux_log:
        return Path(args.linux_log).read_text()
    ref = os.path.abspath(os.path.join(args.build, "linux-ref"))
    try:
        root = bench_linux.fetch(ref)
    except bench_linux.BenchLinuxError as e:
        raise ConformError(str(e))
    initrd = os.path.join(ref, "conform.cpio")
    make_initramfs(root, lines, initrd)
    text = boot_linux(root, initrd, args.timeout)
    Path(ref, "conform.log").write_text(text)
    print("conform-linux: Linux's transcript is in %s" % os.path.join(ref, "conform.log"))
    return text


def our_side(args, lines):
    if args.ours_log:
        return parse_ours(Path(args.ours_log).read_text())
    kernel = Path(args.build, "kernel.elf")
    if not kernel.exists():
        raise ConformError("%s not found (run make first)" % kernel)
    pairs = run_ours(kernel, lines, args.line_timeout)
    Path(args.build, "conform-ours.log").write_text(ours_transcript(pairs))
    return pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--cases", default=str(CASES))
    ap.add_argument("--linux-log", help="Linux's saved transcript: no fetch, no boot")
    ap.add_argument("--ours-log", help="this kernel's saved transcript: no boot")
    ap.add_argument("--timeout", type=int, default=600, help="seconds for the Linux boot")
    ap.add_argument("--line-timeout", type=float, default=20,
                    help="seconds for each line here")
    args = ap.parse_args()
    lines = case_lines(Path(args.cases).read_text())
    try:
        linux = parse_linux(linux_side(args, lines))
        ours = our_side(args, lines)
        rows = compare(linux, ours)
    except ConformError as e:
        print("conform_linux.py: %s" % e, file=sys.stderr)
        return 1
    table = side_by_side(rows)
    print(table)
    out = Path(args.build, "conform-linux.md")
    out.write_text("# make conform-linux\n\n```\n%s\n```\n" % table)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
