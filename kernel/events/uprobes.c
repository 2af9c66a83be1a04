/*
 * uprobes.c - breakpoints in user programs (Linux's kernel/events/uprobes.c;
 * docs/uprobes.md draws the page).
 *
 * A uprobe is (inode, offset), as Linux's: a file of the ramfs and a
 * file offset, found in a process at the address the offset is loaded
 * at.  Registering one writes an int3 into the copy of the page that
 * every process running the file owns (exec gave each its own frames:
 * the file's bytes are never written, which is what Linux's
 * copy-on-write of the page cache's page achieves; a frame a fork
 * shares is copied before the write), and uprobe_mmap() does the same
 * for processes started later, uprobe_dup_mmap() for forked ones.
 * Unregistering the last consumer writes the original byte back into
 * every copy.
 *
 * A hit, in the process that trapped:
 *   #BP from ring 3 -> uprobe_pre_sstep_notifier(): ours, work pending
 *   exit_to_user_mode() -> uprobe_notify_resume() -> handle_swbp():
 *       the consumers' handlers; a return probe swaps the return address
 *       for the trampoline; arch_uprobe_pre_xol(): the copy in the XOL
 *       slot, ip there, TF on
 *   iret: ring 3 runs the copy, one instruction
 *   #DB -> uprobe_post_sstep_notifier() -> uprobe_notify_resume() ->
 *       handle_singlestep(): arch_uprobe_post_xol() fixes ip, a call's
 *       pushed return address, a pushf's image; TF as it was (after a
 *       popf: as it popped)
 */
#include "kernel.h"
#include "uprobes.h"
#include "process.h"
#include "mm_types.h"
#include "sched.h"
#include "spinlock.h"
#include "uaccess.h"
#include "exec_elf.h"
#include "ramfs.h"
#include "string.h"
#include "errno.h"
#include "list.h"
#include <asm/traps.h>
#include "nokprobe.h"
#include <asm/processor.h>
#include <asm/ptrace.h>

struct uprobe {
	struct list_head list;               /* on uprobes */
	/* The file: a key, not a reference - the registering caller holds it. */
	struct inode *inode;
	unsigned long offset;                /* in the file */
	unsigned long vaddr;                 /* where it is loaded */
	/* The reference counter (Linux 4.20+): a u16 of the program's
	 * data at file offset ref_ctr_offset, loaded at ref_ctr_vaddr,
	 * that each process sees as 1 while the probe is in its copy. */
	unsigned long ref_ctr_offset, ref_ctr_vaddr;
	struct uprobe_consumer *consumers;
	int ref;                             /* the list's + pending returns' */
	struct arch_uprobe arch;
};

/* A call that hit a return probe and has not returned yet (Linux's return_instance). */
struct return_instance {
	struct uprobe *uprobe;               /* holds a reference */
	unsigned long func;                  /* the probed address */
	unsigned long orig_ret_vaddr;        /* what the trampoline replaced */
};

enum uprobe_task_state { UTASK_RUNNING, UTASK_SSTEP };

/* Per task (Linux's struct uprobe_task): the hit in flight and the pending returns. */
struct uprobe_task {
	enum uprobe_task_state state;
	bool swbp_pending, sstep_pending;    /* Linux's TIF_UPROBE, split by cause */
	unsigned long vaddr;                 /* the probed instruction's */
	struct arch_uprobe_task autask;      /* the task's TF before the step */
	struct arch_uprobe arch;             /* a copy: the uprobe may go meanwhile */
	int depth;
	struct return_instance ri[MAX_URETPROBE_DEPTH];
};

/*
 * Every uprobe and every address space running a file (mm->exe_file).
 * One lock for both: a probe's int3 goes into exactly the copies that
 * exist while it is held, and uprobe_mmap() gives a new process exactly
 * the probes that exist.  Hits take it too (with interrupts off: they
 * come from the #BP and #DB handlers).
 */
static LIST_HEAD(uprobes);
static LIST_HEAD(uprobe_mms);
static DEFINE_SPINLOCK(uprobes_lock);

/* The uprobe of (inode, offset), Linux's key. */
static struct uprobe *find_uprobe(const struct inode *inode, unsigned long offset)
{
	struct uprobe *u;

	list_for_each_entry(u, &uprobes, list)
		if (u->inode == inode && u->offset == offset)
			return u;
	return NULL;
}

/*
 * The uprobe whose int3 the process hit at bp_vaddr, in the file it
 * runs (Linux's find_active_uprobe(): the vma's file and the offset
 * bp_vaddr maps; here exec maps one file, at its ELF addresses).
 */
static struct uprobe *find_active_uprobe(const struct mm_struct *mm, unsigned long bp_vaddr)
{
	struct uprobe *u;

	list_for_each_entry(u, &uprobes, list)
		if (u->inode == mm->exe_file && u->vaddr == bp_vaddr)
			return u;
	return NULL;
}

static void put_uprobe(struct uprobe *u)
{
	if (--u->ref == 0)
		kfree(u);
}

/* ---- the int3 in each copy of the page ----------------------------------------- */

/*
 * The byte through the frame's kernel address: the user mapping is
 * read-only.  A frame fork shares is copied first, so only this
 * process's copy changes (user_page_address_write()).
 */
static void write_opcode(struct mm_struct *mm, unsigned long vaddr, unsigned char op)
{
	unsigned char *p = user_page_address_write(mm, vaddr);

	if (p)
		*p = op;
}

/*
 * The program's reference counter in one process, Linux's
 * update_ref_ctr(): an SDT probe's semaphore, which the program tests
 * to skip the work of preparing its probe's arguments while no one
 * traces it.  It counts probes, so two tracers of one program add up.
 */
static void update_ref_ctr(struct uprobe *u, struct mm_struct *mm, short d)
{
	unsigned short *ctr;

	if (!u->ref_ctr_vaddr)
		return;
	ctr = user_page_address_write(mm, u->ref_ctr_vaddr);
	if (!ctr || (short)(*ctr + d) < 0)
		return;		/* Linux warns "ref_ctr going negative" and leaves it */
	*ctr += d;
}

static void install_breakpoint(struct uprobe *u, struct mm_struct *mm)
{
	write_opcode(mm, u->vaddr, UPROBE_SWBP_INSN);
	update_ref_ctr(u, mm, 1);
}

static void remove_breakpoint(struct uprobe *u, struct mm_struct *mm)
{
	write_opcode(mm, u->vaddr, u->arch.insn[0]);
	update_ref_ctr(u, mm, -1);
}

static void for_each_copy(struct uprobe *u, void (*fn)(struct uprobe *, struct mm_struct *))
{
	struct mm_struct *mm;

	list_for_each_entry(mm, &uprobe_mms, uprobes_link)
		if (mm->exe_file == u->inode)
			fn(u, mm);
}

void uprobe_mmap(struct mm_struct *mm)
{
	unsigned long flags;
	struct uprobe *u;

	if (!mm->exe_file)
		return;		/* an image exec_load() was handed: no file to probe */
	spin_lock_irqsave(&uprobes_lock, flags);
	list_add_tail(&mm->uprobes_link, &uprobe_mms);
	list_for_each_entry(u, &uprobes, list)
		if (u->inode == mm->exe_file)
			install_breakpoint(u, mm);
	spin_unlock_irqrestore(&uprobes_lock, flags);
}

void uprobe_clear_state(struct mm_struct *mm)
{
	unsigned long flags;

	spin_lock_irqsave(&uprobes_lock, flags);
	list_del(&mm->uprobes_link);	/* a no-op for an mm exec never listed */
	INIT_LIST_HEAD(&mm->uprobes_link);
	spin_unlock_irqrestore(&uprobes_lock, flags);
}

/*
 * Fork (kernel/fork.c's dup_mmap()): from the start of the pages' copy
 * to the child's listing, no probe may be registered or removed - the
 * child would miss an int3 written into the parent's copy only (Linux
 * holds dup_mmap_sem for the same window).
 */
static unsigned long dup_mmap_flags;	/* the holder's, under uprobes_lock */

void uprobe_start_dup_mmap(void)
{
	unsigned long flags;

	spin_lock_irqsave(&uprobes_lock, flags);
	dup_mmap_flags = flags;
}

void uprobe_end_dup_mmap(void)
{
	spin_unlock_irqrestore(&uprobes_lock, dup_mmap_flags);
}

/*
 * Linux's uprobe_dup_mmap(): the child runs the parent's file (fork set
 * its exe_file), and its pages - shared with the parent - hold the same
 * int3s; listing it makes them its own from now on: an unregister takes
 * them out of its copy too, a register puts new ones in.
 */
void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	if (!list_empty(&oldmm->uprobes_link))
		list_add_tail(&newmm->uprobes_link, &uprobe_mms);
}

/* ---- where a file offset is loaded ------------------------------------------------ */

/*
 * The file's bytes as exec would load them: only a file exec runs has
 * a text for a probe to be in (elf_check_exec() with exec's bounds).
 */
static bool image_is_exec(struct load_info *info, const unsigned char *data, size_t size)
{
	memset(info, 0, sizeof(*info));
	info->image = data;
	info->len = size;
	return data && elf_check_exec(info, USER_BASE, USER_STACK_BOTTOM - STACK_GUARD_GAP) == 0;
}

/* The executable PT_LOAD holding file offset `offset`: Linux's vma_offset. */
static unsigned long image_offset_to_vaddr(const struct load_info *info,
					   unsigned long offset)
{
	const Elf32_Ehdr *h = (const Elf32_Ehdr *)info->image;

	for (unsigned int i = 0; i < h->e_phnum; i++) {
		const Elf32_Phdr *p = elf_phdr(info, i);

		if (p->p_type == PT_LOAD && (p->p_flags & PF_X) &&
		    offset >= p->p_offset && offset - p->p_offset < p->p_filesz)
			return p->p_vaddr + (offset - p->p_offset);
	}
	return 0;
}

struct offset_query {
	unsigned long offset, vaddr;
};

static int offset_query_locked(const unsigned char *data, size_t size, void *arg)
{
	struct offset_query *q = arg;
	struct load_info info;

	q->vaddr = image_is_exec(&info, data, size) ? image_offset_to_vaddr(&info, q->offset) : 0;
	return 0;
}

unsigned long uprobe_offset_to_vaddr(struct inode *inode, unsigned long offset)
{
	struct offset_query q = { .offset = offset };

	ramfs_with_data(inode, offset_query_locked, &q);
	return q.vaddr;
}

/*
 * Where a file offset of the program's data is loaded: any PT_LOAD, as
 * the counter usually sits in .data.  0 when no segment holds the two
 * bytes, or when they straddle a page (one page is written at a time).
 */
static unsigned long ref_ctr_offset_to_vaddr(const struct load_info *info,
					     unsigned long offset)
{
	const Elf32_Ehdr *h = (const Elf32_Ehdr *)info->image;
	unsigned long vaddr;

	for (unsigned int i = 0; i < h->e_phnum; i++) {
		const Elf32_Phdr *p = elf_phdr(info, i);

		if (p->p_type != PT_LOAD || offset < p->p_offset ||
		    offset - p->p_offset + sizeof(short) > p->p_filesz)
			continue;
		vaddr = p->p_vaddr + (offset - p->p_offset);
		return (vaddr & ~PAGE_MASK) <= PAGE_SIZE - sizeof(short) ? vaddr : 0;
	}
	return 0;
}

/*
 * Is offset the start of an instruction?  If the file has a symbol
 * table, decode the function around it from its start (as kprobes'
 * can_probe() does with kallsyms).  Without one - a stripped file,
 * busybox - we cannot tell, as Linux cannot.
 */
static int check_insn_boundary(const struct load_info *info, unsigned long offset,
			       unsigned long vaddr)
{
	const Elf32_Sym *sym = elf_exec_func(info, NULL, vaddr);

	if (!sym)
		return 0;
	return insn_boundary_check(info->image + offset - (vaddr - sym->st_value),
				   info->image + offset, sym->st_size);
}

/* What prepare_image() is asked, under the ramfs lock. */
struct prepare_args {
	struct uprobe *u;
	bool past_end_ok;	/* uprobe_check(): registering refuses that, as in Linux */
	const char **why;
};

/* 0, 1 (past the end, left to registering), or -EINVAL with *why. */
static int prepare_image(const unsigned char *data, size_t size, void *arg)
{
	struct prepare_args *a = arg;
	struct uprobe *u = a->u;
	struct load_info info;
	unsigned long max;

	if (u->offset > size) {		/* Linux's __uprobe_register(): "the obvious mistakes" */
		*a->why = "offset is past the end of the file";
		return a->past_end_ok ? 1 : -EINVAL;
	}
	*a->why = "not an executable this kernel runs";
	if (!image_is_exec(&info, data, size))
		return -EINVAL;
	u->vaddr = image_offset_to_vaddr(&info, u->offset);
	*a->why = "offset is not in the program's text";
	if (!u->vaddr)
		return -EINVAL;
	*a->why = "offset is not on an instruction boundary";
	if (check_insn_boundary(&info, u->offset, u->vaddr))
		return -EINVAL;
	if (u->ref_ctr_offset) {
		u->ref_ctr_vaddr = ref_ctr_offset_to_vaddr(&info, u->ref_ctr_offset);
		*a->why = "reference counter is not in the program's loaded data";
		if (!u->ref_ctr_vaddr)
			return -EINVAL;
	}
	max = size - u->offset;
	memcpy(u->arch.insn, data + u->offset, max < MAX_UINSN_BYTES ? max : MAX_UINSN_BYTES);
	return 0;
}

/*
 * Read the file: where the offset is loaded, the instruction's bytes
 * (copied now: a later write to the file does not change the probe, as
 * Linux's copy is taken when the first process maps it), its analysis.
 */
static int prepare_uprobe(struct uprobe *u, bool past_end_ok, const char **why)
{
	struct prepare_args a = { .u = u, .past_end_ok = past_end_ok, .why = why };
	int ret = ramfs_with_data(u->inode, prepare_image, &a);

	if (ret)
		return ret > 0 ? 0 : ret;
	return arch_uprobe_analyze_insn(&u->arch, why);
}

/* ---- register / unregister ---------------------------------------------------------- */

int uprobe_check(struct inode *inode, unsigned long offset,
		 unsigned long ref_ctr_offset, const char **why)
{
	struct uprobe u = { .inode = inode, .offset = offset, .ref_ctr_offset = ref_ctr_offset };

	return prepare_uprobe(&u, true, why);
}

int uprobe_register(struct inode *inode, unsigned long offset,
		    struct uprobe_consumer *uc, const char **why)
{
	return uprobe_register_refctr(inode, offset, 0, uc, why);
}

int uprobe_register_refctr(struct inode *inode, unsigned long offset,
			   unsigned long ref_ctr_offset, struct uprobe_consumer *uc,
			   const char **why)
{
	struct uprobe *u = kzalloc(sizeof(*u)), *old;
	const char *dummy;
	unsigned long flags;
	int ret;

	if (!why)
		why = &dummy;
	*why = "out of memory";
	if (!u)
		return -ENOMEM;
	u->inode = inode;
	u->offset = offset;
	u->ref_ctr_offset = ref_ctr_offset;
	ret = prepare_uprobe(u, false, why);
	if (ret) {
		kfree(u);
		return ret;
	}
	spin_lock_irqsave(&uprobes_lock, flags);
	old = find_uprobe(inode, offset);
	if (old && old->ref_ctr_offset != ref_ctr_offset) {
		spin_unlock_irqrestore(&uprobes_lock, flags);
		kfree(u);
		*why = "Reference counter offset mismatch";	/* Linux's pr_warn */
		return -EINVAL;
	}
	if (old) {
		kfree(u);		/* a second consumer at the same place */
		u = old;
	} else {
		u->ref = 1;
		list_add_tail(&u->list, &uprobes);
		for_each_copy(u, install_breakpoint);
	}
	uc->next = u->consumers;
	u->consumers = uc;
	spin_unlock_irqrestore(&uprobes_lock, flags);
	return 0;
}

static bool consumer_del(struct uprobe *u, struct uprobe_consumer *uc)
{
	struct uprobe_consumer **pp;

	for (pp = &u->consumers; *pp; pp = &(*pp)->next)
		if (*pp == uc) {
			*pp = uc->next;
			return true;
		}
	return false;
}

void uprobe_unregister(struct inode *inode, unsigned long offset,
		       struct uprobe_consumer *uc)
{
	unsigned long flags;
	struct uprobe *u;

	spin_lock_irqsave(&uprobes_lock, flags);
	u = find_uprobe(inode, offset);
	if (u && consumer_del(u, uc) && !u->consumers) {
		for_each_copy(u, remove_breakpoint);
		list_del(&u->list);
		put_uprobe(u);		/* pending returns may still hold it */
	}
	spin_unlock_irqrestore(&uprobes_lock, flags);
}

/* ---- the XOL page ---------------------------------------------------------------- */

/*
 * Map the process's XOL page on its first hit (Linux's xol_add_vma()):
 * user-readable and executable, not writable, so the process cannot
 * change what we step.  The trampoline's int3 is in slot 0 from the
 * start.  pgd_free() frees it with the rest of the address space.
 */
static int xol_get_area(struct mm_struct *mm)
{
	unsigned long *pte;
	unsigned char *page;

	if (mm->xol_vaddr)
		return 0;
	pte = user_pte(mm->pgd, XOL_AREA_VADDR, true);
	if (!pte || (*pte & PTE_PRESENT))
		return -ENOMEM;
	page = alloc_pages(1);
	if (!page)
		return -ENOMEM;
	page[UPROBE_TRAMPOLINE_VADDR - XOL_AREA_VADDR] = UPROBE_SWBP_INSN;
	*pte = (unsigned long)page | PTE_PRESENT | PTE_USER;
	mm->nr_pages++;
	mm->xol_vaddr = XOL_AREA_VADDR;
	return 0;
}

/* ---- the hit ---------------------------------------------------------------------- */

static struct uprobe_task *get_utask(void)
{
	if (!current->utask)
		current->utask = kzalloc(sizeof(struct uprobe_task));
	return current->utask;
}

void uprobe_free_utask(struct task_struct *t)
{
	struct uprobe_task *utask = t->utask;
	unsigned long flags;

	if (!utask)
		return;
	spin_lock_irqsave(&uprobes_lock, flags);
	while (utask->depth)
		put_uprobe(utask->ri[--utask->depth].uprobe);
	spin_unlock_irqrestore(&uprobes_lock, flags);
	t->utask = NULL;
	kfree(utask);
}

/* A #BP from ring 3 in a process that may have uprobes: handle_swbp() decides. */
int uprobe_pre_sstep_notifier(struct pt_regs *regs)
{
	struct mm_struct *mm = current->mm;
	struct uprobe_task *utask;

	if (!user_mode(regs) || !mm || (list_empty(&uprobes) && !mm->xol_vaddr))
		return 0;
	utask = get_utask();
	if (!utask)
		return 0;	/* no memory: the int3 kills, as an unclaimed one does */
	utask->swbp_pending = true;
	return 1;
}

/* A #DB from ring 3 at the end of our step. */
int uprobe_post_sstep_notifier(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!user_mode(regs) || !utask || utask->state != UTASK_SSTEP)
		return 0;
	utask->sstep_pending = true;
	return 1;
}

NOKPROBE_SYMBOL(uprobe_pre_sstep_notifier);
NOKPROBE_SYMBOL(uprobe_post_sstep_notifier);

/* Return probes: the caller's return address becomes the trampoline (Linux's prepare_uretprobe()). */
static bool prepare_uretprobe(struct uprobe *u, struct uprobe_task *utask,
			      struct pt_regs *regs)
{
	unsigned long tramp = UPROBE_TRAMPOLINE_VADDR, orig;
	struct return_instance *ri;

	if (utask->depth == MAX_URETPROBE_DEPTH)
		return false;	/* Linux too drops the return probe of a too deep call */
	if (copy_from_user(&orig, (void __user *)regs->sp, sizeof(orig)) ||
	    copy_to_user((void __user *)regs->sp, &tramp, sizeof(tramp)))
		return false;
	ri = &utask->ri[utask->depth++];
	ri->uprobe = u;
	ri->func = u->vaddr;
	ri->orig_ret_vaddr = orig;
	u->ref++;
	return true;
}

/* Under uprobes_lock: tell every consumer. */
static void handler_chain(struct uprobe *u, struct uprobe_task *utask, struct pt_regs *regs)
{
	struct uprobe_consumer *uc;
	bool want_return = false;

	for (uc = u->consumers; uc; uc = uc->next) {
		if (uc->handler) {
			uc->handler(uc, regs);
			uc->nhit++;
		}
		want_return |= uc->ret_handler != NULL;
	}
	if (!want_return || prepare_uretprobe(u, utask, regs))
		return;
	for (uc = u->consumers; uc; uc = uc->next)
		if (uc->ret_handler)
			uc->nmissed++;
}

/* The function returned into the trampoline: report, go to the real caller. */
static void handle_trampoline(struct uprobe_task *utask, struct pt_regs *regs)
{
	struct return_instance *ri;
	struct uprobe_consumer *uc;
	unsigned long flags;

	if (!utask->depth) {
		printk("%s[%d]: uprobe trampoline with no pending return\n",
		       current->comm, current->pid);
		force_sig_fault(regs, X86_TRAP_BP);
		return;
	}
	ri = &utask->ri[--utask->depth];
	regs->ip = ri->orig_ret_vaddr;	/* back to the caller, as if returned there */
	spin_lock_irqsave(&uprobes_lock, flags);
	for (uc = ri->uprobe->consumers; uc; uc = uc->next)
		if (uc->ret_handler) {
			uc->ret_handler(uc, ri->func, regs);
			uc->nhit++;
		}
	put_uprobe(ri->uprobe);
	spin_unlock_irqrestore(&uprobes_lock, flags);
}

/* No uprobe here: removed since the trap (run the restored byte), or the program's own int3. */
static void handle_no_uprobe(struct mm_struct *mm, unsigned long bp_vaddr,
			     struct pt_regs *regs)
{
	unsigned char *p = user_page_address(mm, bp_vaddr);

	if (p && *p != UPROBE_SWBP_INSN) {
		regs->ip = bp_vaddr;
		return;
	}
	force_sig_fault(regs, X86_TRAP_BP);	/* SIGTRAP, as with no uprobes at all */
}

static void handle_swbp(struct uprobe_task *utask, struct pt_regs *regs)
{
	unsigned long bp_vaddr = regs->ip - UPROBE_SWBP_INSN_SIZE, flags;
	struct mm_struct *mm = current->mm;
	struct uprobe *u;

	if (mm->xol_vaddr && bp_vaddr == UPROBE_TRAMPOLINE_VADDR) {
		handle_trampoline(utask, regs);
		return;
	}
	spin_lock_irqsave(&uprobes_lock, flags);
	u = find_active_uprobe(mm, bp_vaddr);
	if (!u) {
		spin_unlock_irqrestore(&uprobes_lock, flags);
		handle_no_uprobe(mm, bp_vaddr, regs);
		return;
	}
	regs->ip = bp_vaddr;		/* what the handlers see: the probed address */
	handler_chain(u, utask, regs);
	utask->arch = u->arch;
	utask->vaddr = bp_vaddr;
	spin_unlock_irqrestore(&uprobes_lock, flags);

	if (xol_get_area(mm)) {
		printk("%s[%d]: no XOL page for a uprobe\n", current->comm, current->pid);
		force_sig_fault(regs, X86_TRAP_BP);
		return;
	}
	memcpy(user_page_address(mm, UPROBE_XOL_SLOT_VADDR), utask->arch.insn,
	       utask->arch.len);
	arch_uprobe_pre_xol(&utask->arch, &utask->autask, regs);
	utask->state = UTASK_SSTEP;
}

/*
 * The step is over.  A task that was single-stepping itself (TF set
 * before the hit) gets the SIGTRAP it would have got after this
 * instruction without the probe.
 */
static void handle_singlestep(struct uprobe_task *utask, struct pt_regs *regs)
{
	bool own_step = arch_uprobe_post_xol(&utask->arch, &utask->autask,
					     utask->vaddr, regs);

	utask->state = UTASK_RUNNING;
	if (own_step)
		force_sig_fault(regs, X86_TRAP_DB);
}

/*
 * Linux's uprobe_deny_signal(), asked by get_signal() before it
 * delivers anything.  While the probed instruction is being stepped
 * out of line, ip is in the XOL slot and TF is ours: a handler's frame
 * would save both, and the step's end would never come.  So a signal
 * that arrives then (a kill, a Ctrl-C, a signal a probe handler sent)
 * stays pending; the #DB that ends the step comes back through
 * exit_to_user_mode(), and delivers it with ip back in the program.
 * A step that faults ends first (uprobe_abort_xol(), below).
 */
bool uprobe_deny_signal(void)
{
	struct uprobe_task *utask = current->utask;

	return utask && utask->state == UTASK_SSTEP;
}

/* The copy faulted in the slot: the fault's signal is the probed instruction's. */
void uprobe_abort_xol(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!utask || utask->state != UTASK_SSTEP)
		return;
	arch_uprobe_abort_xol(&utask->autask, utask->vaddr, regs);
	utask->state = UTASK_RUNNING;
}
NOKPROBE_SYMBOL(uprobe_abort_xol);

void uprobe_notify_resume(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!utask)
		return;
	if (utask->sstep_pending) {
		utask->sstep_pending = false;
		handle_singlestep(utask, regs);
	}
	if (utask->swbp_pending) {
		utask->swbp_pending = false;
		handle_swbp(utask, regs);
	}
}
