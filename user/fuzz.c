/*
 * fuzz - build one random ring-3 instruction sequence and run it.
 *
 *   fuzz MODE SEED [-v]
 *
 * Whatever it runs, the process must end in an exit or a signal and do
 * nothing more: the kernel, and every other process, go on
 * (tests/kernel/test_user_fuzz.c runs it thousands of times).  The same
 * MODE and SEED always build the same bytes, so `exec fuzz MODE SEED -v`
 * shows and replays any run.
 *
 * The sequence is machine code written into a writable buffer (i386
 * paging without PAE has no no-execute bit, so any user page runs) and
 * jumped to.  Every mode builds it the same way:
 *
 *   mov $v, %reg     every general register: NULL, kernel and user
 *                    addresses, unaligned, -1, random; %esp inside a
 *                    stack of such words
 *   push $f; popf    random flags: TF, NT, AC, DF, OF... (IOPL and IF
 *                    are the kernel's: popf in ring 3 leaves them);
 *                    last, so a TF traps after the test, not before
 *   THE TEST         the mode's instruction(s)
 *   nops, exit(0)    a sequence that falls through ends cleanly
 */
#include <stdbool.h>
#include "ulib.h"
#include <asm/processor.h>
#include <asm/segment.h>
#include "mm.h"
#include <asm/irq_vectors.h>
#include <asm/unistd_32.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define CODE_BYTES		4096
#define STACK_WORDS		512
#define SCRATCH_BYTES		4096
#define RANDOM_CODE_BYTES	32	/* per bytes/tf run */
#define NOP_SLED_BYTES		16	/* lets a random tail resynchronise before exit */
#define FUZZ_SYSCALLS		16	/* per syscall run */

/* The opcodes the generator writes (SDM vol. 2, appendix A). */
#define OP_NOP		0x90
#define OP_MOV_IMM_REG	0xb8	/* +r: mov $imm32, %reg */
#define OP_PUSH_IMM	0x68	/* push $imm32 */
#define OP_POPF		0x9d
#define OP_INT		0xcd	/* int $imm8 */
#define OP_IRET		0xcf
#define OP_LRET		0xcb
#define OP_LRET_IMM	0xca	/* lret $imm16 */
#define OP_LCALL_DIRECT	0x9a	/* lcall $sel, $off */
#define OP_LJMP_DIRECT	0xea	/* ljmp $sel, $off */
#define OP_GROUP5	0xff	/* /3: lcall *m16:32, /5: ljmp *m16:32 */
#define OP_MOV_TO_SREG	0x8e	/* mov %reg, %sreg */
#define OP_XOR		0x31
#define MODRM_REG(reg, rm)	(0xc0 | (reg) << 3 | (rm))	/* mod 11: register operand */
#define MODRM_DISP32(reg)	((reg) << 3 | 5)		/* mod 00 rm 101: [disp32] */
#define GROUP5_LCALL	3
#define GROUP5_LJMP	5

enum { EAX, ECX, EDX, EBX, ESP, EBP, ESI, EDI, NR_REGS };
enum { ES, CS, SS, DS, FS, GS, NR_SREGS };

static unsigned char code[CODE_BYTES] __attribute__((aligned(4096)));
static unsigned long stack_area[STACK_WORDS];
static unsigned char scratch[SCRATCH_BYTES];
static unsigned int pos;
static unsigned long rng;

/* xorshift32: small, and the same numbers for the same seed everywhere. */
static unsigned long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng & 0xffffffff;
}

static unsigned long pick(unsigned long n)
{
	return rnd() % n;
}

static void emit(unsigned char b)
{
	if (pos < CODE_BYTES)
		code[pos++] = b;
}

static void emit32(unsigned long v)
{
	for (int i = 0; i < 4; i++)
		emit(v >> (8 * i));
}

static void emit16(unsigned long v)
{
	emit(v);
	emit(v >> 8);
}

static void emit_bytes(const unsigned char *b, unsigned int n)
{
	while (n--)
		emit(*b++);
}

/* A value a register or a stack word might hold: mostly the edges. */
static unsigned long interesting_value(void)
{
	static const unsigned long edges[] = {
		0, 1, 0xffffffff, 0x7fffffff, 0x80000000,
		0x00001000,		/* the first page after NULL: kernel */
		0x00100000,		/* the kernel's text */
		USER_BASE - 1,	/* the last kernel byte below user space */
		USER_BASE,
		0x08048000,		/* the program itself */
		TASK_SIZE - 4,	/* the stack's top word */
		TASK_SIZE - 1,	/* an unaligned word across TASK_SIZE */
		TASK_SIZE,		/* the kernel's half above */
		0xfffff000,
	};

	switch (pick(6)) {
	case 0: return edges[pick(ARRAY_SIZE(edges))];
	case 1: return (unsigned long)scratch + pick(SCRATCH_BYTES);
	case 2: return (unsigned long)&stack_area[pick(STACK_WORDS)];
	case 3: return (unsigned long)code + pick(CODE_BYTES);
	case 4: return pick(0x10000);		/* small: lengths, numbers, selectors */
	default: return rnd();
	}
}

/* A selector a far transfer or a segment load might name. */
static unsigned long interesting_selector(void)
{
	switch (pick(4)) {
	case 0: return pick(GDT_ENTRIES + 2) * 8 | pick(4);	/* every GDT entry, one past, any RPL */
	case 1: return pick(2) ? __USER_CS : __USER_DS;
	case 2: return pick(GDT_ENTRIES + 2) * 8 | 4 | pick(4);	/* the LDT: there is none */
	default: return pick(0x10000);
	}
}

/* EFLAGS for popf or an iret frame: any of the bits that change control. */
static unsigned long interesting_flags(void)
{
	static const unsigned long bits[] = {
		X86_EFLAGS_CF, X86_EFLAGS_TF, X86_EFLAGS_IF, X86_EFLAGS_DF,
		X86_EFLAGS_OF, X86_EFLAGS_IOPL, X86_EFLAGS_NT, X86_EFLAGS_RF,
		X86_EFLAGS_VM, X86_EFLAGS_AC, X86_EFLAGS_ID,
	};
	unsigned long f = X86_EFLAGS_FIXED | X86_EFLAGS_IF;

	if (pick(8) == 0)
		return rnd();
	for (unsigned int i = 0; i < ARRAY_SIZE(bits); i++)
		if (pick(4) == 0)
			f ^= bits[i];
	return f;
}

static void emit_mov_imm(int reg, unsigned long v)
{
	emit(OP_MOV_IMM_REG + reg);
	emit32(v);
}

static void emit_random_flags(void)
{
	emit(OP_PUSH_IMM);
	emit32(interesting_flags());
	emit(OP_POPF);
}

/* Every general register but %esp; %esp points into a stack of interesting words. */
static void emit_random_registers(bool keep_esp)
{
	for (int r = EAX; r < NR_REGS; r++) {
		if (r == ESP && keep_esp)
			continue;
		emit_mov_imm(r, r == ESP ? (unsigned long)&stack_area[STACK_WORDS / 2 + pick(STACK_WORDS / 4)]
					 : interesting_value());
	}
}

/* The end of every sequence that does not trap: exit(0). */
static void emit_exit(void)
{
	for (int i = 0; i < NOP_SLED_BYTES; i++)
		emit(OP_NOP);
	emit_mov_imm(EAX, __NR_exit);
	emit(OP_XOR);
	emit(MODRM_REG(EBX, EBX));
	emit(OP_INT);
	emit(IA32_SYSCALL_VECTOR);
}

/* ---- the modes -------------------------------------------------------- */

/* Random bytes: whatever they decode to. */
static void gen_bytes(void)
{
	emit_random_registers(false);
	emit_random_flags();
	for (int i = 0; i < RANDOM_CODE_BYTES; i++)
		emit(rnd());
}

/* The same, single-stepped: TF set by the popf just before. */
static void gen_tf(void)
{
	emit_random_registers(false);
	emit(OP_PUSH_IMM);
	emit32(interesting_flags() | X86_EFLAGS_TF);
	emit(OP_POPF);
	for (int i = 0; i < RANDOM_CODE_BYTES; i++)
		emit(rnd());
}

/* int $n, n = the seed's low byte: seeds 0..255 try every vector. */
static void gen_intn(unsigned long seed)
{
	emit_random_registers(false);
	emit_random_flags();
	emit(OP_INT);
	emit(seed & 0xff);
}

struct insn {
	const char *name;
	unsigned char len, bytes[3];
};

/* What ring 3 must not do (and a few it may: they fall through to exit). */
static const struct insn privileged[] = {
	{ "hlt", 1, { 0xf4 } },
	{ "cli", 1, { 0xfa } },
	{ "sti", 1, { 0xfb } },
	{ "lgdt (%eax)", 3, { 0x0f, 0x01, 0x10 } },
	{ "lidt (%eax)", 3, { 0x0f, 0x01, 0x18 } },
	{ "sgdt (%eax)", 3, { 0x0f, 0x01, 0x00 } },
	{ "mov %eax,%cr0", 3, { 0x0f, 0x22, 0xc0 } },
	{ "mov %eax,%cr3", 3, { 0x0f, 0x22, 0xd8 } },
	{ "mov %eax,%cr4", 3, { 0x0f, 0x22, 0xe0 } },
	{ "mov %cr0,%eax", 3, { 0x0f, 0x20, 0xc0 } },
	{ "mov %cr2,%eax", 3, { 0x0f, 0x20, 0xd0 } },
	{ "mov %eax,%dr0", 3, { 0x0f, 0x23, 0xc0 } },
	{ "mov %eax,%dr7", 3, { 0x0f, 0x23, 0xf8 } },
	{ "mov %dr6,%eax", 3, { 0x0f, 0x21, 0xf0 } },
	{ "in %dx,%al", 1, { 0xec } },
	{ "out %al,%dx", 1, { 0xee } },
	{ "in $0x64,%al", 2, { 0xe4, 0x64 } },
	{ "out %al,$0xf4", 2, { 0xe6, 0xf4 } },	/* QEMU's isa-debug-exit port */
	{ "outsb", 1, { 0x6e } },
	{ "rep insl", 2, { 0xf3, 0x6d } },
	{ "wrmsr", 2, { 0x0f, 0x30 } },
	{ "rdmsr", 2, { 0x0f, 0x32 } },
	{ "invlpg (%eax)", 3, { 0x0f, 0x01, 0x38 } },
	{ "clts", 2, { 0x0f, 0x06 } },
	{ "lmsw %ax", 3, { 0x0f, 0x01, 0xf0 } },
	{ "ltr %ax", 3, { 0x0f, 0x00, 0xd8 } },
	{ "lldt %ax", 3, { 0x0f, 0x00, 0xd0 } },
	{ "invd", 2, { 0x0f, 0x08 } },
	{ "wbinvd", 2, { 0x0f, 0x09 } },
	{ "rdpmc", 2, { 0x0f, 0x33 } },
	{ "rdtsc", 2, { 0x0f, 0x31 } },
	{ "sysenter", 2, { 0x0f, 0x34 } },
	{ "sysexit", 2, { 0x0f, 0x35 } },
	{ "syscall", 2, { 0x0f, 0x05 } },
	{ "sysret", 2, { 0x0f, 0x07 } },
	{ "int1 (icebp)", 1, { 0xf1 } },
	{ "int3", 1, { 0xcc } },
	{ "into", 1, { 0xce } },
	{ "ud2", 2, { 0x0f, 0x0b } },
	{ "vmcall", 3, { 0x0f, 0x01, 0xc1 } },
	{ "monitor", 3, { 0x0f, 0x01, 0xc8 } },
	{ "mwait", 3, { 0x0f, 0x01, 0xc9 } },
	{ "xsetbv", 3, { 0x0f, 0x01, 0xd1 } },
	{ "rsm", 2, { 0x0f, 0xaa } },
	{ "str %eax", 3, { 0x0f, 0x00, 0xc8 } },
	{ "popf", 1, { OP_POPF } },
};

static void gen_priv(void)
{
	const struct insn *i = &privileged[pick(ARRAY_SIZE(privileged))];

	emit_random_registers(false);
	emit_random_flags();
	emit_bytes(i->bytes, i->len);
}

/* A far pointer (offset, selector) in scratch, for lcall/ljmp *mem. */
static unsigned long far_pointer(void)
{
	unsigned long *p = (unsigned long *)&scratch[pick(SCRATCH_BYTES / 8) * 8];

	p[0] = interesting_value();
	p[1] = interesting_selector();
	return (unsigned long)p;
}

/*
 * iret, lret, lcall, ljmp with a random frame: ip, cs, flags (VM, NT,
 * IOPL, TF...), sp, ss and the four vm86 segments, pushed on a good
 * stack; or through a far pointer, or an immediate one.
 */
static void gen_far(void)
{
	emit_mov_imm(ESP, (unsigned long)&stack_area[STACK_WORDS - 1]);
	for (int i = 0; i < 4; i++) {			/* gs, fs, ds, es: for vm86 */
		emit(OP_PUSH_IMM);
		emit32(pick(2) ? interesting_selector() : rnd());
	}
	emit(OP_PUSH_IMM);
	emit32(interesting_selector());			/* ss */
	emit(OP_PUSH_IMM);
	emit32(interesting_value());			/* sp */
	emit(OP_PUSH_IMM);
	emit32(interesting_flags());			/* flags */
	emit(OP_PUSH_IMM);
	emit32(interesting_selector());			/* cs */
	emit(OP_PUSH_IMM);
	emit32(pick(2) ? (unsigned long)code : interesting_value());	/* ip */
	emit_random_registers(true);
	emit_random_flags();				/* NT here makes iret a task return */
	switch (pick(7)) {
	case 0: case 1: emit(OP_IRET); break;
	case 2: emit(OP_LRET); break;
	case 3: emit(OP_LRET_IMM); emit16(pick(0x10000)); break;
	case 4: emit(OP_GROUP5); emit(MODRM_DISP32(pick(2) ? GROUP5_LCALL : GROUP5_LJMP));
		emit32(far_pointer()); break;
	case 5: emit(OP_LCALL_DIRECT); emit32(interesting_value()); emit16(interesting_selector()); break;
	default: emit(OP_LJMP_DIRECT); emit32(interesting_value()); emit16(interesting_selector()); break;
	}
}

/* iret into virtual-8086 mode: VM set, everything else random. */
static void gen_vm86(void)
{
	emit_mov_imm(ESP, (unsigned long)&stack_area[STACK_WORDS - 1]);
	for (int i = 0; i < 6; i++) {			/* gs, fs, ds, es, ss, sp */
		emit(OP_PUSH_IMM);
		emit32(pick(0x10000));
	}
	emit(OP_PUSH_IMM);
	emit32(interesting_flags() | X86_EFLAGS_VM);
	emit(OP_PUSH_IMM);
	emit32(pick(0x10000));				/* cs */
	emit(OP_PUSH_IMM);
	emit32(pick(0x10000));				/* ip */
	emit_random_registers(true);
	emit(OP_IRET);
}

/* What follows a mov to %ss: the instruction the CPU holds traps over. */
static const struct insn after_ss[] = {
	{ "int $0x80", 2, { OP_INT, IA32_SYSCALL_VECTOR } },
	{ "int3", 1, { 0xcc } },
	{ "int1", 1, { 0xf1 } },
	{ "ud2", 2, { 0x0f, 0x0b } },
	{ "cli", 1, { 0xfa } },
	{ "nop", 1, { OP_NOP } },
};

/*
 * Random selectors into the data segment registers, a memory access
 * through them, a system call with them loaded (the kernel saves and
 * restores them), and a mov to %ss, which holds off the next
 * instruction's traps - TF's too - until after it.
 */
static void gen_seg(void)
{
	static const int sregs[] = { ES, DS, FS, GS, SS };
	const struct insn *next = &after_ss[pick(ARRAY_SIZE(after_ss))];
	int n = 1 + pick(4);

	emit_random_registers(false);
	while (n--) {
		emit_mov_imm(EAX, interesting_selector());
		emit(OP_MOV_TO_SREG);
		emit(MODRM_REG(sregs[pick(ARRAY_SIZE(sregs))], EAX));
	}
	emit_mov_imm(EAX, __USER_DS);
	emit_random_flags();		/* a TF here traps after the mov to %ss and next */
	emit(OP_MOV_TO_SREG);
	emit(MODRM_REG(SS, EAX));
	emit_bytes(next->bytes, next->len);
	emit_mov_imm(EAX, pick(2) ? __NR_getpid : __NR_write);
	emit(OP_INT);
	emit(IA32_SYSCALL_VECTOR);
}

/* System call numbers: mostly real ones, so the arguments get looked at. */
static unsigned long syscall_number(void)
{
	static const unsigned long real[] = {
		__NR_exit, __NR_read, __NR_write, __NR_open, __NR_close,
		__NR_waitpid, __NR_getpid, __NR_kill, __NR_nanosleep, __NR_spawn,
	};

	switch (pick(4)) {
	case 0: return pick(2) ? pick(NR_syscalls + 16) : rnd();
	default: return real[pick(ARRAY_SIZE(real))];
	}
}

/* FUZZ_SYSCALLS system calls, every argument an interesting value. */
static void gen_syscall(void)
{
	for (int i = 0; i < FUZZ_SYSCALLS; i++) {
		emit_random_registers(false);
		emit_mov_imm(EAX, syscall_number());
		emit(OP_INT);
		emit(IA32_SYSCALL_VECTOR);
	}
}

struct mode {
	const char *name;
	void (*gen)(unsigned long seed);
};

static void gen_bytes_seed(unsigned long s) { (void)s; gen_bytes(); }
static void gen_tf_seed(unsigned long s) { (void)s; gen_tf(); }
static void gen_priv_seed(unsigned long s) { (void)s; gen_priv(); }
static void gen_far_seed(unsigned long s) { (void)s; gen_far(); }
static void gen_vm86_seed(unsigned long s) { (void)s; gen_vm86(); }
static void gen_seg_seed(unsigned long s) { (void)s; gen_seg(); }
static void gen_syscall_seed(unsigned long s) { (void)s; gen_syscall(); }

static const struct mode modes[] = {
	{ "bytes", gen_bytes_seed },
	{ "tf", gen_tf_seed },
	{ "intn", gen_intn },
	{ "priv", gen_priv_seed },
	{ "far", gen_far_seed },
	{ "vm86", gen_vm86_seed },
	{ "seg", gen_seg_seed },
	{ "syscall", gen_syscall_seed },
};

static void usage(void)
{
	printf("usage: fuzz MODE SEED [-v]; modes:");
	for (unsigned int i = 0; i < ARRAY_SIZE(modes); i++)
		printf(" %s", modes[i].name);
	printf("\n");
	exit(2);
}

/* The data the sequence finds: random words on its stack and in scratch. */
static void fill_data(void)
{
	for (int i = 0; i < STACK_WORDS; i++)
		stack_area[i] = interesting_value();
	for (int i = 0; i < SCRATCH_BYTES; i++)
		scratch[i] = rnd();
}

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	unsigned long seed;

	if (argc < 3)
		usage();
	for (unsigned int i = 0; i < ARRAY_SIZE(modes); i++)
		if (strcmp(argv[1], modes[i].name) == 0)
			m = &modes[i];
	if (!m)
		usage();
	seed = simple_strtoul(argv[2], NULL, 0);
	rng = (seed + 1) * 2654435761u ^ (unsigned long)(m - modes + 1) << 24;
	if (!rng)
		rng = 1;
	fill_data();
	m->gen(seed);
	emit_exit();
	if (argc > 3 && strcmp(argv[3], "-v") == 0) {
		printf("fuzz %s %lu: %u bytes at %p:", m->name, seed, pos, code);
		for (unsigned int i = 0; i < pos; i++)
			printf(" %02x", code[i]);
		printf("\n");
	}
	((void (*)(void))code)();
	return 0;
}
