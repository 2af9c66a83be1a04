/*
 * mm_types.h - a process's address space (Linux's struct mm_struct) and
 * the calls that build, switch and free it.
 *
 * Every process has its own page directory.  Its entries outside
 * [USER_BASE, TASK_SIZE) are the kernel's (copied from kernel_pgdir,
 * U/S=0: supervisor only, so ring 3 faults on them); inside, its own
 * page tables and pages, U/S=1.  The pages are ordinary frames from
 * alloc_pages(), and RAM is identity-mapped in every directory, so the
 * kernel reaches a process's page at the frame's address whichever
 * address space is loaded: that is how exec fills pages it has not
 * switched to, and how a uprobe writes an int3 into a process's
 * own copy of a page (user_page_address()).
 *
 * Which addresses a process may use is said by its areas (Linux's
 * struct vm_area_struct: start, end, permissions), not by its page
 * tables: exec maps only the pages that hold bytes of the file and the
 * top of the stack; a .bss, the rest of the stack, the heap (brk) get
 * a page at their first touch, and fork shares pages read-only until
 * one side writes (mm/memory.c, docs/page-faults.md).
 */
#ifndef MM_TYPES_H
#define MM_TYPES_H

#include <stdbool.h>
#include "mm.h"
#include "list.h"
#include "spinlock.h"
#include <asm/atomic.h>

struct inode;
struct task_struct;

#define MM_EXE_PATH_MAX	256	/* PATH_MAX (include/ramfs.h) */

#define USER_STACK_PAGES  8                        /* 32 KiB: the stack's first area */
#define USER_STACK_TOP    TASK_SIZE
/*
 * How far the stack may grow down (Linux's RLIMIT_STACK, 8 MiB there):
 * a fault in [USER_STACK_BOTTOM, the stack area) grows the area.  It
 * ends well above the XOL page (include/uprobes.h).
 */
#define USER_STACK_LIMIT  (256 * PAGE_SIZE)        /* 1 MiB */
#define USER_STACK_BOTTOM (USER_STACK_TOP - USER_STACK_LIMIT)
/*
 * Nothing is ever mapped this close below the stack (exec keeps ELF
 * segments out), and a fault there is reported as a stack overflow.
 * More than one page: a function with a big frame moves the stack
 * pointer past a single guard page before its first store (Linux keeps
 * a 256-page stack_guard_gap for that "stack clash").
 */
#define STACK_GUARD_GAP   (16 * PAGE_SIZE)

/* An area's permissions, Linux's vm_flags bits. */
#define VM_READ       0x00000001
#define VM_WRITE      0x00000002
#define VM_EXEC       0x00000004
#define VM_GROWSDOWN  0x00000100   /* the stack: a fault just below grows it */

/* A range of a process's addresses and what it may do there. */
struct vm_area_struct {
	unsigned long vm_start, vm_end;        /* page-aligned, end exclusive */
	unsigned long vm_flags;                /* VM_* */
	struct vm_area_struct *vm_next;        /* the mm's next area, by address */
};

struct mm_struct {
	unsigned long *pgd;          /* the page directory: what CR3 holds */
	struct vm_area_struct *mmap; /* its areas, lowest first (mm/mmap.c) */
	/* Its page tables, areas and nr_pages: the fault handler, fork and a
	 * uprobe's write may change them from different CPUs. */
	spinlock_t page_table_lock;
	unsigned long start_code, end_code;   /* the executable segment(s) */
	unsigned long start_stack;   /* lowest the stack may grow to; below it the guard */
	unsigned long start_brk, brk; /* the heap: from the end of the segments to brk */
	unsigned long nr_pages;      /* user pages mapped (not page tables) */
	/* The file exec loaded (Linux's exe_file): a reference on its
	 * inode, NULL for an image exec_load() was handed.  uprobes
	 * (kernel/events/uprobes.c) key on it: its place on the list of
	 * copies of that file's text, and its XOL page (0 until the first
	 * hit). */
	struct inode *exe_file;
	struct list_head uprobes_link;
	unsigned long xol_vaddr;
	unsigned long vdso;          /* where its vDSO is mapped, 0: none (arch/i386/vdso.c) */
	/*
	 * Where execve put the argument and environment strings on the
	 * stack (Linux's arg_start... set by create_elf_tables()): what
	 * /proc/PID/cmdline and environ read, from the process's own pages.
	 */
	unsigned long arg_start, arg_end, env_start, env_end;
	/* The program's file, its absolute path: /proc/PID/exe. */
	char exe_path[MM_EXE_PATH_MAX];
	/*
	 * Who holds it: the task running in it, and a reader of another
	 * process's memory for a moment (get_task_mm()).  The last mmput()
	 * frees it.
	 */
	atomic_t mm_users;
};

/* arch/i386/pgtable.c: the page directory and user page tables. */
unsigned long *pgd_alloc(void);
void pgd_free(unsigned long *pgd);
/* The user PTE for vaddr; with create, its page table is made (NULL: no memory). */
unsigned long *user_pte(unsigned long *pgd, unsigned long vaddr, bool create);
/* Load next's page directory (kernel_pgdir for a kernel thread) into CR3. */
void switch_mm(struct mm_struct *next);

/* kernel/mm_user.c: an address space's life. */
struct mm_struct *mm_alloc(void);            /* empty user part; NULL: no memory */
void mmput(struct mm_struct *mm);            /* drop a hold; the last frees every page and table */
/*
 * t's address space with a hold taken (mmput() it), or NULL: a kernel
 * thread, or a process gone.  The caller keeps t from being freed
 * meanwhile (for_each_task()'s lock).  Linux's get_task_mm().
 */
struct mm_struct *get_task_mm(struct task_struct *t);
/* t->mm becomes mm, seen whole by get_task_mm(); the old one returned (exec, exit). */
struct mm_struct *set_task_mm(struct task_struct *t, struct mm_struct *mm);
/* Map [start, start + len) with fresh zeroed pages now; 0 or -ENOMEM. */
int mm_map_range(struct mm_struct *mm, unsigned long start, unsigned long len,
		 bool writable);
/*
 * mm/mmap.c.  An area [start, start + len) with VM_* flags, no page
 * yet (the heap's start moves past it); 0, -EINVAL (outside user
 * space), -ENOMEM.
 */
int mm_add_area(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long vm_flags);
/* An ELF segment's p_flags (PF_R, PF_W, PF_X) as VM_* flags. */
unsigned long elf_vm_flags(unsigned long p_flags);
/* The stack's area below USER_STACK_TOP, its top page mapped for exec's arguments. */
int mm_setup_stack(struct mm_struct *mm);
/* The area holding addr, or NULL (Linux's find_vma() returns the next one too). */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
/* Every area goes (mmput()). */
void exit_mmap(struct mm_struct *mm);
/* The VM_* of every area holding addr, ORed (two may share a page); 0: none. */
unsigned long vm_flags_at(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end);
void insert_vm_struct(struct mm_struct *mm, struct vm_area_struct *vma);
struct vm_area_struct *vm_area_alloc(unsigned long start, unsigned long end,
				     unsigned long vm_flags);
/* The stack's area grown down to addr's page, within its limit; NULL if not. */
struct vm_area_struct *expand_stack(struct mm_struct *mm, unsigned long addr);
/* Unmap [start, start + len): 0, -EINVAL, -ENOMEM. */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);

/*
 * mm/memory.c: the page fault.  What handle_mm_fault() did, in the
 * order fault_result_handled() relies on: the handled ones first.
 */
enum fault_result {
	FAULT_DEMAND_ZERO,	/* first touch: a zeroed page */
	FAULT_STACK_GROWTH,	/* the same, below the stack: its area grew */
	FAULT_COW_COPY,		/* a write to a shared page: copied */
	FAULT_COW_REUSE,	/* a write to a page no longer shared: made writable */
	FAULT_SPURIOUS,		/* the PTE allowed it already */
	FAULT_BAD_AREA,		/* no area there: SIGSEGV */
	FAULT_ACCESS_ERROR,	/* the area forbids it (a write to text): SIGSEGV */
	FAULT_OOM,		/* no page to give: SIGSEGV */
};
#define FAULT_FLAG_WRITE  0x01	/* Linux's: the access was a write */
enum fault_result handle_mm_fault(struct mm_struct *mm, unsigned long address,
				  unsigned int flags);
bool fault_result_handled(enum fault_result what);
const char *fault_result_name(enum fault_result what);
/* Fork: share every page of src with dst, read-only in both. 0 or -ENOMEM. */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src);
/* Drop the pages of [start, end) (under page_table_lock). */
void zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* user_page_address() for a kernel write: the frame made mm's own first. */
void *user_page_address_write(struct mm_struct *mm, unsigned long vaddr);
/*
 * Copy len bytes at user addr of mm - any process's, held by
 * get_task_mm() - into buf, one page at a time through the frames:
 * the bytes read before an unmapped page, as Linux's access_remote_vm()
 * (which would fault it in; the pages read here, execve's strings, are
 * always there).
 */
int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, int len);
/* The kernel's address of the byte at user vaddr in mm; NULL if unmapped. */
void *user_page_address(struct mm_struct *mm, unsigned long vaddr);
/* Is vaddr in the unmapped gap below mm's stack (a stack overflow)? */
bool in_stack_guard(struct mm_struct *mm, unsigned long vaddr);

#endif
