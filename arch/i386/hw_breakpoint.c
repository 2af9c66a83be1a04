/*
 * hw_breakpoint.c - the debug registers as Linux's hw_breakpoint uses
 * them (arch/x86/kernel/hw_breakpoint.c, 2.6.33 on): four slots, each an
 * address in DR0-DR3 and a 4-bit field plus an enable bit in DR7.
 *
 * Two kinds of owner share the four slots:
 *   - a wide breakpoint holds its slot on every CPU at once, installed
 *     by an IPI to each (on_each_cpu());
 *   - a thread's breakpoint is in the CPU only while that thread runs:
 *     the context switch loads the slots of the thread switched to
 *     (hw_breakpoint_switch()), wherever it runs.
 * A slot is either wide or threads', never both, so the switch never
 * has to save a wide breakpoint away (Linux keeps the same rule with
 * its constraint counting: wide + the busiest thread <= HBP_NUM).
 *
 * The #DB handler (arch/i386/traps.c) decodes DR6 and calls
 * hw_breakpoint_handler() for the B0-B3 bits; kprobes takes BS.
 */
#include "kernel.h"
#include "hw_breakpoint.h"
#include <asm/processor.h>
#include <asm/ptrace.h>
#include "sched.h"
#include "smp.h"
#include "mutex.h"
#include "mm.h"
#include "module.h"
#include "kprobes.h"
#include "narrate.h"
#include "nokprobe.h"
#include "errno.h"
#include "linux/err.h"
#include "pseudofs.h"

DEFINE_PER_CPU(unsigned long, cpu_dr7);
DEFINE_PER_CPU(unsigned long, debug_dr6);
/* The running thread's DR7 bits, as loaded here (0: none). */
static DEFINE_PER_CPU(unsigned long, thread_dr7);
/* Which breakpoint each debug register of this CPU holds (Linux's bp_per_reg). */
static DEFINE_PER_CPU(struct hw_breakpoint *[HBP_NUM], bp_per_reg);

/*
 * Who owns the slots: a wide breakpoint, or some thread breakpoints
 * (counted).  Registering sleeps (IPIs, kzalloc), so a mutex, as Linux's
 * nr_bp_mutex.  The context switch never takes it: it reads only the
 * thread's own debugreg, written in an order it can follow.
 */
static DEFINE_MUTEX(hw_breakpoint_mutex);
static struct hw_breakpoint *wide_bps[HBP_NUM];
static int thread_slot_users[HBP_NUM];

/* ---- the DR7 encoding ----------------------------------------------------- */

/* Linux's encode_dr7(): slot n's enable bit Gn and its R/W+LEN field. */
static unsigned long encode_dr7(int slot, unsigned long field)
{
	return (field << (DR_CONTROL_SHIFT + slot * DR_CONTROL_SIZE)) |
	       ((unsigned long)DR_GLOBAL_ENABLE << (slot * DR_ENABLE_SIZE));
}

static int encode_len(unsigned int bp_len, unsigned long *len)
{
	switch (bp_len) {
	case HW_BREAKPOINT_LEN_1: *len = DR_LEN_1; return 0;
	case HW_BREAKPOINT_LEN_2: *len = DR_LEN_2; return 0;
	case HW_BREAKPOINT_LEN_4: *len = DR_LEN_4; return 0;
	default: return -EINVAL;
	}
}

/*
 * Where a breakpoint may not go.  An execute breakpoint must be on
 * kernel or module text, and not on the kprobes blacklist nor in the
 * entry stubs: that is the #DB path itself, and a fault there would
 * come back into it before DR7 is off.  A data breakpoint must be on a
 * mapped page (NULL's page is not).
 */
static bool valid_execute_address(unsigned long addr)
{
	if (addr >= (unsigned long)entry_text_start && addr < (unsigned long)entry_text_end)
		return false;
	if (!kernel_text_address(addr) && !is_module_text_address(addr))
		return false;
	return !within_kprobe_blacklist(addr);
}

/* Aligned to its length, a watched range never crosses a page: one PTE says. */
static bool valid_data_address(unsigned long addr)
{
	unsigned long *pte = lookup_pte(addr);

	return pte && (*pte & PTE_PRESENT);
}

/*
 * Linux's hw_breakpoint_arch_parse(): check attr and build its DR7
 * field.  Length 1, 2 or 4; the address a multiple of the length (the
 * CPU ignores the low address bits, so an unaligned watch would cover
 * bytes nobody asked for); execute only with length 1; no read-only.
 */
static int hw_breakpoint_arch_parse(const struct hw_breakpoint_attr *attr,
				    unsigned long *dr7_field)
{
	unsigned long len, rw;

	if (encode_len(attr->bp_len, &len) || (attr->bp_addr & (attr->bp_len - 1)))
		return -EINVAL;
	switch (attr->bp_type) {
	case HW_BREAKPOINT_X:
		if (attr->bp_len != HW_BREAKPOINT_LEN_1 || !valid_execute_address(attr->bp_addr))
			return -EINVAL;
		rw = DR_RW_EXECUTE;
		break;
	case HW_BREAKPOINT_W:
	case HW_BREAKPOINT_RW:
		if (!valid_data_address(attr->bp_addr))
			return -EINVAL;
		rw = attr->bp_type == HW_BREAKPOINT_W ? DR_RW_WRITE : DR_RW_READ;
		break;
	default:
		return -EINVAL;
	}
	*dr7_field = len | rw;
	return 0;
}

const char *hw_breakpoint_type_name(unsigned int bp_type)
{
	switch (bp_type) {
	case HW_BREAKPOINT_X:  return "x";
	case HW_BREAKPOINT_W:  return "w";
	case HW_BREAKPOINT_RW: return "rw";
	default:               return "?";
	}
}

/* ---- this CPU's registers ------------------------------------------------- */

/*
 * DR7 as the kernel wants it: the enable bits and fields, and GE while
 * any slot is on (Linux sets it too; CPUs since the P6 ignore it).
 */
static void write_cpu_dr7(unsigned long dr7)
{
	dr7 &= ~(unsigned long)DR_GLOBAL_SLOWDOWN;
	if (dr7 & (DR_GLOBAL_ENABLE_MASK | DR_LOCAL_ENABLE_MASK))
		dr7 |= DR_GLOBAL_SLOWDOWN;
	this_cpu_write(cpu_dr7, dr7);
	set_debugreg(dr7, DR_CONTROL);
}

/* The address first, then the enable bit: never armed on a stale address. */
static void load_slot(struct hw_breakpoint *bp)
{
	set_debugreg(bp->attr.bp_addr, DR_FIRSTADDR + bp->slot);
	this_cpu_write(bp_per_reg[bp->slot], bp);
}

/* IPI: a wide breakpoint goes in / out on this CPU. */
static void install_wide(void *info)
{
	struct hw_breakpoint *bp = info;

	load_slot(bp);
	write_cpu_dr7(this_cpu_read(cpu_dr7) | bp->dr7_bits);
}

static void uninstall_wide(void *info)
{
	struct hw_breakpoint *bp = info;

	write_cpu_dr7(this_cpu_read(cpu_dr7) & ~bp->dr7_bits);
	this_cpu_write(bp_per_reg[bp->slot], NULL);
}

/*
 * Load t's breakpoints in place of the thread's that were loaded here.
 * t's dr7 is read before its bps[]: the writer fills bps[] first.
 */
static void load_thread_debugreg(struct task_struct *t)
{
	unsigned long old = this_cpu_read(thread_dr7);
	unsigned long bits = READ_ONCE(t->debugreg.dr7);
	int n;

	barrier();
	for (n = 0; n < HBP_NUM; n++) {
		struct hw_breakpoint *bp = READ_ONCE(t->debugreg.bps[n]);

		if (bp && (bits & encode_dr7(n, 0)))
			load_slot(bp);
		else if (old & encode_dr7(n, 0))
			this_cpu_write(bp_per_reg[n], NULL);
	}
	write_cpu_dr7((this_cpu_read(cpu_dr7) & ~old) | bits);
	this_cpu_write(thread_dr7, bits);
}

void hw_breakpoint_switch(struct task_struct *prev, struct task_struct *next)
{
	(void)prev;	/* what prev loaded is this CPU's thread_dr7 */
	if (this_cpu_read(thread_dr7) | READ_ONCE(next->debugreg.dr7))
		load_thread_debugreg(next);
}

/* IPI: t's breakpoints changed; if t runs here, load them again. */
static void reload_if_current(void *info)
{
	if (current == info)
		load_thread_debugreg(info);
}

/* ---- registering ------------------------------------------------------------ */

static struct hw_breakpoint *alloc_bp(const struct hw_breakpoint_attr *attr,
				      hw_breakpoint_handler_t triggered, void *context,
				      unsigned long *field)
{
	struct hw_breakpoint *bp;
	int ret;

	if (!attr || !triggered)
		return ERR_PTR(-EINVAL);
	ret = hw_breakpoint_arch_parse(attr, field);
	if (ret)
		return ERR_PTR(ret);
	bp = kzalloc(sizeof(*bp));
	if (!bp)
		return ERR_PTR(-ENOMEM);
	bp->attr = *attr;
	bp->triggered = triggered;
	bp->context = context;
	return bp;
}

/* Wide slots are taken from DR3 down, threads' from DR0 up: they meet last. */
static int find_wide_slot(void)
{
	int n;

	for (n = HBP_NUM - 1; n >= 0; n--)
		if (!wide_bps[n] && !thread_slot_users[n])
			return n;
	return -ENOSPC;
}

static int find_thread_slot(struct task_struct *task)
{
	int n;

	for (n = 0; n < HBP_NUM; n++)
		if (!wide_bps[n] && !task->debugreg.bps[n])
			return n;
	return -ENOSPC;
}

struct hw_breakpoint *register_wide_hw_breakpoint(const struct hw_breakpoint_attr *attr,
						  hw_breakpoint_handler_t triggered,
						  void *context)
{
	unsigned long field;
	struct hw_breakpoint *bp = alloc_bp(attr, triggered, context, &field);
	int slot;

	if (IS_ERR(bp))
		return bp;
	mutex_lock(&hw_breakpoint_mutex);
	slot = find_wide_slot();
	if (slot < 0) {
		mutex_unlock(&hw_breakpoint_mutex);
		kfree(bp);
		return ERR_PTR(slot);
	}
	bp->slot = slot;
	bp->dr7_bits = encode_dr7(slot, field);
	wide_bps[slot] = bp;
	on_each_cpu(install_wide, bp, 1);
	mutex_unlock(&hw_breakpoint_mutex);
	return bp;
}

/* When it returns, no CPU is in bp's handler, and bp is freed. */
void unregister_wide_hw_breakpoint(struct hw_breakpoint *bp)
{
	if (IS_ERR_OR_NULL(bp))
		return;
	mutex_lock(&hw_breakpoint_mutex);
	on_each_cpu(uninstall_wide, bp, 1);
	wide_bps[bp->slot] = NULL;
	mutex_unlock(&hw_breakpoint_mutex);
	kfree(bp);
}

/*
 * The thread's debugreg is read by any CPU switching to it, without a
 * lock: bps[] is filled before the dr7 bit is set, and the bit cleared
 * before bps[] is emptied.  Then every CPU is asked to reload if it runs
 * the thread (one that switches to it later reads the new state).
 */
struct hw_breakpoint *register_thread_hw_breakpoint(struct task_struct *task,
						    const struct hw_breakpoint_attr *attr,
						    hw_breakpoint_handler_t triggered,
						    void *context)
{
	unsigned long field;
	struct hw_breakpoint *bp;
	int slot;

	if (!task)
		return ERR_PTR(-EINVAL);
	if (task->state == TASK_DEAD)
		return ERR_PTR(-EINVAL);	/* gone: nothing would ever free it */
	bp = alloc_bp(attr, triggered, context, &field);
	if (IS_ERR(bp))
		return bp;
	mutex_lock(&hw_breakpoint_mutex);
	slot = find_thread_slot(task);
	if (slot < 0) {
		mutex_unlock(&hw_breakpoint_mutex);
		kfree(bp);
		return ERR_PTR(slot);
	}
	bp->task = task;
	bp->slot = slot;
	bp->dr7_bits = encode_dr7(slot, field);
	thread_slot_users[slot]++;
	WRITE_ONCE(task->debugreg.bps[slot], bp);
	barrier();
	WRITE_ONCE(task->debugreg.dr7, task->debugreg.dr7 | bp->dr7_bits);
	on_each_cpu(reload_if_current, task, 1);
	mutex_unlock(&hw_breakpoint_mutex);
	return bp;
}

void unregister_thread_hw_breakpoint(struct hw_breakpoint *bp)
{
	struct task_struct *task;

	if (IS_ERR_OR_NULL(bp))
		return;
	task = bp->task;
	mutex_lock(&hw_breakpoint_mutex);
	WRITE_ONCE(task->debugreg.dr7, task->debugreg.dr7 & ~bp->dr7_bits);
	on_each_cpu(reload_if_current, task, 1);
	WRITE_ONCE(task->debugreg.bps[bp->slot], NULL);
	thread_slot_users[bp->slot]--;
	mutex_unlock(&hw_breakpoint_mutex);
	kfree(bp);
}

void flush_thread_hw_breakpoints(struct task_struct *task)
{
	int n;

	for (n = 0; n < HBP_NUM; n++)
		if (task->debugreg.bps[n])
			unregister_thread_hw_breakpoint(task->debugreg.bps[n]);
}

/* ---- #DB ---------------------------------------------------------------------- */

/*
 * Called by exc_debug() with DR7 off on this CPU and DR6 already read
 * and cleared.  Every Bn set is reported: two data breakpoints can
 * match one instruction.  A Bn whose slot holds nothing here is not
 * ours (the CPU may set Bn for a matching address whose slot is off).
 *
 * An execute breakpoint is a fault: #DB comes before the instruction
 * runs, and the iret goes back to the same address, whose breakpoint
 * would fault again, forever.  RF (resume flag) in the pushed EFLAGS
 * tells the CPU to skip instruction breakpoints for one instruction;
 * the CPU clears RF once that instruction has run.  A data breakpoint
 * is a trap, taken after the access: the iret goes to the next
 * instruction, and RF there would wrongly hide a breakpoint on it.
 */
bool hw_breakpoint_handler(struct pt_regs *regs, unsigned long dr6)
{
	bool ours = false;
	int n;

	for (n = 0; n < HBP_NUM; n++) {
		struct hw_breakpoint *bp;

		if (!(dr6 & (DR_TRAP0 << n)))
			continue;
		bp = this_cpu_read(bp_per_reg[n]);
		if (!bp)
			continue;
		ours = true;
		if (bp->attr.bp_type == HW_BREAKPOINT_X)
			regs->flags |= X86_EFLAGS_RF;
		atomic_inc(&bp->hit_count);
		hw_breakpoint_narrate(bp, regs, dr6);
		bp->triggered(bp, regs);
	}
	return ours;
}
NOKPROBE_SYMBOL(hw_breakpoint_handler);
NOKPROBE_SYMBOL(hw_breakpoint_switch);
NOKPROBE_SYMBOL(load_thread_debugreg);
NOKPROBE_SYMBOL(load_slot);
NOKPROBE_SYMBOL(write_cpu_dr7);

/* ---- /sys/kernel/debug/hw_breakpoint/slots -------------------------------------- */

#define HW_BREAKPOINT_DEBUG_DIR "/sys/kernel/debug/hw_breakpoint"

/* One line a slot: who holds it and what DR7 says of it on each CPU. */
static void show_slot(struct seq_buf *s, int n)
{
	unsigned long en = encode_dr7(n, 0), field_shift = DR_CONTROL_SHIFT + n * DR_CONTROL_SIZE;
	struct hw_breakpoint *bp = wide_bps[n];
	int cpu;

	seq_buf_printf(s, "DR%d  ", n);
	if (bp)
		seq_buf_printf(s, "wide     %-2s %u %08lx %pS hits %d\n",
			   hw_breakpoint_type_name(bp->attr.bp_type), bp->attr.bp_len,
			   bp->attr.bp_addr, (void *)bp->attr.bp_addr, atomic_read(&bp->hit_count));
	else if (thread_slot_users[n])
		seq_buf_printf(s, "threads  %d breakpoint(s), loaded while their thread runs\n",
			   thread_slot_users[n]);
	else
		seq_buf_puts(s, "free\n");
	for_each_online_cpu(cpu) {
		unsigned long dr7 = per_cpu(cpu_dr7, cpu);

		if (dr7 & en)
			seq_buf_printf(s, "       cpu%d: G%d=1 R/W+LEN=%lx\n", cpu, n,
				   (dr7 >> field_shift) & ((1UL << DR_CONTROL_SIZE) - 1));
	}
}

static int slots_show(struct seq_buf *s, void *data)
{
	int n, cpu;

	(void)data;
	mutex_lock(&hw_breakpoint_mutex);
	for_each_online_cpu(cpu)
		seq_buf_printf(s, "cpu%d DR7 %08lx\n", cpu, per_cpu(cpu_dr7, cpu));
	for (n = 0; n < HBP_NUM; n++)
		show_slot(s, n);
	mutex_unlock(&hw_breakpoint_mutex);
	return 0;
}

static const struct pseudo_file_spec hw_breakpoint_debug_files[] = {
	{ "slots", slots_show, NULL },
};

int hw_breakpoint_debugfs_init(void)
{
	return pseudofs_create_files(HW_BREAKPOINT_DEBUG_DIR, hw_breakpoint_debug_files,
				     ARRAY_SIZE(hw_breakpoint_debug_files));
}
