#!/usr/bin/env python3
"""
check_module_build.py - a module's C mistakes stop its build, as in Linux.

    python3 tests/host/check_module_build.py --build build

Builds two one-file modules out of tree, the way docs/modules.md shows
(make -C TREE M=DIR), in fresh directories under BUILD/module-build-check:

  module_builds_with_its_includes   a module that includes every header it
                                    uses builds into a .ko
  missing_include_fails_the_build   the same module without
                                    #include "kallsyms.h" must NOT build:
                                    C89's implicit declaration would make
                                    kallsyms_lookup_name() return an int and
                                    the module would load and misbehave, so
                                    modules are built, like Linux's, with
                                    -Werror=implicit-function-declaration
  host_header_is_not_found          a module including <linux/fs.h> (which
                                    this tree does not have, but the host's
                                    /usr/include/linux does) must NOT build:
                                    modules are built with -nostdinc, as
                                    Linux's, so a header can only come from
                                    this tree or the compiler itself

Prints KTAP; exit status 1 on failure.
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parents[2]
TAIL = 15       # make output lines shown on failure

MODULE = """\
#include "module.h"
%s
static int __init lookup_init(void)
{
	printk("kthread_create is at %%lx\\n", kallsyms_lookup_name("kthread_create"));
	return 0;
}

static void __exit lookup_exit(void)
{
}

module_init(lookup_init);
module_exit(lookup_exit);
"""


def build_module(workdir, name, includes):
    """make -C TREE M=workdir/name for one module; (status, output lines, .ko)."""
    moddir = workdir / name
    shutil.rmtree(moddir, ignore_errors=True)
    moddir.mkdir(parents=True)
    (moddir / f"{name}.c").write_text(MODULE % includes)
    p = subprocess.run(["make", "--no-print-directory", "-C", str(TREE),
                        f"M={moddir}"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120,
                       env=dict(os.environ, LC_ALL="C"))   # ASCII quotes
    lines = p.stdout.decode("utf-8", "replace").splitlines()
    return p.returncode, lines, moddir / f"{name}.ko"


def report(n, name, problems, lines):
    for why in problems:
        print(f"# {name}: {why}")
    if problems:
        for line in lines[-TAIL:]:
            print(f"# {line}")
    print(f"{'not ok' if problems else 'ok'} {n} {name}")
    return not problems


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    args = ap.parse_args(argv)
    workdir = Path(args.build).resolve() / "module-build-check"

    print("KTAP version 1")
    print("1..3")
    status, lines, ko = build_module(workdir, "with_include",
                                     '#include "kallsyms.h"\n')
    problems = []
    if status != 0:
        problems.append(f"make exited {status}, want 0")
    if not ko.exists():
        problems.append(f"{ko.name} was not built")
    ok1 = report(1, "module_builds_with_its_includes", problems, lines)

    status, lines, ko = build_module(workdir, "missing_include", "")
    text = "\n".join(lines)
    problems = []
    if status == 0:
        problems.append("make succeeded, want a failed build")
    if ko.exists():
        problems.append(f"{ko.name} was built anyway")
    if "implicit declaration of function 'kallsyms_lookup_name'" not in text:
        problems.append("no 'implicit declaration' diagnostic naming the function")
    if "-Werror=implicit-function-declaration" not in text:
        problems.append("the diagnostic is not an error "
                        "(-Werror=implicit-function-declaration)")
    ok2 = report(2, "missing_include_fails_the_build", problems, lines)

    status, lines, ko = build_module(workdir, "host_header",
                                     '#include "kallsyms.h"\n#include <linux/fs.h>\n')
    text = "\n".join(lines)
    problems = []
    if status == 0 or ko.exists():
        problems.append("built: <linux/fs.h> came from outside the tree")
    if "linux/fs.h: No such file or directory" not in text:
        problems.append("no 'No such file or directory' for linux/fs.h")
    ok3 = report(3, "host_header_is_not_found", problems, lines)
    return 0 if ok1 and ok2 and ok3 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
