/*
 * tls.c - thread-local storage segments: set_thread_area() (243) and
 * get_thread_area() (244), as Linux's arch/x86/kernel/tls.c.
 *
 * The third x86 segmentation lesson, after the flat segments of the
 * GDT and the TSS.  Paging protects memory here, and every segment is
 * flat - except these.  A C library needs one pointer per thread that
 * any code can reach in one instruction: the thread's own data (errno,
 * the stack protector's canary, the malloc arena).  i386 has too few
 * registers to give one up, so Linux gives a segment instead: glibc
 * asks set_thread_area() for a descriptor whose BASE is its thread
 * block, loads the selector into %gs, and from then on %gs:0x14 is the
 * canary, %gs:0 the block itself - whatever the thread, with no
 * register spent.
 *
 * A selector only indexes the GDT; the base lives in the descriptor.
 * So the three TLS descriptors (entries 6..8) are per task: each task
 * keeps its copy in task_struct.tls_array, and every context switch
 * writes the next task's copy into this CPU's GDT (load_TLS()).  The
 * selector itself, 0x33 for entry 6, is in the task's saved %gs
 * (pt_regs on its kernel stack), which the return to ring 3 pops: that
 * pop reloads the CPU's hidden copy of the descriptor from the table
 * just written.  Two processes may both hold %gs = 0x33 and see
 * different bases, as two processes both use address 0x8048000.
 */
#include "kernel.h"
#include "sched.h"
#include "smp.h"
#include "syscalls.h"
#include "uaccess.h"
#include "string.h"
#include "errno.h"
#include <asm/segment.h>
#include <asm/desc_defs.h>
#include <asm/ldt.h>
#include <asm/ptrace.h>
#include <asm/tls.h>

#define SEGMENT_TI_MASK		4	/* the selector names the LDT, not the GDT */
#define DESC_TYPE_WRITABLE	2	/* data: writable; code: readable */
#define DESC_TYPE_ACCESSED	1	/* set by the CPU at the first load; Linux sets it */
#define DESC_TYPE_CONTENTS_SHIFT 2	/* user_desc.contents: expand-down (1), code (2) */

/*
 * Linux's LDT_empty(): the "no segment" a program writes to free an
 * entry (read_exec_only and seg_not_present set, all else 0).
 */
static bool tls_desc_is_empty(const struct user_desc *info)
{
	return info->base_addr == 0 && info->limit == 0 && info->contents == 0 &&
	       info->read_exec_only == 1 && info->seg_32bit == 0 &&
	       info->limit_in_pages == 0 && info->seg_not_present == 1 &&
	       info->useable == 0;
}

/* Linux's LDT_zero(): an all-zero user_desc means "no segment" too. */
static bool tls_desc_is_zero(const struct user_desc *info)
{
	return info->base_addr == 0 && info->limit == 0 && info->contents == 0 &&
	       info->read_exec_only == 0 && info->seg_32bit == 0 &&
	       info->limit_in_pages == 0 && info->seg_not_present == 0 &&
	       info->useable == 0;
}

/*
 * Linux's tls_desc_okay(): only present 32-bit data segments.  A
 * 16-bit one would need espfix (iret restores only the low 16 bits of
 * ESP with a 16-bit stack segment, leaking kernel stack bits); a code
 * segment or a not-present one in the GDT is attack surface for nothing.
 */
static bool tls_desc_okay(const struct user_desc *info)
{
	if (tls_desc_is_empty(info) || tls_desc_is_zero(info))
		return true;
	if (!info->seg_32bit)
		return false;
	if (info->contents > MODIFY_LDT_CONTENTS_STACK)
		return false;
	return !info->seg_not_present;
}

/* Linux's fill_ldt(): a user_desc as the 8 bytes the CPU reads, DPL 3. */
static void fill_ldt(struct desc_struct *desc, const struct user_desc *info)
{
	desc->limit0 = info->limit & 0xffff;
	desc->base0 = info->base_addr & 0xffff;
	desc->base1 = (info->base_addr >> 16) & 0xff;
	desc->type = (info->read_exec_only ^ 1) * DESC_TYPE_WRITABLE |
		     info->contents << DESC_TYPE_CONTENTS_SHIFT | DESC_TYPE_ACCESSED;
	desc->s = 1;
	desc->dpl = USER_RPL;
	desc->p = info->seg_not_present ^ 1;
	desc->limit1 = (info->limit >> 16) & 0xf;
	desc->avl = info->useable;
	desc->l = 0;
	desc->d = info->seg_32bit;
	desc->g = info->limit_in_pages;
	desc->base2 = (info->base_addr >> 24) & 0xff;
}

/* Linux's fill_user_desc(): the other way round, for get_thread_area(). */
static void fill_user_desc(struct user_desc *info, int idx, const struct desc_struct *desc)
{
	memset(info, 0, sizeof(*info));
	info->entry_number = idx;
	info->base_addr = get_desc_base(desc);
	info->limit = get_desc_limit(desc);
	info->seg_32bit = desc->d;
	info->contents = desc->type >> DESC_TYPE_CONTENTS_SHIFT;
	info->read_exec_only = !(desc->type & DESC_TYPE_WRITABLE);
	info->limit_in_pages = desc->g;
	info->seg_not_present = !desc->p;
	info->useable = desc->avl;
}

void load_TLS(const struct task_struct *t, int cpu)
{
	int i;

	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		write_gdt_entry(cpu, GDT_ENTRY_TLS_MIN + i, &t->tls_array[i]);
}

void tls_copy_thread(struct task_struct *p, const struct task_struct *parent)
{
	memcpy(p->tls_array, parent->tls_array, sizeof(p->tls_array));
}

void tls_flush_thread(struct task_struct *t)
{
	memset(t->tls_array, 0, sizeof(t->tls_array));
}

bool tls_selector_usable(unsigned short sel)
{
	int idx = sel >> 3;

	if ((sel & SEGMENT_TI_MASK) || idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return false;
	return !desc_empty(&current->tls_array[idx - GDT_ENTRY_TLS_MIN]) &&
	       current->tls_array[idx - GDT_ENTRY_TLS_MIN].p;
}

/* The first free entry's GDT index (Linux's get_free_idx()), or -ESRCH. */
static int tls_get_free_idx(void)
{
	int i;

	for (i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		if (desc_empty(&current->tls_array[i]))
			return GDT_ENTRY_TLS_MIN + i;
	return -ESRCH;
}

/*
 * A saved segment register that names an entry just emptied would make
 * the return to ring 3 fault on its pop, in the kernel: make it null,
 * as Linux's reload of that register ends (its fixup loads 0).
 */
static void tls_forget_selector(unsigned short *sel, int idx)
{
	if ((*sel | USER_RPL) == (idx * 8 | USER_RPL))
		*sel = 0;
}

/* Linux's set_tls_desc(), for the current task: its copy and this CPU's table. */
static void set_tls_desc(int idx, const struct user_desc *info)
{
	struct desc_struct *desc = &current->tls_array[idx - GDT_ENTRY_TLS_MIN];
	struct pt_regs *regs = current_pt_regs();

	preempt_disable();	/* no switch between the copy and the table */
	if (tls_desc_is_empty(info) || tls_desc_is_zero(info)) {
		memset(desc, 0, sizeof(*desc));
		tls_forget_selector(&regs->gs, idx);
		tls_forget_selector(&regs->fs, idx);
	} else {
		fill_ldt(desc, info);
	}
	load_TLS(current, smp_processor_id());
	preempt_enable();
}

/*
 * set_thread_area(u_info): entry_number -1 picks a free entry and
 * writes its index back; 6..8 replaces that one.  -EFAULT, -EINVAL (a
 * segment tls_desc_okay() refuses, an index out of 6..8), -ESRCH (all
 * three in use).
 */
asmlinkage long sys_set_thread_area(struct user_desc __user *u_info)
{
	struct user_desc info;
	int idx;

	if (copy_from_user(&info, u_info, sizeof(info)))
		return -EFAULT;
	if (!tls_desc_okay(&info))
		return -EINVAL;
	idx = info.entry_number;
	if (idx == -1) {
		idx = tls_get_free_idx();
		if (idx < 0)
			return idx;
		if (copy_to_user(&u_info->entry_number, &idx, sizeof(idx)))
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	set_tls_desc(idx, &info);
	return 0;
}

/* get_thread_area(u_info): entry u_info->entry_number (6..8) as a user_desc. */
asmlinkage long sys_get_thread_area(struct user_desc __user *u_info)
{
	struct user_desc info;
	int idx;

	if (copy_from_user(&idx, &u_info->entry_number, sizeof(idx)))
		return -EFAULT;
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	fill_user_desc(&info, idx, &current->tls_array[idx - GDT_ENTRY_TLS_MIN]);
	if (copy_to_user(u_info, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}
