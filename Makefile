# kprobes-i386 - build, run and test a small i386 kernel with kprobes.
#
#   make          build build/kernel.elf
#   make run      boot it in QEMU, serial console on this terminal
#   make test     host unit tests + in-kernel KTAP suites in QEMU
#   make help     every target

# ---- toolchain --------------------------------------------------------------
# Prefer a bare-metal i686-elf- toolchain; otherwise Debian's i686-linux-gnu-
# cross compiler, which is fine once told it is building a freestanding kernel.
ifeq ($(origin CROSS),undefined)
  ifneq ($(shell command -v i686-elf-gcc 2>/dev/null),)
    CROSS := i686-elf-
  else
    CROSS := i686-linux-gnu-
  endif
endif

CC      := $(CROSS)gcc
LD      := $(CROSS)ld
NM      := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
OBJDUMP := $(CROSS)objdump
HOSTCC  ?= gcc
PYTHON  ?= python3
QEMU    ?= qemu-system-i386

B ?= build

# Short "CC file" lines like Linux's kbuild; `make V=1` shows full commands.
ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @echo "  $(1)	$(2)"
endif

# Headers: include/ is the kernel's generic API (and the Linux-compatible
# <linux/*.h> modules use); arch/i386/include/asm/ holds every x86 fact -
# descriptors, port I/O, EFLAGS and control registers, pt_regs, atomics,
# the decoder's instruction shapes - included as <asm/name.h>, as Linux's
# arch/x86/include/asm/.  It is the only <asm/...> folder.
ARCH_INCLUDE := arch/i386/include

# -gdwarf-4: gdb 13 misreads the DWARF 5 location lists gcc 12 emits for
# i386 ("Corrupted DWARF expression"), so `print regs` would fail in gdb.
# Linux i386's calling convention (its arch/x86/Makefile, CONFIG_X86_32):
# -mregparm=3 passes a function's first three integer arguments in %eax,
# %edx, %ecx (the rest on the stack), -freg-struct-return returns a small
# struct in %eax:%edx instead of through a hidden pointer.  The kernel,
# the test image, modules and the labs' trees all use it; assembly that
# calls C follows it, or the C function is asmlinkage (include/linkage.h);
# user programs keep the plain i386 ABI (docs/calling-convention.md).
# -mregparm is every object's ABI, libraries included, so the kernel
# links no libgcc: its 64-bit division helpers are lib/div64.c, built
# with the same flags.  Linux's third flag, -msoft-float, changes nothing
# a probe sees in a kernel without floating point, and gcc 12 would turn
# a 64-bit __atomic_compare_exchange_n into a libatomic call under it.
# gcc says nothing of -mregparm to the C code, so -DCONFIG_REGPARM does:
# a module records it in its vermagic, which the loader checks
# (include/vermagic.h).
KERNEL_ABI_CFLAGS := -mregparm=3 -freg-struct-return -DCONFIG_REGPARM=1
CFLAGS := -m32 -march=i686 -std=gnu11 -O2 -g -gdwarf-4 $(KERNEL_ABI_CFLAGS) \
	-ffreestanding -nostdlib -fno-pie -fno-stack-protector \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-fno-asynchronous-unwind-tables -fcf-protection=none \
	-mno-sse -mno-sse2 -mno-mmx -mno-3dnow -mpreferred-stack-boundary=2 \
	-Wall -Wextra -Wno-unused-parameter -Iinclude -I$(ARCH_INCLUDE)
ASFLAGS := -m32 -g -D__ASSEMBLER__ -Iinclude -I$(ARCH_INCLUDE)
LDFLAGS := -m elf_i386 -T linker.ld -nostdlib -z noexecstack --no-warn-rwx-segments
LIBGCC   = $(shell $(CC) -m32 -print-libgcc-file-name)

# ---- sources: every .c / .S in the kernel's folders -------------------------
# Two images share one build.  build/kernel.elf is the kernel a student
# boots (make run, debug, iso): boot, arch, kernel, lib, fs, probes, console.
# build/kernel-test.elf is that kernel plus the test runner (tests/kernel/ktest.c)
# and tests/kernel/ (the suites and the benchmark), for make test and
# make bench; those files define its "test" and "bench" boot modes.
SRCDIRS := boot arch/i386 arch/i386/kprobes kernel kernel/events kernel/trace lib fs probes console init mm
SRCDIRS += fs/proc drivers/char drivers/tty
TEST_SRCS := $(wildcard tests/kernel/*.c) $(wildcard tests/kernel/*.S)
SRCS := $(filter-out $(TEST_SRCS),\
	$(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c) $(wildcard $(d)/*.S)))
# Objects keep the source suffix (entry.S.o, traps.c.o): foo.c and foo.S can coexist.
OBJS := $(patsubst %,$(B)/%.o,$(SRCS))
TEST_OBJS := $(patsubst %,$(B)/%.o,$(TEST_SRCS))
# The suites drive the shell as a user would: they, and only they
# (console/ itself aside), see its headers (tests/host/check_layout.py).
$(TEST_OBJS): CFLAGS += -Iconsole
# probes/kprobes_internal.h is the manager's; its other halves see it: the
# CPU's (arch/i386/kprobes/), Linux's kernel/kprobes.c parts that live
# elsewhere here (the debugfs files, the module unload) and the suites.
KPROBES_INTERNAL_OBJS := $(filter $(B)/arch/i386/kprobes/%,$(OBJS)) \
	$(B)/kernel/trace/kprobes_debugfs.c.o $(B)/kernel/module.c.o $(TEST_OBJS)
$(KPROBES_INTERNAL_OBJS): CFLAGS += -Iprobes

# ---- Linux built-in files: Kbuild's obj-y (docs/modules.md, "Built-in files")
#   make BUILTIN=path/test_kprobes.c CONFIG_KPROBES_SANITY_TEST=y
# Each BUILTIN file is compiled as a module is (the <linux/*.h> headers,
# linux/kconfig.h in front) but without -DMODULE, and linked into
# kernel.elf itself; the test image stays as it is.  Every CONFIG_X=y on
# the command line becomes -DCONFIG_X=1 for the kernel's files and the
# built-in ones, as Linux's generated autoconf.h does, and the objects
# are rebuilt when that set changes ($(B)/kconfig.stamp records it, with
# the calling-convention flags: objects of two conventions must never be
# linked together).
BUILTIN ?=
KCONFIG_Y := $(sort $(foreach v,$(filter CONFIG_%,$(.VARIABLES)),\
	$(if $(and $(filter command line,$(origin $(v))),$(filter y,$($(v)))),$(v))))
CFLAGS += $(patsubst %,-D%=1,$(KCONFIG_Y))
BUILTIN_OBJS := $(patsubst %.c,$(B)/builtin/%.o,$(notdir $(BUILTIN)))
KCONFIG_STAMP := $(B)/kconfig.stamp
ifeq ($(M),)
$(shell mkdir -p $(B); echo '$(KCONFIG_Y) $(BUILTIN) $(KERNEL_ABI_CFLAGS)' | cmp -s - $(KCONFIG_STAMP) || \
	echo '$(KCONFIG_Y) $(BUILTIN) $(KERNEL_ABI_CFLAGS)' > $(KCONFIG_STAMP))
endif
# Linux's lib/test_kprobes.c of 2.6.25-5.13 defines init_test_probes(),
# the name of the kernel's own smoke test: built in, it takes its place.
KERNEL_OBJS = $(if $(and $(BUILTIN),$(filter CONFIG_KPROBES_SANITY_TEST,$(KCONFIG_Y))),\
	$(filter-out $(B)/probes/kprobes_smoke.c.o,$(OBJS)),$(OBJS)) $(BUILTIN_OBJS)

.DEFAULT_GOAL := all
# ---- user programs (user/*.c; docs/user-mode.md) ------------------------------
# Static i386 executables linked at Linux's 0x08048000 (ld's default for
# -m elf_i386 -static), each from one user/NAME.c plus the tiny C library
# user/lib/ and the kernel's own lib/string.c and lib/vsprintf.c built a
# second time.  They reach the kernel as a built-in image: user_image.S
# (scripts/user_image.py) .incbin's every ELF file into both kernel images.
USER_PROGS := $(basename $(notdir $(wildcard user/*.c)))
USER_ELFS := $(patsubst %,$(B)/user/%.elf,$(USER_PROGS))
USER_LIB_SRCS := $(wildcard user/lib/*.c user/lib/*.S) lib/string.c lib/vsprintf.c
USER_LIB_OBJS := $(patsubst %,$(B)/user/obj/%.o,$(USER_LIB_SRCS))
USER_CFLAGS = $(filter-out -Iinclude -I$(ARCH_INCLUDE) $(KERNEL_ABI_CFLAGS),$(CFLAGS)) \
	-Iuser/include -Iinclude -I$(ARCH_INCLUDE)
USER_LDFLAGS := -m elf_i386 -static -nostdlib -e _start -z noexecstack \
	-z noseparate-code --build-id=none
OBJS += $(B)/user/user_image.S.o
DEPS := $(OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(USER_LIB_OBJS:.o=.d) \
	$(patsubst %,$(B)/user/obj/user/%.c.d,$(USER_PROGS))

$(B)/user/obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC [U],$<)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

$(B)/user/obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(call say,AS [U],$<)
	$(Q)$(CC) $(ASFLAGS) -Iuser/include -MMD -MP -c $< -o $@

$(B)/user/%.elf: $(B)/user/obj/user/%.c.o $(USER_LIB_OBJS)
	$(call say,LD [U],$@)
	$(Q)$(LD) $(USER_LDFLAGS) -o $@ $^ $(LIBGCC)

# A program may have assembly of its own: user/NAME_asm.S, linked in.
$(B)/user/uprobe_fixups.elf: $(B)/user/obj/user/uprobe_fixups_asm.S.o
$(B)/user/linuxabi.elf: $(B)/user/obj/user/linuxabi_asm.S.o
$(B)/user/vdso.elf: $(B)/user/obj/user/vdso_asm.S.o
# ...or one more of the kernel's lib/ files: execve names errno values.
# (Only there: every object given to ld is linked whole, and one more
# section in every program would move their code, and the offsets that
# docs and tests put uprobes at.)
$(B)/user/execve.elf: $(B)/user/obj/lib/errno.c.o

# The copies built into the kernel carry no debug sections: the kernel
# reads a program's headers and symbol table (exec, uprobes' NAME:SYMBOL),
# never its DWARF, which is most of each file.  build/user/NAME.elf
# keeps it, for gdb, nm and objdump.
USER_IMAGE_ELFS := $(patsubst %,$(B)/user/image/%.elf,$(USER_PROGS))
$(B)/user/image/%.elf: $(B)/user/%.elf
	@mkdir -p $(dir $@)
	$(call say,STRIP [U],$@)
	$(Q)$(OBJCOPY) --strip-debug $< $@

$(B)/user/user_image.S: $(USER_IMAGE_ELFS) scripts/user_image.py
	$(call say,GEN,$@)
	$(Q)$(PYTHON) scripts/user_image.py $(USER_IMAGE_ELFS) > $@
$(B)/user/user_image.S.o: $(USER_IMAGE_ELFS)
# Keep the objects: they are intermediate to make, but rebuilding all of
# them for every ELF would be slow.
# The full ELF files too: gdb, nm and objdump read them (the images hold
# the stripped copies).
.SECONDARY: $(USER_LIB_OBJS) $(patsubst %,$(B)/user/obj/user/%.c.o,$(USER_PROGS)) \
	$(USER_ELFS)
# ---- the vDSO: a page of the kernel's code in every process (docs/vdso.md) ----
# arch/i386/vdso/*.S linked as a shared object at 0 (vdso32.lds), twice:
# __kernel_vsyscall with sysenter, and with int $0x80 alone for a CPU
# without it.  scripts/vdso2c.py pulls both stripped images into the
# kernel (vdso-image-32.S) with the offsets of the symbols it needs,
# read from the unstripped .so.dbg; arch/i386/vdso.c maps the one the
# CPU can run.  Not in SRCDIRS: none of this is linked into the kernel.
VDSO_DIR := $(B)/arch/i386/vdso
VDSO_SRCS := $(wildcard arch/i386/vdso/*.S)
VDSO_KINDS := int80 sysenter
VDSO_LDFLAGS := -m elf_i386 -shared -soname linux-gate.so.1 --hash-style=both \
	--eh-frame-hdr -z max-page-size=4096 -z noexecstack --build-id=none \
	-T arch/i386/vdso/vdso32.lds
vdso_kind_flags = $(if $(filter sysenter,$(1)),-DCONFIG_VDSO_SYSENTER)
VDSO_OBJS := $(foreach k,$(VDSO_KINDS),$(patsubst arch/i386/vdso/%.S,$(VDSO_DIR)/$(k)/%.o,$(VDSO_SRCS)))
$(VDSO_OBJS): $(VDSO_DIR)/%.o: $(VDSO_SRCS) $(KCONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(call say,AS [V],$@)
	$(Q)$(CC) $(ASFLAGS) -fPIC $(call vdso_kind_flags,$(notdir $(*D))) \
		-c arch/i386/vdso/$(notdir $*).S -o $@
define VDSO_KIND
$(VDSO_DIR)/vdso32-$(1).so.dbg: $(patsubst arch/i386/vdso/%.S,$(VDSO_DIR)/$(1)/%.o,$(VDSO_SRCS)) \
		arch/i386/vdso/vdso32.lds
	$$(call say,LD [V],$$@)
	$$(Q)$$(LD) $$(VDSO_LDFLAGS) -o $$@ $$(filter %.o,$$^)
endef
$(foreach k,$(VDSO_KINDS),$(eval $(call VDSO_KIND,$(k))))
$(VDSO_DIR)/vdso32-%.so: $(VDSO_DIR)/vdso32-%.so.dbg
	$(Q)$(OBJCOPY) -S $< $@
VDSO_IMAGES := $(patsubst %,$(VDSO_DIR)/vdso32-%.so,$(VDSO_KINDS))
$(VDSO_DIR)/vdso-image-32.S: $(VDSO_IMAGES) scripts/vdso2c.py
	$(call say,GEN,$@)
	$(Q)$(PYTHON) scripts/vdso2c.py $(NM) $(VDSO_IMAGES) > $@
$(VDSO_DIR)/vdso-image-32.S.o: $(VDSO_IMAGES)
OBJS += $(VDSO_DIR)/vdso-image-32.S.o
.SECONDARY: $(VDSO_IMAGES) $(VDSO_IMAGES:=.dbg)

# The sample probe modules (samples/kprobes/*.c -> *.ko; see "loadable modules").
SAMPLE_KOS := $(patsubst samples/kprobes/%.c,$(B)/samples/%.ko,\
	$(wildcard samples/kprobes/*.c))

.PHONY: all test-image iso run run-iso run-test run-vga debug debug-test run-bochs debug-bochs crash-demos test test-all host-test bench bench-smp bench-linux conform-linux bootstrap bootstrap-gui clean help
all: $(B)/kernel.elf
test-image: $(B)/kernel-test.elf

# ---- the function tracer's call sites (docs/ftrace.md) ----------------------------
# Linux's CC_FLAGS_FTRACE: every kernel function starts with "call
# __fentry__" (-pg -mfentry) and gcc lists those 5-byte calls in the
# __mcount_loc section (-mrecord-mcount), which ftrace_init() turns into
# nops at boot.  Linux's CFLAGS_REMOVE / notrace: files the tracer's own
# path runs through are built without them, or tracing them would recurse
# (the tracer and its trace buffer, text patching, the trap entry's C,
# printk, kprobes' handlers, the per-CPU and AP start-up code that runs
# before %fs is set), and the test suites, whose own functions keep the
# byte layout their probes at fixed offsets are written against.  User
# programs and host builds never see these flags; modules do (MODULE_CFLAGS).
CC_FLAGS_FTRACE := -pg -mfentry -mrecord-mcount
FTRACE_NOTRACE_SRCS := $(wildcard kernel/trace/*.c) arch/i386/ftrace.c \
	arch/i386/text_poke.c arch/i386/text_poke_bp.c arch/i386/traps.c \
	arch/i386/nmi.c arch/i386/doublefault.c arch/i386/percpu.c \
	arch/i386/smpboot.c arch/i386/oops.c kernel/printk.c lib/vsprintf.c \
	lib/string.c kernel/ktest.c $(wildcard probes/*.c arch/i386/kprobes/*.c) \
	$(filter %.c,$(TEST_SRCS))
ftrace_flags = $(if $(filter $(FTRACE_NOTRACE_SRCS),$(1)),,$(CC_FLAGS_FTRACE))

$(B)/%.c.o: %.c $(KCONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(call ftrace_flags,$<) -MMD -MP -c $< -o $@

$(B)/%.S.o: %.S $(KCONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(call say,AS,$<)
	$(Q)$(CC) $(ASFLAGS) -MMD -MP -c $< -o $@

# ---- two-pass link for the symbol table (see scripts/kallsyms.py) -----------
# Pass 1 links with an empty table; its symbols become build/IMAGE.kallsyms.S;
# pass 2 links that in.  .kallsyms is the last section, so no address moves,
# and the script checks that pass 2's symbols equal pass 1's.  Each image
# gets its own two passes: $(1) is the image's name, $(2) its objects.
$(B)/kallsyms.empty.S:
	@mkdir -p $(B)
	$(call say,GEN,$@)
	$(Q)$(PYTHON) scripts/kallsyms.py --empty > $@

define LINK_IMAGE
$(B)/$(1).pass1.elf: $(2) $(B)/kallsyms.empty.S.o linker.ld
	$$(call say,LD,$$@)
	$$(Q)$$(LD) $$(LDFLAGS) -o $$@ $(2) $(B)/kallsyms.empty.S.o

$(B)/$(1).kallsyms.S: $(B)/$(1).pass1.elf scripts/kallsyms.py
	$$(call say,GEN,$$@)
	$$(Q)$$(NM) -n -S $$< | $$(PYTHON) scripts/kallsyms.py > $$@

$(B)/$(1).elf: $(B)/$(1).pass1.elf $(B)/$(1).kallsyms.S.o
	$$(call say,LD,$$@)
	$$(Q)$$(LD) $$(LDFLAGS) -o $$@ $(2) $(B)/$(1).kallsyms.S.o
	$$(Q)$$(NM) -n -S $(B)/$(1).pass1.elf > $(B)/$(1).nm.pass1
	$$(Q)$$(NM) -n -S $$@ > $(B)/$(1).nm.pass2
	$$(Q)$$(PYTHON) scripts/kallsyms.py --check $(B)/$(1).nm.pass1 $(B)/$(1).nm.pass2
endef

$(eval $(call LINK_IMAGE,kernel,$(KERNEL_OBJS)))
$(eval $(call LINK_IMAGE,kernel-test,$(OBJS) $(TEST_OBJS)))

$(B)/%.S.o: $(B)/%.S
	$(call say,AS,$<)
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@

# ---- ISO image: GRUB + our kernel -------------------------------------------
iso: $(B)/kernel.iso
# The sample probe modules ride along in /boot/modules for the menu entry
# that loads them, and the test image for the one that runs the suites
# (see iso/boot/grub/grub.cfg); the other entries boot kernel.elf.
$(B)/kernel.iso: $(B)/kernel.elf $(B)/kernel-test.elf iso/boot/grub/grub.cfg $(SAMPLE_KOS)
	$(call say,ISO,$@)
	$(Q)rm -rf $(B)/isodir && mkdir -p $(B)/isodir/boot/grub $(B)/isodir/boot/modules
	$(Q)cp $(B)/kernel.elf $(B)/kernel-test.elf $(B)/isodir/boot/
	$(Q)cp $(SAMPLE_KOS) $(B)/isodir/boot/modules/
	$(Q)cp iso/boot/grub/grub.cfg $(B)/isodir/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $@ $(B)/isodir 2> $(B)/grub-mkrescue.log || \
		{ cat $(B)/grub-mkrescue.log; exit 1; }

# ---- running ------------------------------------------------------------------
QEMU_COMMON := -m 128M -device isa-debug-exit,iobase=0xf4,iosize=0x04
CMDLINE ?=
MODULES ?=
# SMP=N: how many CPUs run, debug and their -test twins boot (1 to 8).
# More than one runs on QEMU's multi-threaded TCG: each vCPU is a host
# thread, so the CPUs really run at the same time.  make bench's first
# half stays at one CPU: it needs -icount, which multi-threaded TCG cannot
# do; make bench-smp (its second half) sets its own CPU counts.
SMP ?= 2
SMP_ARGS = -smp $(SMP) $(if $(filter-out 1,$(SMP)),-accel tcg$(comma)thread=multi)
QEMU_RUN = $(QEMU_COMMON) $(SMP_ARGS)

# `make run`: an oops or panic leaves QEMU (panic_exit) and gives the
# terminal back; `make debug` keeps the machine halted for gdb.  A reset
# reboots the kernel (the shell's reboot), except with crash= on the
# command line: crash=triple would reset, boot and crash for ever.
RUN_CMDLINE = $(strip $(CMDLINE) panic_exit)
RUN_RESET = $(if $(findstring crash=,$(CMDLINE)),-no-reboot)

# run-vga: which QEMU display shows the VGA screen.  auto picks a window
# (gtk) when there is a graphical session, else curses: VGA text mode
# drawn in this terminal, which needs no GUI packages at all.
DISPLAY_MODE ?= auto
DISPLAY_MODES := auto gtk sdl curses vnc
ifeq ($(DISPLAY_MODE),auto)
  VGA_DISPLAY := $(if $(DISPLAY)$(WAYLAND_DISPLAY),gtk,curses)
else
  VGA_DISPLAY := $(DISPLAY_MODE)
endif
# curses owns the terminal, so the serial console moves to QEMU's own
# virtual consoles (Esc 3 there); the others keep it here.
VGA_ARGS_gtk    := -display gtk -serial mon:stdio
VGA_ARGS_sdl    := -display sdl -serial mon:stdio
VGA_ARGS_curses := -display curses
VGA_ARGS_vnc    := -display vnc=:0 -serial mon:stdio
VGA_SAY_gtk     := a QEMU window shows the VGA screen; this terminal is the serial console (Ctrl-A X quits)
VGA_SAY_sdl     := $(VGA_SAY_gtk)
VGA_SAY_curses  := no graphical display: QEMU draws the VGA text screen in this terminal (curses). Type at the keyboard console; Esc 2 is QEMU's monitor (type quit there), Esc 3 the serial console, Esc 1 back
VGA_SAY_vnc     := connect a VNC viewer to localhost:5900 for the VGA screen; this terminal is the serial console (Ctrl-A X quits)

# What QEMU's exit status means, said in words instead of make's bare
# "Error 35".  isa-debug-exit turns the kernel's qemu_exit(v) into the
# status (v << 1) | 1 (include/kernel.h): QEMU_EXIT_PASS (0x10) is 33,
# QEMU_EXIT_FAIL (0x11) is 35 - what an oops under panic_exit writes, and
# what the test image writes when a test failed.  0 is a power off, Ctrl-A
# X, or a reset under -no-reboot (crash=triple).
QEMU_STATUS_PASS := 33
QEMU_STATUS_FAIL := 35
# $(call qemu_status,TARGET,SAY_PASS,STATUS_PASS,SAY_FAIL,STATUS_FAIL): the
# shell code after "QEMU ... ||": print what 33 or 35 meant and leave with
# the status make should report (0: it went as asked).
qemu_status = { s=$$?; case $$s in \
	$(QEMU_STATUS_PASS)) echo "make $(1): QEMU exit status $$s: $(2)"; exit $(3);; \
	$(QEMU_STATUS_FAIL)) echo "make $(1): QEMU exit status $$s: $(4)"; exit $(5);; \
	*) echo "make $(1): QEMU failed (exit status $$s)"; exit $$s;; esac; }
# make run: an oops asked for with crash= is the demo working; any other
# oops or panic is the kernel's failure, not the build's.
RUN_SAY_PASS := the kernel left through the debug-exit port (no ACPI power off). Nothing went wrong.
RUN_SAY_OOPS = $(strip $(if $(findstring crash=,$(CMDLINE)),\
	the kernel oopsed as $(filter crash=%,$(CMDLINE)) asked and left QEMU (panic_exit). The demo worked - the build is fine.,\
	the kernel oopsed or panicked (the report is above) and left QEMU (panic_exit). The build is fine - the kernel is not.))
RUN_STATUS_OOPS = $(if $(findstring crash=,$(CMDLINE)),0,1)
RUN_STATUS = $(call qemu_status,$@,$(RUN_SAY_PASS),0,$(RUN_SAY_OOPS),$(RUN_STATUS_OOPS))
TEST_STATUS = $(call qemu_status,$@,every test passed.,0,$(TEST_SAY_FAIL),1)
TEST_SAY_FAIL := a test failed or the kernel crashed (the KTAP output is above).

# CROSS is passed so the script skips Debian's toolchain when i686-elf- is used.
bootstrap:
	@CROSS=$(CROSS) sh scripts/bootstrap.sh

# gtk and sdl also need QEMU's display modules (Debian's qemu-system-gui).
bootstrap-gui:
	@CROSS=$(CROSS) sh scripts/bootstrap.sh --gui

run: bootstrap all
	$(QEMU) $(QEMU_RUN) $(RUN_RESET) -kernel $(B)/kernel.elf \
		-append "$(RUN_CMDLINE)" -display none -serial mon:stdio || $(RUN_STATUS)

# The test image, e.g. CMDLINE=test=traps to watch one suite's KTAP
# output; the run ends QEMU itself, with 33 if every test passed.
run-test: bootstrap test-image
	$(QEMU) $(QEMU_RUN) -no-reboot -kernel $(B)/kernel-test.elf \
		-append "$(CMDLINE)" -display none -serial mon:stdio || $(TEST_STATUS)

# Boot build/kernel.iso the way a PC boots it: the BIOS (SeaBIOS) reads
# the CD's El Torito record, starts GRUB, GRUB shows its menu - on COM1
# too (grub.cfg), so here in the terminal - and loads the kernel with
# Multiboot.  The same image boots a VM's CD drive or a USB stick
# (grub-mkrescue writes a hybrid MBR); README.md says how.  No
# panic_exit: GRUB's menu sets the command line.
run-iso: bootstrap iso
	$(QEMU) $(QEMU_RUN) -cdrom $(B)/kernel.iso -boot d \
		-display none -serial mon:stdio || $(RUN_STATUS)

run-vga: bootstrap all
	@test -n "$(VGA_ARGS_$(VGA_DISPLAY))" || { echo "DISPLAY_MODE=$(DISPLAY_MODE): pick one of $(DISPLAY_MODES)"; exit 1; }
	$(if $(filter gtk sdl,$(VGA_DISPLAY)),@CROSS=$(CROSS) sh scripts/bootstrap.sh --gui)
	@echo "run-vga ($(VGA_DISPLAY)): $(VGA_SAY_$(VGA_DISPLAY))"
	$(QEMU) $(QEMU_RUN) $(RUN_RESET) -kernel $(B)/kernel.elf \
		-append "$(RUN_CMDLINE)" $(VGA_ARGS_$(VGA_DISPLAY)) || $(RUN_STATUS)

# QEMU waits for gdb on :1234; in another terminal: gdb -x scripts/gdbinit
# No panic_exit and -no-reboot: after an oops the CPU stays halted with
# its state intact, for gdb to look at.
debug: bootstrap all
	@echo "QEMU is halted. In another terminal run:  gdb -x scripts/gdbinit"
	$(QEMU) $(QEMU_RUN) -no-reboot -kernel $(B)/kernel.elf -append "$(CMDLINE)" \
		-display none -serial mon:stdio -s -S

# The same with the test image: debug a test run (CMDLINE=test=traps).
# Both images put the kernel's code at the same addresses (the tests'
# code comes after it), so gdbinit's break at kmain works; at that stop,
# `file build/kernel-test.elf` loads the test image's symbols too.
debug-test: bootstrap test-image
	@echo "QEMU is halted. In another terminal run:  gdb -x scripts/gdbinit"
	@echo "and at the kmain stop:  file $(B)/kernel-test.elf"
	$(QEMU) $(QEMU_RUN) -no-reboot -kernel $(B)/kernel-test.elf -append "$(CMDLINE)" \
		-display none -serial mon:stdio -s -S

# ---- Bochs: a second x86 (docs/testing.md, "Two x86s") -------------------------
# Bochs boots $(B)/kernel.iso as a PC does (BIOS, GRUB's menu on COM1),
# with scripts/bochsrc.txt and the variables it names.  Its BIOS waits
# in Bochs's debugger at reset; run-bochs tells it to continue.
BOCHS ?= bochs
BOCHS_DIR := $(B)/bochs
BOCHS_ENV = BOCHS_ISO=$(B)/kernel.iso BOCHS_LOG=$(BOCHS_DIR)/bochs.log BOCHS_CPUS=$(SMP)

# The serial console in this terminal (Bochs's "term" mode on /dev/tty);
# without a terminal, in $(BOCHS_DIR)/serial.log.  Term mode hands every
# key to COM1, Ctrl-C included, so Bochs is stopped from outside: a
# shell writes down its pid and exec's Bochs; the terminal's settings,
# which a killed Bochs does not restore, are put back after it.
run-bochs: bootstrap iso
	@mkdir -p $(BOCHS_DIR) && echo continue > $(BOCHS_DIR)/continue.rc
	@if [ -t 0 ]; then echo "run-bochs: the serial console is this terminal (every key goes to it);" \
		"to quit, in another terminal: kill \$$(cat $(BOCHS_DIR)/bochs.pid)"; \
	else echo "run-bochs: no terminal: the serial console goes to $(BOCHS_DIR)/serial.log"; fi
	@tty=$$(stty -g 2>/dev/null); \
	sh -c 'echo $$$$ > $(BOCHS_DIR)/bochs.pid; exec "$$@"' bochs env $(BOCHS_ENV) \
		BOCHS_SERIAL_MODE=$$([ -t 0 ] && echo term || echo file) \
		BOCHS_SERIAL_DEV=$$([ -t 0 ] && echo /dev/tty || echo $(BOCHS_DIR)/serial.log) \
		$(BOCHS) -q -f scripts/bochsrc.txt -rc $(BOCHS_DIR)/continue.rc; \
	[ -z "$$tty" ] || stty "$$tty"

# Bochs's own debugger at the first instruction (the BIOS's reset
# vector): "c" runs, Ctrl-C stops, then info idt / info gdt / info tss /
# info tab / r / sreg / x /4wx ADDR ... ("help" lists them).  This terminal
# is the debugger's, so the serial console goes to $(BOCHS_DIR)/serial.log.
debug-bochs: bootstrap iso
	@mkdir -p $(BOCHS_DIR)
	@echo "debug-bochs: Bochs's debugger; c runs, Ctrl-C stops, info idt|gdt|tss|tab; serial in $(BOCHS_DIR)/serial.log"
	$(BOCHS_ENV) BOCHS_SERIAL_MODE=file BOCHS_SERIAL_DEV=$(BOCHS_DIR)/serial.log \
		$(BOCHS) -q -f scripts/bochsrc.txt

# Every crash= mode and an NMI, each booted and its report checked.
crash-demos: bootstrap all
	$(PYTHON) tests/crash_demos.py --build $(B)

# ---- host side: lib/ built with the host compiler and sanitizers --------------
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter \
	-fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude -I$(ARCH_INCLUDE) -Itests/host
HOST_LIB_SRCS := $(wildcard lib/*.c)
HOST_TESTS := $(patsubst tests/host/%.c,$(B)/host/%,$(wildcard tests/host/test_*.c))
HOST_TOOLS := $(patsubst tests/host/%.c,$(B)/host/%,$(filter-out tests/host/test_%,$(wildcard tests/host/*.c)))

$(B)/host/%: tests/host/%.c $(HOST_LIB_SRCS) $(wildcard include/*.h $(ARCH_INCLUDE)/asm/*.h tests/host/*.h tests/kernel/ktest.h)
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$@)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -DHOST_BUILD -o $@ $< $(HOST_LIB_SRCS)

host-test: $(HOST_TESTS) $(HOST_TOOLS)

# ---- tests --------------------------------------------------------------------
# SUITES=traps,kprobes runs only those in-kernel suites (and skips the oops
# and ISO boots); TESTFLAGS passes anything else, e.g. TESTFLAGS="--only host".
SUITES ?=
TESTFLAGS ?=
# The build runs one job per core (nproc; CI calls plain `make test`),
# unless make was given -j itself; bootstrap comes first, alone: it may
# install the compiler the build needs.
NPROC := $(shell nproc 2>/dev/null || echo 1)
TEST_BUILD_JOBS = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC))
TEST_BUILD := all test-image iso host-test modules test-modules initramfs
test: bootstrap
	+$(Q)$(MAKE) --no-print-directory $(TEST_BUILD_JOBS) $(TEST_BUILD)
	$(PYTHON) tests/run_tests.py --build $(B) $(if $(SUITES),--suites $(SUITES)) $(TESTFLAGS)

# Everything in `make test`, then what is too long for it: the sweep that
# probes every instruction of every kernel function (probe_all_full), the
# ring-3 fuzzer twenty times longer (user_fuzz_long), each lab region
# stubbed alone (a graded case must notice every one), and every suite on
# Bochs, the second x86 (one CPU; tens of minutes).
BOCHS_TIMEOUT := 7200
LONG_SUITES := probe_all_full,user_fuzz_long
test-all: test
	$(PYTHON) tests/run_tests.py --build $(B) --suites $(LONG_SUITES) --timeout 3600 --only kernel --smp 1
	$(PYTHON) tests/run_tests.py --build $(B) --only lab-regions
	$(PYTHON) tests/run_tests.py --build $(B) --only bochs --timeout $(BOCHS_TIMEOUT)

# ---- labs (labs/README.md) -----------------------------------------------------
# make lab LAB=N writes lab N's student tree to ../kprobes-lab-N/, a git
# repository beside this tree (make clean keeps it): the LAB N regions of
# the sources become stubs, the later labs' placeholders.  If the
# student's ../kprobes-lab-(N-1)/ exists, lab N's tree is it with lab N's
# handout merged in.  A tree with work in it is never overwritten unless
# FORCE=1.  make grade boots the test image on each lab's graded cases
# and prints the score (in a student tree: that lab's; here: every
# lab's, or LAB=N's).
LAB ?=
FORCE ?=
.PHONY: lab grade
lab:
	@test -n "$(LAB)" || { echo "make lab LAB=N: which lab (see labs/)"; exit 1; }
	$(PYTHON) scripts/mklab.py --lab $(LAB) $(if $(FORCE),--force)

grade: test-image
	$(PYTHON) scripts/grade.py --build $(B) $(if $(LAB),--lab $(LAB))

# Both halves: one CPU under -icount (bench.py), then every CPU hitting
# one probe at once at 1, 2 and 4 CPUs, per-CPU and kprobes.lock=global
# (bench_smp.py, multi-threaded TCG).  bench-smp runs the second alone.
bench: bootstrap test-image
	$(PYTHON) tests/bench.py --build $(B)
	$(PYTHON) tests/bench_smp.py --build $(B)

bench-smp: bootstrap test-image
	$(PYTHON) tests/bench_smp.py --build $(B)

# Linux 6.1's column, measured live: Debian's i386 kernel and headers,
# fetched once into $(B)/linux-ref/, a module from tests/linux-bench/
# booted under -icount beside this kernel's rows (docs/performance.md).
# make test does not run it: it needs the network the first time.
bench-linux: bootstrap test-image
	$(PYTHON) tests/bench_linux.py --build $(B)

# The same tracefs lines (tests/conform/tracefs.txt) on Debian's Linux 6.1,
# fetched as bench-linux fetches it, and on this kernel, side by side in
# $(B)/conform-linux.md (docs/tracing.md, "Where this kernel differs").
# make test does not run it: it needs the network the first time.
conform-linux: bootstrap all
	$(PYTHON) tests/conform_linux.py --build $(B)

# With M=DIR (an external module folder) clean only that folder's .ko files.
clean:
ifneq ($(M),)
	rm -f $(M)/*.ko $(M)/*.o
else
	rm -rf $(B)
endif

# Every target and variable, one line each (tests/host/check_makefile.py
# checks that none is missing).
help:
	@echo "Targets:"
	@echo "  make, make all    build $(B)/kernel.elf (toolchain: $(CROSS)gcc)"
	@echo "  make test-image   build $(B)/kernel-test.elf: the kernel plus tests/kernel/"
	@echo "  make iso          build $(B)/kernel.iso with grub-mkrescue"
	@echo "  make run-iso      boot $(B)/kernel.iso in QEMU: GRUB's menu, then the kernel"
	@echo "  make run          boot in QEMU, serial console here (Ctrl-A X quits;"
	@echo "                    an oops exits QEMU, the shell's reboot boots again;"
	@echo "                    make then says what QEMU's exit status 33 or 35 meant)"
	@echo "  make run-test     boot the test image, e.g. CMDLINE=test=traps (one suite;"
	@echo "                    QEMU's exit status 33: all passed, 35: a failure)"
	@echo "  make run-vga      boot with the VGA screen too (DISPLAY_MODE= below)"
	@echo "  make debug        boot halted with a gdb stub (gdb -x scripts/gdbinit);"
	@echo "                    an oops leaves the CPU halted for gdb"
	@echo "  make debug-test   the same with the test image, e.g. CMDLINE=test=traps"
	@echo "  make run-bochs    boot $(B)/kernel.iso in Bochs, serial console here (scripts/bochsrc.txt)"
	@echo "  make debug-bochs  the same stopped in Bochs's debugger (info idt|gdt|tss|tab)"
	@echo "  make crash-demos  boot every crash= mode and an NMI, check each report"
	@echo "  make test         host tests, then the in-kernel suites in QEMU"
	@echo "  make test-all     make test, then the long suites ($(LONG_SUITES)) and"
	@echo "                    each lab region stubbed alone (run_tests.py --only lab-regions),"
	@echo "                    then every suite on Bochs (run_tests.py --only bochs)"
	@echo "  make host-test    build the host unit tests and tools into $(B)/host/"
	@echo "  make bench        probe-hit costs under qemu -icount, then make bench-smp"
	@echo "  make bench-smp    every CPU hitting one probe at 1, 2, 4 CPUs: per-CPU"
	@echo "                    kprobes against kprobes.lock=global (docs/performance.md)"
	@echo "  make bench-linux  the same probe hits on Debian's Linux 6.1, booted under qemu"
	@echo "                    -icount; both kernels in $(B)/bench-linux.md and .png"
	@echo "  make conform-linux the same tracefs lines on Debian's Linux 6.1 and here,"
	@echo "                    side by side where they differ: $(B)/conform-linux.md"
	@echo "  make lab LAB=N    write lab N's student tree, a git repository, to ../kprobes-lab-N"
	@echo "                    (lab N-1's tree carried forward if there is one; labs/README.md)"
	@echo "  make grade        boot the test image on the labs' graded tests, print the score"
	@echo "                    and, under each FAIL, the first failed check and its log"
	@echo "  make fuzz         fuzz the kprobe_events parser for FUZZ_TIME seconds"
	@echo "  make fuzz-modules fuzz the module loader's ELF checks for FUZZ_TIME seconds"
	@echo "  make modules      build the sample probe modules into $(B)/samples/"
	@echo "  make test-modules build the test modules into $(B)/test-modules/ and"
	@echo "                    $(B)/linux-modules/ (make linux-test-modules: only those,"
	@echo "                    tests/linux-modules/ built with make -C TREE M=DIR modules)"
	@echo "  make bootstrap    check (as root: install) the tools the build needs"
	@echo "  make bootstrap-gui  the same, plus QEMU's gtk/sdl display"
	@echo "  make clean        remove $(B)/ (with M=DIR: only DIR/*.ko and *.o)"
	@echo "  make help         this list"
	@echo "  make initramfs    $(B)/initramfs.cpio: /bin's programs and /etc/motd (make run INITRD=...)"
	@echo "  make busybox-initramfs  $(B)/busybox.cpio: Debian's busybox and its applets (docs/busybox.md)"
	@echo "  make -C <tree> M=<dir> [modules]   build <dir>'s obj-m (Kbuild or Makefile),"
	@echo "                    or every <dir>/*.c, into loadable .ko modules"
	@echo "  make modules_install   (with M=<dir>) nothing to install here: boot"
	@echo "                    the .ko files with MODULES='...'"
	@echo "Variables (make VAR=value ...):"
	@echo "  V=1               show full commands instead of short CC/LD lines"
	@echo "  B=dir             build directory (default: build)"
	@echo "  CMDLINE='...'     kernel command line, e.g. CMDLINE='crash=gp'"
	@echo "  MODULES='a.ko b.ko'  boot modules for insmod=NAME (run, debug)"
	@echo "  INITRD=f.cpio     a newc cpio unpacked into the ramfs at / (run, debug; docs/exec.md)"
	@echo "  BUSYBOX=path      the i386 busybox busybox-initramfs packs (default: what bootstrap fetched)"
	@echo "  BUSYBOX_CACHE=dir where bootstrap unpacks busybox-static:i386 (/var/cache/kprobes-i386/busybox-static)"
	@echo "  BUILTIN=f.c       link a Linux built-in file into kernel.elf (Kbuild's obj-y);"
	@echo "                    CONFIG_X=y defines CONFIG_X, e.g. CONFIG_KPROBES_SANITY_TEST=y"
	@echo "  SMP=N             CPUs for run, debug, run-test, debug-test, run-bochs (now: $(SMP))"
	@echo "  SUITES=a,b        make test: only these in-kernel suites"
	@echo "  LAB=N             make lab: which lab; make grade: only that lab"
	@echo "  FORCE=1           make lab: replace a lab tree even if it holds work"
	@echo "  TESTFLAGS='...'   more run_tests.py options, e.g. TESTFLAGS='--only host'"
	@echo "  DISPLAY_MODE=m    run-vga display: $(DISPLAY_MODES) (now: $(VGA_DISPLAY))"
	@echo "  M=dir             external module folder (make -C <tree> M=dir, make clean)"
	@echo "  CROSS=prefix      cross toolchain prefix (now: $(CROSS))"
	@echo "  QEMU=binary       the emulator (now: $(QEMU))"
	@echo "  BOCHS=binary      the emulator of run-bochs, debug-bochs (now: $(BOCHS))"
	@echo "  PYTHON=, HOSTCC=  the host python3 and C compiler"
	@echo "  FUZZ_CC=, FUZZ_TIME=  make fuzz: compiler (clang) and seconds ($(FUZZ_TIME))"

-include $(DEPS)

# ---- loadable modules (docs/modules.md) ----------------------------------------
#   make -C <this tree> M=<dir> [modules]   Linux's command: builds the obj-m
#                                 of <dir>/Kbuild or <dir>/Makefile (with
#                                 -objs, ccflags-y...), or every <dir>/*.c
#                                 when there is no obj-m (scripts/Makefile.modbuild)
#   make modules                  samples/kprobes/*.c -> $(B)/samples/*.ko
#   make test-modules             tests/modules/*.c and the broken variants
#                                 -> $(B)/test-modules/*.ko, and
#                                 tests/linux-modules/ built Linux's way
#   make run MODULES="a.ko b.ko" CMDLINE="insmod=a"   boot with modules
# A .ko is one ELF32 relocatable object (gcc -c, or ld -r of several),
# linked into the running kernel by kernel/module.c against the symbols
# kernel/exports.c exports.  No -g: the loader does not read debug
# information.  A call to an undeclared function (a missing #include) is
# an error, as in Linux: C would guess "int f()" and the module would load
# and misbehave.  -nostdinc, as Linux's: <linux/kernel.h> must be this
# tree's include/linux/kernel.h, never the host's /usr/include/linux; only
# the compiler's own freestanding headers (<stdarg.h>, <stdint.h>) remain.
# MODULE_CFLAGS is expanded when a recipe runs (=, not :=): on a fresh
# machine the cross compiler that -print-file-name asks is installed by
# the bootstrap step, after make has read this file.
KTREE := $(CURDIR)
MODULE_CFLAGS = $(filter-out -g -gdwarf-4 -Iinclude -I$(ARCH_INCLUDE),$(CFLAGS)) -fno-common -DMODULE \
	-Werror=implicit-function-declaration \
	-nostdinc -isystem $(shell $(CC) -print-file-name=include) -I$(KTREE)/include \
	-I$(KTREE)/$(ARCH_INCLUDE) \
	-include $(KTREE)/include/linux/kconfig.h $(CC_FLAGS_FTRACE)
MODULE_DEPS := $(wildcard $(KTREE)/include/*.h $(KTREE)/include/*/*.h \
	$(KTREE)/$(ARCH_INCLUDE)/*/*.h)
MODBUILD = $(MAKE) --no-print-directory -f $(KTREE)/scripts/Makefile.modbuild \
	KTREE=$(KTREE) CC="$(CC)" LD="$(LD)" MODULE_CFLAGS="$(MODULE_CFLAGS)" \
	MODULE_DEPS="$(MODULE_DEPS)" V=$(V)

ifneq ($(M),)
.DEFAULT_GOAL := modules
.PHONY: modules modules_install
modules:
	+$(Q)$(MODBUILD) M=$(M)
modules_install:
	@echo "modules_install: nothing to install; boot the .ko with MODULES= (docs/modules.md)"
else
modules: $(SAMPLE_KOS)
endif

TEST_KOS := $(patsubst tests/modules/%.c,$(B)/test-modules/%.ko,\
	$(wildcard tests/modules/*.c))
.PHONY: modules test-modules linux-test-modules
test-modules: $(TEST_KOS) $(B)/test-modules/broken.stamp $(B)/test-modules/broken_abi.ko \
	linux-test-modules

# Modules written as Linux modules are, built with Linux's command in a
# copy (Kbuild leaves its objects next to the sources).
LINUX_TEST_DIR := $(B)/linux-modules
linux-test-modules: $(wildcard tests/linux-modules/*) $(MODULE_DEPS)
	@mkdir -p $(LINUX_TEST_DIR)
	@cp -p tests/linux-modules/* $(LINUX_TEST_DIR)/
	$(Q)$(MAKE) --no-print-directory -C $(KTREE) M=$(abspath $(LINUX_TEST_DIR)) modules

# The BUILTIN files (Kbuild's obj-y): module flags without -DMODULE.
BUILTIN_CFLAGS = $(filter-out -DMODULE,$(MODULE_CFLAGS))
define BUILTIN_RULE
$(B)/builtin/$(basename $(notdir $(1))).o: $(1) $(MODULE_DEPS) $(KCONFIG_STAMP)
	@mkdir -p $$(dir $$@)
	$$(call say,CC,$$@)
	$$(Q)$$(CC) $$(BUILTIN_CFLAGS) -c $$< -o $$@
endef
$(foreach f,$(BUILTIN),$(eval $(call BUILTIN_RULE,$(f))))

$(B)/samples/%.ko: samples/kprobes/%.c $(MODULE_DEPS) $(KCONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC [M],$@)
	$(Q)$(CC) $(MODULE_CFLAGS) -c $< -o $@

$(B)/test-modules/%.ko: tests/modules/%.c $(MODULE_DEPS) $(KCONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC [M],$@)
	$(Q)$(CC) $(MODULE_CFLAGS) -c $< -o $@

# A good module's source built with the plain i386 convention (no
# -mregparm=3): the loader must refuse it by its vermagic.
$(B)/test-modules/broken_abi.ko: tests/modules/modtest_basic.c $(MODULE_DEPS) $(KCONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(call say,CC [M],$@)
	$(Q)$(CC) $(filter-out $(KERNEL_ABI_CFLAGS),$(MODULE_CFLAGS)) -c $< -o $@

# Truncated, wrong magic, bad relocations...: made from a good object.
$(B)/test-modules/broken.stamp: $(B)/test-modules/modtest_basic.ko \
		tests/modules/make_broken.py
	$(call say,GEN,$(B)/test-modules/broken-*.ko)
	$(Q)$(PYTHON) tests/modules/make_broken.py $< $(B)/test-modules
	@touch $@

empty :=
space := $(empty) $(empty)
comma := ,
# INITRD=FILE.cpio: a newc cpio archive, unpacked into the ramfs at / at
# boot (init/initramfs.c); `make initramfs` writes one (docs/exec.md).
INITRD ?=
BOOT_MODULES = $(strip $(MODULES) $(INITRD))
QEMU_COMMON += $(if $(BOOT_MODULES),-initrd "$(subst $(space),$(comma),$(BOOT_MODULES))")

# build/initramfs.cpio: the user programs as /bin/NAME and /etc/motd, as
# Linux's usr/gen_init_cpio would write them.
INITRAMFS := $(B)/initramfs.cpio
$(INITRAMFS): $(USER_IMAGE_ELFS) scripts/gen_initramfs.py scripts/initramfs/motd
	$(call say,GEN,$@)
	$(Q)$(PYTHON) scripts/gen_initramfs.py $@ /etc/motd=scripts/initramfs/motd \
		$(foreach e,$(USER_IMAGE_ELFS),/bin/$(notdir $(basename $(e)))=$(e))
.PHONY: initramfs
initramfs: $(INITRAMFS)

# build/busybox.cpio: Debian's static busybox for i386 as /bin/busybox and
# every applet as a hard link of it (/bin/sh, /bin/cat, ...), which
# bootstrap fetches (docs/busybox.md).  `make run INITRD=build/busybox.cpio
# CMDLINE=init=/bin/sh` boots into its shell.
BUSYBOX_CACHE ?= /var/cache/kprobes-i386/busybox-static
BUSYBOX ?= $(BUSYBOX_CACHE)/root/bin/busybox
BUSYBOX_CPIO := $(B)/busybox.cpio
$(BUSYBOX_CPIO): scripts/busybox_initramfs.py scripts/gen_initramfs.py
	@test -x "$(BUSYBOX)" || { echo "no busybox at $(BUSYBOX): run scripts/bootstrap.sh as root (docs/busybox.md)"; exit 1; }
	$(call say,GEN,$@)
	$(Q)$(PYTHON) scripts/busybox_initramfs.py $@ $(BUSYBOX) >/dev/null
.PHONY: busybox-initramfs
busybox-initramfs: bootstrap $(BUSYBOX_CPIO)

# ---- fuzzing (see tests/fuzz/) -------------------------------------------------
# Two libFuzzer targets: the kprobe_events parser and the module loader's
# ELF checks (lib/module_elf.c).  libFuzzer needs clang.  The committed
# seeds stay untouched: new inputs go to $(B)/fuzz/corpus (parser) and
# $(B)/fuzz/module-corpus (loader, seeded with the built .ko files), the
# first corpus directory.  `make test` runs a short bounded fuzz of each
# through tests/host/check_fuzz.py; `make fuzz` / `make fuzz-modules` run
# longer.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 300
FUZZ_CFLAGS := -std=gnu11 -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Wall -Wextra -Wno-unused-parameter \
	-DHOST_BUILD -Iinclude -I$(ARCH_INCLUDE) -Ilib
FUZZ_BIN    := $(B)/fuzz/fuzz_probe_events
FUZZ_ARGS   := -dict=tests/fuzz/probe_events.dict -max_len=4200 -timeout=10
FUZZ_MODULE_BIN  := $(B)/fuzz/fuzz_module_elf
FUZZ_MODULE_ARGS := -max_len=8192 -timeout=10

# Without clang the check script reports SKIP instead of failing the build.
# The test is made when the recipe runs, not when make reads this file:
# on a fresh machine `make test`'s bootstrap installs clang after that.
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(HOST_LIB_SRCS) $(wildcard include/*.h $(ARCH_INCLUDE)/asm/*.h lib/*.h)
	@mkdir -p $(dir $@) $(B)/fuzz/corpus $(B)/fuzz/module-corpus
	@if command -v $(FUZZ_CC) >/dev/null 2>&1; then \
		$(if $(Q),echo "  FUZZCC	$@",echo "$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(HOST_LIB_SRCS)"); \
		$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(HOST_LIB_SRCS); \
	else \
		echo "  SKIP	$@: $(FUZZ_CC) is not installed"; \
	fi

host-test: $(FUZZ_BIN) $(FUZZ_MODULE_BIN)

.PHONY: fuzz fuzz-modules
fuzz: $(FUZZ_BIN)
	$(FUZZ_BIN) $(FUZZ_ARGS) -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
		$(B)/fuzz/corpus tests/fuzz/corpus

fuzz-modules: $(FUZZ_MODULE_BIN) modules test-modules
	$(FUZZ_MODULE_BIN) $(FUZZ_MODULE_ARGS) -max_total_time=$(FUZZ_TIME) \
		-print_final_stats=1 -artifact_prefix=$(B)/fuzz/ \
		$(B)/fuzz/module-corpus $(B)/samples $(B)/test-modules
