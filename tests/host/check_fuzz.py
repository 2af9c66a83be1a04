#!/usr/bin/env python3
"""
check_fuzz.py - short, bounded libFuzzer runs of the kprobe_events parser
and of the module loader's ELF checks.

    python3 tests/host/check_fuzz.py --build build [--seconds 20]
                                     [--module-seconds 15]

`make test` runs this (tests/run_tests.py runs every tests/host/check_*.py
with --build BUILD).  The fuzzers are BUILD/fuzz/fuzz_probe_events and
BUILD/fuzz/fuzz_module_elf, built by `make host-test` from tests/fuzz/
with clang -fsanitize=fuzzer,address,undefined.  Five KTAP cases:

  fuzz_seed_corpus         every committed parser seed (tests/fuzz/corpus/)
                           runs once without a crash, a sanitizer report
                           or a failed check
  fuzz_short_run           --seconds of parser fuzzing from the seeds plus
                           what earlier runs found (BUILD/fuzz/corpus)
  fuzz_limit_lines         lines at every length limit of the grammar
                           (N-1, N, N+1, read from include/probe_events.h)
                           and every 4 GiB edge of SYM+offs and @SYM+offs
                           run once: the fuzzer's checks hold for each
  fuzz_module_seeds        every built module (BUILD/samples/*.ko and
                           BUILD/test-modules/*.ko, the broken ones too)
                           runs once through the loader
  fuzz_module_short_run    --module-seconds of loader fuzzing from those,
                           plus BUILD/fuzz/module-corpus

Crash inputs are saved as BUILD/fuzz/crash-*.  For long runs use
`make fuzz FUZZ_TIME=600` and `make fuzz-modules FUZZ_TIME=600`.
Exit status 1 on failure.
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

SEEDS = Path("tests/fuzz/corpus")
DICT = Path("tests/fuzz/probe_events.dict")
TAIL = 25     # output lines shown when the fuzzer fails
CASES = ("fuzz_seed_corpus", "fuzz_short_run", "fuzz_limit_lines",
         "fuzz_module_seeds", "fuzz_module_short_run")
HEADER = Path("include/probe_events.h")


def fuzzer_args(build):
    out = build / "fuzz"
    return [f"-dict={DICT}", "-max_len=4200", "-timeout=10",
            f"-artifact_prefix={out}/", "-print_final_stats=1"]


def module_fuzzer_args(build):
    out = build / "fuzz"
    return ["-max_len=8192", "-timeout=10", f"-artifact_prefix={out}/",
            "-print_final_stats=1"]


def module_seed_dirs(build):
    return [build / "samples", build / "test-modules"]


def run(cmd, timeout):
    """(exit status or None on timeout, output lines)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        text = (e.output or b"").decode("utf-8", "replace")
        return None, text.splitlines()
    return p.returncode, p.stdout.decode("utf-8", "replace").splitlines()


def stat(lines, name):
    for line in lines:
        m = re.match(r"stat::%s:\s+(\d+)" % name, line)
        if m:
            return int(m.group(1))
    return None


def report(n, name, status, lines, info):
    if status == 0:
        for line in info:
            print(f"# {line}")
        print(f"ok {n} {name}")
        return True
    why = "timed out" if status is None else f"exit status {status}"
    print(f"# {name}: fuzzer {why}")
    for line in lines[-TAIL:]:
        print(f"# {line}")
    print(f"not ok {n} {name}")
    return False


def run_target(n, names, cmd, seeds, corpus, seconds, seed_note):
    """Two cases from number n: every seed once, then a bounded run."""
    status, lines = run(cmd + seeds, 60)
    ok1 = report(n, names[0], status, lines, [seed_note])
    status, lines = run(cmd + [f"-max_total_time={seconds}"] + corpus,
                        seconds + 60)
    runs = stat(lines, "number_of_executed_units")
    ok2 = report(n + 1, names[1], status, lines,
                 [f"{runs} inputs in {seconds} s, no crash, leak or "
                  f"sanitizer report"])
    return ok1 and ok2


def run_parser(build, fuzzer, seconds):
    """Cases 1 and 2: the kprobe_events parser."""
    seeds = sorted(str(p) for p in SEEDS.iterdir())
    return run_target(1, CASES[0:2], [str(fuzzer)] + fuzzer_args(build),
                      seeds, [str(build / "fuzz" / "corpus"), str(SEEDS)],
                      seconds, f"{len(seeds)} seeds from {SEEDS}")


def limits():
    """The grammar's limits, as include/probe_events.h defines them."""
    text = HEADER.read_text()
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r"#define (PROBE_\w+)\s+(\d+)\b", text)}


def limit_lines():
    """Lines at N-1, N and N+1 of each limit, and at each 4 GiB edge.
    The fuzzer's fake kernel: do_work at 0xc0101000 (0x20 bytes), jiffies
    at 0x1000, top at 0xffffff00 (size unknown)."""
    lim = limits()
    name, arg = lim["PROBE_NAME_LEN"] - 1, lim["PROBE_ARG_NAME_MAX"]
    text, sym = lim["PROBE_ARG_TEXT_MAX"], lim["PROBE_SYMBOL_LEN"] - 1
    line, nargs = lim["PROBE_LINE_MAX"], lim["PROBE_MAX_ARGS"]
    lines = []
    for d in (-1, 0, 1):
        lines += [
            "p:%s do_work" % ("e" * (name + d)),
            "p:%s/%s do_work" % ("g" * (name + d), "e" * (name + d)),
            "p do_work %s=%%ax" % ("n" * (arg + d)),
            "p do_work x=\\%s1" % ("0" * (text - 2 + d)),
            "p %s" % ("s" * (sym + d)),
            "p /%s:0x10" % ("f" * (sym - 1 + d)),
            "p do_work #" + "#" * (line - len("p do_work #") + d),
            "p do_work" + " %ax" * (nargs + d),
            "p do_work+%d" % (0x20 - 1 + d),
            "p top+%d" % (0xff + d),
            "p do_work x=@jiffies-%d" % (0x1000 + d),
            "p do_work x=@top+%d" % (0xff + d),
        ]
    return lines


def run_limits(build, fuzzer):
    """Case 3: every limit line once through the fuzzer's checks."""
    out = build / "fuzz" / "limit-lines"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    lines = limit_lines()
    for i, text in enumerate(lines):
        (out / ("limit-%03d" % i)).write_text(text)
    files = sorted(str(p) for p in out.iterdir())
    status, output = run([str(fuzzer)] + fuzzer_args(build) + files, 60)
    return report(3, CASES[2], status, output,
                  [f"{len(lines)} lines at the grammar's limits from {HEADER}"])


def run_modules(build, fuzzer, seconds):
    """Cases 4 and 5: the module loader, seeded with the built modules."""
    dirs = [d for d in module_seed_dirs(build) if d.is_dir()]
    seeds = sorted(str(p) for d in dirs for p in d.glob("*.ko"))
    if not seeds:
        print(f"# no .ko files under {build}: run make modules test-modules")
        print(f"not ok 4 {CASES[3]}")
        print(f"not ok 5 {CASES[4]}")
        return False
    corpus = [str(build / "fuzz" / "module-corpus")] + [str(d) for d in dirs]
    return run_target(4, CASES[3:5], [str(fuzzer)] + module_fuzzer_args(build),
                      seeds, corpus, seconds,
                      f"{len(seeds)} modules from {build}/samples and "
                      f"{build}/test-modules")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--module-seconds", type=int, default=15)
    args = ap.parse_args(argv)
    build = Path(args.build)
    fuzzers = [build / "fuzz" / "fuzz_probe_events",
               build / "fuzz" / "fuzz_module_elf"]

    print("KTAP version 1")
    print(f"1..{len(CASES)}")
    if not all(f.exists() for f in fuzzers):
        if shutil.which("clang") is None:
            for n, name in enumerate(CASES, 1):
                print(f"ok {n} {name} # SKIP clang (libFuzzer) is not installed")
            return 0
        print(f"# {' or '.join(str(f) for f in fuzzers)} missing: "
              f"run make B={build} host-test")
        for n, name in enumerate(CASES, 1):
            print(f"not ok {n} {name}")
        return 1
    (build / "fuzz" / "corpus").mkdir(parents=True, exist_ok=True)
    (build / "fuzz" / "module-corpus").mkdir(parents=True, exist_ok=True)

    ok = run_parser(build, fuzzers[0], args.seconds)
    ok = run_limits(build, fuzzers[0]) and ok
    ok = run_modules(build, fuzzers[1], args.module_seconds) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
