/*
 * fault.c - the #PF handler's x86 half (Linux's arch/x86/mm/fault.c):
 * what the CPU tells about a page fault, and what becomes of it.
 *
 * The CPU gives two facts: CR2, the linear address it could not use,
 * and the error code it pushed - P (0: no page, 1: the page forbids
 * it), W (a write), U (from ring 3), I (an instruction fetch).  A fault
 * on a user address of a process - from ring 3, or from the kernel's
 * copy_to_user() into a page not there yet - goes to handle_mm_fault()
 * (mm/memory.c), which may make the page; then the iret retries the
 * faulting instruction.  Anything it refuses goes on as before: from
 * ring 3 a SIGSEGV (kernel/signal.c), from the kernel a fixup entry or
 * an oops (arch/i386/traps.c).
 *
 *   echo 1 > /sys/kernel/debug/page_fault/narrate
 *
 * tells each fault on the console: the address, the bits decoded, and
 * what the handler decided (docs/page-faults.md).
 */
#include "signal.h"
#include "kernel.h"
#include "sched.h"
#include "mm_types.h"
#include "pseudofs.h"
#include "seq_buf.h"
#include "errno.h"
#include "nokprobe.h"
#include <asm/traps.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/pgfault.h>
#include <asm/atomic.h>

#define PAGE_FAULT_DEBUG_DIR "/sys/kernel/debug/page_fault"
#define NR_FAULT_RESULTS (FAULT_OOM + 1)

bool page_fault_narrate_enabled;
/* Faults by what the handler did, since boot (the debugfs stats file). */
static atomic_t fault_stats[NR_FAULT_RESULTS];

unsigned long page_fault_count(enum fault_result what)
{
	return atomic_read(&fault_stats[what]);
}

static void narrate_fault(struct pt_regs *regs, unsigned long address,
			  unsigned long error_code, enum fault_result what)
{
	/* One printk: another CPU's fault is told before or after, never inside. */
	printk("page fault: %s[%d] ip %08lx CR2 %08lx error %lx: P=%d %s, W=%d %s, U=%d %s\n"
	       "page fault: -> %s\n",
	       current->comm, current->pid, regs->ip, address, error_code,
	       !!(error_code & PF_PROT),
	       error_code & PF_PROT ? "protection" : "not present",
	       !!(error_code & PF_WRITE), error_code & PF_WRITE ? "write" : "read",
	       !!(error_code & PF_USER), error_code & PF_USER ? "user" : "kernel",
	       fault_result_name(what));
}

bool do_user_addr_fault(struct pt_regs *regs, unsigned long address)
{
	unsigned long error_code = regs->orig_ax;
	struct mm_struct *mm = current->mm;
	enum fault_result what;

	current->signal.trap.pf_access_error = false;
	if (address < USER_BASE || address >= TASK_SIZE || !mm)
		return false;	/* the kernel's own addresses: its mistake */
	what = handle_mm_fault(mm, address, error_code & PF_WRITE ? FAULT_FLAG_WRITE : 0);
	atomic_inc(&fault_stats[what]);
	if (page_fault_narrate_enabled)
		narrate_fault(regs, address, error_code, what);
	if (!fault_result_handled(what)) {
		current->signal.trap.pf_access_error = what == FAULT_ACCESS_ERROR;
		return false;	/* SIGSEGV (kernel/signal.c) or, from the kernel, a fixup */
	}
	current->min_flt++;	/* a "minor" fault: no disk involved */
	return true;
}
NOKPROBE_SYMBOL(do_user_addr_fault);

static int page_fault_narrate_show(struct seq_buf *s, void *data)
{
	seq_buf_printf(s, "%d\n", READ_ONCE(page_fault_narrate_enabled));
	return 0;
}

static int page_fault_narrate_write(const char *text, size_t len, bool trunc, void *data)
{
	if (len == 0 || len > 2 || (len == 2 && text[1] != '\n') ||
	    (text[0] != '0' && text[0] != '1'))
		return -EINVAL;
	WRITE_ONCE(page_fault_narrate_enabled, text[0] == '1');
	return 0;
}

static const char *const stat_names[NR_FAULT_RESULTS] = {
	[FAULT_DEMAND_ZERO] = "demand_zero",
	[FAULT_STACK_GROWTH] = "stack_growth",
	[FAULT_COW_COPY] = "cow_copy",
	[FAULT_COW_REUSE] = "cow_reuse",
	[FAULT_SPURIOUS] = "spurious",
	[FAULT_BAD_AREA] = "bad_area",
	[FAULT_ACCESS_ERROR] = "access_error",
	[FAULT_OOM] = "oom",
};

static int page_fault_stats_show(struct seq_buf *s, void *data)
{
	for (int i = 0; i < NR_FAULT_RESULTS; i++)
		seq_buf_printf(s, "%-13s %lu\n", stat_names[i], page_fault_count(i));
	return 0;
}

static const struct pseudo_file_spec page_fault_files[] = {
	{ "narrate", page_fault_narrate_show, page_fault_narrate_write },
	{ "stats",   page_fault_stats_show,   NULL },
};

int page_fault_debugfs_init(void)
{
	return pseudofs_create_files(PAGE_FAULT_DEBUG_DIR, page_fault_files,
				     ARRAY_SIZE(page_fault_files));
}
