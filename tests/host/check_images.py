#!/usr/bin/env python3
"""
check_images.py - the kernel a student boots holds no test code; the test
image holds all of it, and the user programs built into both carry no
debug information.

    python3 tests/host/check_images.py --build build

The Makefile links two images from one set of objects (see its "sources"
comment): BUILD/kernel.elf, and BUILD/kernel-test.elf, which adds the test
runner and tests/kernel/.  The test objects are the ones the test image
has and the kernel has not: tests/kernel/* (the runner, ktest.c, among
them).

  kernel_has_no_test_symbol      `nm BUILD/kernel.elf` shows no global
                                 symbol that a test object defines, and
                                 no name with "ktest" or "bench" in it
  test_image_has_the_tests       `nm BUILD/kernel-test.elf` shows every
                                 global symbol the test objects define,
                                 and the runner and the benchmarks are its
                                 "test", "bench" and "bench_smp" boot modes
  kernel_refuses_a_test_run      BUILD/kernel.elf booted with "test=boot"
                                 says that this image has no tests and
                                 leaves QEMU with the failure status (35)
                                 instead of starting the shell
  kernel_function_names_unique   no two functions of BUILD/kernel.elf,
                                 static ones included, share a name:
                                 kprobe_events, kallsyms and the
                                 probe-everything sweep resolve a
                                 function by its name, and a second
                                 function of that name is one they
                                 cannot reach (or, worse, reach instead)
  user_programs_carry_no_dwarf   every ELF file BUILD/user/user_image.S
                                 .incbin's into the images has its symbol
                                 table (exec and uprobes' NAME:SYMBOL read
                                 it, main among its names) and no .debug_*
                                 section: the kernel never reads DWARF;
                                 BUILD/user/NAME.elf, gdb's, keeps it

Prints KTAP; exit status 1 on failure.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

QEMU = os.environ.get("QEMU", "qemu-system-i386")
QEMU_ARGS = ["-m", "128M", "-no-reboot", "-display", "none", "-serial", "stdio",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
QEMU_EXIT_FAIL = 35          # isa-debug-exit status of QEMU_EXIT_FAIL (0x11)
BOOT_TIMEOUT = 30            # seconds
TEST_WORDS = re.compile(r"ktest|bench", re.I)
NO_TESTS_MESSAGE = "this image has no tests"
# Symbols the test image must define: the runner, one suite, the benchmark
# and the boot-mode records that make kmain() run them.
TEST_IMAGE_MUST_DEFINE = ["ktest_run", "__start_ktest_suites",
                          "__boot_mode_ktest_boot", "__boot_mode_bench_run",
                          "__boot_mode_bench_smp_run"]
TAIL = 15


def find_nm():
    for tool in ("i686-linux-gnu-nm", "i686-elf-nm", "nm"):
        if shutil.which(tool):
            return tool
    return None


def symbols(nm, path, defined_only=True, globals_only=False):
    """Names nm lists for one ELF file (defined ones by default)."""
    args = [nm] + (["--defined-only"] if defined_only else []) + [str(path)]
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         check=True).stdout.decode()
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        typ, name = parts[-2], parts[-1]
        if globals_only and not typ.isupper():
            continue
        names.add(name)
    return names


def test_objects(build):
    """The objects only the test image links (see the Makefile)."""
    return sorted((build / "tests" / "kernel").glob("*.o"))


def elf32_sections(path):
    """Section name -> (type, offset, size) of an ELF32 little-endian file."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise ValueError(f"{path}: not an ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2e)
    headers = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]
    sections = {}
    for h in headers:
        name = names[h[0]:names.index(b"\0", h[0])].decode()
        sections[name] = (h[1], h[4], h[5])
    return sections, data


def user_programs_carry_no_dwarf(build):
    listing = build / "user" / "user_image.S"
    if not listing.exists():
        return [f"{listing} missing: run make"]
    paths = re.findall(r'\.incbin "([^"]+)"', listing.read_text())
    problems = [] if paths else [f"{listing}: no .incbin"]
    for path in paths:
        sections, data = elf32_sections(path)
        debug = sorted(n for n in sections if n.startswith(".debug"))
        if debug:
            problems.append(f"{path}: {' '.join(debug)}")
        if ".symtab" not in sections or ".strtab" not in sections:
            problems.append(f"{path}: no symbol table")
        elif b"\0main\0" not in data[sections[".strtab"][1]:
                                     sum(sections[".strtab"][1:])]:
            problems.append(f"{path}: main is not in its symbol table")
        full = Path(path).parent.parent / Path(path).name
        if not full.exists():
            problems.append(f"{full} missing: gdb's copy, with the DWARF")
        elif ".debug_info" not in elf32_sections(full)[0]:
            problems.append(f"{full}: no .debug_info for gdb")
    return problems


def kernel_has_no_test_symbol(nm, kernel, objs):
    in_kernel = symbols(nm, kernel)
    from_tests = set()
    for o in objs:     # globals: a static may share a kernel static's name
        from_tests |= symbols(nm, o, globals_only=True)
    problems = [f"{s} (defined by a test object)"
                for s in sorted(in_kernel & from_tests)]
    problems += [f"{s} (a test or bench name)"
                 for s in sorted(in_kernel - from_tests) if TEST_WORDS.search(s)]
    if not objs:
        problems.append("no test objects found: run make test-image")
    return problems


def kernel_function_names_unique(nm, kernel):
    out = subprocess.run([nm, "--defined-only", str(kernel)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True).stdout.decode()
    seen = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            seen[parts[2]] = seen.get(parts[2], 0) + 1
    return [f"{name} is the name of {n} functions" for name, n in sorted(seen.items())
            if n > 1]


def test_image_has_the_tests(nm, test_image, objs):
    in_image = symbols(nm, test_image)
    want = set(TEST_IMAGE_MUST_DEFINE)
    for o in objs:
        want |= symbols(nm, o, globals_only=True)
    return [f"{s} missing" for s in sorted(want - in_image)]


def kernel_refuses_a_test_run(kernel):
    cmd = [QEMU] + QEMU_ARGS + ["-kernel", str(kernel), "-append", "test=boot"]
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=BOOT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return [f"no exit within {BOOT_TIMEOUT} s (started the shell?)"]
    lines = p.stdout.decode("utf-8", "replace").splitlines()
    problems = []
    if p.returncode != QEMU_EXIT_FAIL:
        problems.append(f"QEMU status {p.returncode} (want {QEMU_EXIT_FAIL})")
    if not any(NO_TESTS_MESSAGE in l for l in lines):
        problems.append(f"no line saying {NO_TESTS_MESSAGE!r}")
    if any(l.startswith("KTAP version") for l in lines):
        problems.append("it printed KTAP: test code ran")
    return problems + (lines[-TAIL:] if problems else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    build = Path(args.build)
    kernel, test_image = build / "kernel.elf", build / "kernel-test.elf"

    nm = find_nm()
    if nm is None:
        print("KTAP version 1\n1..0 # SKIP no nm")
        return 0
    objs = test_objects(build)
    results = []
    for path, name, check in (
            (kernel, "kernel_has_no_test_symbol",
             lambda: kernel_has_no_test_symbol(nm, kernel, objs)),
            (kernel, "kernel_function_names_unique",
             lambda: kernel_function_names_unique(nm, kernel)),
            (test_image, "test_image_has_the_tests",
             lambda: test_image_has_the_tests(nm, test_image, objs)),
            (kernel, "kernel_refuses_a_test_run",
             lambda: kernel_refuses_a_test_run(kernel)),
            (kernel, "user_programs_carry_no_dwarf",
             lambda: user_programs_carry_no_dwarf(build))):
        results.append((name, check() if path.exists()
                        else [f"{path} missing: run make test-image"]))
    return ktap.report(results)

if __name__ == "__main__":
    sys.exit(main())
