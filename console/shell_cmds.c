/*
 * shell_cmds.c - the shell's commands that look at the machine:
 * files (ls, cat, echo), symbols, the IDT, registers, memory, the
 * threads (ps), the CPUs (cpus), reboot and poweroff.
 *
 * Each prints with sh_printf() and returns 0 or a negative errno.
 */
#include "kernel.h"
#include "glob.h"
#include "shell.h"
#include "pseudofs.h"
#include "kallsyms.h"
#include <asm/desc.h>
#include <asm/traps.h>
#include "mm.h"
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "kprobes.h"
#include "sched.h"
#include "smp.h"
#include "mutex.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "module.h"
#include <asm/apic.h>
#include "process.h"
#include "mount.h"

/* ---- files ---------------------------------------------------------------- */

int cmd_ls(int argc, char **argv)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	for (int i = 1; i < argc || i == 1; i++) {
		const char *arg = i < argc ? argv[i] : ".";
		int err = shell_resolve_path(arg, path, sizeof(path));

		if (err == 0)
			err = path_list(path, shell_out);
		if (err < 0) {
			sh_printf("ls: cannot access '%s': %s\n", arg, shell_strerror(err));
			ret = err;
		}
	}
	return ret;
}

int cmd_cat(int argc, char **argv)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	if (argc < 2) {
		sh_printf("usage: cat FILE...\n");
		return -EINVAL;
	}
	for (int i = 1; i < argc; i++) {
		int err = shell_resolve_path(argv[i], path, sizeof(path));

		if (err == 0)
			err = path_show(path, shell_out);
		if (err < 0) {
			sh_printf("cat: %s: %s\n", argv[i], shell_strerror(err));
			ret = err;
		}
	}
	return ret;
}

/*
 * mkdir and rmdir, with coreutils' messages: only a directory that takes
 * them (tracefs' instances/) does; elsewhere "Operation not permitted".
 */
static int dir_cmd(int argc, char **argv, int (*op)(const char *path), const char *what)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = 0;

	if (argc < 2) {
		sh_printf("usage: %s DIRECTORY...\n", argv[0]);
		return -EINVAL;
	}
	for (int i = 1; i < argc; i++) {
		int err = shell_resolve_path(argv[i], path, sizeof(path));

		if (err == 0)
			err = op(path);
		if (err < 0) {
			sh_printf("%s: %s '%s': %s\n", argv[0], what, argv[i], shell_strerror(err));
			ret = err;
		}
	}
	return ret;
}

int cmd_mkdir(int argc, char **argv)
{
	return dir_cmd(argc, argv, pseudofs_mkdir, "cannot create directory");
}

int cmd_rmdir(int argc, char **argv)
{
	return dir_cmd(argc, argv, pseudofs_rmdir, "failed to remove");
}

/* The words joined by one space and a newline, as /bin/echo prints them. */
int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		sh_printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	sh_printf("\n");
	return 0;
}

/* ---- syms ----------------------------------------------------------------- */

#define SYMS_MAX_SHOWN 100

struct syms_query {
	const char *pattern;
	bool glob;		/* else: a substring */
	int found;
};

static int syms_one(void *data, const char *name, unsigned long addr,
		    unsigned long size)
{
	struct syms_query *q = data;
	bool hit = q->glob ? glob_match(q->pattern, name) : strstr(name, q->pattern) != NULL;

	if (hit && q->found++ < SYMS_MAX_SHOWN)
		sh_printf("%08lx %6lu %s%s\n", addr, size, name,
			  within_kprobe_blacklist(addr) ? "  [nokprobe]" : "");
	return 0;
}

int cmd_syms(int argc, char **argv)
{
	struct syms_query q = { 0 };
	unsigned long addr;
	char buf[128];

	if (argc != 2) {
		sh_printf("usage: syms PATTERN   (fib, 'ht_*', or an address 0x...)\n");
		return -EINVAL;
	}
	/* An address: say which function it is in. */
	if (argv[1][0] == '0' && argv[1][1] == 'x' && kstrtoul(argv[1], 16, &addr) == 0) {
		sprint_symbol(buf, sizeof(buf), addr);
		sh_printf("%08lx is %s\n", addr, buf);
		return 0;
	}
	q.pattern = argv[1];
	q.glob = strchr(argv[1], '*') || strchr(argv[1], '?');
	kallsyms_on_each_symbol(syms_one, &q);
	if (q.found > SYMS_MAX_SHOWN)
		sh_printf("... and %d more\n", q.found - SYMS_MAX_SHOWN);
	if (!q.found) {
		sh_printf("syms: nothing matches '%s'\n", argv[1]);
		return -ENOENT;
	}
	return 0;
}

/* ---- idt ------------------------------------------------------------------ */

int cmd_idt(int argc, char **argv)
{
	char sym[96];

	sh_printf("vec  type       dpl  selector  handler\n");
	for (int v = 0; v < NR_VECTORS; v++) {
		struct gate_desc *g = idt_entry(v);
		int type = GATE_TYPE(g->type_attr);

		if (!(g->type_attr & GATE_PRESENT))
			continue;
		if (type == GATE_TASK) {	/* no offset: the TSS says where */
			sh_printf("%3d  %-9s  %3d  %04x      (task switch via TSS)\n",
				  v, gate_type_name(type), GATE_DPL(g->type_attr), g->selector);
			continue;
		}
		sprint_symbol(sym, sizeof(sym), gate_offset(g));
		sh_printf("%3d  %-9s  %3d  %04x      %s\n", v, gate_type_name(type),
			  GATE_DPL(g->type_attr), g->selector, sym);
	}
	return 0;
}

/* ---- regs ----------------------------------------------------------------- */

static void print_flag_names(unsigned long eflags)
{
	static const struct { unsigned long bit; const char *name; } flags[] = {
		{ X86_EFLAGS_CF, "CF" }, { X86_EFLAGS_PF, "PF" }, { X86_EFLAGS_AF, "AF" },
		{ X86_EFLAGS_ZF, "ZF" }, { X86_EFLAGS_SF, "SF" }, { X86_EFLAGS_TF, "TF" },
		{ X86_EFLAGS_IF, "IF" }, { X86_EFLAGS_DF, "DF" }, { X86_EFLAGS_OF, "OF" },
		{ X86_EFLAGS_NT, "NT" }, { X86_EFLAGS_RF, "RF" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (eflags & flags[i].bit)
			sh_printf(" %s", flags[i].name);
	sh_printf(" IOPL=%lu\n", (eflags & X86_EFLAGS_IOPL) >> 12);
}

int cmd_regs(int argc, char **argv)
{
	struct desc_ptr gdtr, idtr;
	unsigned long cr0 = read_cr0(), eflags = read_eflags();
	uint16_t tr = store_tr(), cs, ds, es, ss, fs, gs;

	store_gdt(&gdtr);
	store_idt(&idtr);
	savesegment(cs, cs);
	savesegment(ds, ds);
	savesegment(es, es);
	savesegment(ss, ss);
	savesegment(fs, fs);
	savesegment(gs, gs);

	sh_printf("The shell's own context (a kernel thread in ring 0):\n");
	sh_printf("EFLAGS: %08lx ", eflags);
	print_flag_names(eflags);
	sh_printf("CS: %04x DS: %04x ES: %04x SS: %04x FS: %04x GS: %04x\n",
		  cs, ds, es, ss, fs, gs);
	sh_printf("ESP: %08lx EBP: %08lx\n", (unsigned long)__builtin_frame_address(0) - 8,
		  (unsigned long)__builtin_frame_address(0));
	sh_printf("CR0: %08lx (%s%s%s)\n", cr0, cr0 & X86_CR0_PE ? "PE " : "",
		  cr0 & X86_CR0_WP ? "WP " : "", cr0 & X86_CR0_PG ? "PG" : "");
	sh_printf("CR2: %08lx (last page-fault address)\n", read_cr2());
	sh_printf("CR3: %08lx (page directory)  CR4: %08lx\n", read_cr3(), read_cr4());
	sh_printf("GDTR: base %08lx limit %04x   IDTR: base %08lx limit %04x   TR: %04x\n",
		  (unsigned long)gdtr.address, gdtr.size, (unsigned long)idtr.address,
		  idtr.size, tr);
	return 0;
}

/* ---- meminfo -------------------------------------------------------------- */

int cmd_meminfo(int argc, char **argv)
{
	struct heap_stats hs;
	struct insn_slot_stats ss;

	heap_get_stats(&hs);
	insn_slot_get_stats(&ss);
	sh_printf("Pages:  %lu free of %lu (%lu KiB free)\n", pages_free(), max_pfn,
		  pages_free() * (PAGE_SIZE / 1024));
	sh_printf("Heap:   %lu live allocation%s, %lu byte%s live, %lu byte%s free, "
		  "%lu kmalloc call%s\n", hs.live_allocs, plural(hs.live_allocs),
		  hs.live_bytes, plural(hs.live_bytes), hs.free_bytes, plural(hs.free_bytes),
		  hs.total_allocs, plural(hs.total_allocs));
	sh_printf("Slots:  %lu in use on %lu page(s) (%lu allocated, %lu freed)\n",
		  ss.slots_in_use, ss.pages, ss.total_allocs, ss.total_frees);
	/* Each call a kretprobe caught and that has not returned holds an instance. */
	sh_printf("Probes: %u registered (%u of them jumps), %u kretprobe calls not yet returned\n",
		  kprobes_nr_registered(), kprobes_nr_optimized(), kretprobe_outstanding());
	sh_printf("Modules: %u loaded (lsmod lists them)\n", nr_modules());
	return 0;
}

/* ---- ps ----------------------------------------------------------------------- */

#define PS_MAX 64	/* threads shown; more are counted */

struct ps_row {
	int pid;
	enum task_state state;
	bool running;
	int cpu;
	unsigned long cpus_allowed;
	bool user;		/* a process (it has an mm), not a kernel thread */
	char name[TASK_NAME_LEN];
};

struct ps_snapshot {
	struct ps_row rows[PS_MAX];
	int n, total;
};

/* Under the scheduler's lock: copy, print later. */
static void ps_collect(struct task_struct *t, void *arg)
{
	struct ps_snapshot *snap = arg;
	struct ps_row *r = &snap->rows[snap->n];

	if (snap->total++ >= PS_MAX)
		return;
	snap->n++;
	r->pid = t->pid;
	r->state = t->state;
	r->running = t->on_cpu;
	r->cpu = t->cpu;
	r->cpus_allowed = t->cpus_allowed;
	r->user = task_is_process(t);	/* from its spawn, before it has an mm */
	strlcpy(r->name, t->name, sizeof(r->name));
}

/* Linux ps's letters: R running or runnable, S sleeping, D blocked, Z exited. */
static char ps_state(const struct ps_row *r)
{
	static const char letters[] = {
		[TASK_RUNNABLE] = 'R', [TASK_SLEEPING] = 'S',
		[TASK_BLOCKED] = 'D', [TASK_DEAD] = 'Z',
	};

	return letters[r->state];
}

int cmd_ps(int argc, char **argv)
{
	static struct ps_snapshot snap;	/* 2 KiB: not on a thread's stack */
	static DEFINE_MUTEX(ps_mutex);

	mutex_lock(&ps_mutex);
	snap.n = snap.total = 0;
	for_each_task(ps_collect, &snap);
	sh_printf("  PID S CPU BIND KIND    NAME\n");
	for (int i = 0; i < snap.n; i++) {
		const struct ps_row *r = &snap.rows[i];
		char cpu[8];

		/* The CPU it runs on now ("1*"), or the one it last ran on. */
		snprintf(cpu, sizeof(cpu), "%d%s", r->cpu, r->running ? "*" : "");
		sh_printf("%5d %c %-3s %-4s %-7s %s\n", r->pid, ps_state(r), cpu,
			  r->cpus_allowed == ~0UL ? "any" : "pin",
			  r->user ? "user" : "kthread", r->name);
	}
	if (snap.total > snap.n)
		sh_printf("(%d more threads not shown)\n", snap.total - snap.n);
	sh_printf("%u CPU(s) online; * = running now\n", num_online_cpus());
	mutex_unlock(&ps_mutex);
	return 0;
}

/* ---- CPUs ------------------------------------------------------------------- */

static void cpus_usage(void)
{
	sh_printf("usage: cpus [-b]  (-b: every CPU's registers and backtrace, by NMI)\n");
}

/*
 * One line per online CPU: its number, local APIC id, timer ticks, the
 * IPIs it took, and what it runs.  -b asks every CPU, by NMI, for its
 * registers and backtrace (Linux's sysrq-l).
 */
int cmd_cpus(int argc, char **argv)
{
	int cpu;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-b"))) {
		cpus_usage();
		return -EINVAL;
	}
	if (argc == 2) {
		seq_buf_flush(shell_out);
		trigger_all_cpu_backtrace();
		return 0;
	}
	sh_printf("CPU  APIC id  timer ticks  call IPIs  resched IPIs  running\n");
	for_each_online_cpu(cpu)
		sh_printf("%3d  %7d  %11lu  %9lu  %12lu  %s\n", cpu, cpu_apic_id[cpu],
			  per_cpu(apic_timer_irqs, cpu), per_cpu(irq_call_count, cpu),
			  per_cpu(irq_resched_count, cpu), cpu_running_name(cpu));
	return 0;
}

/* ---- reboot, poweroff ----------------------------------------------------- */

int cmd_reboot(int argc, char **argv)
{
	sh_printf("Rebooting...\n");
	seq_buf_flush(shell_out);
	machine_restart();
}

int cmd_poweroff(int argc, char **argv)
{
	sh_printf("Power off.\n");
	seq_buf_flush(shell_out);
	machine_power_off();
}
