#!/usr/bin/env python3
"""
mklab.py - write the student tree of one lab (make lab LAB=N).

    python3 scripts/mklab.py --lab N [--force] [--work FOLDER]    (default: ..)
    python3 scripts/mklab.py --lab N --out DIR [--objects build]   (make test)

The real sources mark each piece a lab asks students to write, in comment
lines only, so the full tree builds and runs unchanged (the JOS way):

        /* LAB 2: BEGIN kprobe_handler: whose int3 is this? */
        ...the solution...
        /* LAB 2: STUB printk("lab 2: kprobe_handler: not yet\n"); */
        /* LAB 2: LATER (void)p, (void)kcb; */
        /* LAB 2: END */

The student tree of lab N is a copy of the tree in which every region of
lab N becomes its STUB lines (uncommented) under a "your code here" line:
the exercise, loud.  A region of a later lab becomes its LATER lines, a
placeholder that stays out of the way of the labs before it (nothing
happens, or a correct but plain version), or its STUB lines if it has
no LATER line; the regions of the earlier labs keep their code without
the markers.  Each stub and placeholder also defines the symbol
labN_not_done (weak and absolute, so every stub of a lab may define it):
the boot's Kprobe smoke test skips the probe kinds whose path needs a lab
with a stub left (probes/kprobes_smoke.c), and the student deletes the
line with the stub.  The answer key (labs/answers/) stays out, and
the file .lab says which lab the tree is, for `make grade` there.

Without --out the tree is ../kprobes-lab-N/ (beside this tree), a git
repository whose first commit is the handout; if the student's
../kprobes-lab-(N-1)/ exists, lab
N's tree is that one with lab N's handout merged in (make_lab() below),
and a tree that holds work is never overwritten without --force.

--objects BUILD copies BUILD's kernel objects into the tree with their
times kept, so that `make -C TREE test-image` recompiles only the files
the stubs changed (what `make test` does for every lab).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKED_SUFFIXES = (".c", ".S", ".h")
LEFT_OUT = ("labs/answers/",)          # never in a student tree
LAB_FILE = ".lab"
# Every folder of BUILD with objects of the kernel, the test image and the
# user programs (the Makefile's SRCDIRS, tests/kernel and user), and the
# files beside them that the objects depend on: kconfig.stamp is every
# object's prerequisite, so a tree without it (or with a newer one)
# rebuilds everything.
OBJECT_DIRS = ("boot", "arch", "kernel", "lib", "probes", "console", "tests/kernel",
               "fs", "init", "mm", "drivers", "user")
OBJECT_FILES = ("kallsyms.empty.S*", "kconfig.stamp")

MARKER_RE = re.compile(r"^(\s*)/\* LAB (\d+): (BEGIN|STUB|LATER|END)(?: (.*?))? \*/\s*$")


class MarkerError(Exception):
    """A malformed region: the message names the file and line."""


def tree_files(root):
    """Every file git knows in root (committed or not, ignored ones left out)."""
    out = subprocess.run(["git", "-C", str(root), "ls-files", "--cached",
                          "--others", "--exclude-standard"],
                         check=True, capture_output=True, text=True).stdout
    return sorted({p for p in out.splitlines()
                   if (root / p).is_file() and not p.startswith(LEFT_OUT)})


class Region:
    """One marked region: where it is, its lab, and its two stub forms."""

    def __init__(self, begin, end, lab, title, stubs, later, indent):
        self.begin, self.end, self.lab, self.title = begin, end, lab, title
        self.stubs = stubs      # the STUB lines: the exercise, loud
        self.later = later      # the LATER lines, or None: "nothing here yet"
        self.indent = indent


def regions(lines, where):
    """Yield a Region for each marked region of lines (a file's text)."""
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
            open_at, open_lab, title, stubs, later = i, lab, rest or "", [], None
        elif open_at is None or lab != open_lab:
            raise MarkerError(f"{here}: LAB {lab}: {kind} outside a LAB {lab} region")
        elif kind == "STUB":
            stubs.append(rest or "")
        elif kind == "LATER":
            later = (later or []) + ([rest] if rest else [])
        else:
            if not stubs:
                raise MarkerError(f"{here}: the LAB {lab} region has no STUB line")
            yield Region(open_at, i, open_lab, title, stubs, later, indent)
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


def region_form(region, lab, first, only):
    """How lab `lab`'s tree gets a region: "code", "stub" or "later".

    The labs from `first` to `lab` are the student's (their regions are
    STUB lines: loud, the exercise); the ones before `first` keep the
    reference code; the ones after `lab` are not handed out yet and get
    their LATER lines, a placeholder that stays out of the way of the
    labs before it (their STUB lines if they have none).  With `only`
    (a title) that region alone is a stub.
    """
    if only is not None:
        return "stub" if region.title == only else "code"
    if region.lab < first:
        return "code"
    if region.lab <= lab or region.later is None:
        return "stub"
    return "later"


def student_text(text, lab, where, only=None, first=None):
    """The file as lab `lab`'s students get it; None if it has no regions.

    first (default lab): the first lab whose regions are stubs - a tree
    carried forward from the student's own lab first..lab-1 keeps those
    regions as the handout had them, so that git merges the student's
    code and not ours (see make_lab()).  With `only` (a region's title)
    that region alone becomes its stub and every other one keeps its
    code: how make test-all proves that each region is needed by some
    graded case.
    """
    first = lab if first is None else first
    lines = text.split("\n")
    out, last, found = [], 0, False
    for r in regions(lines, where):
        found = True
        out += lines[last:r.begin]
        form = region_form(r, lab, first, only)
        if form == "code":
            out += [l for l in lines[r.begin + 1:r.end] if not MARKER_RE.match(l)]
        else:
            head = (f"your code here ({r.title})" if form == "stub" else
                    f"not handed out yet ({r.title}): a placeholder")
            out.append(f"{r.indent}/* LAB {r.lab}: {head} */")
            out.append(r.indent + not_done_line(r.lab, where))
            out += [r.indent + s for s in (r.stubs if form == "stub" else r.later)]
        last = r.end + 1
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
    for pattern in OBJECT_FILES:
        for f in build.glob(pattern):
            shutil.copy2(f, out / "build" / f.name)


def all_regions(root):
    """[(lab, title, file)] of every region in the tree, in file order."""
    found = []
    for rel in tree_files(root):
        if rel.endswith(MARKED_SUFFIXES):
            lines = (root / rel).read_text().split("\n")
            found += [(r.lab, r.title, rel) for r in regions(lines, rel)]
    return found


def write_tree(root, lab, out, objects=None, only=None, first=None):
    """Write lab `lab`'s student tree to out; return the files stubbed.

    out is emptied first, except for a .git folder (make_lab() writes a
    new handout over a repository's checkout this way).
    """
    if (root / LAB_FILE).exists():
        raise MarkerError(f"{root} is a student tree already (it has {LAB_FILE})")
    if lab not in labs_in_tree(root):
        raise MarkerError(f"no lab {lab}: the labs are {sorted(labs_in_tree(root))}")
    first = lab if first is None else first
    if out.exists():
        for old in out.iterdir():
            if old.name != ".git":
                shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
    changed = []
    for rel in tree_files(root):
        src, dst = root / rel, out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = None
        if rel.endswith(MARKED_SUFFIXES):
            text = student_text(src.read_text(), lab, rel, only, first)
        if text is None:
            shutil.copy2(src, dst)
        else:
            dst.write_text(text)
            changed.append(rel)
    (out / LAB_FILE).write_text(f"lab {lab}\nfirst {first}\n")
    if objects:
        copy_objects(objects, out)
    return changed


def read_lab_file(tree):
    """(lab, first) of a student tree, from its .lab file; None if it has none."""
    f = tree / LAB_FILE
    if not f.exists():
        return None
    text = f.read_text()
    if text.strip().isdigit():          # written before trees were carried forward
        return int(text), int(text)
    try:
        words = dict(line.split(None, 1) for line in text.splitlines() if line.strip())
        lab = int(words["lab"])
        return lab, int(words.get("first", lab))
    except (KeyError, ValueError):
        raise MarkerError(f"{f}: want the lines 'lab N' and 'first M'")


# ---- make lab: student trees as git repositories ---------------------------
#
# ../kprobes-lab-N/ (beside this tree) is a repository with two branches, as a JOS student's
# repository has an upstream and their own:
#
#   handout   our commits only: "lab 1 handed out", "lab 2 handed out", ...
#   labN      the student's: their commits on top of the handout
#
# Lab N+1's tree is a clone of the student's lab N tree.  Its handout
# branch gets one more commit, lab N+1's handout, in which the regions
# of the labs before it are still the stubs the student was given: the
# only change since lab N's handout is lab N+1's regions, placeholder ->
# stub (and whatever changed in the kernel meanwhile).  git merge of
# handout into the new labN+1 branch then keeps the student's code of
# labs <= N and brings lab N+1's stubs in.

# Beside this tree, not in it: make clean and git never touch them, and a
# grep of the kernel does not find six copies of it.
WORK_DIR = ROOT.parent


def tree_of(work, lab):
    """The folder of lab lab's student tree."""
    return work / f"kprobes-lab-{lab}"
HANDOUT_BRANCH = "handout"
# Our commits say who made them; the student's own use their git identity.
MKLAB_IDENTITY = ["-c", "user.name=kprobes-i386 labs", "-c", "user.email=labs@kprobes-i386.invalid"]


def git(tree, *args, ours=False):
    """Run git in tree; return its stdout.  A failure raises MarkerError."""
    cmd = ["git", "-C", str(tree)] + (MKLAB_IDENTITY if ours else []) + list(args)
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise MarkerError(f"git {' '.join(args)} in {tree}: "
                          f"{(done.stderr or done.stdout).strip()}")
    return done.stdout


def start_tag(lab):
    """The tag on the commit a lab's tree was handed out at."""
    return f"lab{lab}-start"


def work_in(tree, lab):
    """Why tree holds work that rewriting it would lose; None if it holds none.

    Untouched means: a repository, nothing uncommitted (build/ is
    ignored), and HEAD still the commit make lab handed out."""
    if not (tree / ".git").is_dir():
        return "it is not a git repository made by make lab"
    if git(tree, "status", "--porcelain").strip():
        return "it has uncommitted changes"
    head = git(tree, "rev-parse", "HEAD").strip()
    tagged = subprocess.run(["git", "-C", str(tree), "rev-parse", "-q", "--verify",
                             f"refs/tags/{start_tag(lab)}^{{commit}}"],
                            capture_output=True, text=True).stdout.strip()
    if head != tagged:
        return f"it has commits since {start_tag(lab)}"
    return None


def commit_handout(root, tree, lab, first):
    """Write lab's handout over tree's checkout (branch handout) and commit it."""
    write_tree(root, lab, tree, first=first)
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", f"lab {lab} handed out (scripts/mklab.py)", ours=True)


def fresh_tree(root, lab, tree):
    """Lab lab's tree with the labs before it solved: a new repository."""
    tree.mkdir(parents=True)
    git(tree, "init", "-q")
    git(tree, "symbolic-ref", "HEAD", f"refs/heads/{HANDOUT_BRANCH}")
    commit_handout(root, tree, lab, lab)
    git(tree, "checkout", "-q", "-b", f"lab{lab}")


def carried_tree(root, lab, tree, prev):
    """Lab lab's tree from the student's lab lab-1 tree: clone, then merge."""
    _, first = read_lab_file(prev)
    git(tree.parent, "clone", "-q", str(prev), str(tree))
    git(tree, "checkout", "-q", "-B", HANDOUT_BRANCH, f"origin/{HANDOUT_BRANCH}")
    git(tree, "remote", "remove", "origin")
    commit_handout(root, tree, lab, first)
    git(tree, "checkout", "-q", "-b", f"lab{lab}", git(prev, "rev-parse", "HEAD").strip())
    merged = subprocess.run(["git", "-C", str(tree)] + MKLAB_IDENTITY +
                            ["merge", "-q", "--no-edit", "-m",
                             f"lab {lab}: its handout merged into my lab {lab - 1} tree",
                             HANDOUT_BRANCH], capture_output=True, text=True)
    if merged.returncode != 0:
        raise MarkerError(f"{tree}: git merge {HANDOUT_BRANCH} left conflicts "
                          f"(git status lists them): resolve them, git commit, "
                          f"and your lab {lab} tree is ready\n"
                          f"{(merged.stdout + merged.stderr).strip()}")


def make_lab(root, lab, work, force=False):
    """make lab LAB=lab: write work/kprobes-lab-<lab>/; return (tree, carried from or None).

    An existing tree with work in it is refused unless force.  If the
    student's tree of the lab before exists, the new one carries it
    forward; otherwise the labs before are solved from the reference."""
    if lab not in labs_in_tree(root):
        raise MarkerError(f"no lab {lab}: the labs are {sorted(labs_in_tree(root))}")
    if (root / LAB_FILE).exists():
        raise MarkerError(f"{root} is a student tree: run make lab in the kernel's own tree")
    tree, prev = tree_of(work, lab), tree_of(work, lab - 1)
    carried = prev if read_lab_file(prev) and (prev / ".git").is_dir() else None
    if carried and git(prev, "status", "--porcelain").strip():
        raise MarkerError(f"{prev} has uncommitted changes: commit them first "
                          f"(cd {prev} && git commit -am 'my lab {lab - 1}'), "
                          f"then make lab LAB={lab} again; nothing was changed")
    if tree.exists():
        why = work_in(tree, lab)
        if why and not force:
            raise MarkerError(f"{tree} exists and {why}; nothing was changed "
                              f"(FORCE=1 replaces it, and the work in it is lost)")
        shutil.rmtree(tree)
    try:
        if carried:
            carried_tree(root, lab, tree, prev)
        else:
            fresh_tree(root, lab, tree)
    except MarkerError:
        if carried is None or not (tree / ".git" / "MERGE_HEAD").exists():
            shutil.rmtree(tree, ignore_errors=True)    # nothing half made is left
        raise
    git(tree, "tag", start_tag(lab))
    return tree, carried


def shown_path(path):
    """path as the user typed it: relative when it is under the current folder."""
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lab", type=int, required=True)
    ap.add_argument("--work", default=str(WORK_DIR),
                    help="the folder of the student trees (default %(default)s)")
    ap.add_argument("--force", action="store_true",
                    help="replace an existing tree even if it holds work")
    ap.add_argument("--out", help="write a plain tree (no git) here instead: make test's way")
    ap.add_argument("--objects", help="with --out: a build folder whose objects to reuse")
    args = ap.parse_args(argv)
    try:
        if args.out:
            changed = write_tree(ROOT, args.lab, Path(args.out).resolve(),
                                 Path(args.objects).resolve() if args.objects else None)
            print(f"lab {args.lab}: plain tree in {args.out} "
                  f"({len(changed)} files with stubs: {', '.join(changed)})")
            return 0
        tree, carried = make_lab(ROOT, args.lab, Path(args.work).resolve(), args.force)
    except MarkerError as e:
        print(f"mklab: {e}", file=sys.stderr)
        return 1
    where = shown_path(tree)
    if carried:
        print(f"lab {args.lab}: {where} is your {shown_path(carried)} with lab "
              f"{args.lab}'s handout merged in (git log shows both)")
    else:
        before = (f"; labs {min(labs_in_tree(ROOT))} to {args.lab - 1} are solved "
                  "from the reference" if args.lab > min(labs_in_tree(ROOT)) else "")
        print(f"lab {args.lab}: {where}, a git repository{before}")
    print(f"  cd {where} && make run      # boot it")
    print(f"  cd {where} && make grade    # grade it; git commit your work as you go")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
