#!/usr/bin/env python3
"""
check_crash_demos.py - every crash= demonstration, booted as `make run`
boots it, and an NMI (tests/crash_demos.py, also `make crash-demos`).

    check_crash_demos.py --build BUILD

The harness convention for check scripts (tests/run_tests.py): take
--build, print KTAP, exit non-zero on failure.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "crash_demos.py")

if __name__ == "__main__":
    os.execv(sys.executable, [sys.executable, SCRIPT] + sys.argv[1:])
