#!/usr/bin/env python3
"""
trace_raw_decode.py - decode trace_pipe_raw pages on the host, as
trace-cmd and libtraceevent do, knowing nothing of the kernel but its
text files:

    events/header_page     where the page's time stamp, commit and data are
    events/header_event    a record header's bits, and its special types
    events/*/*/format      each event's id, fields and print fmt
    saved_cmdlines         (optional) pid -> task name

    python3 scripts/trace_raw_decode.py --header-page hp --header-event he \\
        --format f1 --format f2 [--cmdlines sc] PAGES

PAGES is what `exec trace_record CPU` prints: "page CPU N" lines, each
followed by the page in hex (trailing zero bytes left out).  Each record
is printed as `trace` prints it:

            sh-0       [000] d..1.     1.234567: myfib: (c0101234) n=5

with the probe's address as the print fmt says (%lx: hex), where `trace`
prints the symbol.  docs/tracing.md, "The raw pages".
"""

import argparse
import re
import struct
import sys

FIELD_RE = re.compile(r"field:\s*(.*?)\s*([A-Za-z_][A-Za-z0-9_]*)(\[[0-9]*\])?;"
                      r"\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d+);")


def parse_fields(text):
    """{name: (type, offset, size, signed)} of a header_page or format text."""
    fields = {}
    for m in FIELD_RE.finditer(text):
        ctype, name, _, off, size, signed = m.groups()
        fields[name] = (ctype, int(off), int(size), int(signed))
    return fields


def parse_header_page(text):
    f = parse_fields(text)
    return {"ts": f["timestamp"][1:3], "commit": f["commit"][1:3], "data": f["data"][1:3]}


def parse_header_event(text):
    bits = dict(re.findall(r"(\w+)\s*:\s*(\d+) bits", text))
    types = dict(re.findall(r"(\w+)\s*: type == (\d+)", text))
    max_len = re.search(r"data max type_len\s*==\s*(\d+)", text)
    return {"type_len_bits": int(bits["type_len"]), "delta_bits": int(bits["time_delta"]),
            "padding": int(types["padding"]), "time_extend": int(types["time_extend"]),
            "time_stamp": int(types["time_stamp"]), "data_max": int(max_len.group(1))}


def split_args(text):
    """The print fmt's arguments, split at top-level commas."""
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


def parse_format(text):
    name = re.search(r"^name: (\S+)", text, re.M).group(1)
    ident = int(re.search(r"^ID: (\d+)", text, re.M).group(1))
    m = re.search(r'^print fmt: "(.*)"(.*)$', text, re.M)
    fmt = m.group(1).replace('\\"', '"')
    args = split_args(m.group(2).lstrip(", ")) if m.group(2).strip() else []
    fields = {}
    for line in text.splitlines():
        fm = FIELD_RE.search(line)
        if fm:
            ctype, fname, arr, off, size, signed = fm.groups()
            fields[fname] = (ctype + (arr or ""), int(off), int(size), int(signed))
    return ident, {"name": name, "fields": fields, "fmt": fmt, "args": args}


def field_value(rec, field, index=None):
    ctype, off, size, signed = field
    if ctype.startswith("__data_loc"):
        loc = struct.unpack_from("<I", rec, off + 4 * (index or 0))[0]
        start, length = loc & 0xffff, loc >> 16
        return None if length == 0 else rec[start:start + length - 1].decode("latin-1")
    elem = size
    m = re.search(r"\[(\d+)\]$", ctype)
    if m:
        elem = size // int(m.group(1))
    off += elem * (index or 0)
    v = int.from_bytes(rec[off:off + elem], "little")
    if signed and v >> (elem * 8 - 1):
        v -= 1 << (elem * 8)
    return v


ARG_RE = re.compile(r"^(?:\(void \*\))?(?:REC->(\w+)|__get_str\((\w+)\))(?:\[(\d+)\])?\)?$")
CONV_RE = re.compile(r"%(L|l|ll)?([udxsp])S?")


def print_event(ev, rec):
    """Apply the print fmt, as libtraceevent's pretty printer does."""
    values = []
    for arg in ev["args"]:
        m = ARG_RE.match(arg)
        if not m:
            raise ValueError("print fmt argument not understood: %s" % arg)
        name = m.group(1) or m.group(2)
        index = m.group(3)
        v = field_value(rec, ev["fields"][name], int(index) if index else None)
        values.append("(fault)" if v is None else v)
    out, i = "", 0
    pos = 0
    for m in CONV_RE.finditer(ev["fmt"]):
        out += ev["fmt"][pos:m.start()]
        v = values[i]
        i += 1
        conv = m.group(2)
        if isinstance(v, str):
            out += v
        elif conv in "xp":
            out += "%x" % (v & 0xffffffffffffffff)
        else:
            out += "%d" % v
        pos = m.end()
    return out + ev["fmt"][pos:]


def context(ev, rec, cpu, ts, cmdlines):
    common = ev["fields"]
    pid = field_value(rec, common["common_pid"])
    flags = field_value(rec, common["common_flags"])
    preempt = field_value(rec, common["common_preempt_count"])
    depth = "." if not preempt else "0123456789abcdef"[min(preempt, 15)]
    comm = "<idle>" if pid == 0 else cmdlines.get(pid, "<...>")  # as libtraceevent names them
    usecs = ts // 1000
    return "%16s-%-7d [%03d] %s..%s. %5d.%06d: " % (
        comm, pid, cpu, "d" if flags & 1 else ".", depth, usecs // 1000000, usecs % 1000000)


def decode_page(page, cpu, hp, he, events, cmdlines):
    """[(ts, line)] of one page, and the records it says were lost before it."""
    ts_off, ts_size = hp["ts"]
    c_off, c_size = hp["commit"]
    d_off, _ = hp["data"]
    ts = int.from_bytes(page[ts_off:ts_off + ts_size], "little")
    commit = int.from_bytes(page[c_off:c_off + c_size], "little")
    missed_flag, stored_flag = 1 << (c_size * 8 - 1), 1 << (c_size * 8 - 2)
    size = commit & (stored_flag - 1)
    lost = None
    if commit & missed_flag:
        lost = -1
        if commit & stored_flag:
            lost = int.from_bytes(page[d_off + size:d_off + size + 4], "little")
    data = page[d_off:d_off + size]
    tl_mask = (1 << he["type_len_bits"]) - 1
    lines, p = [], 0
    while p < len(data):
        word = struct.unpack_from("<I", data, p)[0]
        type_len, delta = word & tl_mask, word >> he["type_len_bits"]
        if type_len == he["padding"]:
            if delta == 0:
                break
            p += 4 + struct.unpack_from("<I", data, p + 4)[0]
            continue
        if type_len == he["time_extend"]:
            ts += struct.unpack_from("<I", data, p + 4)[0] << he["delta_bits"] | delta
            p += 8
            continue
        if type_len == he["time_stamp"]:
            ts = struct.unpack_from("<I", data, p + 4)[0] << he["delta_bits"] | delta
            p += 8
            continue
        ts += delta
        if type_len == 0:
            length = struct.unpack_from("<I", data, p + 4)[0] - 4
            rec = data[p + 8:p + 8 + length]
            p += 8 + length
        else:
            length = type_len * 4
            rec = data[p + 4:p + 4 + length]
            p += 4 + length
        ident = struct.unpack_from("<H", rec, 0)[0]
        ev = events.get(ident)
        if ev is None:
            lines.append((ts, "[UNKNOWN TYPE %d]" % ident))
            continue
        lines.append((ts, context(ev, rec, cpu, ts, cmdlines) + ev["name"] + ": " +
                      print_event(ev, rec)))
    return lines, lost


def parse_pages(text):
    """[(cpu, bytes)] from trace_record's output."""
    pages, cur = [], None
    for line in text.splitlines():
        m = re.match(r"page CPU (\d+) \d+$", line.strip())
        if m:
            cur = [int(m.group(1)), bytearray()]
            pages.append(cur)
        elif cur is not None and re.fullmatch(r"[0-9a-f]+", line.strip()):
            cur[1] += bytes.fromhex(line.strip())
        else:
            cur = None
    return [(cpu, bytes(data).ljust(4096, b"\0")) for cpu, data in pages]


def parse_cmdlines(text):
    out = {}
    for line in text.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0].isdigit():
            out[int(parts[0])] = parts[1].strip()
    return out


def decode(pages_text, header_page, header_event, formats, cmdlines_text=""):
    """Every record of every page, merged by time as `trace` merges CPUs."""
    hp, he = parse_header_page(header_page), parse_header_event(header_event)
    events = dict(parse_format(f) for f in formats)
    cmdlines = parse_cmdlines(cmdlines_text)
    lines = []
    for cpu, page in parse_pages(pages_text):
        recs, lost = decode_page(page, cpu, hp, he, events, cmdlines)
        if lost:
            lines.append((recs[0][0] if recs else 0, "CPU:%d [LOST %s EVENTS]" %
                          (cpu, lost if lost > 0 else "")))
        lines += recs
    return [line for _, line in sorted(lines, key=lambda l: l[0])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header-page", required=True)
    ap.add_argument("--header-event", required=True)
    ap.add_argument("--format", action="append", default=[])
    ap.add_argument("--cmdlines")
    ap.add_argument("pages")
    args = ap.parse_args()
    read = lambda p: open(p, encoding="latin-1").read()
    for line in decode(read(args.pages), read(args.header_page), read(args.header_event),
                       [read(f) for f in args.format],
                       read(args.cmdlines) if args.cmdlines else ""):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
