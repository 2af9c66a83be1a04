#!/usr/bin/env python3
"""
check_vga.py - the VGA console, as `make run-vga` shows it, without a
display: boot with `-display none -vga std`, wait for the shell, then
read the screen two ways through QEMU's QMP socket.

  1. the text: the 80x25 character cells at 0xB8000 (pmemsave), which
     must hold the shell's welcome and its prompt (the boot banner has
     scrolled off the 25 rows by then);
  2. the picture: `screendump`, what any display (gtk, curses, vnc)
     would show - a 720x400 text-mode image in which every cell that
     holds a character has lit pixels and every blank cell has none.

    check_vga.py --build BUILD

Prints KTAP; exit status non-zero on failure (tests/run_tests.py).
"""
import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ktap  # noqa: E402
from qmp import Machine  # noqa: E402

VGA_TEXT = 0xB8000
COLS, ROWS = 80, 25
CELL_W, CELL_H = 9, 16          # VGA text mode: 9x16 character cells
WELCOME = "Type 'help' for the commands."
PROMPT = "kprobes# "


def read_ppm(path):
    """(width, height, rows of (r, g, b)) from a binary P6 file."""
    data = Path(path).read_bytes()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    magic, w, h = fields[0], int(fields[1]), int(fields[2])
    if magic != b"P6":
        raise ValueError(f"not a P6 PPM: {magic!r}")
    px = data[pos:]
    return w, h, [[tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3])
                   for x in range(w)] for y in range(h)]


def cell_lit(img, col, row, background):
    for y in range(row * CELL_H, (row + 1) * CELL_H):
        for x in range(col * CELL_W, (col + 1) * CELL_W):
            if img[y][x] != background:
                return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--timeout", type=float, default=30)
    args = ap.parse_args()
    kernel = Path(args.build) / "kernel.elf"
    results = []

    def check(name, problems):
        results.append((name, problems))

    with tempfile.TemporaryDirectory(prefix="vga-") as tmp, \
            Machine(["qemu-system-i386", "-m", "128M", "-display", "none",
                     "-vga", "std", "-serial", "stdio", "-monitor", "none",
                     "-kernel", str(kernel)]) as m:
        booted = kernel.exists() and m.expect(PROMPT.encode(), args.timeout)
        text_file = os.path.join(tmp, "vga.bin")
        shot = os.path.join(tmp, "screen.ppm")
        if booted:
            m.qmp("pmemsave", val=VGA_TEXT, size=COLS * ROWS * 2, filename=text_file)
            m.qmp("screendump", filename=shot)
        if not booted or not os.path.exists(text_file) or not os.path.exists(shot):
            why = [f"no screen to read (booted: {bool(booted)})"]
            return ktap.report([(name, why) for name in (
                "vga_text_welcome_and_prompt", "screendump_is_text_mode",
                "screendump_draws_every_character")])
        cells = Path(text_file).read_bytes()
        chars = [chr(cells[i * 2]) for i in range(COLS * ROWS)]
        lines = ["".join(chars[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]
        w, h, img = read_ppm(shot)

    screen = "\n".join(lines)
    check("vga_text_welcome_and_prompt",
          [f"{s!r} not on the VGA screen" for s in (WELCOME, PROMPT.strip())
           if s not in screen] +
          ([] if any(l.startswith(PROMPT) for l in lines)
           else ["no line starts with the prompt"]))
    check("screendump_is_text_mode",
          [] if (w, h) == (COLS * CELL_W, ROWS * CELL_H)
          else [f"screendump is {w}x{h}, want {COLS * CELL_W}x{ROWS * CELL_H}"])
    problems = []
    if (w, h) == (COLS * CELL_W, ROWS * CELL_H):
        background = img[0][w - 1]          # row 0 ends blank
        # The blinking hardware cursor sits right after the prompt.
        cursor = next(((r, len(PROMPT)) for r in range(ROWS - 1, -1, -1)
                       if lines[r].startswith(PROMPT)), None)
        for r in range(ROWS):
            for c in range(COLS):
                want = lines[r][c] not in " \0"
                if (r, c) == cursor:
                    continue
                if cell_lit(img, c, r, background) != want and len(problems) < 5:
                    problems.append(f"row {r} col {c} {lines[r][c]!r}: "
                                    f"{'no pixels' if want else 'pixels on a blank'}")
    else:
        problems.append("not a text-mode picture")
    check("screendump_draws_every_character", problems)

    return ktap.report(results, lambda name: ["|" + l.rstrip()
                                              for l in lines if l.strip()])


if __name__ == "__main__":
    sys.exit(main())
