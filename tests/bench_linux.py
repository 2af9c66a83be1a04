#!/usr/bin/env python3
"""bench_linux.py - the same probe hits, measured on Debian's Linux 6.1.

    python3 tests/bench_linux.py --build build          (what `make bench-linux` runs)
    python3 tests/bench_linux.py --build build --log L  (tabulate a saved Linux boot log)

On first use it fetches Debian's i386 Linux 6.1 (linux-image-6.1.0-N-686,
the newest N apt lists), its linux-headers (-686, -common), linux-kbuild-6.1
and busybox-static:i386 with `apt-get download`, unpacks them with
`dpkg-deb -x` into BUILD/linux-ref/root/ and keeps them there for the next
run.  It then

  1. builds tests/linux-bench/ (kprobe_bench.c, and this kernel's
     tests/kernel/bench_targets.S so both kernels probe the same bytes)
     into linux_bench.ko with kbuild against Debian's headers;
  2. makes an initramfs: busybox and an /init that loads the module twice,
     with Linux's jump optimization off (/proc/sys/debug/kprobes-optimization
     = 0) and then on, and powers off;
  3. boots it under `qemu-system-i386 -icount shift=0` (TCG): the guest's
     TSC then counts guest instructions, as in this kernel's make bench;
  4. reads the module's BENCH lines and puts them next to this kernel's
     rows (BUILD/bench.md when make bench wrote it, or else one icount
     boot of tests/bench.py) in BUILD/bench-linux.md, with a chart of both
     ladders in BUILD/bench-linux.png (gnuplot).

Exit status is non-zero when a kernel gave no results, or a Linux row failed
(a probe that did not register, did not take its path or missed hits).
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (this kernel's make bench: its boot and its chart helpers)

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE_SRC = os.path.join(HERE, "linux-bench")
SHARED_SRC = [os.path.join(HERE, "kernel", "bench_targets.S")]
MODULE = "linux_bench"
QEMU = os.environ.get("QEMU", "qemu-system-i386")
CROSS = "i686-linux-gnu-"
DASH = "\u2013"                 # a row one kernel lacks

# Printed by the module (tests/linux-bench/kprobe_bench.c).
LINE = re.compile(r'BENCH row="(?P<row>[^"]*)" (?P<rest>.*)$')
DONE = re.compile(r'BENCH done optimize=(?P<half>\d)')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\]\s*')
FIELD = re.compile(r'(\w+)=("[^"]*"|\S+)')

# Which of this kernel's rows a Linux row is compared with: the first name
# that exists (this kernel may step with int3 as Linux does, or with TF),
# or a test on the name for the rows whose names are still settling.
MATCH = {
    "kprobe (pre)": ["int3-stepped", "kprobe (pre)"],
    "kprobe on ftrace": [lambda n: "ftrace" in n and "kretprobe" not in n
                         and "fprobe" not in n],
    "kretprobe on ftrace": [lambda n: ("ftrace" in n or "rethook" in n) and "kretprobe" in n],
    "fprobe": [lambda n: "fprobe" in n],
}


class BenchLinuxError(Exception):
    pass


def run(cmd, **kw):
    """Run a command, its output shown; raise on failure."""
    print("bench-linux: %s" % " ".join(cmd), flush=True)
    if subprocess.run(cmd, **kw).returncode != 0:
        raise BenchLinuxError("failed: %s" % " ".join(cmd))


def capture(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True).stdout


# ---- fetching Debian's kernel ----------------------------------------------------

def newest_abi():
    """The newest 6.1.0-N whose -686 image and headers apt lists."""
    names = capture(["apt-cache", "search", "--names-only",
                     r"^linux-(image|headers)-6\.1\.0-[0-9]+-686$"])
    abis = {}
    for line in names.splitlines():
        m = re.match(r"linux-(image|headers)-6\.1\.0-(\d+)-686 ", line)
        if m:
            abis.setdefault(int(m.group(2)), set()).add(m.group(1))
    both = [n for n, kinds in abis.items() if kinds == {"image", "headers"}]
    return max(both) if both else None


def apt_ready():
    if "i386" not in capture(["dpkg", "--print-foreign-architectures"]).split():
        run(["dpkg", "--add-architecture", "i386"])
    # One index that fails (a mirror half-way through a sync) fails the
    # whole update, yet the lists it fetched are kept: go on with them;
    # the download after it says whether they were enough.
    cmd = ["apt-get", "update", "-q"]
    print("bench-linux: %s" % " ".join(cmd), flush=True)
    if subprocess.run(cmd).returncode != 0:
        print("bench-linux: apt-get update reported errors; going on with the lists it has",
              flush=True)


def fetch(ref):
    """Download and unpack the packages into ref/root (once)."""
    root = os.path.join(ref, "root")
    if glob.glob(os.path.join(root, "boot", "vmlinuz-6.1.0-*-686")):
        return root
    if os.geteuid() != 0:
        raise BenchLinuxError("first run: root is needed for dpkg --add-architecture i386 "
                              "and apt-get update (run `sudo make bench-linux` once)")
    apt_ready()
    abi = newest_abi()
    if abi is None:
        raise BenchLinuxError("apt lists no linux-image-6.1.0-N-686 with its headers")
    release = "6.1.0-%d" % abi
    debs = os.path.join(ref, "debs")
    os.makedirs(debs, exist_ok=True)
    run(["apt-get", "download", "-q", "linux-image-%s-686:i386" % release,
         "linux-headers-%s-686:i386" % release, "linux-headers-%s-common" % release,
         "linux-kbuild-6.1", "busybox-static:i386"], cwd=debs)
    tmp = root + ".new"
    shutil.rmtree(tmp, ignore_errors=True)
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        run(["dpkg-deb", "-x", deb, tmp])
    os.rename(tmp, root)
    return root


def fix_headers(root):
    """Debian's -686 headers include the -common tree by its installed path
    (/usr/src/...): point that line at the unpacked tree (again, if the
    build folder moved).  Returns the headers directory for make -C."""
    found = glob.glob(os.path.join(root, "usr", "src", "linux-headers-6.1.0-*-686"))
    if not found:
        raise BenchLinuxError("no linux-headers-6.1.0-*-686 under %s" % root)
    headers = found[0]
    makefile = os.path.join(headers, "Makefile")
    with open(makefile) as f:
        text = f.read()
    fixed = re.sub(r"^include \S*/usr/src/(linux-headers-\S+/Makefile)$",
                   lambda m: "include %s/usr/src/%s" % (root, m.group(1)), text, flags=re.M)
    if fixed != text:
        with open(makefile, "w") as f:
            f.write(fixed)
    return headers


# ---- the module and the initramfs ---------------------------------------------

def build_module(ref, headers):
    """Copy the sources next to each other and build linux_bench.ko."""
    work = os.path.join(ref, "module")
    os.makedirs(work, exist_ok=True)
    sources = [os.path.join(MODULE_SRC, n) for n in sorted(os.listdir(MODULE_SRC))
               if n == "Kbuild" or n.endswith((".c", ".S", ".h"))]
    for src in sources + SHARED_SRC:
        shutil.copy(src, work)
    run(["make", "-s", "-C", headers, "M=" + work, "ARCH=x86",
         "CROSS_COMPILE=" + CROSS, "modules"])
    return os.path.join(work, MODULE + ".ko")


def init_script(iters):
    """/init: both halves of the module, then power off."""
    bb = "/bin/busybox"
    lines = ["#!%s sh" % bb,
             "%s mount -t proc proc /proc" % bb,
             "echo 7 > /proc/sys/kernel/printk     # the module's pr_info lines"]
    for half in (0, 1):
        lines += ["echo %d > /proc/sys/debug/kprobes-optimization" % half,
                  "%s insmod /%s.ko optimize=%d iters=%d" % (bb, MODULE, half, iters),
                  "%s rmmod %s" % (bb, MODULE)]
    lines += ["%s poweroff -f" % bb]
    return "\n".join(lines) + "\n"


def cpio_entry(name, mode, data=b"", rdev=(0, 0)):
    """One newc record (the format the kernel's initramfs unpacker reads)."""
    fields = [0, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1],
              len(name) + 1, 0]
    head = b"070701" + b"".join(b"%08X" % f for f in fields)
    out = head + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4) + data
    return out + b"\0" * (-len(out) % 4)


S_IFDIR, S_IFREG, S_IFCHR = 0o040000, 0o100000, 0o020000


def make_initramfs(root, ko, iters, path):
    with open(os.path.join(root, "bin", "busybox"), "rb") as f:
        busybox = f.read()
    with open(ko, "rb") as f:
        module = f.read()
    out = b"".join([
        cpio_entry("bin", S_IFDIR | 0o755), cpio_entry("proc", S_IFDIR | 0o755),
        cpio_entry("dev", S_IFDIR | 0o755),
        cpio_entry("dev/console", S_IFCHR | 0o600, rdev=(5, 1)),   # /init's stdout
        cpio_entry("bin/busybox", S_IFREG | 0o755, busybox),
        cpio_entry("init", S_IFREG | 0o755, init_script(iters).encode()),
        cpio_entry(MODULE + ".ko", S_IFREG | 0o644, module),
        cpio_entry("TRAILER!!!", 0),
    ])
    with open(path, "wb") as f:
        f.write(out)


def boot_linux(root, initrd, timeout):
    vmlinuz = glob.glob(os.path.join(root, "boot", "vmlinuz-6.1.0-*-686"))[0]
    cmd = [QEMU, "-icount", "shift=0", "-m", "256M", "-smp", "1", "-nographic",
           "-no-reboot", "-kernel", vmlinuz, "-initrd", initrd,
           "-append", "console=ttyS0 quiet printk.time=0 panic=-1"]
    print("bench-linux: %s" % " ".join(cmd), flush=True)
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchLinuxError("Linux did not power off within %d s" % timeout)
    return proc.stdout.decode("utf-8", "replace")


# ---- reading the logs -------------------------------------------------------------

def parse_linux_log(text):
    """{row: fields} in the module's order, plus the rows Linux lacks.
    Raises on an error line or a half that did not finish."""
    rows, absent, errors, halves = {}, {}, [], set()
    for line in text.splitlines():
        line = TIMESTAMP.sub("", line.strip().replace("\r", ""))
        done = DONE.search(line)
        if done:
            halves.add(int(done.group("half")))
            continue
        m = LINE.search(line)
        if not m:
            continue
        fields = {k: v.strip('"') for k, v in FIELD.findall(m.group("rest"))}
        if "error" in fields:
            errors.append(line)
        elif "absent" in fields:
            absent[m.group("row")] = fields["absent"]
        else:
            rows[m.group("row")] = fields
    if errors:
        raise BenchLinuxError("Linux rows failed:\n" + "\n".join(errors))
    if halves != {0, 1}:
        raise BenchLinuxError("the module did not finish both halves (done: %s)"
                              % sorted(halves))
    return rows, absent


def costs(fields, base):
    """(insns per call, extra insns vs unprobed, exceptions per call)."""
    insns = float(fields["tsc_per_hit"])
    own = fields.get("unprobed_per_hit")
    ref = float(own) if own is not None else base
    return insns, (None if ref is None else insns - ref), float(fields["exceptions_per_hit"])


def kernel_costs(rows):
    """{row: costs} for one kernel's BENCH rows."""
    base = float(rows["no probe"]["tsc_per_hit"]) if "no probe" in rows else None
    return {name: costs(f, base) for name, f in rows.items()}


def parse_bench_md(text):
    """This kernel's rows from make bench's BUILD/bench.md: its first table."""
    rows = {}
    for line in text.split("\n## ")[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or cells[0] in ("row", "") or set(cells[0]) <= set("-:"):
            continue
        try:
            insns, extra, exc = float(cells[1]), float(cells[2]), float(cells[3])
        except ValueError:
            continue
        rows[cells[0]] = (insns, extra, exc)
    return rows


def match(linux_row, ours):
    """The name of this kernel's row compared with linux_row, or None."""
    for want in MATCH.get(linux_row, [linux_row]):
        for name in ours:
            if (want(name) if callable(want) else name == want):
                return name
    return None


def fmt(x, digits=1):
    return DASH if x is None else "%.*f" % (digits, x)


def pair_rows(ours, linux_rows):
    """[(our row or None, Linux row or None)] in this kernel's order, each
    Linux row beside the row it is compared with; the rows only Linux has
    come last, in Linux's order."""
    pos = {name: i for i, name in enumerate(ours)}
    keyed, used = [], set()
    for i, row in enumerate(linux_rows):
        mine = match(row, ours)
        if mine is not None and mine not in used:
            used.add(mine)
            keyed.append((pos[mine], mine, row))
        else:
            keyed.append((len(ours) + i, None, row))
    keyed += [(pos[n], n, None) for n in ours if n not in used]
    return [(mine, row) for _, mine, row in sorted(keyed, key=lambda k: k[0])]


def build_table(ours, linux, absent):
    """One line per row of either kernel.  Returns (head, body, ladder),
    the ladder being (label, our extra, Linux's extra) for the chart."""
    head = ["row", "this kernel: insns/call", "this kernel: extra", "this kernel: exc/call",
            "Linux 6.1: insns/call", "Linux 6.1: extra", "Linux 6.1: exc/call",
            "Linux / this kernel (extra)"]
    body, ladder = [], []
    none = (None, None, None)
    for mine, row in pair_rows(ours, list(linux) + list(absent)):
        a, b = ours.get(mine, none), linux.get(row, none)
        label = mine or row
        if row and mine and row != mine:
            label = "%s (here: %s)" % (row, mine)
        ratio = b[1] / a[1] if a[1] and b[1] is not None else None
        body.append([label, fmt(a[0]), fmt(a[1]), fmt(a[2], 2), fmt(b[0]), fmt(b[1]),
                     fmt(b[2], 2), fmt(ratio, 2)])
        ladder.append((label, a[1], b[1]))
    return head, body, ladder


def chart(ladder, path):
    """Both kernels' extra instructions per call, side by side (gnuplot)."""
    if not shutil.which("gnuplot"):
        print("bench_linux.py: gnuplot not found, no chart", file=sys.stderr)
        return False
    data = path + ".dat"
    with open(data, "w") as f:
        for label, a, b in ladder:
            f.write('"%s" %s %s\n' % (label.replace(" (here", "\\n(here", 1),
                                      "-" if a is None else a, "-" if b is None else b))
    script = "\n".join([
        'set terminal pngcairo size 1200,560 font ",10"' if bench.gnuplot_has("pngcairo")
        else 'set terminal png size 1200,560',
        'set output "%s"' % path,
        'set title "Extra guest instructions per probed call (QEMU -icount shift=0)"',
        'set ylabel "guest instructions added by the probe"',
        'set datafile missing "-"',
        'set style data histograms', 'set style histogram clustered gap 1',
        'set style fill solid 0.8 border -1', 'set boxwidth 0.9', 'set grid ytics',
        'set yrange [0:*]', 'set bmargin 6', 'set rmargin 10', 'set xtics font ",8" rotate by -25',
        'set key top left',
        'plot "%s" using 2:xtic(1) title "this kernel" lc rgb "#4477aa", '
        '"" using 3 title "Linux 6.1 (Debian 686)" lc rgb "#cc6677"' % data,
    ])
    subprocess.run(["gnuplot"], input=script.encode(), check=True)
    os.remove(data)
    return True


# ---- the two kernels' rows --------------------------------------------------------

def linux_log(args):
    """The Linux boot log: the one given, or a fresh boot."""
    if args.log:
        with open(args.log) as f:
            return f.read()
    ref = os.path.abspath(os.path.join(args.build, "linux-ref"))
    root = fetch(ref)
    headers = fix_headers(root)
    ko = build_module(ref, headers)
    initrd = os.path.join(ref, "initramfs.cpio")
    make_initramfs(root, ko, args.iters, initrd)
    text = boot_linux(root, initrd, args.timeout)
    with open(os.path.join(ref, "boot.log"), "w") as f:
        f.write(text)
    print("bench-linux: the serial log is in %s" % os.path.join(ref, "boot.log"))
    return text


def our_rows(args):
    """This kernel's rows: BUILD/bench.md, or one icount boot of the test image."""
    md = os.path.join(args.build, "bench.md")
    if os.path.exists(md) and not args.fresh:
        print("bench-linux: this kernel's rows from %s" % md)
        with open(md) as f:
            return parse_bench_md(f.read())
    kernel = os.path.join(args.build, "kernel-test.elf")
    if not os.path.exists(kernel):
        raise BenchLinuxError("%s not found (run make first)" % kernel)
    print("bench-linux: this kernel under -icount shift=0 ...", flush=True)
    try:
        return kernel_costs(bench.boot(kernel, args.iters, True, args.timeout))
    except bench.BenchError as e:
        raise BenchLinuxError(str(e))


def qemu_version():
    return capture([QEMU, "--version"]).splitlines()[0] if shutil.which(QEMU) else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory")
    ap.add_argument("--iters", type=int, default=20000, help="calls per row")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds for the Linux boot")
    ap.add_argument("--log", help="a saved Linux serial log: no fetch, no boot")
    ap.add_argument("--fresh", action="store_true",
                    help="boot this kernel even when BUILD/bench.md exists")
    args = ap.parse_args()
    try:
        rows, absent = parse_linux_log(linux_log(args))
        linux = kernel_costs(rows)
        ours = our_rows(args)
    except BenchLinuxError as e:
        print("bench_linux.py: %s" % e, file=sys.stderr)
        return 1
    head, body, ladder = build_table(ours, linux, absent)
    table = bench.markdown(head, body)
    note = ("Guest instructions per call under QEMU -icount shift=0 (%s, %d cores); "
            "extra: against the function unprobed.  Linux: Debian's 686 kernel, "
            "tests/linux-bench/kprobe_bench.c.  %s: a row that kernel lacks%s."
            % (qemu_version(), os.cpu_count(), DASH,
               "".join("; Linux's %s: %s" % (r, why) for r, why in absent.items())))
    print()
    print(table)
    print()
    print(note)
    out = os.path.join(args.build, "bench-linux.md")
    with open(out, "w") as f:
        f.write("# make bench-linux\n\n%s\n\n%s\n" % (table, note))
    print("wrote %s" % out)
    png = os.path.join(args.build, "bench-linux.png")
    if chart(ladder, png):
        print("wrote %s" % png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
