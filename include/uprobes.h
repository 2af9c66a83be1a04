/*
 * uprobes.h - probes on the instructions of user programs (Linux's
 * include/linux/uprobes.h, 3.5 onwards; docs/uprobes.md).
 *
 * A uprobe sits on a file at a file offset, as Linux's: (inode, offset),
 * the inode a file of the ramfs (/bin/busybox, or a built-in program's
 * /bin/NAME).  Every process running that file, started before or after
 * the probe, traps there.  The int3 goes into each process's own copy
 * of the page; the file's bytes are never written.
 * A hit runs the consumers' handlers, then the probed instruction is
 * single-stepped out of line in the process's XOL page, in ring 3, and
 * arch_uprobe_post_xol() makes the result look as if it had run in place.
 */
#ifndef UPROBES_H
#define UPROBES_H

#include <stdbool.h>
#include <asm/ptrace.h>
#include "list.h"
#include <asm/insn.h>

struct mm_struct;
struct task_struct;
struct inode;

#define UPROBE_SWBP_INSN       0xcc    /* int3 */
#define UPROBE_SWBP_INSN_SIZE  1
#define MAX_UINSN_BYTES        INSN_MAX_LEN
/* Nested return probes one process may have pending (Linux's MAX_URETPROBE_DEPTH). */
#define MAX_URETPROBE_DEPTH    64

/*
 * The XOL ("execute out of line") page: one per process that ever hit
 * a uprobe, mapped user-readable and -executable but not writable, at a
 * fixed address below the stack's guard gap (Linux finds a free one
 * with get_unmapped_area()).  Slot 0 is the return-probe trampoline (an
 * int3), slot 1 the copy being stepped.  A process has one thread here,
 * so one step slot is enough; Linux hands each thread its own slot.
 */
#define XOL_AREA_VADDR         0xBFE00000ul
#define UPROBE_XOL_SLOT_BYTES  16          /* Linux's, on x86: one instruction */
#define UPROBE_TRAMPOLINE_VADDR XOL_AREA_VADDR
#define UPROBE_XOL_SLOT_VADDR  (XOL_AREA_VADDR + UPROBE_XOL_SLOT_BYTES)

/* The architecture's part of a uprobe: the instruction and its fixups. */
struct arch_uprobe {
	unsigned char insn[MAX_UINSN_BYTES];   /* the original bytes */
	unsigned int len;                      /* of the instruction */
	unsigned int fixups;                   /* INSN_FIX_*, as kprobes' (include/insn.h) */
};

/*
 * The architecture's part of the step in flight (Linux's struct
 * arch_uprobe_task): whether the task had TF set itself before we set
 * it for the step.
 */
struct arch_uprobe_task {
	unsigned long saved_tf;                /* X86_EFLAGS_TF or 0 */
};

/*
 * Who is told of a hit (Linux's struct uprobe_consumer).  handler runs
 * at the probed instruction, before it executes; ret_handler, when the
 * function entered there returns (regs->ax holds the result, func is
 * the probed address, regs->ip already the caller's return address).
 * Either may be NULL.
 */
struct uprobe_consumer {
	int (*handler)(struct uprobe_consumer *uc, struct pt_regs *regs);
	int (*ret_handler)(struct uprobe_consumer *uc, unsigned long func,
			   struct pt_regs *regs);
	struct uprobe_consumer *next;          /* on the uprobe's list */
	unsigned long nhit;                    /* handler/ret_handler calls */
	unsigned long nmissed;                 /* returns not probed: too deep */
};

/*
 * Register uc at `offset` of the file `inode` (a file offset, as in
 * Linux: the probe is the file's, and goes into every process that runs
 * it).  The caller keeps the inode alive until uprobe_unregister()
 * (trace_uprobe.c holds a reference while its event exists).  0;
 * -EINVAL: the offset is past the end of the file (Linux's check), or
 * outside the file's executable segment, or not on an instruction
 * boundary (known from the ELF symbol table where the file has one), or
 * the file is no executable this kernel runs; -EILSEQ: the bytes there
 * are no instruction; -EOPNOTSUPP: an instruction that cannot be
 * stepped out of line (int, far transfers, privileged ones); -ENOMEM.
 * On failure nothing changed.  why (may be NULL) says which.
 */
int uprobe_register(struct inode *inode, unsigned long offset,
		    struct uprobe_consumer *uc, const char **why);
/*
 * The same with a reference counter (ref_ctr_offset, a file offset; 0:
 * none): the u16 there is incremented in each process while the probe
 * is in its copy and decremented when it comes out, as Linux's
 * uprobe_register_refctr().  -EINVAL also when the counter is not in a
 * loaded segment, or when the place is probed with another counter.
 */
int uprobe_register_refctr(struct inode *inode, unsigned long offset,
			   unsigned long ref_ctr_offset, struct uprobe_consumer *uc,
			   const char **why);
/*
 * What uprobe_register_refctr() would refuse, checked without
 * registering - except an offset past the end of the file, which only
 * registering refuses (Linux: uprobe_events takes the line, enabling
 * it fails with -EINVAL).
 */
int uprobe_check(struct inode *inode, unsigned long offset,
		 unsigned long ref_ctr_offset, const char **why);
void uprobe_unregister(struct inode *inode, unsigned long offset,
		       struct uprobe_consumer *uc);
/* The user address a file offset of the file is loaded at; 0 if not in its text. */
unsigned long uprobe_offset_to_vaddr(struct inode *inode, unsigned long offset);

/*
 * exec mapped mm->exe_file: its copy of the text gets every probe of
 * that file (Linux's uprobe_mmap(), called for each new mapping).
 */
void uprobe_mmap(struct mm_struct *mm);
/*
 * Fork: between start and end (uprobes' lock held, interrupts off), no
 * probe comes or goes; uprobe_dup_mmap() gives the child (whose
 * exe_file fork set) its place among the copies (Linux's names).
 */
void uprobe_start_dup_mmap(void);
void uprobe_end_dup_mmap(void);
void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm);
/* An address space goes away: forget it (Linux's uprobe_clear_state()). */
void uprobe_clear_state(struct mm_struct *mm);
/* A task ends: its hit in flight and pending return probes go (Linux's uprobe_free_utask()). */
void uprobe_free_utask(struct task_struct *t);

/* From the #BP/#DB path: ring 3 trapped in a uprobe's int3 or its step. */
int uprobe_pre_sstep_notifier(struct pt_regs *regs);
int uprobe_post_sstep_notifier(struct pt_regs *regs);
/* On the way back to ring 3, the work those two left (Linux's uprobe_notify_resume()). */
void uprobe_notify_resume(struct pt_regs *regs);
/* A step out of line is in flight: no signal may be delivered yet (kernel/signal.c). */
bool uprobe_deny_signal(void);
/*
 * A fault's signal: if it came from the XOL slot, make regs those of
 * the probed instruction first (the signal and the report name it, not
 * the slot).
 */
void uprobe_abort_xol(struct pt_regs *regs);

/* arch/i386/uprobes.c */
int arch_uprobe_analyze_insn(struct arch_uprobe *au, const char **why);
void arch_uprobe_pre_xol(struct arch_uprobe *au, struct arch_uprobe_task *autask,
			 struct pt_regs *regs);
/* After the step; returns true if the task must get SIGTRAP now: it was single-stepping itself. */
bool arch_uprobe_post_xol(struct arch_uprobe *au, struct arch_uprobe_task *autask,
			  unsigned long vaddr, struct pt_regs *regs);
void arch_uprobe_abort_xol(struct arch_uprobe_task *autask, unsigned long vaddr,
			   struct pt_regs *regs);
/* Hook the #BP/#DB notifier (at boot). */
int uprobes_init(void);

#endif
