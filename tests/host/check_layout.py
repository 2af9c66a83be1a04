#!/usr/bin/env python3
"""
check_layout.py - every folder's name is true: the grep-able layout rules.

    check_layout.py --build BUILD        (BUILD is not used: this reads source)
    check_layout.py --root DIR --count   the figures only, for any tree

  console_is_a_leaf        no file under arch/, kernel/, probes/, lib/, fs/, drivers/
                           or include/ includes a console header (a header
                           in console/, or console.h, console_input.h,
                           line_editor.h, shell.h wherever they are): the
                           shell sits on top of the kernel, never under it.
                           The one arrow allowed is ALLOWED_CONSOLE_ARROWS:
                           kmain starting the shell.
  asm_headers_are_arch     every <asm/...> include names a file of
                           arch/i386/include/asm/, the only folder called
                           asm/ in the tree (no "asm/..." in quotes, no
                           include/asm/): x86 facts live under arch/.
  inline_asm_is_arch       no inline assembly (asm/__asm__) in the C of
                           kernel/, probes/, lib/, fs/, console/, include/,
                           boot/, samples/, drivers/ unless the line above it is a
                           comment saying why (a crash demo's deliberate
                           fault, the compiler barrier).  Out of scope:
                           tests/ (the suites raise exceptions on purpose)
                           and user/ (ring-3 x86 programs).
  kprobes_api_is_modules   include/kprobes.h, the API a module uses (Linux's
                           include/linux/kprobes.h), declares none of the
                           manager's internals (KPROBES_INTERNALS: the slot
                           cache, 2005's lock and its statistics, the
                           optimizer's records, the blacklist's walk, the
                           ftrace arming): they live in
                           probes/kprobes_internal.h, the x86 ones in
                           arch/i386/include/asm/kprobes.h.
  one_name_per_concept     no C, header or doc uses a retired synonym
                           (RETIRED_NAMES: kprobe_in_progress() returned what
                           kprobe_running() returns); the name kept is
                           NOKPROBE_SYMBOL()'d where it is defined, the
                           reason the synonym existed.
  rules_catch_violations   each rule above, run on a scratch tree with one
                           violation planted, reports it: the check can fail.

A comment line "# backward arrows: N" gives the count of includes that go
from below console/ up into it (the allowed one included).

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent

# The layers below the console, and the headers they all share.
BELOW_CONSOLE = ("arch", "kernel", "probes", "lib", "fs", "include", "drivers")
# Headers that are the console's by name, wherever a tree keeps them.
CONSOLE_HEADER_NAMES = {"console.h", "console_input.h", "line_editor.h", "shell.h"}
# (file, header): the include arrows from below up into console/ allowed.
ALLOWED_CONSOLE_ARROWS = {("kernel/main.c", "shell.h")}

ARCH_ASM = Path("arch/i386/include/asm")
INLINE_ASM_DIRS = ("kernel", "probes", "lib", "fs", "console", "include",
                   "boot", "samples", "drivers")

# The kprobes manager's internals: never declared by include/kprobes.h.
KPROBES_API = Path("include/kprobes.h")
KPROBES_INTERNALS = """
    kprobes_ftrace_setup check_ftrace_location arm_kprobe_ftrace
    disarm_kprobe_ftrace kprobe_remove_area_blacklist
    kprobe_blacklist_for_each INSN_CACHE_HASH_BITS kprobe_insn_page
    kprobe_insn_cache kprobe_insn_slots kprobe_optinsn_slots __get_insn_slot
    __free_insn_slot __is_insn_slot_addr insn_cache_get_stats get_insn_slot
    free_insn_slot get_optinsn_slot free_optinsn_slot kprobes_global_lock
    kprobe_cpu kprobe_hit_unlock kprobe_lock_stats kprobe_lock_stats_sum
    kprobe_lock_stats_reset kprobe_count_inc optprobe_state OPTPROBE_QUEUED
    OPTPROBE_OPTIMIZED OPTPROBE_UNOPTIMIZING optimized_kprobe
    optprobe_refusal OPT_OK OPT_SWITCHED_OFF OPT_HANDLERS OPT_DISABLED
    OPT_NO_SIZE OPT_CROSSES_END OPT_NOT_RELOCATABLE OPT_PROBE_IN_RANGE
    OPT_JUMP_INTO_RANGE OPT_INDIRECT_JUMP OPT_FIXUP_ENTRY OPT_UNDECODABLE
    OPT_THREAD_INSIDE OPT_NO_MEMORY OPT_NR_REFUSALS optprobe_refusal_name
    optprobe_why_not func_extent kprobe_function_extent get_optimized_kprobe
    recover_optprobed_bytes OPTIMIZE_DELAY kprobe_optimizer_delay_pending
    kprobes_grace_periods
""".split()

# A retired name -> the one name kept for its concept.
RETIRED_NAMES = {"kprobe_in_progress": "kprobe_running"}
NAME_DIRS = ("arch", "kernel", "probes", "lib", "fs", "console", "include",
             "samples", "tests", "docs", "labs")

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
INLINE_ASM_RE = re.compile(r"\b(?:__asm__|asm)\s*(?:__volatile__|volatile)?\s*\(")
SKIP_DIRS = {"build", ".git"}
# Built against Debian's Linux 6.1 headers, not ours: their <asm/...> is Linux's.
LINUX_HEADER_USERS = {("tests", "linux-bench")}


def sources(root, tops, suffixes=(".c", ".h", ".S")):
    for top in tops:
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root)
            if path.suffix in suffixes and not SKIP_DIRS & set(rel.parts):
                yield rel


def includes(root, rel):
    for n, line in enumerate((root / rel).read_text(errors="replace").splitlines(), 1):
        m = INCLUDE_RE.match(line)
        if m:
            yield n, m.group(1), m.group(2)


def console_headers(root):
    """Names of the console's headers: in console/, by name, or the header
    of a console/*.c (console/pseudofs.c made pseudofs.h the console's)."""
    names = set(CONSOLE_HEADER_NAMES)
    console = root / "console"
    if console.is_dir():
        names |= {p.name for p in console.glob("*.h")}
        names |= {p.stem + ".h" for p in console.glob("*.c")
                  if (root / "include" / (p.stem + ".h")).exists()}
    return names


def console_arrows(root):
    """(file, line, header) for every include from below up into console/."""
    names = console_headers(root)
    arrows = []
    for rel in sources(root, BELOW_CONSOLE):
        for n, _, name in includes(root, rel):
            if Path(name).name in names or "console/" in name:
                arrows.append((rel.as_posix(), n, Path(name).name))
    return arrows


def check_console_is_a_leaf(root):
    return [f"{f}:{n}: includes the console's {h} (console/ sits on top)"
            for f, n, h in console_arrows(root)
            if (f, h) not in ALLOWED_CONSOLE_ARROWS]


def check_asm_headers_are_arch(root):
    problems = []
    for path in sorted(root.rglob("asm")):
        rel = path.relative_to(root)
        if path.is_dir() and rel != ARCH_ASM and not SKIP_DIRS & set(rel.parts):
            problems.append(f"{rel}/: an asm/ folder outside {ARCH_ASM}")
    for rel in sources(root, [p.name for p in root.iterdir() if p.is_dir()]):
        if rel.parts[:2] in LINUX_HEADER_USERS:
            continue
        for n, quote, name in includes(root, rel):
            if not name.startswith("asm/"):
                continue
            if quote == '"':
                problems.append(f"{rel}:{n}: \"{name}\": write <{name}>")
            elif not (root / ARCH_ASM.parent / name).exists():
                problems.append(f"{rel}:{n}: <{name}> is no file of {ARCH_ASM}")
    return problems


def is_comment_end(line):
    s = line.strip()
    return s.endswith("*/") or s.startswith("//")


def check_inline_asm_is_arch(root):
    problems = []
    for rel in sources(root, INLINE_ASM_DIRS, (".c", ".h")):
        lines = (root / rel).read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            code = line.strip()
            if code.startswith(("*", "/*", "//")) or not INLINE_ASM_RE.search(code):
                continue
            above = next((l for l in reversed(lines[:i]) if l.strip()), "")
            if not is_comment_end(above):
                problems.append(f"{rel}:{i + 1}: inline assembly outside arch/ "
                                f"with no comment above saying why: {code[:60]}")
    return problems


def code_lines(text):
    """(line number, line) of text outside /* */ and // comments."""
    in_comment = False
    for n, line in enumerate(text.splitlines(), 1):
        code = ""
        while line:
            if in_comment:
                end = line.find("*/")
                if end < 0:
                    break
                line, in_comment = line[end + 2:], False
            else:
                start = line.find("/*")
                code += (line if start < 0 else line[:start]).split("//")[0]
                if start < 0:
                    break
                line, in_comment = line[start + 2:], True
        yield n, code


def check_kprobes_api_is_modules(root):
    path = root / KPROBES_API
    if not path.exists():
        return [f"{KPROBES_API}: missing"]
    word = re.compile(r"\b(" + "|".join(map(re.escape, KPROBES_INTERNALS)) + r")\b")
    return [f"{KPROBES_API}:{n}: {m.group(1)} is the manager's: "
            "probes/kprobes_internal.h or <asm/kprobes.h>"
            for n, code in code_lines(path.read_text(errors="replace"))
            for m in [word.search(code)] if m]


def check_one_name_per_concept(root):
    problems = []
    for rel in sources(root, NAME_DIRS, (".c", ".h", ".S", ".md")):
        text = (root / rel).read_text(errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            for old, new in RETIRED_NAMES.items():
                if re.search(rf"\b{old}\b", line):
                    problems.append(f"{rel}:{n}: {old}: the concept's one name is {new}")
    for new in RETIRED_NAMES.values():
        if not any(f"NOKPROBE_SYMBOL({new})" in (root / rel).read_text(errors="replace")
                   for rel in sources(root, ("probes", "kernel", "arch"), (".c",))):
            problems.append(f"probes/: {new}() is not NOKPROBE_SYMBOL()'d: a probe "
                            "on its load of current_kprobe would see its own hit")
    return problems


RULES = (("console_is_a_leaf", check_console_is_a_leaf),
         ("asm_headers_are_arch", check_asm_headers_are_arch),
         ("inline_asm_is_arch", check_inline_asm_is_arch),
         ("kprobes_api_is_modules", check_kprobes_api_is_modules),
         ("one_name_per_concept", check_one_name_per_concept))

# One planted violation per rule: (rule, file, text appended).
PLANTS = (
    ("console_is_a_leaf", "kernel/planted.c", '#include "shell.h"\n'),
    ("console_is_a_leaf", "lib/planted.c", '#include "../console/line_editor.h"\n'),
    ("asm_headers_are_arch", "kernel/planted.c", "#include <asm/no_such_header.h>\n"),
    ("asm_headers_are_arch", "include/asm/planted.h", "/* an asm/ folder of its own */\n"),
    ("asm_headers_are_arch", "fs/planted.c", '#include "asm/ptrace.h"\n'),
    ("inline_asm_is_arch", "kernel/planted.c",
     "void f(void)\n{\n\tint x = 0;\n\t__asm__ __volatile__(\"hlt\");\n}\n"),
    ("inline_asm_is_arch", "console/planted.c", 'void g(void) { asm volatile("cli"); }\n'),
    ("kprobes_api_is_modules", "include/kprobes.h",
     "struct optimized_kprobe *get_optimized_kprobe(unsigned long addr);\n"),
    ("kprobes_api_is_modules", "include/kprobes.h",
     "extern bool kprobes_global_lock;\t/* comment */\n"),
    ("one_name_per_concept", "kernel/planted.c",
     "int busy(void) { return kprobe_in_progress() != 0; }\n"),
)


def scratch_tree(dest):
    """The folders the rules read, copied (no build/, no .git)."""
    for top in set(BELOW_CONSOLE) | set(INLINE_ASM_DIRS) | set(NAME_DIRS):
        if (ROOT / top).is_dir():
            shutil.copytree(ROOT / top, dest / top,
                            ignore=shutil.ignore_patterns("build", ".git"))


def check_rules_catch_violations():
    """Plant each violation in one scratch copy, run its rule, take it out."""
    rules = dict(RULES)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        scratch_tree(tree)
        for rule, rel, text in PLANTS:
            path = tree / rel
            new_dir = not path.parent.exists()
            old = path.read_text() if path.exists() else None
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text((old or "") + text)
            found = rules[rule](tree)
            if not any(rel in p or f"{Path(rel).parent}/:" in p for p in found):
                problems.append(f"{rule} missed {text.strip()!r} planted in {rel}")
            if new_dir:
                shutil.rmtree(path.parent)
            elif old is not None:
                path.write_text(old)
            else:
                path.unlink()
            if rules[rule](tree):
                problems.append(f"{rule}: the scratch tree is not clean after {rel}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build", help="not used: the rules read source")
    ap.add_argument("--root", type=Path, default=ROOT, help="the tree to read")
    ap.add_argument("--count", action="store_true",
                    help="print the counts only (backward arrows, asm folders)")
    args = ap.parse_args()
    root = args.root.resolve()
    arrows = console_arrows(root)
    if args.count:
        print(f"backward arrows: {len(arrows)}")
        for f, n, h in arrows:
            print(f"  {f}:{n} -> {h}")
        asm_dirs = [p.relative_to(root) for p in root.rglob("asm")
                    if p.is_dir() and not SKIP_DIRS & set(p.relative_to(root).parts)]
        print(f"asm/ folders: {len(asm_dirs)} " + " ".join(map(str, asm_dirs)))
        return 0
    results = [(name, rule(root)) for name, rule in RULES]
    results.append(("rules_catch_violations", check_rules_catch_violations()))
    status = ktap.report(results)
    print(f"# backward arrows: {len(arrows)} "
          f"({len(ALLOWED_CONSOLE_ARROWS)} allowed: kmain starts the shell)")
    return status


if __name__ == "__main__":
    sys.exit(main())
