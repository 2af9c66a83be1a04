#!/usr/bin/env python3
"""
mklab.py - write the student tree of one lab (make lab LAB=N).

    python3 scripts/mklab.py --lab N --out build/labs/labN [--objects build]

The real sources mark each piece a lab asks students to write, in comment
lines only, so the full tree builds and runs unchanged (the JOS way):

        /* LAB 2: BEGIN resume_execution: call rel32 */
        ...the solution...
        /* LAB 2: STUB panic("lab 2: resume_execution: call rel32: not yet"); */
        /* LAB 2: END */

The student tree of lab N is a copy of the tree in which every region of
lab N and of the later labs becomes its STUB lines (uncommented) under a
"your code here" line, and the regions of the earlier labs keep their
code without the markers.  Each stub also defines the symbol
labN_not_done (weak and absolute, so every stub of a lab may define it):
the boot's Kprobe smoke test skips the probe kinds whose path needs a lab
with a stub left (probes/kprobes_smoke.c), and the student deletes the
line with the stub.  The answer key (labs/answers/) stays out, and
the file .lab says which lab the tree is, for `make grade` there.

--objects BUILD copies BUILD's kernel objects into the tree with their
times kept, so that `make -C TREE test-image` recompiles only the files
the stubs changed (what `make test` does for every lab).
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKED_SUFFIXES = (".c", ".S", ".h")
LEFT_OUT = ("labs/answers/",)          # never in a student tree
LAB_FILE = ".lab"
OBJECT_DIRS = ("boot", "arch", "kernel", "lib", "probes", "console", "tests/kernel")

MARKER_RE = re.compile(r"^(\s*)/\* LAB (\d+): (BEGIN|STUB|END)(?: (.*?))? \*/\s*$")


class MarkerError(Exception):
    """A malformed region: the message names the file and line."""


def tree_files(root):
    """Every file git knows in root (committed or not, ignored ones left out)."""
    out = subprocess.run(["git", "-C", str(root), "ls-files", "--cached",
                          "--others", "--exclude-standard"],
                         check=True, capture_output=True, text=True).stdout
    return sorted({p for p in out.splitlines()
                   if (root / p).is_file() and not p.startswith(LEFT_OUT)})


def regions(lines, where):
    """Yield (begin, end, lab, title, stub lines, indent) for each region."""
    open_at = None
    for i, line in enumerate(lines):
        m = MARKER_RE.match(line)
        if not m:
            continue
        indent, lab, kind, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        here = f"{where}:{i + 1}"
        if kind == "BEGIN":
            if open_at is not None:
                raise MarkerError(f"{here}: LAB {lab}: BEGIN inside another region")
            open_at, open_lab, title, stubs = i, lab, rest or "", []
        elif open_at is None or lab != open_lab:
            raise MarkerError(f"{here}: LAB {lab}: {kind} outside a LAB {lab} region")
        elif kind == "STUB":
            stubs.append(rest or "")
        else:
            if not stubs:
                raise MarkerError(f"{here}: the LAB {lab} region has no STUB line")
            yield open_at, i, open_lab, title, stubs, indent
            open_at = None
    if open_at is not None:
        raise MarkerError(f"{where}:{open_at + 1}: LAB region without END")


def not_done_line(lab, where):
    """The line that marks a stub of `lab` as left: C or assembler."""
    directive = f".weak lab{lab}_not_done; .set lab{lab}_not_done, 1"
    note = "/* delete with the stub: see probes/kprobes_smoke.c */"
    if where.endswith(".S"):
        return f"{directive}\t{note}"
    return f'__asm__("{directive}");\t{note}'


def student_text(text, lab, where, only=None):
    """The file as lab `lab`'s students get it; None if it has no regions.

    With `only` (a region's title) that region alone becomes its stub and
    every other one keeps its code: how make test-all proves that each
    region is needed by some graded case.
    """
    lines = text.split("\n")
    out, last, found = [], 0, False
    for begin, end, rlab, title, stubs, indent in regions(lines, where):
        found = True
        out += lines[last:begin]
        if title == only if only is not None else rlab >= lab:
            out.append(f"{indent}/* LAB {rlab}: your code here ({title}) */")
            out.append(indent + not_done_line(rlab, where))
            out += [indent + s for s in stubs]
        else:
            out += [l for l in lines[begin + 1:end] if not MARKER_RE.match(l)]
        last = end + 1
    return "\n".join(out + lines[last:]) if found else None


def labs_in_tree(root):
    """{lab number: handout folder} from labs/NN-name/."""
    return {int(d.name[:2]): d for d in sorted((root / "labs").glob("[0-9][0-9]-*"))
            if d.is_dir()}


def copy_objects(build, out):
    """The full tree's objects, times kept: make rebuilds only what changed."""
    for d in OBJECT_DIRS:
        src = build / d
        if src.is_dir():
            shutil.copytree(src, out / "build" / d, copy_function=shutil.copy2)
    for f in build.glob("kallsyms.empty.S*"):
        shutil.copy2(f, out / "build" / f.name)


def all_regions(root):
    """[(lab, title, file)] of every region in the tree, in file order."""
    found = []
    for rel in tree_files(root):
        if rel.endswith(MARKED_SUFFIXES):
            lines = (root / rel).read_text().split("\n")
            found += [(lab, title, rel)
                      for _, _, lab, title, _, _ in regions(lines, rel)]
    return found


def write_tree(root, lab, out, objects=None, only=None):
    """Write lab `lab`'s student tree to out; return the files stubbed."""
    if (root / LAB_FILE).exists():
        raise MarkerError(f"{root} is a student tree already (it has {LAB_FILE})")
    if lab not in labs_in_tree(root):
        raise MarkerError(f"no lab {lab}: the labs are {sorted(labs_in_tree(root))}")
    if out.exists():
        shutil.rmtree(out)
    changed = []
    for rel in tree_files(root):
        src, dst = root / rel, out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = None
        if rel.endswith(MARKED_SUFFIXES):
            text = student_text(src.read_text(), lab, rel, only)
        if text is None:
            shutil.copy2(src, dst)
        else:
            dst.write_text(text)
            changed.append(rel)
    (out / LAB_FILE).write_text(f"{lab}\n")
    if objects:
        copy_objects(objects, out)
    return changed


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lab", type=int, required=True)
    ap.add_argument("--out", required=True, help="the student tree to write")
    ap.add_argument("--objects", help="a build folder whose objects to reuse")
    args = ap.parse_args(argv)
    try:
        changed = write_tree(ROOT, args.lab, Path(args.out).resolve(),
                             Path(args.objects).resolve() if args.objects else None)
    except MarkerError as e:
        print(f"mklab: {e}", file=sys.stderr)
        return 1
    print(f"lab {args.lab}: student tree in {args.out} "
          f"({len(changed)} files with stubs: {', '.join(changed)})")
    print(f"  cd {args.out} && make run     # boot it")
    print(f"  cd {args.out} && make grade   # grade it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
