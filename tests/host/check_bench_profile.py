#!/usr/bin/env python3
"""
check_bench_profile.py - tests/bench_profile.py's counting, without QEMU
or gdb: the addresses a stepped hit would give, made from the test
image's own symbols.

    check_bench_profile.py --build BUILD

  owner_by_size        an address inside a sized function is that
                       function's, its first and last byte included
  owner_of_a_label     an assembly label without a size (entry.S's
                       int3_moved_stack) covers up to the next symbol
  no_symbol_past_end   an address past a sized function's end, before
                       the next symbol (a detour page, a slot), is
                       "(no symbol)"
  profile_in_order     the table counts each function's instructions,
                       in the order the hit first met it

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))
import ktap            # noqa: E402
import bench_profile   # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    elf = os.path.join(args.build, "kernel-test.elf")
    if not os.path.exists(elf):
        print("KTAP version 1\n1..0 # SKIP %s missing (make test-image)" % elf)
        return 0
    syms = bench_profile.symbols(elf)
    starts = [s[0] for s in syms]
    by_name = {name: (addr, size) for addr, size, name in syms}

    def owner(pc):
        return bench_profile.owner(syms, starts, pc)

    results = []

    handler, hsize = by_name["kprobe_ftrace_handler"]
    problems = []
    for pc in (handler, handler + hsize - 1):
        if owner(pc) != "kprobe_ftrace_handler":
            problems.append("%#x is %s's, want kprobe_ftrace_handler" % (pc, owner(pc)))
    results.append(("owner_by_size", problems))

    label, lsize = by_name["int3_moved_stack"]
    problems = [] if lsize == 0 else ["int3_moved_stack has a size, %d" % lsize]
    if owner(label + 1) != "int3_moved_stack":
        problems.append("%#x is %s's, want int3_moved_stack" % (label + 1, owner(label + 1)))
    results.append(("owner_of_a_label", problems))

    caller, csize = by_name["ftrace_regs_caller"]

    problems = []
    nxt = next((a for a in starts if a > handler + hsize), None)
    if nxt is not None and nxt > handler + hsize and owner(handler + hsize) != "(no symbol)":
        problems.append("%#x, past the end, is %s's" % (handler + hsize, owner(handler + hsize)))
    end = syms[-1][0] + max(syms[-1][1], 1) + 0x1000
    if owner(end) != "(no symbol)":
        problems.append("%#x, past every symbol, is %s's" % (end, owner(end)))
    results.append(("no_symbol_past_end", problems))

    pcs = [caller, caller + 1, handler, handler + 1, handler + 2, caller + 2]
    got = bench_profile.profile(pcs, syms)
    want = [("ftrace_regs_caller", 3), ("kprobe_ftrace_handler", 3)]
    results.append(("profile_in_order",
                    [] if got == want else ["got %s, want %s" % (got, want)]))
    return ktap.report(results)


if __name__ == "__main__":
    sys.exit(main())
