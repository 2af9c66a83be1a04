#!/usr/bin/env python3
"""
check_fuzz.py - a short, bounded libFuzzer run of the kprobe_events parser.

    python3 tests/host/check_fuzz.py --build build [--seconds 20]

`make test` runs this (tests/run_tests.py runs every tests/host/check_*.py
with --build BUILD).  The fuzzer itself is BUILD/fuzz/fuzz_probe_events,
built by `make host-test` from tests/fuzz/fuzz_probe_events.c with clang
-fsanitize=fuzzer,address,undefined.  Two KTAP cases:

  fuzz_seed_corpus   every committed seed (tests/fuzz/corpus/) runs once
                     without a crash, a sanitizer report or a failed check
  fuzz_short_run     --seconds of fuzzing from the seeds plus what earlier
                     runs found (BUILD/fuzz/corpus); crash inputs are saved
                     as BUILD/fuzz/crash-*

For a long run use `make fuzz FUZZ_TIME=600`.  Exit status 1 on failure.
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


def fuzzer_args(build):
    out = build / "fuzz"
    return [f"-dict={DICT}", "-max_len=4200", "-timeout=10",
            f"-artifact_prefix={out}/", "-print_final_stats=1"]


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


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seconds", type=int, default=20)
    args = ap.parse_args(argv)
    build = Path(args.build)
    fuzzer = build / "fuzz" / "fuzz_probe_events"

    print("KTAP version 1")
    print("1..2")
    if not fuzzer.exists():
        if shutil.which("clang") is None:
            for n, name in ((1, "fuzz_seed_corpus"), (2, "fuzz_short_run")):
                print(f"ok {n} {name} # SKIP clang (libFuzzer) is not installed")
            return 0
        print(f"# {fuzzer} missing: run make B={build} host-test")
        print("not ok 1 fuzz_seed_corpus")
        print("not ok 2 fuzz_short_run")
        return 1
    (build / "fuzz" / "corpus").mkdir(parents=True, exist_ok=True)

    seeds = sorted(str(p) for p in SEEDS.iterdir())
    status, lines = run([str(fuzzer)] + fuzzer_args(build) + seeds, 60)
    ok1 = report(1, "fuzz_seed_corpus", status, lines,
                 [f"{len(seeds)} seeds from {SEEDS}"])

    cmd = [str(fuzzer)] + fuzzer_args(build) + [
        f"-max_total_time={args.seconds}",
        str(build / "fuzz" / "corpus"), str(SEEDS)]
    status, lines = run(cmd, args.seconds + 60)
    runs = stat(lines, "number_of_executed_units")
    ok2 = report(2, "fuzz_short_run", status, lines,
                 [f"{runs} inputs in {args.seconds} s, no crash, leak or "
                  f"sanitizer report"])
    return 0 if ok1 and ok2 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
