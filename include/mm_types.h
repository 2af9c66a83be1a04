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
 */
#ifndef MM_TYPES_H
#define MM_TYPES_H

#include <stdbool.h>
#include "mm.h"
#include "list.h"

struct user_program;

#define USER_STACK_PAGES  8                        /* 32 KiB */
#define USER_STACK_TOP    TASK_SIZE
#define USER_STACK_BOTTOM (USER_STACK_TOP - USER_STACK_PAGES * PAGE_SIZE)
/*
 * Nothing is ever mapped this close below the stack (exec keeps ELF
 * segments out), and a fault there is reported as a stack overflow.
 * More than one page: a function with a big frame moves the stack
 * pointer past a single guard page before its first store (Linux keeps
 * a 256-page stack_guard_gap for that "stack clash").
 */
#define STACK_GUARD_GAP   (16 * PAGE_SIZE)

struct mm_struct {
	unsigned long *pgd;          /* the page directory: what CR3 holds */
	unsigned long start_code, end_code;   /* the executable segment(s) */
	unsigned long start_stack;   /* lowest stack page; below it the guard */
	unsigned long nr_pages;      /* user pages mapped (not page tables) */
	/* uprobes (kernel/events/uprobes.c): the program it runs (Linux's
	 * exe_file), its place on the list of copies of that program's text,
	 * and its XOL page (0 until the first hit). */
	const struct user_program *exe;
	struct list_head uprobes_link;
	unsigned long xol_vaddr;
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
void mmput(struct mm_struct *mm);            /* free every page and table */
/* Map [start, start + len) with fresh zeroed pages; 0 or -ENOMEM. */
int mm_map_range(struct mm_struct *mm, unsigned long start, unsigned long len,
		 bool writable);
/* The kernel's address of the byte at user vaddr in mm; NULL if unmapped. */
void *user_page_address(struct mm_struct *mm, unsigned long vaddr);
/* Is vaddr in the unmapped gap below mm's stack (a stack overflow)? */
bool in_stack_guard(struct mm_struct *mm, unsigned long vaddr);

#endif
