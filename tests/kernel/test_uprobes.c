/*
 * test_uprobes.c - suite "uprobes": breakpoints in user programs
 * (kernel/events/uprobes.c, arch/i386/uprobes.c, kernel/trace/trace_uprobe.c).
 *
 * The program is user/uprobe_fixups: uf_run() holds an instruction of
 * every class the out-of-line step must fix up, and the program prints
 * its results; `uprobe_fixups -wait` sleeps first, so it is already
 * running when a probe arrives.  Cases use the in-kernel API
 * (uprobe_register(), a consumer counting hits per process) and the
 * tracefs files, as a user would.
 */
#include "ktest.h"
#include "process.h"
#include "uprobes.h"
#include "exec_elf.h"
#include "mm_types.h"
#include "pseudofs.h"
#include "trace.h"
#include "sched.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "pseudofs_io.h"
#include "ramfs.h"

#define PROG        "uprobe_fixups"
#define WAIT_MS     300		/* what `uprobe_fixups -wait` sleeps */
#define UF_RUNS     6		/* uf_run(0..5), as main() calls it */
#define MAX_PROBES  96
#define EVENTS      TRACEFS_DIR "/uprobe_events"
#define TRACE       TRACEFS_DIR "/trace"
#define ENABLE      TRACEFS_DIR "/events/uprobes/enable"
#define UPROBE_EVENT_DIR TRACEFS_DIR "/events/uprobes/"

static char out[16384];

static const struct user_program *prog(void)
{
	return find_user_program(PROG);
}

/* Its file, what the probes are on. */
static struct inode *file(void)
{
	return ktest_program_inode(PROG);
}

/* The file offset of a function of the program (+ off), from its symbol table. */
static unsigned long func_offset(const char *name, unsigned long off, unsigned long *size)
{
	const struct user_program *p = prog();
	struct load_info info = { .image = p->elf, .len = p->size };
	const Elf32_Sym *sym = elf_exec_func(&info, name, 0);
	const Elf32_Ehdr *h = (const void *)p->elf;
	const Elf32_Phdr *ph = (const void *)(p->elf + h->e_phoff);

	if (!sym)
		return 0;
	if (size)
		*size = sym->st_size;
	for (unsigned int i = 0; i < h->e_phnum; i++, ph++)
		if (ph->p_type == PT_LOAD && sym->st_value - ph->p_vaddr < ph->p_filesz)
			return sym->st_value - ph->p_vaddr + ph->p_offset + off;
	return 0;
}

static struct task_struct *spawn(const char *arg)
{
	const char *argv[] = { PROG, arg };
	int err;

	return process_spawn(PROG, argv, arg ? 2 : 1, &err);
}

/* Run the program once, its output captured; returns its wait status. */
static int run_captured(void)
{
	struct task_struct *p;
	int st;

	ktest_capture_start();
	p = spawn(NULL);
	st = p ? process_wait(p) : -1;
	ktest_capture_stop();
	return st;
}

/* The lines the program printed about uf_run, in order (nothing else). */
static void results_of(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const char *l = strstr(text, "uf_run("); l; l = strstr(l + 1, "uf_run(")) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);

		if (n + len >= size)
			break;
		memcpy(buf + n, l, len);
		n += len;
		buf[n] = '\0';
	}
}

/* ---- a consumer that counts hits per process ----------------------------------- */

#define MAX_PIDS 8

struct counting_consumer {
	struct uprobe_consumer uc;
	int pid[MAX_PIDS];
	unsigned long hits[MAX_PIDS];
	unsigned long ret_ax;			/* the last return value seen */
};

static void count_hit(struct counting_consumer *cc)
{
	int pid = current->pid;

	for (int i = 0; i < MAX_PIDS; i++)
		if (cc->pid[i] == pid || !cc->hits[i]) {
			cc->pid[i] = pid;
			cc->hits[i]++;
			return;
		}
}

static int counting_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	count_hit(container_of(uc, struct counting_consumer, uc));
	return 0;
}

static int counting_ret_handler(struct uprobe_consumer *uc, unsigned long func,
				struct pt_regs *regs)
{
	struct counting_consumer *cc = container_of(uc, struct counting_consumer, uc);

	cc->ret_ax = regs->ax;
	count_hit(cc);
	return 0;
}

static unsigned long hits_of(struct counting_consumer *cc, int pid)
{
	for (int i = 0; i < MAX_PIDS; i++)
		if (cc->pid[i] == pid)
			return cc->hits[i];
	return 0;
}

/* ---- cases ------------------------------------------------------------------ */

/*
 * Two processes already running the program, and a third started after
 * the probe: each hits uf_run's entry exactly UF_RUNS times.
 */
static void hit_counts_exact_across_processes(struct ktest *t)
{
	static struct counting_consumer cc = { .uc.handler = counting_handler };
	unsigned long off = func_offset("uf_run", 0, NULL);
	struct task_struct *a, *b, *c;
	int pa, pb, pc;

	KTEST_ASSERT_TRUE(t, off != 0);
	a = spawn("-wait");
	b = spawn("-wait");
	KTEST_ASSERT_TRUE(t, a && b);
	pa = a->pid;
	pb = b->pid;
	msleep(WAIT_MS / 3);		/* both are running, asleep before uf_run */
	KTEST_ASSERT_EQ(t, uprobe_register(file(), off, &cc.uc, NULL), 0);
	c = spawn(NULL);
	KTEST_ASSERT_TRUE(t, c != NULL);
	pc = c->pid;
	KTEST_EXPECT_EQ(t, process_wait(c), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, process_wait(a), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, process_wait(b), W_EXITCODE(0, 0));
	uprobe_unregister(file(), off, &cc.uc);

	KTEST_EXPECT_EQ(t, hits_of(&cc, pa), UF_RUNS);
	KTEST_EXPECT_EQ(t, hits_of(&cc, pb), UF_RUNS);
	KTEST_EXPECT_EQ(t, hits_of(&cc, pc), UF_RUNS);
	KTEST_EXPECT_EQ(t, cc.uc.nhit, 3 * UF_RUNS);
}

/*
 * A probe on every instruction of uf_run and its helpers: each is
 * stepped out of line in turn, and the program's results are those of
 * the unprobed run.  Every probe is hit (every path runs for some n).
 */
static void every_instruction_keeps_results(struct ktest *t)
{
	static const char *const funcs[] = { "uf_run", "uf_add3", "uf_addarg" };
	static struct counting_consumer cc[MAX_PROBES];
	static unsigned long offs[MAX_PROBES];
	static char plain[1024], probed[1024];
	int n = 0, unhit = 0;

	KTEST_EXPECT_EQ(t, run_captured(), W_EXITCODE(0, 0));
	results_of(ktest_captured(), plain, sizeof(plain));
	KTEST_ASSERT_TRUE(t, strstr(plain, "uf_run(5) = 1048") != NULL);

	for (size_t f = 0; f < ARRAY_SIZE(funcs); f++) {
		unsigned long size, start = func_offset(funcs[f], 0, &size), at;
		struct insn insn;

		KTEST_ASSERT_TRUE(t, start != 0);
		for (at = start; at < start + size && n < MAX_PROBES; at += insn.length) {
			KTEST_ASSERT_TRUE(t, insn_decode(&insn, prog()->elf + at, MAX_UINSN_BYTES) > 0);
			memset(&cc[n], 0, sizeof(cc[n]));
			cc[n].uc.handler = counting_handler;
			offs[n] = at;
			KTEST_ASSERT_EQ(t, uprobe_register(file(), at, &cc[n].uc, NULL), 0);
			n++;
		}
	}
	KTEST_EXPECT_EQ(t, run_captured(), W_EXITCODE(0, 0));
	for (int i = 0; i < n; i++) {
		uprobe_unregister(file(), offs[i], &cc[i].uc);
		unhit += cc[i].uc.nhit == 0;
	}
	results_of(ktest_captured(), probed, sizeof(probed));
	KTEST_EXPECT_STREQ(t, probed, plain);
	KTEST_EXPECT_EQ(t, unhit, 0);
	KTEST_EXPECT_TRUE(t, n < MAX_PROBES);		/* not one instruction left out */
	ktest_info(t, "%d instructions probed, every one hit", n);
}

/* ---- a program that single-steps itself ----------------------------------------- */

#define TRAP_SELF_INSNS 8	/* room for uf_trap_self's instructions */

/* The ip of "SIGTRAP (debug) ... at ip XXXXXXXX" in the kill report, or 0. */
static unsigned long sigtrap_ip(const char *text)
{
	unsigned long ip;

	return ktest_hex_after(text, "SIGTRAP (debug) in user mode at ip ", &ip) ? ip : 0;
}

/* Run `uprobe_fixups -tf`; returns its wait status, *ip where its #DB came. */
static int run_trap_self(unsigned long *ip)
{
	struct task_struct *p;
	int st;

	ktest_capture_start();
	p = spawn("-tf");
	st = p ? process_wait(p) : -1;
	ktest_capture_stop();
	*ip = sigtrap_ip(ktest_captured());
	return st;
}

/*
 * uf_trap_self() sets TF with popf: the CPU traps after the instruction
 * that follows, and the program dies of SIGTRAP with ip at its ret.
 * Probes on its instructions - the pushf, the popf that loads TF, the
 * instruction that runs with the program's own TF on - change neither
 * the signal nor the ip: the step leaves TF as popf loaded it, and a
 * task with TF on gets its SIGTRAP at the end of the probe's step.
 * Each instruction probed alone, then all of them at once.
 */
static void own_single_step_survives_probes(struct ktest *t)
{
	static struct counting_consumer cc[TRAP_SELF_INSNS];
	unsigned long size, start = func_offset("uf_trap_self", 0, &size), vaddr;
	unsigned long offs[TRAP_SELF_INSNS], plain_ip, ip, hits = 0;
	struct insn insn;
	int n = 0;

	KTEST_ASSERT_TRUE(t, start != 0);
	KTEST_ASSERT_EQ(t, run_trap_self(&plain_ip), W_EXITCODE(0, SIGTRAP));
	vaddr = uprobe_offset_to_vaddr(file(), start);
	KTEST_ASSERT_TRUE(t, plain_ip > vaddr && plain_ip < vaddr + size);
	for (unsigned long at = start; at < start + size; at += insn.length) {
		KTEST_ASSERT_TRUE(t, n < TRAP_SELF_INSNS);
		KTEST_ASSERT_TRUE(t, insn_decode(&insn, prog()->elf + at, MAX_UINSN_BYTES) > 0);
		offs[n++] = at;
	}
	for (int pass = 0; pass <= n; pass++) {
		int lo = pass < n ? pass : 0, hi = pass < n ? pass + 1 : n, st;

		for (int i = lo; i < hi; i++) {
			memset(&cc[i], 0, sizeof(cc[i]));
			cc[i].uc.handler = counting_handler;
			KTEST_ASSERT_EQ(t, uprobe_register(file(), offs[i], &cc[i].uc, NULL), 0);
		}
		st = run_trap_self(&ip);
		for (int i = lo; i < hi; i++) {
			uprobe_unregister(file(), offs[i], &cc[i].uc);
			hits += cc[i].uc.nhit;
		}
		KTEST_EXPECT_EQ(t, st, W_EXITCODE(0, SIGTRAP));
		KTEST_EXPECT_EQ(t, ip, plain_ip);
	}
	/* Every instruction but the ret, which never runs: once alone, once with the rest. */
	KTEST_EXPECT_EQ(t, hits, 2 * (unsigned long)(n - 1));
	ktest_info(t, "%d instructions; the unprobed run: SIGTRAP at %08lx", n, plain_ip);
}

/* ---- a fault in the step --------------------------------------------------------- */

/* The file offset vaddr of program p is loaded from (its executable PT_LOAD), or 0. */
static unsigned long vaddr_to_offset(const struct user_program *p, unsigned long vaddr)
{
	const Elf32_Ehdr *h = (const void *)p->elf;
	const Elf32_Phdr *ph = (const void *)(p->elf + h->e_phoff);

	for (unsigned int i = 0; i < h->e_phnum; i++, ph++)
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
		    vaddr - ph->p_vaddr < ph->p_filesz)
			return vaddr - ph->p_vaddr + ph->p_offset;
	return 0;
}

/* Run crash_null; its wait status, and the kill report in report[]. */
static int run_crash_null(char *report, size_t size)
{
	const char *argv[] = { "crash_null", "-q" };
	struct task_struct *p;
	int err, st;

	ktest_capture_start();
	p = process_spawn("crash_null", argv, 2, &err);
	st = p ? process_wait(p) : err;
	ktest_capture_stop();
	strlcpy(report, ktest_captured(), size);
	return st;
}

/*
 * crash_null's read of *NULL, probed: the copy faults in the XOL slot,
 * and the process dies of SIGSEGV with the report it has unprobed - the
 * ip of the probed instruction, not the slot's, and TF clear (Linux's
 * arch_uprobe_abort_xol()).
 */
static void fault_in_the_step_names_the_probed_insn(struct ktest *t)
{
	static struct counting_consumer cc = { .uc.handler = counting_handler };
	static const char key[] = "in user mode at ip ";
	static char plain[1024], probed[1024];
	const struct user_program *crash = find_user_program("crash_null");
	unsigned long ip, off;

	KTEST_ASSERT_TRUE(t, crash != NULL);
	KTEST_ASSERT_EQ(t, run_crash_null(plain, sizeof(plain)), W_EXITCODE(0, SIGSEGV));
	KTEST_ASSERT_TRUE(t, ktest_hex_after(plain, key, &ip));
	off = vaddr_to_offset(crash, ip);
	KTEST_ASSERT_TRUE(t, off != 0);
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode("crash_null"), off, &cc.uc, NULL), 0);
	KTEST_EXPECT_EQ(t, run_crash_null(probed, sizeof(probed)), W_EXITCODE(0, SIGSEGV));
	uprobe_unregister(ktest_program_inode("crash_null"), off, &cc.uc);
	KTEST_EXPECT_EQ(t, cc.uc.nhit, 1);
	/* The whole report, registers included, as without the probe. */
	KTEST_EXPECT_STREQ(t, strchr(probed, ':'), strchr(plain, ':'));
	ktest_info(t, "the read of *NULL at %08lx, probed and unprobed", ip);
}

/*
 * The int3 is in the running process's copy only while the probe is
 * there; removing it restores the image's byte.  The image itself never
 * changes, and the process's XOL page goes with it: no page leaks.
 */
static void removal_restores_the_page(struct ktest *t)
{
	static struct counting_consumer cc = { .uc.handler = counting_handler };
	unsigned long off = func_offset("uf_run", 0, NULL), vaddr, pages0 = pages_free();
	const unsigned char *image_byte = prog()->elf + off;
	unsigned char orig = *image_byte, *copy;
	struct task_struct *p;

	vaddr = uprobe_offset_to_vaddr(file(), off);
	KTEST_ASSERT_TRUE(t, vaddr != 0);
	p = spawn("-wait");
	KTEST_ASSERT_TRUE(t, p != NULL);
	msleep(WAIT_MS / 3);
	KTEST_ASSERT_TRUE(t, p->mm != NULL);
	copy = user_page_address(p->mm, vaddr);
	KTEST_ASSERT_TRUE(t, copy != NULL);
	KTEST_EXPECT_EQ(t, *copy, orig);

	KTEST_ASSERT_EQ(t, uprobe_register(file(), off, &cc.uc, NULL), 0);
	KTEST_EXPECT_EQ(t, *copy, UPROBE_SWBP_INSN);
	KTEST_EXPECT_EQ(t, *image_byte, orig);		/* the image is never written */
	uprobe_unregister(file(), off, &cc.uc);
	KTEST_EXPECT_EQ(t, *copy, orig);
	KTEST_EXPECT_EQ(t, memcmp(copy, image_byte, 64), 0);

	/* Once more with hits, so the process gets its XOL page. */
	KTEST_ASSERT_EQ(t, uprobe_register(file(), off, &cc.uc, NULL), 0);
	KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, 0));
	uprobe_unregister(file(), off, &cc.uc);
	KTEST_EXPECT_EQ(t, cc.uc.nhit, UF_RUNS);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

/* A return probe sees each call's result; the caller gets it too. */
static void return_probe_sees_return_value(struct ktest *t)
{
	static struct counting_consumer cc = { .uc.ret_handler = counting_ret_handler };
	unsigned long off = func_offset("uf_run", 0, NULL);
	static char plain[1024];

	KTEST_ASSERT_EQ(t, uprobe_register(file(), off, &cc.uc, NULL), 0);
	KTEST_EXPECT_EQ(t, run_captured(), W_EXITCODE(0, 0));
	uprobe_unregister(file(), off, &cc.uc);
	results_of(ktest_captured(), plain, sizeof(plain));
	KTEST_EXPECT_EQ(t, cc.uc.nhit, UF_RUNS);
	KTEST_EXPECT_EQ(t, cc.ret_ax, 1048);		/* uf_run(5), the last call */
	KTEST_EXPECT_TRUE(t, strstr(plain, "uf_run(5) = 1048") != NULL);
}

/*
 * A return probe on exit(), which never returns: the process ends with
 * its return instance pending (and its XOL page mapped).  Both go with
 * it: every heap block and page comes back.
 */
static void exit_with_return_pending_frees_everything(struct ktest *t)
{
	static struct counting_consumer cc = { .uc.ret_handler = counting_ret_handler };
	unsigned long off = func_offset("exit", 0, NULL), pages0 = pages_free();
	struct heap_stats h0, h1;

	KTEST_ASSERT_TRUE(t, off != 0);
	KTEST_ASSERT_EQ(t, uprobe_register(file(), off, &cc.uc, NULL), 0);
	heap_get_stats(&h0);
	KTEST_EXPECT_EQ(t, run_captured(), W_EXITCODE(0, 0));
	heap_get_stats(&h1);
	uprobe_unregister(file(), off, &cc.uc);
	KTEST_EXPECT_EQ(t, cc.uc.nhit, 0);		/* it never returned */
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

static void read_file(const char *path)
{
	pseudofs_read_into(path, out, sizeof(out));
}

/* Before and after each case: no event left from an earlier one. */
static int uprobes_init_suite(struct ktest *t)
{
	tracefs_init();
	pseudofs_write_str(ENABLE, "0\n", false);
	pseudofs_write(EVENTS, "\n", 1, true);
	return 0;
}

static void uprobes_exit_suite(struct ktest *t)
{
	pseudofs_write_str(ENABLE, "0\n", false);
	pseudofs_write(EVENTS, "\n", 1, true);
}

/*
 * uprobe_events: fetch args read the process's registers and memory
 * (%ax, +0(%sp), :ustring), a return event its result, and each record
 * names the process and its pid.
 */
static void events_fetch_args_and_retval(struct ktest *t)
{
	char line[200], pid[16];
	struct task_struct *p;

	snprintf(line, sizeof(line), "p:greet /bin/" PROG ":0x%lx who=+0(+4(%%sp)):ustring "
		 "ret=+0(%%sp) ax=%%ax\n", func_offset("uf_greet", 0, NULL));
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	snprintf(line, sizeof(line), "r:runret /bin/" PROG ":0x%lx ret=$retval\n",
		 func_offset("uf_run", 0, NULL));
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", false), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	p = spawn(NULL);
	KTEST_ASSERT_TRUE(t, p != NULL);
	snprintf(pid, sizeof(pid), "-%d ", p->pid);
	KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(ENABLE, "0\n", false), 0);
	read_file(TRACE);

	KTEST_EXPECT_TRUE(t, strstr(out, PROG) != NULL && strstr(out, pid) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "greet: (0x") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "who=\"uprobes\"") != NULL);
	/* The return address into main(), and %ax as main left it. */
	KTEST_EXPECT_TRUE(t, strstr(out, "ret=0x80") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, " ax=0x") != NULL);
	/* uf_run(0) = 2018 = 0x7e2, uf_run(5) = 1048 = 0x418. */
	KTEST_EXPECT_TRUE(t, strstr(out, "runret: (0x80") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "ret=0x7e2") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "ret=0x418") != NULL);
	read_file(TRACEFS_DIR "/uprobe_profile");
	KTEST_EXPECT_TRUE(t, strstr(out, "/bin/" PROG " greet") != NULL);
	pseudofs_write(EVENTS, "\n", 1, true);
}

/* Run `uprobe_fixups -sema`: where its semaphore is, and what it saw there. */
static unsigned int run_sema(unsigned long *vaddr)
{
	const char *argv[] = { PROG, "-sema" };
	struct task_struct *p;
	const char *at;
	unsigned int val = ~0u;
	int err;

	ktest_capture_start();
	p = process_spawn(PROG, argv, 2, &err);
	if (p)
		process_wait(p);
	ktest_capture_stop();
	at = strstr(ktest_captured(), "semaphore at ");
	if (at) {
		char *end;

		/* "semaphore at 0x804a010 is 1" */
		*vaddr = simple_strtoul(at + strlen("semaphore at "), &end, 16);
		if (strncmp(end, " is ", 4) == 0)
			val = simple_strtoul(end + 4, NULL, 10);
	}
	return val;
}

/* The file offset of an address of the program's loaded data. */
static unsigned long data_offset(unsigned long vaddr)
{
	const struct user_program *p = prog();
	const Elf32_Ehdr *h = (const void *)p->elf;
	const Elf32_Phdr *ph = (const void *)(p->elf + h->e_phoff);

	for (unsigned int i = 0; i < h->e_phnum; i++, ph++)
		if (ph->p_type == PT_LOAD && vaddr - ph->p_vaddr < ph->p_filesz)
			return vaddr - ph->p_vaddr + ph->p_offset;
	return 0;
}

/*
 * PATH:OFFS(REF_CTR): while the event is enabled every process of the
 * program sees its semaphore at 1, and at 0 again once it is disabled
 * (Linux's uprobe_register_refctr()); @+OFFS reads the same u16 by its
 * file offset.  Another counter at the same place is refused.
 */
static void events_ref_ctr_counts_while_enabled(struct ktest *t)
{
	unsigned long vaddr = 0, ref, off = func_offset("uf_greet", 0, NULL);
	char line[200];

	KTEST_EXPECT_EQ(t, run_sema(&vaddr), 0);
	ref = data_offset(vaddr);
	KTEST_ASSERT_TRUE(t, ref != 0);
	snprintf(line, sizeof(line), "p:sema /bin/" PROG ":0x%lx(0x%lx) s=@+0x%lx:u16\n",
		 off, ref, ref);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	read_file(EVENTS);
	snprintf(line, sizeof(line), "p:uprobes/sema /bin/" PROG ":0x%08lx(0x%lx) s=@+0x%lx:u16\n",
		 off, ref, ref);
	KTEST_EXPECT_STREQ(t, out, line);
	KTEST_EXPECT_EQ(t, run_sema(&vaddr), 0);		/* defined, not enabled */
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", false), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	KTEST_EXPECT_EQ(t, run_sema(&vaddr), 1);
	/* Any two loaded bytes can be a counter: the probed function's own, here. */
	snprintf(line, sizeof(line), "p:other /bin/" PROG ":0x%lx(0x%lx)\n", off, off);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(TRACEFS_DIR "/events/uprobes/other/enable",
					      "1\n", false), -EINVAL);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "0\n", false), 0);
	read_file(TRACE);
	KTEST_EXPECT_TRUE(t, strstr(out, "sema: (0x") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, " s=1\n") != NULL);
	KTEST_EXPECT_EQ(t, run_sema(&vaddr), 0);
	pseudofs_write(EVENTS, "\n", 1, true);
}

/* Each bad line: its errno, and uprobe_events and free pages as they were. */
static void bad_input_changes_nothing(struct ktest *t)
{
	unsigned long pages0 = pages_free();
	const struct user_program *int3 = find_user_program("int3");
	unsigned long int3_off = 0;
	char line[200], listed[100];

	KTEST_ASSERT_TRUE(t, int3 != NULL);
	snprintf(line, sizeof(line), "p:dup /bin/" PROG ":0x%lx\n", func_offset("main", 0, NULL));
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:nofile /bin/no_such_program:0x80\n", false), -ENOENT);
	/* No '/': not a uprobe to Linux (-ECANCELED), so -EINVAL and no error_log line. */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:nopath no_such_program:0x80\n", false), -EINVAL);
	/* A directory is not a regular file; a path through a file is kern_path()'s -ENOTDIR. */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:dir /bin:0x80\n", false), -EINVAL);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:notdir /bin/" PROG "/x:0x80\n", false),
			-ENOTDIR);
	/* Past the end of the file, Linux takes the line and refuses to enable it. */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:far /bin/" PROG ":0x100000\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(UPROBE_EVENT_DIR "far/enable", "1\n", false), -EINVAL);
	/* A /proc file has no bytes to map: the same, with -EIO (no read_folio). */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:procfile /proc/version:0x0\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(UPROBE_EVENT_DIR "procfile/enable", "1\n", false),
			-EIO);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "-:far\n-:procfile\n", false), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, "p:nooffs /bin/" PROG "\n", false), -EINVAL);
	snprintf(line, sizeof(line), "p:inside /bin/" PROG ":0x%lx\n",
		 func_offset("uf_run", 2, NULL));	/* the middle of mov %esp,%ebp */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), -EINVAL);
	/* int3's main holds an int3: not a thing to step out of line. */
	for (unsigned long off = func_offset("main", 0, NULL); !int3_off; off++)
		if (off < int3->size && int3->elf[off] == UPROBE_SWBP_INSN)
			int3_off = off;
	snprintf(line, sizeof(line), "p:trap /bin/int3:0x%lx\n", int3_off);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), -EOPNOTSUPP);
	/* The same probe again (another one would join the event). */
	snprintf(line, sizeof(line), "p:dup /bin/" PROG ":0x%lx\n", func_offset("main", 0, NULL));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), -EEXIST);
	snprintf(line, sizeof(line), "r:dup /bin/" PROG ":0x%lx\n", func_offset("uf_run", 0, NULL));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(EVENTS, line, false), -EEXIST);

	read_file(EVENTS);
	snprintf(listed, sizeof(listed), "p:uprobes/dup /bin/" PROG ":0x%08lx\n",
		 func_offset("main", 0, NULL));
	KTEST_EXPECT_STREQ(t, out, listed);
	pseudofs_write(EVENTS, "\n", 1, true);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

/* How many times needle is in the text out holds. */
static int occurrences(const char *needle)
{
	int n = 0;

	for (const char *p = strstr(out, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Run the file at path, no arguments; its wait status. */
static int run_path(const char *path)
{
	const char *argv[] = { path };
	struct task_struct *p;
	int err;

	ktest_capture_start();
	p = process_spawn(path, argv, 1, &err);
	ktest_capture_stop();
	return p ? process_wait(p) : err;
}

/*
 * A uprobe is the file's, as Linux's (inode, offset): an event on a copy
 * of the program in /tmp counts the copy's runs, not /bin's; the event
 * holds the file, so the copy unlinked stays until the event goes.
 */
static void events_key_on_the_file(struct ktest *t)
{
	const struct user_program *p = prog();
	unsigned long blocks0 = ramfs_heap_blocks();
	struct inode *inode;
	char line[120];

	KTEST_ASSERT_EQ(t, ramfs_create("/tmp/ufcopy", 0755, true, &inode), 0);
	KTEST_ASSERT_EQ(t, ramfs_write(inode, p->elf, p->size, 0), (long)p->size);
	iput(inode);
	snprintf(line, sizeof(line), "p:copy /tmp/ufcopy:0x%lx\n", func_offset("main", 0, NULL));
	KTEST_ASSERT_EQ(t, pseudofs_write_str(EVENTS, line, false), 0);
	KTEST_ASSERT_EQ(t, pseudofs_write_str(ENABLE, "1\n", false), 0);
	trace_buffer_reset(TRACE_ALL_CPUS);
	KTEST_EXPECT_EQ(t, run_path("/bin/" PROG), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, run_path("/tmp/ufcopy"), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, run_path("/tmp/ufcopy"), W_EXITCODE(0, 0));
	read_file(TRACE);
	KTEST_EXPECT_EQ(t, occurrences("copy: (0x"), 2);
	KTEST_EXPECT_EQ(t, ramfs_unlink("/tmp/ufcopy"), 0);
	KTEST_EXPECT_TRUE(t, ramfs_heap_blocks() > blocks0);	/* the event holds it */
	KTEST_EXPECT_EQ(t, pseudofs_write_str(ENABLE, "0\n", false), 0);
	read_file(TRACEFS_DIR "/uprobe_profile");
	KTEST_EXPECT_TRUE(t, strstr(out, "  /tmp/ufcopy copy ") != NULL);
	pseudofs_write(EVENTS, "\n", 1, true);
	KTEST_EXPECT_EQ(t, ramfs_heap_blocks(), blocks0);	/* and the last reference went */
}

static struct ktest_case uprobes_cases[] = {
	KTEST_CASE(hit_counts_exact_across_processes),
	KTEST_CASE(every_instruction_keeps_results),
	KTEST_CASE(own_single_step_survives_probes),
	KTEST_CASE(fault_in_the_step_names_the_probed_insn),
	KTEST_CASE(removal_restores_the_page),
	KTEST_CASE(return_probe_sees_return_value),
	KTEST_CASE(exit_with_return_pending_frees_everything),
	KTEST_CASE(events_fetch_args_and_retval),
	KTEST_CASE(bad_input_changes_nothing),
	KTEST_CASE(events_ref_ctr_counts_while_enabled),
	KTEST_CASE(events_key_on_the_file),
	KTEST_END
};

static struct ktest_suite uprobes_suite = {
	.name = "uprobes",
	.init = uprobes_init_suite,
	.exit = uprobes_exit_suite,
	.cases = uprobes_cases,
};
KTEST_SUITE(uprobes_suite);
