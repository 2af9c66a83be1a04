#!/usr/bin/env python3
"""
check_hit_path.py - the classic hit asks no switch that Linux has not.

    python3 tests/host/check_hit_path.py --build build

A probe hit in Linux's design runs kprobe_int3_handler(), and the step
ends at the int3 after the copy, in kprobe_int3_handler() again
(arch/i386/kprobes/core.c).  The kernel's other designs - narration,
2005's global kprobe_lock, stepping in place, stepping with TF - are
layers of kprobe_hit_ops that their switches install
(docs/kprobes.md, "Other designs of the hit"); the hit itself must not
test them.  This check reads BUILD/kernel.elf with objdump: every function
the two entry points and Linux's layer (linux_int3, linux_debug) reach by
direct calls, and every instruction in them, and counts the operands that
name a switch's address (a global's, or a per-CPU one's through %fs).

  classic_hit_reads_no_switch     no instruction on that path reads or
                                  writes narration's, the global lock's
                                  or the step mode's variables
  entries_choose_by_table         each entry point reads kprobe_hit_ops,
                                  the table the switches swap, once

Prints KTAP; exit status 1 on failure.
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ENTRIES = ["kprobe_int3_handler", "kprobe_debug_handler"]
LINUX_LAYER = ["linux_int3", "linux_debug"]
# The state of the designs Linux does not have: their switches, and the
# per-CPU state they keep during a hit.
SWITCHES = ["kprobe_narrate_enabled", "kprobe_narrate_telling", "kprobes_global_lock",
            "kprobe_cpu", "kprobe_stepmode", "inplace_kprobe",
            # the step's design is decided at registration, never by a hit
            "kprobe_step_design",
            # the names they had before they became layers
            "kprobes_narrate", "kprobe_narrating"]
TABLE = "kprobe_hit_ops"
FUNC_START = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
CALL = re.compile(r"\bcall\s+([0-9a-f]+) <([^>+]+)>")


def tool(names):
    for name in names:
        if shutil.which(name):
            return name
    return None


def symbols(nm, elf):
    """name -> address of every defined symbol."""
    out = subprocess.run([nm, str(elf)], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms.setdefault(parts[2], int(parts[0], 16))
    return syms


def functions(objdump, elf):
    """name -> list of instruction lines of every function in .text."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", str(elf)],
                         capture_output=True, text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = FUNC_START.match(line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
        elif cur is not None and line.strip():
            cur.append(line)
    return funcs


def reachable(funcs, roots):
    """The functions roots reach by direct calls (indirect ones are handlers)."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in funcs:
            continue
        seen.add(name)
        for line in funcs[name]:
            m = CALL.search(line)
            if m:
                todo.append(m.group(2))
    return seen


def refs(lines, addr):
    """Instructions whose operands name addr (0x... or %fs:0x...)."""
    pat = re.compile(r"(?<![0-9a-fx])0x%x\b" % addr)
    return [l for l in lines if pat.search(l.split("\t")[-1] if "\t" in l else l)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    elf = Path(args.build) / "kernel.elf"
    nm = tool(["i686-linux-gnu-nm", "i686-elf-nm", "nm"])
    objdump = tool(["i686-linux-gnu-objdump", "i686-elf-objdump", "objdump"])
    if not elf.exists() or not nm or not objdump:
        why = [f"{elf} missing" if not elf.exists() else "no nm/objdump"]
        return ktap.report([("classic_hit_reads_no_switch", why),
                            ("entries_choose_by_table", why)])

    syms, funcs = symbols(nm, elf), functions(objdump, elf)
    path = reachable(funcs, ENTRIES + LINUX_LAYER)
    bad = [f"{f} not found in {elf}" for f in ENTRIES + LINUX_LAYER if f not in funcs]
    for name in sorted(path):
        for sw in SWITCHES:
            if sw in syms:
                bad += [f"{name} names {sw}: {l.strip()}" for l in refs(funcs[name], syms[sw])]
    print(f"# {len(path)} functions on the classic hit's path: {', '.join(sorted(path))}")

    table = []
    for e in ENTRIES:
        n = len(refs(funcs.get(e, []), syms[TABLE])) if TABLE in syms else 0
        print(f"# {e} reads {TABLE} {n} time(s)")
        if n != 1:
            table.append(f"{e} reads {TABLE} {n} times, want 1")
    return ktap.report([("classic_hit_reads_no_switch", bad),
                        ("entries_choose_by_table", table)])


if __name__ == "__main__":
    sys.exit(main())
