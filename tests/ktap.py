"""
ktap.py - print a flat KTAP document from (name, problems) results, the
way every tests/host/check_*.py script reports (see docs/testing.md).

    sys.exit(ktap.report([("case_a", []), ("case_b", ["why it failed"])]))

A result with problems is `not ok`, its problems printed as `#` lines
before it (where tests/run_tests.py looks for the reason).  `context`
gives lines to show after the problems of a failed case.  Returns the
exit status: 1 if anything failed.
"""


def report(results, context=None):
    print("KTAP version 1")
    print(f"1..{len(results)}")
    failed = 0
    for i, (name, problems) in enumerate(results, 1):
        for p in problems:
            print(f"# {name}: {p}")
        if problems and context:
            for line in context(name):
                print(f"#   {line}")
        print(f"{'not ok' if problems else 'ok'} {i} {name}", flush=True)
        failed += bool(problems)
    return 1 if failed else 0
