/*
 * test_cow.c - suite "cow": page faults a process survives
 * (docs/page-faults.md): demand-zero pages, the stack growing, brk,
 * fork with copy-on-write, and what rides along a fork - uprobes go
 * with the child, hardware breakpoints do not.
 *
 * Each case runs programs of user/ (cow_fork, fork_many, orphan, big_bss,
 * stack_grow, heap, anon_mmap, cow_smp, cow_spin) and checks what they printed,
 * their wait status, the kernel's fault figures, and that every page
 * and heap block given out came back.
 */
#include "ktest.h"
#include "process.h"
#include "syscalls.h"
#include "sched.h"
#include "mm.h"
#include "mm_types.h"
#include "uprobes.h"
#include "hw_breakpoint.h"
#include "linux/err.h"
#include "exec_elf.h"
#include "smp.h"
#include "string.h"
#include "errno.h"
#include "vsprintf.h"
#include "pseudofs.h"
#include "pseudofs_io.h"
#include "trace.h"
#include <asm/pgfault.h>
#include <asm/tlbflush.h>

#define NARRATE      "/sys/kernel/debug/page_fault/narrate"
#define FORKS        1000	/* fork/exit cycles in the leak case */
#define COW_SMP_PAGES 64	/* user/cow_smp.c's PAGES */
#define STACK_FRAMES 64		/* user/stack_grow.c's FRAMES, one page each */
#define WAIT_MS      300	/* what `cow_fork -wait` and `-hwbp` sleep */
#define POLL_MS      10
#define POLLS        200
#define SCRIBBLE_PAGES 128	/* frames taken and zeroed after a process exits */

/* Run NAME with one argument (NULL: none), output captured; its wait status. */
static int run(const char *name, const char *arg)
{
	const char *argv[] = { name, arg };
	int err;
	struct task_struct *p;

	ktest_capture_start();
	p = process_spawn(name, argv, arg ? 2 : 1, &err);
	err = p ? process_wait(p) : err;
	ktest_capture_stop();
	return err;
}

static struct task_struct *start(const char *name, const char *arg)
{
	const char *argv[] = { name, arg };
	int err;

	return process_spawn(name, argv, arg ? 2 : 1, &err);
}

static bool captured(const char *text)
{
	return strstr(ktest_captured(), text) != NULL;
}

/* Until text is in the captured output (a process running meanwhile). */
static bool wait_for_output(const char *text)
{
	for (int i = 0; i < POLLS && !strstr(ktest_captured(), text); i++)
		msleep(POLL_MS);
	return captured(text);
}

/* The decimal number right after key in the captured output, or -1. */
static long number_after(const char *key)
{
	const char *at = strstr(ktest_captured(), key);

	return at ? simple_strtol(at + strlen(key), NULL, 10) : -1;
}

struct leak_check {
	unsigned long pages;
	struct heap_stats heap;
};

static void leak_start(struct leak_check *l)
{
	l->pages = pages_free();
	heap_get_stats(&l->heap);
}

/* Are the free pages and heap blocks back where leak_start() found them? */
static bool leak_settled(struct leak_check *l)
{
	struct heap_stats now;

	heap_get_stats(&now);
	return pages_free() == l->pages && now.live_allocs == l->heap.live_allocs;
}

static void leak_expect_none(struct ktest *t, struct leak_check *l)
{
	struct heap_stats now;

	heap_get_stats(&now);
	KTEST_EXPECT_EQ(t, pages_free(), l->pages);
	KTEST_EXPECT_EQ(t, now.live_allocs, l->heap.live_allocs);
}

/* ---- copy-on-write ------------------------------------------------------------- */

/*
 * The child's write copies the shared page (one fault), the parent
 * still reads its own byte, and its write after the child is gone
 * finds the page its own again: one fault, no copy.
 */
static void parent_and_child_see_their_own_writes(struct ktest *t)
{
	unsigned long copies = page_fault_count(FAULT_COW_COPY);
	unsigned long reuses = page_fault_count(FAULT_COW_REUSE);
	struct leak_check l;

	leak_start(&l);
	KTEST_EXPECT_EQ(t, run("cow_fork", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("cow_fork: child wrote C, reads C, 1 fault(s)"));
	KTEST_EXPECT_TRUE(t, captured("cow_fork: parent reads O after the child's write"));
	KTEST_EXPECT_TRUE(t, captured("cow_fork: parent wrote P, reads P, 1 fault(s)"));
	KTEST_EXPECT_TRUE(t, page_fault_count(FAULT_COW_COPY) > copies);
	KTEST_EXPECT_TRUE(t, page_fault_count(FAULT_COW_REUSE) > reuses);
	leak_expect_none(t, &l);
}

/* The first present page of mm at or after addr (0: none); its PTE in *ptep. */
static unsigned long next_present(struct mm_struct *mm, unsigned long addr, unsigned long **ptep)
{
	for (; addr < TASK_SIZE; addr += PAGE_SIZE) {
		unsigned long *pte = user_pte(mm->pgd, addr, false);

		if (pte && (*pte & PTE_PRESENT)) {
			*ptep = pte;
			return addr;
		}
	}
	return 0;
}

/*
 * copy_page_range() by hand on an address space exec made: every page
 * shared (page_count() 2), read-only on both sides; each mmput() gives
 * one reference back, and after both every frame is free again.
 */
static void page_counts_return_after_both_exit(struct ktest *t)
{
	const struct user_program *hello = find_user_program("hello");
	const char *argv[] = { "hello" };
	struct mm_struct *a = NULL, *b;
	unsigned long entry, sp, addr, *pa, *pb = NULL, flags, pages0 = pages_free();
	char why[64];
	int shared = 0, bad = 0;

	KTEST_ASSERT_TRUE(t, hello != NULL);
	KTEST_ASSERT_EQ(t, exec_load(hello->elf, hello->size, argv, 1, &a, &entry, &sp,
				     why, sizeof(why)), 0);
	b = mm_alloc();
	KTEST_ASSERT_TRUE(t, b != NULL);
	spin_lock_irqsave(&a->page_table_lock, flags);
	KTEST_EXPECT_EQ(t, copy_page_range(b, a), 0);
	spin_unlock_irqrestore(&a->page_table_lock, flags);
	KTEST_EXPECT_EQ(t, b->nr_pages, a->nr_pages);
	for (addr = next_present(a, USER_BASE, &pa); addr;
	     addr = next_present(a, addr + PAGE_SIZE, &pa)) {
		pb = user_pte(b->pgd, addr, false);
		shared++;
		if (!pb || (*pb & PAGE_MASK) != (*pa & PAGE_MASK) || (*pa & PTE_WRITE) ||
		    (*pb & PTE_WRITE))
			bad++;
		/* The vDSO's one frame is every process's: one reference each, and the kernel's. */
		else if (addr != a->vdso && page_count((void *)(*pa & PAGE_MASK)) != 2)
			bad++;
	}
	KTEST_EXPECT_TRUE(t, shared > 0);
	KTEST_EXPECT_EQ(t, bad, 0);
	addr = next_present(b, USER_BASE, &pb);
	mmput(a);
	KTEST_EXPECT_EQ(t, page_count((void *)(*pb & PAGE_MASK)), 1);
	mmput(b);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

/* fork_many: 1,000 children, each copying a page and exiting; nothing stays behind. */
static void thousand_forks_leak_nothing(struct ktest *t)
{
	struct leak_check l;
	char want[64];

	leak_start(&l);
	KTEST_EXPECT_EQ(t, run("fork_many", "1000"), W_EXITCODE(0, 0));
	snprintf(want, sizeof(want), "fork_many: %d forks, 0 failures", FORKS);
	KTEST_EXPECT_TRUE(t, captured(want));
	leak_expect_none(t, &l);
}

/* A process, by name, that is still in the task ring (running, a zombie or dead). */
static void count_named(struct task_struct *p, void *arg)
{
	int *n = arg;

	if (task_is_process(p) && !strcmp(p->comm, "orphan"))
		(*n)++;
}

#define ORPHANS			"8"	/* orphan's argument: how many children */
#define ORPHAN_WAIT_MS		5000
#define ORPHAN_POLL_MS		20

/*
 * orphan: children still running when their parent exits are freed as
 * they end (autoreaped, as Linux's init would reap them): none stays a
 * zombie, and every page and heap block comes back.
 */
static void orphans_are_reaped_as_they_end(struct ktest *t)
{
	struct leak_check l;
	int left, waited = 0;

	leak_start(&l);
	KTEST_EXPECT_EQ(t, run("orphan", ORPHANS), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("orphan: " ORPHANS " children left running"));
	do {
		msleep(ORPHAN_POLL_MS);
		waited += ORPHAN_POLL_MS;
		left = 0;
		for_each_task(count_named, &left);
	} while (left && waited < ORPHAN_WAIT_MS);
	KTEST_EXPECT_EQ(t, left, 0);
	/*
	 * Off the task list is not yet freed: the last orphan's task and
	 * stack go once its CPU has switched away from it, a moment later
	 * on another CPU.  Wait for that, never longer than the deadline.
	 */
	while (!leak_settled(&l) && waited < ORPHAN_WAIT_MS) {
		msleep(ORPHAN_POLL_MS);
		waited += ORPHAN_POLL_MS;
	}
	leak_expect_none(t, &l);
}

/*
 * Two CPUs take the copy-on-write fault of the same pages at once:
 * each side ends with its own bytes, and took exactly one fault per page.
 */
static void smp_writers_each_get_their_copy(struct ktest *t)
{
	struct leak_check l;
	char want[80];

	leak_start(&l);
	KTEST_EXPECT_EQ(t, run("cow_smp", NULL), W_EXITCODE(0, 0));
	snprintf(want, sizeof(want), "cow_smp: parent wrote %d shared pages, %d faults, 0 wrong",
		 COW_SMP_PAGES, COW_SMP_PAGES);
	KTEST_EXPECT_TRUE(t, captured(want));
	snprintf(want, sizeof(want), "cow_smp: child wrote %d shared pages, %d faults, 0 wrong",
		 COW_SMP_PAGES, COW_SMP_PAGES);
	KTEST_EXPECT_TRUE(t, captured(want));
	leak_expect_none(t, &l);
}

/* ---- demand-zero ---------------------------------------------------------------- */

static void big_bss_costs_only_what_is_touched(struct ktest *t)
{
	unsigned long zero = page_fault_count(FAULT_DEMAND_ZERO);

	KTEST_EXPECT_EQ(t, run("big_bss", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("big_bss: 4096 KiB of .bss, 3 pages touched, 3 faults, 0 not zero"));
	KTEST_EXPECT_TRUE(t, page_fault_count(FAULT_DEMAND_ZERO) >= zero + 3);
}

/* 256 KiB of stack: the area grows a page per fault; below the limit is still the guard. */
static void stack_grows_down_to_its_limit(struct ktest *t)
{
	unsigned long grown = page_fault_count(FAULT_STACK_GROWTH);
	long faults;

	KTEST_EXPECT_EQ(t, run("stack_grow", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("stack_grow: 64 frames of 4 KiB, sum ok"));
	faults = number_after("sum ok, ");
	KTEST_EXPECT_TRUE(t, faults >= STACK_FRAMES - USER_STACK_PAGES);
	KTEST_EXPECT_TRUE(t, page_fault_count(FAULT_STACK_GROWTH) >= grown + STACK_FRAMES - USER_STACK_PAGES);
	KTEST_EXPECT_EQ(t, run("stack_overflow", NULL), W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, captured("(stack guard page)"));
}

static void brk_moves_the_heap(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run("heap", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("heap: 0 failures"));
	KTEST_EXPECT_EQ(t, run("heap", "-past"), W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, captured("heap: touching past the end"));
	KTEST_EXPECT_TRUE(t, captured("SIGSEGV (page fault)"));
}

/* mmap2, munmap, mprotect of anonymous memory, and a fork of it. */
static void anonymous_mmap_and_mprotect(struct ktest *t)
{
	struct leak_check l;

	leak_start(&l);
	KTEST_EXPECT_EQ(t, run("anon_mmap", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("anon_mmap: 0 failures"));
	KTEST_EXPECT_EQ(t, run("anon_mmap", "-wprot"), W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, captured("anon_mmap: writing a read-only page"));
	KTEST_EXPECT_TRUE(t, captured("SIGSEGV (page fault) in user mode"));
	leak_expect_none(t, &l);
}

/* A fault the handler refuses is still the process's death, reported as before. */
static void bad_faults_still_kill(struct ktest *t)
{
	unsigned long bad = page_fault_count(FAULT_BAD_AREA);

	KTEST_EXPECT_EQ(t, run("crash_null", NULL), W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, captured("SIGSEGV (page fault) in user mode"));
	KTEST_EXPECT_EQ(t, page_fault_count(FAULT_BAD_AREA), bad);	/* NULL: below user space */
	KTEST_EXPECT_EQ(t, sys_clone(CLONE_VM, 0, NULL, 0, NULL), -EINVAL);	/* no threads */
	KTEST_EXPECT_EQ(t, kernel_clone(&(struct kernel_clone_args){ .exit_signal = SIGCHLD }),
			-EINVAL);					/* a kernel thread */
}

/* ---- narration ------------------------------------------------------------------ */

static void narration_tells_each_decision(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);	/* the debugfs files, even when this suite runs alone */
	KTEST_ASSERT_EQ(t, pseudofs_write_str(NARRATE, "1", true), 0);
	KTEST_EXPECT_EQ(t, run("cow_fork", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("error 7: P=1 protection, W=1 write, U=1 user"));
	KTEST_EXPECT_TRUE(t, captured("-> COW copy"));
	KTEST_EXPECT_TRUE(t, captured("-> COW reuse"));
	KTEST_EXPECT_EQ(t, run("big_bss", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("error 4: P=0 not present, W=0 read, U=1 user"));
	KTEST_EXPECT_TRUE(t, captured("-> demand-zero"));
	KTEST_EXPECT_EQ(t, run("stack_grow", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("-> stack growth"));
	KTEST_EXPECT_EQ(t, run("heap", "-past"), W_EXITCODE(0, SIGSEGV));
	KTEST_EXPECT_TRUE(t, captured("-> SIGSEGV: no area holds the address"));
	KTEST_EXPECT_EQ(t, pseudofs_write_str(NARRATE, "0", true), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str(NARRATE, "2", true), -EINVAL);
	KTEST_EXPECT_EQ(t, run("cow_fork", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_FALSE(t, captured("page fault: "));
}

/* ---- what a fork takes along ---------------------------------------------------- */

#define MAX_PIDS 4

struct counting_consumer {
	struct uprobe_consumer uc;
	int pid[MAX_PIDS];
	unsigned long hits[MAX_PIDS];
};

static int counting_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct counting_consumer *cc = container_of(uc, struct counting_consumer, uc);

	for (int i = 0; i < MAX_PIDS; i++)
		if (cc->pid[i] == current->pid || !cc->hits[i]) {
			cc->pid[i] = current->pid;
			cc->hits[i]++;
			break;
		}
	return 0;
}

/* The file offset of function name of program prog. */
static unsigned long func_offset(const char *prog, const char *name)
{
	const struct user_program *p = find_user_program(prog);
	struct load_info info = { .image = p->elf, .len = p->size };
	const Elf32_Sym *sym = elf_exec_func(&info, name, 0);
	const Elf32_Ehdr *h = (const void *)p->elf;
	const Elf32_Phdr *ph = (const void *)(p->elf + h->e_phoff);

	for (unsigned int i = 0; sym && i < h->e_phnum; i++, ph++)
		if (ph->p_type == PT_LOAD && sym->st_value - ph->p_vaddr < ph->p_filesz)
			return sym->st_value - ph->p_vaddr + ph->p_offset;
	return 0;
}

/* Each of the two processes (the parent and its child) hit exactly once. */
static void expect_one_hit_each(struct ktest *t, struct counting_consumer *cc)
{
	KTEST_EXPECT_EQ(t, cc->uc.nhit, 2);
	KTEST_EXPECT_TRUE(t, cc->pid[0] && cc->pid[1] && cc->pid[0] != cc->pid[1]);
	KTEST_EXPECT_EQ(t, cc->hits[0], 1);
	KTEST_EXPECT_EQ(t, cc->hits[1], 1);
}

/* Linux's uprobe_dup_mmap(): the child runs the parent's int3s as its own. */
static void uprobes_follow_the_child(struct ktest *t)
{
	static struct counting_consumer cc;
	const struct user_program *prog = find_user_program("cow_fork");
	unsigned long off = func_offset("cow_fork", "cow_probed_a");

	cc = (struct counting_consumer){ .uc.handler = counting_handler };
	KTEST_ASSERT_TRUE(t, prog && off);
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode(prog->name), off, &cc.uc, NULL), 0);
	KTEST_EXPECT_EQ(t, run("cow_fork", NULL), W_EXITCODE(0, 0));
	uprobe_unregister(ktest_program_inode(prog->name), off, &cc.uc);
	expect_one_hit_each(t, &cc);
}

/*
 * A probe already in the text page parent and child share, then a
 * second one in the same page while both sleep: writing it copies the
 * shared page for the first process (page_count() 2), and that copy
 * must keep the first probe's int3.  Each process hits both once.
 */
static void cow_break_keeps_the_int3(struct ktest *t)
{
	static struct counting_consumer a, b;
	const struct user_program *prog = find_user_program("cow_fork");
	unsigned long off_a = func_offset("cow_fork", "cow_probed_a");
	unsigned long off_b = func_offset("cow_fork", "cow_probed_b");
	struct task_struct *p;
	struct leak_check l;

	a = (struct counting_consumer){ .uc.handler = counting_handler };
	b = (struct counting_consumer){ .uc.handler = counting_handler };
	KTEST_ASSERT_TRUE(t, prog && off_a && off_b);
	KTEST_ASSERT_EQ(t, off_a / PAGE_SIZE, off_b / PAGE_SIZE);
	leak_start(&l);
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode(prog->name), off_a, &a.uc, NULL), 0);
	ktest_capture_start();
	p = start("cow_fork", "-wait");
	KTEST_EXPECT_TRUE(t, p && wait_for_output("cow_fork: forked"));
	KTEST_EXPECT_EQ(t, uprobe_register(ktest_program_inode(prog->name), off_b, &b.uc, NULL), 0);
	if (p)
		KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, 0));
	ktest_capture_stop();
	uprobe_unregister(ktest_program_inode(prog->name), off_b, &b.uc);
	uprobe_unregister(ktest_program_inode(prog->name), off_a, &a.uc);
	expect_one_hit_each(t, &a);
	expect_one_hit_each(t, &b);
	leak_expect_none(t, &l);
}

static atomic_t hwbp_hits;

static void count_hwbp(struct hw_breakpoint *bp, struct pt_regs *regs)
{
	atomic_inc(&hwbp_hits);
}

/*
 * An execute breakpoint on sys_getpid for the parent's thread, set
 * before the fork: parent and child each call getpid() once after it,
 * and only the parent's call triggers (Linux's copy_thread() gives the
 * child no ptrace breakpoints; here its task starts with none).
 */
static void hw_breakpoints_stay_with_the_parent(struct ktest *t)
{
	struct hw_breakpoint_attr attr = {
		.bp_addr = (unsigned long)sys_getpid,
		.bp_len = HW_BREAKPOINT_LEN_1,
		.bp_type = HW_BREAKPOINT_X,
	};
	struct hw_breakpoint *bp = NULL;
	struct task_struct *p;

	atomic_set(&hwbp_hits, 0);
	ktest_capture_start();
	p = start("cow_fork", "-hwbp");
	KTEST_EXPECT_TRUE(t, p && wait_for_output("cow_fork: sleeping before the fork"));
	if (p) {
		bp = register_thread_hw_breakpoint(p, &attr, count_hwbp, NULL);
		KTEST_EXPECT_FALSE(t, IS_ERR(bp));
		KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, 0));
	}
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, captured("cow_fork: child wrote C"));
	KTEST_EXPECT_EQ(t, atomic_read(&hwbp_hits), 1);
}

/* The pid after key in the captured output, and its task (NULL: none). */
struct pid_lookup {
	int pid;
	struct task_struct *found;
};

static void find_pid(struct task_struct *t, void *arg)
{
	struct pid_lookup *l = arg;

	if (t->pid == l->pid)
		l->found = t;
}

static struct task_struct *task_of_pid(int pid)
{
	struct pid_lookup l = { .pid = pid };

	for_each_task(find_pid, &l);
	return l.found;
}

/* Until the task of pid has exited (or POLLS * POLL_MS have passed). */
static bool wait_for_exit(int pid)
{
	struct task_struct *c;

	for (int i = 0; i < POLLS; i++) {
		c = task_of_pid(pid);
		if (!c || READ_ONCE(c->state) == TASK_DEAD)
			return true;
		msleep(POLL_MS);
	}
	return false;
}

/* Take and give back every frame the allocator hands out first: each is zeroed. */
static void scribble_free_frames(int n)
{
	void *page[SCRIBBLE_PAGES];
	int i;

	for (i = 0; i < n && i < SCRIBBLE_PAGES; i++)
		page[i] = alloc_pages(1);
	while (i--)
		if (page[i])
			free_pages(page[i], 1);
}

/*
 * A uprobe arrives in the text page a running process (cow_spin, on
 * CPU 1) shares with its sleeping child: writing the int3 copies the
 * page for the running one, whose CPU still holds the translation to
 * the old frame - which stays the child's.  The process makes no system
 * call and never leaves its CPU, so only the shootdown IPI
 * (flush_tlb_mm_range()) makes that CPU use the copy.  Then the child
 * exits, the old frame is freed and zeroed: a CPU still running it
 * would run zeros and die.  The process must go on (and hit the probe)
 * until it is killed.
 */
static void tlb_shootdown_reaches_the_running_cpu(struct ktest *t)
{
	static struct counting_consumer cc;
	const struct user_program *prog = find_user_program("cow_spin");
	unsigned long off = func_offset("cow_spin", "cow_spin_tick"), hits;
	int flushes = atomic_read(&nr_tlb_remote_flush), child, status;
	struct task_struct *p, *c;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs two CPUs");
		return;
	}
	cc = (struct counting_consumer){ .uc.handler = counting_handler };
	KTEST_ASSERT_TRUE(t, prog && off);
	set_cpus_allowed(current, 1UL << 0);
	yield();
	ktest_capture_start();
	p = start("cow_spin", "500");	/* the child sleeps 500 ms, then exits */
	KTEST_ASSERT_TRUE(t, p != NULL);
	set_cpus_allowed(p, 1UL << 1);
	KTEST_EXPECT_TRUE(t, wait_for_output("cow_spin: child "));
	child = number_after("cow_spin: child ");
	msleep(50);			/* spinning on CPU 1 by now */
	KTEST_EXPECT_EQ(t, uprobe_register(ktest_program_inode(prog->name), off, &cc.uc, NULL), 0);
	KTEST_EXPECT_TRUE(t, wait_for_exit(child));
	scribble_free_frames(SCRIBBLE_PAGES);
	hits = READ_ONCE(cc.uc.nhit);
	msleep(50);
	KTEST_EXPECT_TRUE(t, READ_ONCE(cc.uc.nhit) > hits);	/* still running, through the copy */
	uprobe_unregister(ktest_program_inode(prog->name), off, &cc.uc);
	kill_pid(p->pid, SIGKILL);
	status = process_wait(p);
	c = task_of_pid(child);
	if (c)
		process_wait(c);
	ktest_capture_stop();
	set_cpus_allowed(current, ~0UL);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, SIGKILL));
	KTEST_EXPECT_TRUE(t, atomic_read(&nr_tlb_remote_flush) > flushes);
}

static struct ktest_case cow_cases[] = {
	KTEST_CASE(parent_and_child_see_their_own_writes),
	KTEST_CASE(page_counts_return_after_both_exit),
	KTEST_CASE(thousand_forks_leak_nothing),
	KTEST_CASE(orphans_are_reaped_as_they_end),
	KTEST_CASE(smp_writers_each_get_their_copy),
	KTEST_CASE(big_bss_costs_only_what_is_touched),
	KTEST_CASE(stack_grows_down_to_its_limit),
	KTEST_CASE(brk_moves_the_heap),
	KTEST_CASE(anonymous_mmap_and_mprotect),
	KTEST_CASE(bad_faults_still_kill),
	KTEST_CASE(narration_tells_each_decision),
	KTEST_CASE(uprobes_follow_the_child),
	KTEST_CASE(cow_break_keeps_the_int3),
	KTEST_CASE(hw_breakpoints_stay_with_the_parent),
	KTEST_CASE(tlb_shootdown_reaches_the_running_cpu),
	KTEST_END
};

static struct ktest_suite cow_suite = {
	.name = "cow",
	.cases = cow_cases,
};
KTEST_SUITE(cow_suite);
