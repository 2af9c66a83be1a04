/*
 * test_linux_abi.c - suite "linux_abi": the calls a real Linux program's
 * C library makes before main() and a shell makes after it
 * (docs/busybox.md), checked from ring 3 by user/linuxabi.c: TLS
 * segments through %gs (set_thread_area, get_thread_area, kept across
 * switches and fork), the SSE registers kept per process, uname, the
 * ids, the clocks, the console's tty ioctls, getrandom, prctl,
 * ugetrlimit; and a call the kernel lacks, named once in the log.
 */
#include "ktest.h"
#include "process.h"
#include "syscalls.h"
#include "string.h"
#include <asm/unistd_32.h>
#include <asm/vdso.h>
#include <asm/sysenter.h>
#include <asm/desc.h>
#include <asm/segment.h>
#include "kprobes.h"
#include "sched.h"
#include "smp.h"
#include "errno.h"

#define RSEQ_LINE	"linuxabi: syscall 386 (rseq) not implemented\n"

static int count_lines(const char *text, const char *line)
{
	int n = 0;

	for (; (text = strstr(text, line)) != NULL; text += strlen(line))
		n++;
	return n;
}

static int run_linuxabi(void)
{
	const char *argv[] = { "linuxabi" };
	struct task_struct *p;
	int err, status;

	ktest_capture_start();
	p = process_spawn("linuxabi", argv, 1, &err);
	status = p ? process_wait(p) : err;
	ktest_capture_stop();
	return status;
}

static void linux_calls_from_ring3(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run_linuxabi(), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "linuxabi: 0 failures\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "tls: %gs 0x33 reads 0x7151b10c\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "uname: Linux ") != NULL);
}

/* rseq twice: -ENOSYS both times, one line in the log (none if an earlier case made it). */
static void missing_call_is_named_once(struct ktest *t)
{
	bool told_before = syscall_ni_told(__NR_rseq);

	KTEST_EXPECT_EQ(t, run_linuxabi(), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, count_lines(ktest_captured(), RSEQ_LINE), told_before ? 0 : 1);
	KTEST_EXPECT_TRUE(t, syscall_ni_told(__NR_rseq));
	KTEST_EXPECT_EQ(t, run_linuxabi(), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, count_lines(ktest_captured(), RSEQ_LINE), 0);
}

/* ---- the vDSO and sysenter (docs/vdso.md) --------------------------------- */

#define VDSO_PGOFF_MARK	0x5157	/* user/vdso.c's sixth argument to mmap2 */
#define MMAP2_PGOFF_SLOT 6	/* asmlinkage: the return address, then arguments 1..6 */
#define VDSO_SPINNERS	4
#define VDSO_SPIN_CALLS	"20000"

static unsigned long mmap2_sixth;

static int mmap2_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (strcmp(current->comm, "vdso") == 0)
		mmap2_sixth = regs_get_kernel_stack_nth(regs, MMAP2_PGOFF_SLOT);
	return 0;
}

static unsigned long sysenter_calls(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += per_cpu(sysenter_count, cpu);
	return n;
}

/*
 * user/vdso.c checks the image, the calls, a restart, the restorer, TF
 * and the page from inside; here: it ran clean, its mmap2 through
 * __kernel_vsyscall brought the sixth argument (the vDSO pushed %ebp,
 * do_SYSENTER_32() read it back), and - with sysenter - its calls came
 * in by sysenter.
 */
static void vdso_from_ring3(struct ktest *t)
{
	struct kprobe kp = { .symbol_name = "sys_mmap2", .pre_handler = mmap2_pre };
	const char *argv[] = { "vdso" };
	unsigned long before = sysenter_calls();
	struct task_struct *p;
	int err, status;

	mmap2_sixth = 0;
	KTEST_ASSERT_EQ(t, register_kprobe(&kp), 0);
	ktest_capture_start();
	p = process_spawn("vdso", argv, 1, &err);
	status = p ? process_wait(p) : err;
	ktest_capture_stop();
	unregister_kprobe(&kp);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "vdso: 0 failures\n") != NULL);
	KTEST_EXPECT_EQ(t, mmap2_sixth, VDSO_PGOFF_MARK);
	ktest_info(t, "%s; %lu calls by sysenter",
		   sysenter_enabled() ? "sysenter" : "int $0x80 only", sysenter_calls() - before);
	if (sysenter_enabled())
		KTEST_EXPECT_TRUE(t, sysenter_calls() > before);
	else
		KTEST_EXPECT_EQ(t, sysenter_calls(), before);
}

/* The online CPU after cpu, round the ring. */
static int vdso_next_cpu(int cpu)
{
	do
		cpu = (cpu + 1) % NR_CPUS;
	while (!cpu_online(cpu));
	return cpu;
}

struct sep_msrs {
	unsigned long cs, eip, esp, esp0;
};

static void read_sep_msrs(void *info)
{
	struct sep_msrs *m = (struct sep_msrs *)info + smp_processor_id();

	m->cs = rdmsrl(MSR_IA32_SYSENTER_CS);
	m->eip = rdmsrl(MSR_IA32_SYSENTER_EIP);
	m->esp = rdmsrl(MSR_IA32_SYSENTER_ESP);
	m->esp0 = this_cpu_tss()->esp0;
}

/*
 * Every CPU's MSRs: sysenter's %cs and %eip, and its %esp the same as
 * TSS.esp0 - whichever task the IPI interrupted.  Then several
 * processes calling through sysenter at once, each sent to a CPU of
 * its own at its next switch: every CPU takes some, and none lands on
 * a stale stack (the system call path panics if the frame does not end
 * at the caller's stack top).
 */
static void sysenter_on_every_cpu(struct ktest *t)
{
	static struct sep_msrs msrs[NR_CPUS];
	const char *argv[] = { "vdso", "spin", VDSO_SPIN_CALLS };
	struct task_struct *p[VDSO_SPINNERS];
	unsigned long before[NR_CPUS];
	int i, cpu, err;

	if (!sysenter_enabled()) {
		ktest_skip(t, "no sysenter: every process has the int $0x80 vDSO");
		return;
	}
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, read_sep_msrs, msrs, 1), 0);
		KTEST_EXPECT_EQ(t, msrs[cpu].cs, __SYSENTER_CS);
		KTEST_EXPECT_EQ(t, msrs[cpu].eip, (unsigned long)entry_SYSENTER_32);
		KTEST_EXPECT_EQ(t, msrs[cpu].esp, msrs[cpu].esp0);
		before[cpu] = per_cpu(sysenter_count, cpu);
	}
	for (i = 0, cpu = 0; i < VDSO_SPINNERS; i++) {
		p[i] = process_spawn("vdso", argv, 3, &err);
		if (p[i])
			set_cpus_allowed(p[i], 1UL << cpu);
		cpu = vdso_next_cpu(cpu);
	}
	for (i = 0; i < VDSO_SPINNERS; i++)
		KTEST_EXPECT_EQ(t, p[i] ? process_wait(p[i]) : err, W_EXITCODE(0, 0));
	for_each_online_cpu(cpu) {
		unsigned long n = per_cpu(sysenter_count, cpu) - before[cpu];

		ktest_info(t, "CPU %d: %lu calls by sysenter", cpu, n);
		KTEST_EXPECT_TRUE(t, n > 0);
	}
}

/* "vdso bench": a getpid's cost each way, printed (a measurement: nothing judged). */
static void vdso_bench_prints_both_ways(struct ktest *t)
{
	const char *argv[] = { "vdso", "bench" };
	struct task_struct *p;
	const char *line;
	int err, status;

	ktest_capture_start();
	p = process_spawn("vdso", argv, 2, &err);
	status = p ? process_wait(p) : err;
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	line = strstr(ktest_captured(), "vdso bench: getpid by int $0x80 ");
	KTEST_EXPECT_TRUE(t, line && strstr(line, " cycles, through __kernel_vsyscall "));
}

/*
 * Linux's kprobes take kernel text only: the vDSO is neither the
 * kernel's image of it (data) nor its user address.  -EINVAL, as there.
 */
static void kprobes_refuse_the_vdso(struct ktest *t)
{
	const struct vdso_image *image = vdso_image();
	struct kprobe in_image = {
		.addr = (kprobe_opcode_t *)((unsigned long)image->data + image->sym___kernel_vsyscall) };
	struct kprobe in_user = {
		.addr = (kprobe_opcode_t *)(VDSO_VADDR + image->sym___kernel_vsyscall) };

	KTEST_EXPECT_EQ(t, register_kprobe(&in_image), -EINVAL);
	KTEST_EXPECT_EQ(t, register_kprobe(&in_user), -EINVAL);
}

static struct ktest_case linux_abi_cases[] = {
	KTEST_CASE(missing_call_is_named_once),
	KTEST_CASE(linux_calls_from_ring3),
	KTEST_CASE(vdso_from_ring3),
	KTEST_CASE(sysenter_on_every_cpu),
	KTEST_CASE(kprobes_refuse_the_vdso),
	KTEST_CASE(vdso_bench_prints_both_ways),
	KTEST_END
};

static struct ktest_suite linux_abi_suite = {
	.name = "linux_abi",
	.cases = linux_abi_cases,
};
KTEST_SUITE(linux_abi_suite);
