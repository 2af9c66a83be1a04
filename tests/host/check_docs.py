#!/usr/bin/env python3
"""
check_docs.py - every path and command the documentation names exists.

    check_docs.py --build BUILD      (BUILD is not used: docs are source)

Reads README.md, every docs/*.md and labs/**/*.md (whatever is there: a new page is
checked as soon as it is added) and reports, as "FILE:LINE: ...":

  paths      a path into this tree (`console/crash.c`, `tests/host/check_*.py`,
             a Markdown link) that does not exist.  Paths under build/ are
             made by the build and skipped; so are paths on a line that
             names Linux or QEMU, whose trees have the same folder names;
             `_x` in a name is a placeholder (check_x.py: check_*.py).
  outside    a path outside the repository (/work/..., ~/..., a "shared"
             folder): a reader has only this tree and the web.
  make       `make TARGET`: TARGET is a target of the Makefile.
  shell      `kprobes# CMD ...`: CMD is a command of the shell; a
             sentence "`help` lists every command (...)" names them all.
  crash=     a crash mode of console/crash.c.
  test=      an in-kernel suite of tests/kernel/.
  options    `python3 tests/X.py --opt`: the script knows --opt, and
             run_tests.py's --only values are its stages.
  stepped    "`call`, `ret` ... are (still) stepped": none of the listed
             instructions has an emulator in arch/i386/kprobes/emulate.c
             (a kprobe_emulate_NAME() function).
  unsupported  a `:TYPE` under a "Not supported" heading is no fetch type
             of lib/fetch_args.c's fetch_types[].
  file table a table whose rows start with a pseudofs file
             (| `/sys/kernel/tracing/trace` | ...) lists every file the
             kernel creates in that folder (pseudo_file_spec tables in
             probes/), and none it does not.

One KTAP result per document; exit status non-zero if any fails.
"""
import argparse
import re
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
OUR_TOP = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} | {".ci"}
FOREIGN_RE = re.compile(r"\b(Linux|Linux's|QEMU's|QEMU|binutils|glibc)\b")
PATH_RE = re.compile(r"(?<![\w/.$-])((?:\.ci|[A-Za-z_][\w.-]*)/[\w.*/<>-]*[\w*>/])")
LINK_RE = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
OUTSIDE_RE = re.compile(r"(?<![\w.])(/work/[^\s`]+|/home/[^\s`]+|~/[^\s`]+|\bshared/reference[^\s`]*)")
HELP_LIST_RE = re.compile(r"`help` lists every command \(([^)]*)\)")
CODE_SPAN_RE = re.compile(r"`([^`]+)`")
MAKE_RE = re.compile(r"(?:^|[\s(;&|])make\s+([^`|;&#\n]*)")
PROMPT = "kprobes# "


def makefile_targets():
    text = (ROOT / "Makefile").read_text()
    targets = set()
    for m in re.finditer(r"^([\w.$()/%-]+(?:[ \t]+[\w.$()/%-]+)*)[ \t]*:(?![=:])",
                         text, re.M):
        targets.update(m.group(1).split())
    return targets


def shell_commands():
    src = (ROOT / "console" / "shell.c").read_text()
    table = src[src.index("commands[] = {"):]
    return set(re.findall(r'\{\s*"(\w+)",', table[:table.index("};")]))


def crash_modes():
    src = (ROOT / "console" / "crash.c").read_text()
    table = src[src.index("crashes[] = {"):]
    return set(re.findall(r'\{ "(\w+)",', table[:table.index("};")]))


def kernel_suites():
    names = set()
    for f in (ROOT / "tests" / "kernel").glob("*.c"):
        names.update(re.findall(r'\.name\s*=\s*"(\w+)"', f.read_text()))
    return names


def run_tests_stages():
    src = (ROOT / "tests" / "run_tests.py").read_text()
    m = re.search(r"^STAGES = \(([^)]*)\)", src, re.M)
    return set(re.findall(r'"([\w-]+)"', m.group(1))) if m else set()


def pseudofs_files():
    """{folder: {file names}} from the pseudo_file_spec tables, each
    created in the folder its pseudofs_create_files() call names."""
    defines = {}
    tracing = sorted((ROOT / "kernel" / "trace").glob("*.c"))
    for f in list((ROOT / "include").glob("*.h")) + tracing:
        defines.update(re.findall(r'^#define\s+(\w+)\s+"([^"]+)"', f.read_text(), re.M))
    folders = {}
    for f in tracing:
        src = f.read_text()
        for table, body in re.findall(
                r"struct pseudo_file_spec (\w+)\[\] = \{(.*?)\n\};", src, re.S):
            call = re.search(rf"pseudofs_create_files\((\w+|\"[^\"]+\"),\s*{table}\b", src)
            if not call:
                continue
            folder = defines.get(call.group(1), call.group(1).strip('"'))
            folders.setdefault(folder, set()).update(re.findall(r'\{\s*"(\w+)"', body))
    return folders


def emulated_mnemonics():
    """The instructions emulate.c runs in the int3 handler instead of
    stepping: one kprobe_emulate_NAME() each (ifmodifiers: cli and sti)."""
    src = (ROOT / "arch" / "i386" / "kprobes" / "emulate.c").read_text()
    names = set(re.findall(r"^static void kprobe_emulate_(\w+)\(", src, re.M))
    if "ifmodifiers" in names:
        names = (names - {"ifmodifiers"}) | {"cli", "sti"}
    return names


def fetch_type_names():
    src = (ROOT / "lib" / "fetch_args.c").read_text()
    table = src[src.index("fetch_types[] = {"):]
    return set(re.findall(r'\{ "(\w+)",', table[:table.index("};")]))


# "(`call`, `ret`, `push`, `pop`) are still stepped": a list of code-quoted
# words right before the verb.
STEPPED_RE = re.compile(r"((?:`[a-z]+`(?:,\s*|\s+and\s+|\s+or\s+)?)+)\)?\s+"
                        r"(?:are|is)\s+(?:still\s+|always\s+)?stepped\b")


TABLE_ROW_RE = re.compile(r"^\|\s*`(/sys/kernel/[^`]+)`\s*\|")


def path_exists(path):
    path = re.sub(r"(?<=_)[xX](?=[./]|$)", "*", path.rstrip("/"))
    if "<" in path or "..." in path:
        return True                     # a placeholder: <dir>, a/.../b
    if any(c in path for c in "*?["):
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


class DocChecker:
    def __init__(self):
        self.targets = makefile_targets()
        self.commands = shell_commands()
        self.modes = crash_modes()
        self.suites = kernel_suites()
        self.stages = run_tests_stages()
        self.pseudofs = pseudofs_files()
        self.emulated = emulated_mnemonics()
        self.fetch_types = fetch_type_names()

    def check_stepped(self, text, rel):
        """No emulated instruction is said to be stepped."""
        flat = re.sub(r"\s+", " ", text)
        problems = []
        for m in STEPPED_RE.finditer(flat):
            for word in re.findall(r"`([a-z]+)`", m.group(1)):
                if word in self.emulated:
                    problems.append(f"{rel}: says `{word}` is stepped, but "
                                    f"arch/i386/kprobes/emulate.c emulates it")
        return problems

    def check_unsupported(self, text, rel):
        """No fetch type the parser knows is listed as not supported."""
        problems = []
        section = None
        for n, line in enumerate(text.splitlines(), 1):
            if line.startswith("#"):
                section = line.lstrip("#").strip().lower()
                continue
            if not section or not section.startswith("not supported"):
                continue
            for t in re.findall(r"`:(\w+)`", line):
                if t in self.fetch_types:
                    problems.append(f"{rel}:{n}: lists `:{t}` as not supported, "
                                    f"but lib/fetch_args.c parses it")
        return problems

    def check_file_tables(self, text, rel):
        """Rows naming files of a known pseudofs folder: all of them, no more."""
        listed = {}
        for n, line in enumerate(text.splitlines(), 1):
            m = TABLE_ROW_RE.match(line)
            if m:
                folder, _, name = m.group(1).rpartition("/")
                listed.setdefault(folder, {})[name] = n
        problems = []
        for folder, names in listed.items():
            if folder not in self.pseudofs:
                continue                # e.g. events/GROUP/EVENT: made at run time
            for name in sorted(self.pseudofs[folder] - set(names)):
                problems.append(f"{rel}: the table of {folder}/ lacks `{name}`")
            for name, n in names.items():
                if name not in self.pseudofs[folder]:
                    problems.append(f"{rel}:{n}: the table names {folder}/{name}, "
                                    f"which the kernel does not create")
        return problems

    def check_help_list(self, text, rel):
        """A page that says "`help` lists every command (...)" names all."""
        m = HELP_LIST_RE.search(text.replace("\n", " "))
        if not m:
            return []
        named = set(re.findall(r"`(\w+)`", m.group(1)))
        return [f"{rel}: the list of commands lacks `{c}`"
                for c in sorted(self.commands - named - {"help"})] + \
               [f"{rel}: the list of commands names `{c}`, which the shell lacks"
                for c in sorted(named - self.commands)]

    def check(self, doc):
        rel = doc.relative_to(ROOT)
        problems = self.check_help_list(doc.read_text(), rel)
        problems += self.check_file_tables(doc.read_text(), rel)
        problems += self.check_stepped(doc.read_text(), rel)
        problems += self.check_unsupported(doc.read_text(), rel)
        in_code = False
        for n, line in enumerate(doc.read_text().splitlines(), 1):
            if line.startswith("```"):
                in_code = not in_code
                continue
            where = f"{rel}:{n}"
            problems += [f"{where}: {p}" for p in self.check_line(line, doc, in_code)]
        return problems

    def check_line(self, line, doc, in_code):
        problems = []
        foreign = FOREIGN_RE.search(line)
        for m in OUTSIDE_RE.finditer(line):
            problems.append(f"names {m.group(1)!r}, outside the repository")
        for m in LINK_RE.finditer(line):
            target = m.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (doc.parent / target).exists():
                problems.append(f"links to {target!r}, which does not exist")
        for m in PATH_RE.finditer(line):
            path = m.group(1)
            top = path.split("/")[0]
            if top not in OUR_TOP or top == "build" or foreign:
                continue
            if top == "arch" and not path.startswith("arch/i386"):
                continue                # Linux's arch/x86/...
            if not path_exists(path):
                problems.append(f"names `{path}`, which does not exist")
        code = [line] if in_code else CODE_SPAN_RE.findall(line)
        for text in code:
            problems += self.check_commands(text)
        return problems

    def check_commands(self, text):
        problems = []
        stripped = text.strip()
        if stripped.startswith(PROMPT.strip()):
            words = stripped[len(PROMPT.strip()):].split()
            if words and words[0] not in self.commands and not words[0].startswith("<"):
                problems.append(f"shows the shell command {words[0]!r}, "
                                f"which the shell does not have")
        for m in MAKE_RE.finditer(text.split(" #")[0]):
            problems += [f"runs `make {t}`, which is no target"
                         for t in self.make_goals(m.group(1))
                         if t not in self.targets]
        for mode in re.findall(r"\bcrash=(\w+)", text):
            if mode not in self.modes and mode.upper() != mode:
                problems.append(f"uses crash={mode}, which console/crash.c lacks")
        for suites in re.findall(r"\btest=([\w,]+)", text):
            for s in suites.split(","):
                if s and s not in self.suites and s.upper() != s:
                    problems.append(f"runs test={s}, which is no kernel suite")
        problems += self.check_script_options(text)
        return problems

    @staticmethod
    def make_goals(args):
        """The goals in make's arguments: not options, VAR=value or
        placeholders (TREE, <dir>); -C and -f take the word after them."""
        try:
            words = shlex.split(args)
        except ValueError:
            words = args.split()
        goals, skip = [], False
        for w in words:
            if skip:
                skip = False
            elif w in ("-C", "-f", "-j", "-o"):
                skip = True
            elif re.fullmatch(r"[a-z][\w.-]*", w):
                goals.append(w)
        return goals

    def check_script_options(self, text):
        problems = []
        for m in re.finditer(r"python3\s+((?:tests|scripts)/[\w/]+\.py)([^`|;&#\n]*)", text):
            script = ROOT / m.group(1)
            if not script.exists():
                continue                # reported as a path
            src = script.read_text()
            try:
                words = shlex.split(m.group(2))
            except ValueError:
                words = m.group(2).split()
            for i, w in enumerate(words):
                opt = w.split("=")[0]
                if opt.startswith("--") and f'"{opt}"' not in src:
                    problems.append(f"passes {opt} to {m.group(1)}, which has no such option")
                if opt == "--only" and m.group(1).endswith("run_tests.py") and i + 1 < len(words):
                    for stage in words[i + 1].split(","):
                        if stage not in self.stages:
                            problems.append(f"--only {stage}: run_tests.py has no such stage")
        return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.parse_args()
    docs = ([ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")) +
            sorted((ROOT / "labs").glob("**/*.md")))
    checker = DocChecker()
    return ktap.report([(str(doc.relative_to(ROOT)).replace("/", "_"),
                         checker.check(doc)) for doc in docs])

if __name__ == "__main__":
    sys.exit(main())
