#!/usr/bin/env python3
"""
check_console_sessions.py - run the scripted serial-console sessions.

    check_console_sessions.py --build BUILD

The harness convention for check scripts (tests/run_tests.py): take
--build, print KTAP, exit non-zero on failure.  The work is done by
tests/console_sessions.py, which boots BUILD/kernel.elf once per session
in tests/sessions/ and once for the tutorial, docs/tracing.md.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "console_sessions.py")

if __name__ == "__main__":
    os.execv(sys.executable, [sys.executable, SCRIPT] + sys.argv[1:])
