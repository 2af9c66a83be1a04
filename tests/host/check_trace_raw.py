#!/usr/bin/env python3
"""
check_trace_raw.py - trace_pipe_raw's pages decode, on the host, with
nothing but events/header_page, events/header_event and the format
files (scripts/trace_raw_decode.py, what trace-cmd and libtraceevent
do), into the very records `trace` printed.

    check_trace_raw.py --build BUILD

  decoder_reads_linux_pages   pages laid out by hand as Linux 6.1 writes them
                              (a small record, one with its length in
                              array[0], a time extend, padding, the lost
                              count after the last record) decode right
  pages_decode_as_trace       this kernel, two CPUs: kprobe and kretprobe
                              events with numbers, signed numbers, an array,
                              a string, a record over 112 bytes and a time
                              extend (two records 2^27 ns apart); each CPU's
                              pages from `exec trace_record N`, decoded, are
                              `trace`'s lines (the probe's address as the
                              print fmt's %lx, checked against nm)
  lost_records_in_commit      records overwritten before the read: the first
                              page's commit says so, with stats' overrun count
  pipe_raw_consumes           a second read finds the buffer empty (EAGAIN)

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import re
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
import ktap                 # noqa: E402
import console_sessions     # noqa: E402
import trace_raw_decode as dec  # noqa: E402

TIMEOUT = 120
EVENTS = ("myfib", "myret", "mybig")
SETUP = [
    "cd /sys/kernel/tracing",
    "echo 'p:myfib fib n=$arg1:u32 s=$arg1:s8 x=$arg1:x16 c=$comm "
    "st=+0($stack):x32[2]' >> kprobe_events",
    "echo 'r:myret fib ret=$retval:s32' >> kprobe_events",
    "echo 'p:mybig run_fib big=+0($stack):x32[30]' >> kprobe_events",
    "echo 1 > events/kprobes/enable",
    "run fib 3",
    "<sleep>run fib 2",     # over 2^27 ns later: the page needs a time extend
    "echo 0 > events/kprobes/enable",
    "cat trace",
    "cat saved_cmdlines",
    "cat events/header_page",
    "cat events/header_event",
] + ["cat events/kprobes/%s/format" % e for e in EVENTS] + [
    "exec trace_record 0",
    "exec trace_record 1",
    "exec trace_record 0",
    "echo 1 > events/kprobes/myfib/enable",
    "run fib 14",
    "echo 0 > events/kprobes/myfib/enable",
    "cat per_cpu/cpu0/stats",
    "cat per_cpu/cpu1/stats",
    "exec trace_record 0",
    "exec trace_record 1",
]

# Linux 6.1's i386 texts, as tests/conform/linux-6.1.log has them.
HEADER_PAGE = """\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;
\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;
\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;
\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;
"""
HEADER_EVENT = """# compressed entry header
\ttype_len    :    5 bits
\ttime_delta  :   27 bits
\tarray       :   32 bits

\tpadding     : type == 29
\ttime_extend : type == 30
\ttime_stamp : type == 31
\tdata max type_len  == 28
"""
FORMAT = """name: ev
ID: 7
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:unsigned long __probe_ip;\toffset:8;\tsize:4;\tsigned:0;
\tfield:s32 v;\toffset:12;\tsize:4;\tsigned:1;
\tfield:__data_loc char[] str;\toffset:16;\tsize:4;\tsigned:1;

print fmt: "(%lx) v=%d str=\\"%s\\"", REC->__probe_ip, REC->v, __get_str(str)
"""


def linux_record(pid, v, text):
    """An `ev` record as Linux's trace_event_buffer_reserve() fills it."""
    s = text.encode() + b"\0"
    return struct.pack("<HBBiIiI", 7, 1, 2, pid, 0xc0101000, v, (len(s) << 16) | 20) + s


def linux_event(rec, delta):
    """Linux's rb_update_event(): type_len when the aligned length fits 28 words."""
    data = rec + b"\0" * (-len(rec) % 4)
    if len(data) > 112:
        return struct.pack("<II", delta << 5, len(data) + 4) + data
    return struct.pack("<I", (delta << 5) | (len(data) // 4)) + data


def linux_page(ts, events, lost=None):
    data = b"".join(events)
    commit = len(data)
    tail = b""
    if lost is not None:
        tail = struct.pack("<I", lost)
        commit |= (1 << 31) | (1 << 30)
    page = struct.pack("<QI", ts, commit) + data + tail
    return page.ljust(4096, b"\0")


def hexdump(cpu, page):
    body = page.rstrip(b"\0")
    rows = [body[i:i + 32].hex() for i in range(0, len(body), 32)]
    return "\n".join(["page CPU %d 0" % cpu] + rows) + "\n"


def check_decoder():
    problems = []
    long_text = "x" * 120
    extend = 3 << 27 | 5                  # a delta past time_delta's 27 bits
    events = [linux_event(linux_record(1, -3, "hi"), 0),
              linux_event(linux_record(1, 4, long_text), 1000),
              struct.pack("<II", 30 | (extend & (2**27 - 1)) << 5, extend >> 27),
              linux_event(linux_record(1, 5, ""), 0),
              struct.pack("<II", 29 | 1 << 5, 4) + b"\0" * 4,   # padding of 8 bytes
              linux_event(linux_record(1, 6, "end"), 7)]
    pages = hexdump(0, linux_page(2_000_000_000, events, lost=9))
    got = dec.decode(pages, HEADER_PAGE, HEADER_EVENT, [FORMAT], "1 task\n")
    base = 2_000_000_000
    want_ts = [base, base + 1000, base + 1000 + extend, base + 1000 + extend + 7]
    want_args = ['v=-3 str="hi"', 'v=4 str="%s"' % long_text, 'v=5 str=""', 'v=6 str="end"']
    recs = [l for l in got if "LOST" not in l]
    if not any("[LOST 9 EVENTS]" in l for l in got):
        problems.append("the lost count after the last record was not read: %r" % got)
    if len(recs) != 4:
        return problems + ["4 records expected, got %r" % got]
    for line, ts, args in zip(recs, want_ts, want_args):
        us = ts // 1000
        stamp = "%5d.%06d" % (us // 1000000, us % 1000000)
        if stamp not in line or not line.endswith("ev: (c0101000) " + args) or \
           "task-1 " not in line or " d..2. " not in line:
            problems.append("want %s ... %s, got %r" % (stamp, args, line))
    return problems


# ---- this kernel ------------------------------------------------------------------

def run_kernel(kernel):
    con = console_sessions.Console(kernel, cpus=2)
    prompt = console_sessions.PROMPT.encode()
    out = []
    try:
        if con.read_until(prompt, TIMEOUT) is None:
            raise RuntimeError("no prompt")
        for line in SETUP:
            console_sessions.type_line(con, line)
            got = con.read_until(prompt, TIMEOUT)
            if got is None:
                raise RuntimeError("no prompt after: %s" % line)
            # clean() drops blank lines; format files need theirs: keep the raw text.
            text = got.decode("latin-1").replace("\r", "")
            text = console_sessions.ANSI_RE.sub("", text)
            out.append((line, text.split("\n", 1)[1] if "\n" in text else ""))
    finally:
        con.close()
    return out


def symbols(kernel):
    out = subprocess.run(["nm", str(kernel)], capture_output=True, text=True, check=True)
    syms = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms.setdefault(parts[2], int(parts[0], 16))
    return syms


def sym_addr(text, syms):
    m = re.fullmatch(r"(\w+)(?:\+0x([0-9a-f]+)/0x[0-9a-f]+)?", text)
    return syms[m.group(1)] + int(m.group(2) or "0", 16)


def trace_as_print_fmt(line, syms):
    """A `trace` line with the address as the print fmt's %lx prints it."""
    m = re.search(r": \(([^)]*)\)", line)
    where = m.group(1)
    if " <- " in where:                   # trace: (returned to <- func); fmt: (func <- ret)
        ret, func = where.split(" <- ")
        new = "%x <- %x" % (sym_addr(func, syms), sym_addr(ret, syms))
    else:
        new = "%x" % sym_addr(where, syms)
    return line[:m.start()] + ": (" + new + ")" + line[m.end():]


def normalize(line):
    """The shell is pid 0 here, Linux's idle task's pid: the tools call it <idle>."""
    if re.match(r"^ *\S+-0 +\[", line):
        line = "%16s" % "<idle>" + line[16:]
    return line.rstrip()


def check_kernel(build):
    kernel = build / "kernel.elf"
    outs = run_kernel(kernel)
    by_cmd = {}
    for line, text in outs:
        by_cmd.setdefault(line, []).append(text)
    syms = symbols(kernel)
    results = []

    trace = [l for l in by_cmd["cat trace"][0].splitlines() if l and not l.startswith("#")]
    formats = [by_cmd["cat events/kprobes/%s/format" % e][0] for e in EVENTS]
    pages = by_cmd["exec trace_record 0"][0] + by_cmd["exec trace_record 1"][0]
    decoded = dec.decode(pages, by_cmd["cat events/header_page"][0],
                         by_cmd["cat events/header_event"][0], formats,
                         by_cmd["cat saved_cmdlines"][0])
    want = [normalize(trace_as_print_fmt(l, syms)) for l in trace]
    problems = []
    if len(trace) < 10:
        problems.append("only %d records in trace" % len(trace))
    if not any("mybig" in l for l in trace):
        problems.append("no record over 112 bytes")
    stamps = [float(re.search(r" (\d+\.\d+): ", l).group(1)) for l in trace]
    if max(b - a for a, b in zip(stamps, stamps[1:])) <= (1 << 27) / 1e9:
        problems.append("no two records 2^27 ns apart: no time extend was needed")
    if decoded != want:
        problems.append("decoded pages differ from trace")
        for a, b in zip(want + [""] * len(decoded), decoded + [""] * len(want)):
            if a != b:
                problems.append("trace:   %s" % a)
                problems.append("decoded: %s" % b)
    results.append(("pages_decode_as_trace", problems[:20]))

    problems = []
    overrun = {}
    for cpu, stats in enumerate(by_cmd["cat per_cpu/cpu0/stats"] + by_cmd["cat per_cpu/cpu1/stats"]):
        m = re.search(r"overrun: (\d+)", stats)
        overrun[cpu] = int(m.group(1)) if m else -1
    lost_pages = by_cmd["exec trace_record 0"][2] + by_cmd["exec trace_record 1"][1]
    decoded = dec.decode(lost_pages, by_cmd["cat events/header_page"][0],
                         by_cmd["cat events/header_event"][0], formats,
                         by_cmd["cat saved_cmdlines"][0])
    lost = [int(n) for n in re.findall(r"\[LOST (\d+) EVENTS\]", "\n".join(decoded))]
    want_lost = sorted(n for n in overrun.values() if n > 0)
    if not want_lost:
        problems.append("run fib 14 overwrote nothing: %r" % overrun)
    if sorted(lost) != want_lost:
        problems.append("lost counts in the pages %r, stats' overrun %r" % (lost, overrun))
    if len([l for l in decoded if "myfib" in l]) < 200:
        problems.append("fewer records than a full buffer: %d" % len(decoded))
    results.append(("lost_records_in_commit", problems))

    again = by_cmd["exec trace_record 0"][1]
    results.append(("pipe_raw_consumes",
                    [] if "trace_record: 0 pages (-11)" in again
                    else ["a second read gave: %r" % again[:200]]))
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=Path, default=ROOT / "build")
    args = ap.parse_args()
    results = [("decoder_reads_linux_pages", check_decoder())]
    try:
        results += check_kernel(args.build)
    except (RuntimeError, KeyError, IndexError) as err:
        results.append(("pages_decode_as_trace", ["%s: %s" % (type(err).__name__, err)]))
    return ktap.report(results)


if __name__ == "__main__":
    sys.exit(main())
