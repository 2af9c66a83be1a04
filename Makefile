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

B := build

# Short "CC file" lines like Linux's kbuild; `make V=1` shows full commands.
ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @echo "  $(1)	$(2)"
endif

# -gdwarf-4: gdb 13 misreads the DWARF 5 location lists gcc 12 emits for
# i386 ("Corrupted DWARF expression"), so `print regs` would fail in gdb.
CFLAGS := -m32 -march=i686 -std=gnu11 -O2 -g -gdwarf-4 \
	-ffreestanding -nostdlib -fno-pie -fno-stack-protector \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-fno-asynchronous-unwind-tables -fcf-protection=none \
	-mno-sse -mno-sse2 -mno-mmx -mno-3dnow -mpreferred-stack-boundary=2 \
	-Wall -Wextra -Wno-unused-parameter -Iinclude
ASFLAGS := -m32 -g -D__ASSEMBLER__ -Iinclude
LDFLAGS := -m elf_i386 -T linker.ld -nostdlib -z noexecstack --no-warn-rwx-segments
LIBGCC   = $(shell $(CC) -m32 -print-libgcc-file-name)

# ---- sources: every .c / .S in the kernel's folders -------------------------
SRCDIRS := boot arch/i386 kernel lib probes tests/kernel
SRCS := $(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c) $(wildcard $(d)/*.S))
# Objects keep the source suffix (entry.S.o, traps.c.o): foo.c and foo.S can coexist.
OBJS := $(patsubst %,$(B)/%.o,$(SRCS))
DEPS := $(OBJS:.o=.d)
# The sample probe modules (samples/kprobes/*.c -> *.ko; see "loadable modules").
SAMPLE_KOS := $(patsubst samples/kprobes/%.c,$(B)/samples/%.ko,\
	$(wildcard samples/kprobes/*.c))

.PHONY: all iso run run-vga debug test host-test bench bootstrap bootstrap-gui clean help
all: $(B)/kernel.elf

$(B)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(call say,AS,$<)
	$(Q)$(CC) $(ASFLAGS) -MMD -MP -c $< -o $@

# ---- two-pass link for the symbol table (see scripts/kallsyms.py) -----------
# Pass 1 links with an empty table; its symbols become build/kallsyms.S;
# pass 2 links that in.  .kallsyms is the last section, so no address moves,
# and the script checks that pass 2's symbols equal pass 1's.
$(B)/kallsyms.empty.S:
	@mkdir -p $(B)
	$(PYTHON) scripts/kallsyms.py --empty > $@

$(B)/kernel.pass1.elf: $(OBJS) $(B)/kallsyms.empty.S.o linker.ld
	$(LD) $(LDFLAGS) -o $@ $(OBJS) $(B)/kallsyms.empty.S.o $(LIBGCC)

$(B)/kallsyms.S: $(B)/kernel.pass1.elf scripts/kallsyms.py
	$(NM) -n -S $< | $(PYTHON) scripts/kallsyms.py > $@

$(B)/kernel.elf: $(B)/kernel.pass1.elf $(B)/kallsyms.S.o
	$(LD) $(LDFLAGS) -o $@ $(OBJS) $(B)/kallsyms.S.o $(LIBGCC)
	$(NM) -n -S $(B)/kernel.pass1.elf > $(B)/nm.pass1
	$(NM) -n -S $@ > $(B)/nm.pass2
	$(PYTHON) scripts/kallsyms.py --check $(B)/nm.pass1 $(B)/nm.pass2

$(B)/%.S.o: $(B)/%.S
	$(CC) $(ASFLAGS) -c $< -o $@

# ---- ISO image: GRUB + our kernel -------------------------------------------
iso: $(B)/kernel.iso
# The sample probe modules ride along in /boot/modules for the menu entry
# that loads them (see iso/boot/grub/grub.cfg).
$(B)/kernel.iso: $(B)/kernel.elf iso/boot/grub/grub.cfg $(SAMPLE_KOS)
	rm -rf $(B)/isodir && mkdir -p $(B)/isodir/boot/grub $(B)/isodir/boot/modules
	cp $(B)/kernel.elf $(B)/isodir/boot/kernel.elf
	cp $(SAMPLE_KOS) $(B)/isodir/boot/modules/
	cp iso/boot/grub/grub.cfg $(B)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(B)/isodir 2> $(B)/grub-mkrescue.log || \
		{ cat $(B)/grub-mkrescue.log; exit 1; }

# ---- running ------------------------------------------------------------------
QEMU_COMMON := -m 128M -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04
CMDLINE ?=

# CROSS is passed so the script skips Debian's toolchain when i686-elf- is used.
bootstrap:
	@CROSS=$(CROSS) sh scripts/bootstrap.sh

# run-vga also needs QEMU's display backends (Debian's qemu-system-gui).
bootstrap-gui:
	@CROSS=$(CROSS) sh scripts/bootstrap.sh --gui

run: bootstrap all
	$(QEMU) $(QEMU_COMMON) -kernel $(B)/kernel.elf -append "$(CMDLINE)" \
		-display none -serial mon:stdio

run-vga: bootstrap-gui all
	$(QEMU) $(QEMU_COMMON) -kernel $(B)/kernel.elf -append "$(CMDLINE)" -serial stdio

# QEMU waits for gdb on :1234; in another terminal: gdb -x scripts/gdbinit
debug: bootstrap all
	@echo "QEMU is halted. In another terminal run:  gdb -x scripts/gdbinit"
	$(QEMU) $(QEMU_COMMON) -kernel $(B)/kernel.elf -append "$(CMDLINE)" \
		-display none -serial mon:stdio -s -S

# ---- host side: lib/ built with the host compiler and sanitizers --------------
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter \
	-fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude -Itests/host
HOST_LIB_SRCS := $(wildcard lib/*.c)
HOST_TESTS := $(patsubst tests/host/%.c,$(B)/host/%,$(wildcard tests/host/test_*.c))
HOST_TOOLS := $(patsubst tests/host/%.c,$(B)/host/%,$(filter-out tests/host/test_%,$(wildcard tests/host/*.c)))

$(B)/host/%: tests/host/%.c $(HOST_LIB_SRCS) $(wildcard include/*.h tests/host/*.h)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) -DHOST_BUILD -o $@ $< $(HOST_LIB_SRCS)

host-test: $(HOST_TESTS) $(HOST_TOOLS)

# ---- tests --------------------------------------------------------------------
# SUITES=traps,kprobes runs only those in-kernel suites (and skips the oops
# and ISO boots); TESTFLAGS passes anything else, e.g. TESTFLAGS="--only host".
SUITES ?=
TESTFLAGS ?=
test: bootstrap all iso host-test modules test-modules
	$(PYTHON) tests/run_tests.py --build $(B) $(if $(SUITES),--suites $(SUITES)) $(TESTFLAGS)

bench: bootstrap all
	$(PYTHON) tests/bench.py --build $(B)

# With M=DIR (an external module folder) clean only that folder's .ko files.
clean:
ifneq ($(M),)
	rm -f $(M)/*.ko
else
	rm -rf $(B)
endif

help:
	@echo "make            build $(B)/kernel.elf (toolchain: $(CROSS)gcc)"
	@echo "make iso        build $(B)/kernel.iso with grub-mkrescue"
	@echo "make run        boot in QEMU, serial console here (Ctrl-A X quits)"
	@echo "make run-vga    boot with the VGA window as well"
	@echo "make debug      boot halted with a gdb stub (gdb -x scripts/gdbinit)"
	@echo "make test       host unit tests, then the in-kernel suites in QEMU"
	@echo "make test SUITES=traps   only the named in-kernel suites"
	@echo "make bench      probe-hit costs under qemu -icount"
	@echo "make fuzz / make fuzz-modules   fuzz the kprobe_events parser / the module loader"
	@echo "make modules    build the sample probe modules into $(B)/samples/"
	@echo "make -C <tree> M=<dir>   build <dir>/*.c into loadable .ko modules"
	@echo "make run MODULES='a.ko' CMDLINE='insmod=a'   boot with a module"
	@echo "CMDLINE='test=traps' make run   pass a kernel command line"

-include $(DEPS)

# ---- loadable modules (docs/modules.md) ----------------------------------------
#   make -C <this tree> M=<dir>   every <dir>/*.c becomes <dir>/*.ko
#   make modules                  samples/kprobes/*.c -> $(B)/samples/*.ko
#   make test-modules             tests/modules/*.c and the broken variants
#                                 -> $(B)/test-modules/*.ko
#   make run MODULES="a.ko b.ko" CMDLINE="insmod=a"   boot with modules
# A .ko is one ELF32 relocatable object (gcc -c), linked into the running
# kernel by kernel/module.c against the symbols kernel/exports.c exports.
# No -g: the loader does not read debug information.  A call to an
# undeclared function (a missing #include) is an error, as in Linux: C would
# guess "int f()" and the module would load and misbehave.
KTREE := $(CURDIR)
MODULE_CFLAGS := $(filter-out -g -gdwarf-4 -Iinclude,$(CFLAGS)) -fno-common -DMODULE \
	-Werror=implicit-function-declaration -I$(KTREE)/include
MODULE_DEPS := $(wildcard $(KTREE)/include/*.h)

ifneq ($(M),)
.DEFAULT_GOAL := external-modules
EXT_SRCS := $(wildcard $(M)/*.c)
.PHONY: external-modules
external-modules: $(EXT_SRCS:.c=.ko)
	@test -n "$(EXT_SRCS)" || { echo "M=$(M): no .c files there"; exit 1; }
$(M)/%.ko: $(M)/%.c $(MODULE_DEPS)
	$(call say,CC [M],$@)
	$(Q)$(CC) $(MODULE_CFLAGS) -c $< -o $@
endif

TEST_KOS := $(patsubst tests/modules/%.c,$(B)/test-modules/%.ko,\
	$(wildcard tests/modules/*.c))
.PHONY: modules test-modules
modules: $(SAMPLE_KOS)
test-modules: $(TEST_KOS) $(B)/test-modules/broken.stamp

$(B)/samples/%.ko: samples/kprobes/%.c $(MODULE_DEPS)
	@mkdir -p $(dir $@)
	$(call say,CC [M],$@)
	$(Q)$(CC) $(MODULE_CFLAGS) -c $< -o $@

$(B)/test-modules/%.ko: tests/modules/%.c $(MODULE_DEPS)
	@mkdir -p $(dir $@)
	$(call say,CC [M],$@)
	$(Q)$(CC) $(MODULE_CFLAGS) -c $< -o $@

# Truncated, wrong magic, bad relocations...: made from a good object.
$(B)/test-modules/broken.stamp: $(B)/test-modules/modtest_basic.ko \
		tests/modules/make_broken.py
	$(PYTHON) tests/modules/make_broken.py $< $(B)/test-modules
	@touch $@

empty :=
space := $(empty) $(empty)
comma := ,
QEMU_COMMON += $(if $(MODULES),-initrd "$(subst $(space),$(comma),$(strip $(MODULES)))")

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
	-DHOST_BUILD -Iinclude -Ilib
FUZZ_BIN    := $(B)/fuzz/fuzz_probe_events
FUZZ_ARGS   := -dict=tests/fuzz/probe_events.dict -max_len=4200 -timeout=10
FUZZ_MODULE_BIN  := $(B)/fuzz/fuzz_module_elf
FUZZ_MODULE_ARGS := -max_len=8192 -timeout=10

# Without clang the check script reports SKIP instead of failing the build.
# The test is made when the recipe runs, not when make reads this file:
# on a fresh machine `make test`'s bootstrap installs clang after that.
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(HOST_LIB_SRCS) $(wildcard include/*.h lib/*.h)
	@mkdir -p $(dir $@) $(B)/fuzz/corpus $(B)/fuzz/module-corpus
	@if command -v $(FUZZ_CC) >/dev/null 2>&1; then \
		echo "$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(HOST_LIB_SRCS)"; \
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
