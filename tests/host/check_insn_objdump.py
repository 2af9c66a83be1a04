#!/usr/bin/env python3
"""
check_insn_objdump.py - hold lib/insn.c's instruction lengths to objdump's.

Both disassemble the same flat byte stream linearly from offset 0:
  build/host/insn-decode FILE          -> "<off> <len>" / "<off> bad"
  objdump -D -z -b binary -m i386 FILE -> one line per instruction
and we walk the two lists in lock step by offset.  Where both start an
instruction at the same offset we compare:

  objdump valid, decoder same length      agree
  objdump (bad), decoder bad              agree
  objdump valid, decoder other length/bad FAILURE (a length kprobes would get wrong)
  objdump (bad), decoder valid            noted, not a failure (objdump is
                                          only an oracle for what it decodes)

After a disagreement the two walks run apart for a few bytes and meet
again at a common offset (x86 code re-synchronises quickly); offsets only
one side visits are counted as "unsynchronised" and not compared.

Streams: the kernel's own .text (--kernel ELF, extracted with objcopy)
and random bytes from fixed seeds.  Output is KTAP version 1, one test
per stream; exit status 1 if any stream failed.  See docs/decoder.md.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

# objdump spells a dangling prefix (one it could not attach to an
# instruction, e.g. 15 prefixes in a row) as a line of prefix names only.
PREFIX_NAMES = {"es", "cs", "ss", "ds", "fs", "gs", "data16", "addr16", "data32",
                "addr32", "lock", "rep", "repz", "repe", "repnz", "repne"}
LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$")


def find_tool(names):
    for n in names:
        if n and shutil.which(n):
            return n
    return None


def objdump_insns(objdump, path):
    """[(offset, length, text, is_bad)] from objdump, continuation lines merged."""
    out = subprocess.run([objdump, "-D", "-z", "-b", "binary", "-m", "i386", path],
                         check=True, capture_output=True, text=True).stdout
    insns = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        off, nbytes, text = int(m.group(1), 16), len(m.group(2).split()), m.group(3)
        if text is None:
            # A continuation line: more bytes of the previous instruction
            # (objdump prints at most 7 bytes per line).
            if insns:
                o, n, t, b = insns[-1]
                insns[-1] = (o, n + nbytes, t, b)
            continue
        text = text.strip()
        words = set(text.split())
        bad = ("(bad)" in text or text.startswith(".byte") or
               (words and words <= PREFIX_NAMES))
        insns.append((off, nbytes, text, bad))
    return insns


def decoder_insns(decoder, path):
    """{offset: length or None for bad} from insn-decode."""
    out = subprocess.run([decoder, path], check=True, capture_output=True,
                         text=True).stdout
    res = {}
    for line in out.splitlines():
        off, what = line.split()
        res[int(off, 16)] = None if what == "bad" else int(what)
    return res


def compare(name, data, decoder, objdump, tmpdir, max_list=25):
    path = os.path.join(tmpdir, name + ".bin")
    with open(path, "wb") as f:
        f.write(data)
    ref = objdump_insns(objdump, path)
    mine = decoder_insns(decoder, path)
    st = dict(compared=0, agree_valid=0, agree_bad=0, fail=0, soft=0, unsync=0)
    fails, softs = [], []
    for off, n, text, bad in ref:
        if off not in mine:
            st["unsync"] += 1
            continue
        st["compared"] += 1
        got = mine[off]
        hexb = data[off:off + max(n, got or 0)].hex(" ")
        if bad and got is None:
            st["agree_bad"] += 1
        elif not bad and got == n:
            st["agree_valid"] += 1
        elif not bad:
            st["fail"] += 1
            fails.append(f"{off:#x}: [{hexb}] objdump {n} '{text}', decoder "
                         f"{'bad' if got is None else got}")
        else:
            st["soft"] += 1
            softs.append(f"{off:#x}: [{hexb}] objdump (bad) {n}, decoder {got}")
    return st, fails[:max_list], softs[:max_list]


def kernel_text(objcopy, elf, tmpdir):
    out = os.path.join(tmpdir, "kernel-text.bin")
    subprocess.run([objcopy, "-O", "binary", "--only-section=.text", elf, out],
                   check=True)
    with open(out, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", default=None,
                    help="build dir: defaults --decoder BUILD/host/insn-decode "
                         "and --kernel BUILD/kernel.elf and BUILD/kernel-test.elf "
                         "(tests/run_tests.py passes them)")
    ap.add_argument("--decoder", default=None, help="default build/host/insn-decode")
    ap.add_argument("--kernel", action="append", default=[],
                    help="kernel ELF whose .text is compared (repeatable)")
    ap.add_argument("--seeds", default="1,2,3,4,5,6,7,8",
                    help="comma-separated seeds for the random streams")
    ap.add_argument("--size", type=int, default=65536, help="bytes per random stream")
    ap.add_argument("--objdump", default=None)
    ap.add_argument("--objcopy", default=None)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also list objdump-(bad)/decoder-valid differences")
    args = ap.parse_args()
    build = args.build or "build"
    if args.decoder is None:
        args.decoder = os.path.join(build, "host", "insn-decode")
    if args.build and not args.kernel:
        args.kernel = [os.path.join(build, "kernel.elf"),
                       os.path.join(build, "kernel-test.elf")]

    objdump = find_tool([args.objdump, "i686-linux-gnu-objdump", "objdump"])
    objcopy = find_tool([args.objcopy, "i686-linux-gnu-objcopy", "objcopy"])
    if not objdump or not os.access(args.decoder, os.X_OK):
        print("KTAP version 1\n1..0 # SKIP no objdump or decoder")
        return 0

    streams = []
    for elf in args.kernel:
        # kernel.elf -> kernel_text_kernel, kernel-test.elf -> kernel_text_kernel_test
        stem = os.path.splitext(os.path.basename(elf))[0].replace("-", "_")
        streams.append(("kernel_text_" + stem, ("elf", elf)))
    for s in [int(x) for x in args.seeds.split(",") if x]:
        streams.append((f"random_seed_{s}", ("random", s)))

    print("KTAP version 1")
    print(f"1..{len(streams)}")
    failed = 0
    total = dict(compared=0, agree_valid=0, agree_bad=0, fail=0, soft=0, unsync=0)
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, (kind, arg)) in enumerate(streams, 1):
            if kind == "elf":
                if not objcopy or not os.path.exists(arg):
                    print(f"ok {i} {name} # SKIP {arg} not found")
                    continue
                data = kernel_text(objcopy, arg, tmp)
            else:
                data = random.Random(arg).randbytes(args.size)
            st, fails, softs = compare(name, data, args.decoder, objdump, tmp)
            for k in total:
                total[k] += st[k]
            print(f"# {name}: {len(data)} bytes, compared {st['compared']}, agreed "
                  f"{st['agree_valid'] + st['agree_bad']} ({st['agree_valid']} valid, "
                  f"{st['agree_bad']} bad), disagreed on objdump-valid {st['fail']}, "
                  f"objdump-bad/decoder-valid {st['soft']}, unsynchronised {st['unsync']}")
            for f in fails:
                print("#   FAIL " + f)
            if args.verbose:
                for s in softs:
                    print("#   note " + s)
            ok = st["fail"] == 0 and st["compared"] > 0
            failed += not ok
            print(f"{'ok' if ok else 'not ok'} {i} {name}")
    print(f"# total: compared {total['compared']}, agreed "
          f"{total['agree_valid'] + total['agree_bad']} ({total['agree_valid']} valid, "
          f"{total['agree_bad']} bad), disagreed on objdump-valid {total['fail']}, "
          f"objdump-bad/decoder-valid {total['soft']}, unsynchronised {total['unsync']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
