#!/bin/sh
# bootstrap.sh - make sure every tool the build and the tests need is here.
#
# `make run`, `make test` and friends run this first (via `make bootstrap`).
# It says nothing when all is well.  When something is missing it installs
# the Debian packages itself if it can (root + apt-get), otherwise it prints
# the one command to run and fails, so CI logs show the fix, not a puzzle.
#
# POSIX sh on purpose: it must run before anything else is known to exist.

set -u

missing_pkgs=""     # Debian packages to install, space separated
missing_what=""     # what was missing, for the message

# need PACKAGE WHAT: remember that WHAT is missing and PACKAGE provides it.
need() {
	case " $missing_pkgs " in
	*" $1 "*) ;;
	*) missing_pkgs="$missing_pkgs $1" ;;
	esac
	missing_what="$missing_what $2"
}

# have_cmd CMD: is CMD on the PATH?
have_cmd() {
	command -v "$1" >/dev/null 2>&1
}

# The host compiler must link a program with AddressSanitizer and
# UBSan: the host unit tests are built that way (see HOST_CFLAGS).
sanitizers_work() {
	dir=$(mktemp -d 2>/dev/null || echo "/tmp/bootstrap.$$")
	mkdir -p "$dir"
	echo 'int main(void) { return 0; }' > "$dir/t.c"
	gcc -fsanitize=address,undefined -o "$dir/t" "$dir/t.c" >/dev/null 2>&1
	ok=$?
	rm -rf "$dir"
	return $ok
}

# The sanitizer runtimes ship with gcc's own libgcc-N-dev on Debian.
sanitizer_pkg() {
	major=$(gcc -dumpversion 2>/dev/null | cut -d. -f1)
	if [ -n "$major" ]; then
		echo "libgcc-$major-dev"
	else
		echo gcc
	fi
}

# tests/fuzz/ needs clang with libFuzzer (-fsanitize=fuzzer).
fuzzer_works() {
	dir=$(mktemp -d 2>/dev/null || echo "/tmp/bootstrap-fuzz.$$")
	mkdir -p "$dir"
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' > "$dir/f.c"
	clang -fsanitize=fuzzer,address,undefined -o "$dir/f" "$dir/f.c" >/dev/null 2>&1
	ok=$?
	rm -rf "$dir"
	return $ok
}

check_all() {
	missing_pkgs=""
	missing_what=""

	have_cmd qemu-system-i386 || need qemu-system-x86 qemu-system-i386
	have_cmd grub-mkrescue    || need grub-common grub-mkrescue
	[ -d /usr/lib/grub/i386-pc ] || need grub-pc-bin /usr/lib/grub/i386-pc
	have_cmd xorriso          || need xorriso xorriso
	have_cmd mformat          || need mtools mformat
	have_cmd python3          || need python3 python3
	have_cmd objdump          || need binutils objdump
	have_cmd gnuplot          || need gnuplot-nox gnuplot   # make bench's chart
	have_cmd gdb              || need gdb gdb               # make debug; make test's gdb check
	have_cmd bochs            || need bochs bochs           # make run-bochs; the bochs stages of make test and test-all
	[ -f /usr/share/bochs/BIOS-bochs-latest ] || need bochsbios "Bochs's BIOS"
	[ -f /usr/share/vgabios/vgabios.bin ]     || need vgabios "Bochs's VGA BIOS"

	# The kernel's cross compiler.  The Makefile prefers i686-elf- when
	# it exists and passes its choice in CROSS; only Debian's
	# i686-linux-gnu- toolchain can be installed from here.
	cross=${CROSS:-i686-linux-gnu-}
	if [ "$cross" != "i686-linux-gnu-" ] && have_cmd "${cross}gcc"; then
		: # another cross compiler, e.g. i686-elf-gcc: not ours to check
	else
		have_cmd i686-linux-gnu-gcc || need gcc-i686-linux-gnu i686-linux-gnu-gcc
		have_cmd i686-linux-gnu-ld  || need binutils-i686-linux-gnu i686-linux-gnu-ld
	fi

	if ! have_cmd gcc; then
		need gcc gcc
	elif ! sanitizers_work; then
		need "$(sanitizer_pkg)" "gcc-ASan/UBSan-runtime"
	fi

	# libFuzzer's runtime is only a Recommends of clang on Debian 12, and
	# we install with --no-install-recommends: ask for both at once.
	if ! have_cmd clang; then
		need clang clang
		need libclang-rt-dev "clang-libFuzzer-runtime"
	elif ! fuzzer_works; then
		need libclang-rt-dev "clang-libFuzzer-runtime"
	fi
}

# `make run-vga DISPLAY_MODE=gtk|sdl` (bootstrap.sh --gui) also needs a
# QEMU display backend, which Debian ships separately in qemu-system-gui.
# Without a graphical session run-vga uses curses, built into QEMU.
want_gui=${1:-}
check_gui() {
	[ "$want_gui" = "--gui" ] || return 0
	have_cmd qemu-system-i386 || return 0   # check_all asks for QEMU first
	qemu-system-i386 -display help 2>/dev/null | grep -qE '^(gtk|sdl)$' ||
		need qemu-system-gui "a QEMU display (gtk or sdl)"
}

# Debian's busybox-static for i386: real Linux programs for make test's
# busybox stage and `make busybox-initramfs` (docs/busybox.md).  Not
# installed (it would replace the host's busybox): its .deb is fetched
# with apt-get download and unpacked into BUSYBOX_CACHE, once.
BUSYBOX_CACHE=${BUSYBOX_CACHE:-/var/cache/kprobes-i386/busybox-static}
BUSYBOX=${BUSYBOX:-$BUSYBOX_CACHE/root/bin/busybox}

# apt-get update fails as a whole when one index fails (a mirror caught
# half-way through a sync answers with a file of the wrong size), yet it
# keeps every list it did fetch: go on with those, and let the install
# or the download that follows say whether they were enough.
apt_update() {
	apt-get update -q >&2 ||
		echo "bootstrap: apt-get update reported errors; going on with the lists it has" >&2
}

fetch_busybox() {
	[ -x "$BUSYBOX" ] && return 0
	if [ "$BUSYBOX" != "$BUSYBOX_CACHE/root/bin/busybox" ] ||
	   [ "$(id -u)" -ne 0 ] || ! have_cmd apt-get; then
		echo "bootstrap: missing: Debian's busybox-static:i386 at $BUSYBOX" >&2
		echo "bootstrap: fetch it with:  sudo sh scripts/bootstrap.sh" >&2
		echo "    (it runs dpkg --add-architecture i386; apt-get update;" >&2
		echo "     apt-get download busybox-static:i386; dpkg-deb -x into $BUSYBOX_CACHE)" >&2
		return 1
	fi
	echo "bootstrap: fetching busybox-static:i386 into $BUSYBOX_CACHE" >&2
	export DEBIAN_FRONTEND=noninteractive
	dpkg --print-foreign-architectures | grep -qx i386 || dpkg --add-architecture i386 || return 1
	apt_update
	mkdir -p "$BUSYBOX_CACHE/debs" && rm -rf "$BUSYBOX_CACHE/root.new"
	(cd "$BUSYBOX_CACHE/debs" && apt-get download -q busybox-static:i386 >&2) || {
		echo "bootstrap: apt-get download busybox-static:i386 failed" >&2
		return 1
	}
	for deb in "$BUSYBOX_CACHE"/debs/busybox-static_*_i386.deb; do
		dpkg-deb -x "$deb" "$BUSYBOX_CACHE/root.new" || return 1
	done
	rm -rf "$BUSYBOX_CACHE/root" && mv "$BUSYBOX_CACHE/root.new" "$BUSYBOX_CACHE/root"
	[ -x "$BUSYBOX" ]
}

check_all
check_gui
[ -z "$missing_pkgs" ] && { fetch_busybox; exit $?; }

echo "bootstrap: missing:$missing_what" >&2
install_cmd="apt-get install -y --no-install-recommends$missing_pkgs"

if [ "$(id -u)" -eq 0 ] && have_cmd apt-get; then
	echo "bootstrap: installing:$missing_pkgs" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt_update
	# shellcheck disable=SC2086  # word splitting of the list is wanted
	apt-get install -y -q --no-install-recommends $missing_pkgs >&2 || {
		echo "bootstrap: apt-get install failed" >&2
		exit 1
	}
	check_all
	check_gui
	if [ -n "$missing_pkgs" ]; then
		echo "bootstrap: still missing after install:$missing_what" >&2
		exit 1
	fi
	fetch_busybox
	exit $?
fi

echo "bootstrap: install them with:" >&2
if have_cmd apt-get; then
	echo "    sudo apt-get update && sudo $install_cmd" >&2
else
	echo "    (Debian/Ubuntu package names)$missing_pkgs" >&2
fi
exit 1
