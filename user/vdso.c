/*
 * vdso [spin N | bench] - the vDSO from ring 3, as a C library sees it
 * (docs/vdso.md): AT_SYSINFO_EHDR is an ELF shared object whose
 * dynamic symbols name __kernel_vsyscall (= AT_SYSINFO) and the signal
 * trampolines; a call through it - sysenter or int $0x80, whichever the
 * kernel mapped - gives int $0x80's answers and keeps every register
 * but %eax; the sixth argument arrives (the suite watches sys_mmap2);
 * a signal during a blocking read restarts it; a handler with no
 * SA_RESTORER returns through __kernel_rt_sigreturn; TF stepping
 * through the call is the program's own SIGTRAPs; the page is read-only
 * and a forked child has it too; /proc/self/maps names it [vdso].
 * "spin N" makes N calls through it (the suite runs several at once);
 * "bench" prints what a call costs each way.
 * One "FAIL what" line per wrong answer; the exit status counts them.
 */
#include "ucheck.h"
#include "elf.h"
#include <asm/unistd_32.h>
#include <asm/processor.h>

#define AT_NULL		0
#define AT_SYSINFO	32
#define AT_SYSINFO_EHDR	33
#define PT_DYNAMIC	2
#define DT_NULL		0
#define DT_HASH		4	/* nbucket, nchain: nchain is the symbol count */
#define DT_STRTAB	5
#define DT_SYMTAB	6
#define MMAP2_PGOFF_MARK 0x5157	/* the sixth argument the suite's kprobe looks for */
#define SIGNAL_DELAY_MS	50
#define BENCH_CALLS	10000
#define PAGE_SIZE	4096
#define TASK_SIZE_LIMIT	0xC0000000ul	/* user addresses end here */

typedef struct {
	Elf32_Sword d_tag;
	Elf32_Word d_val;
} Elf32_Dyn;

/* vdso_asm.S */
long vsyscall6(unsigned long entry, long nr, long a1, long a2, long a3, long a4, long a5,
	       long a6);
long vsyscall_stepped(unsigned long entry, long nr);
extern char vsyscall_step_done[];
extern int vsyscall_clobbers;

static unsigned long sysinfo, ehdr;

static void read_auxv(char **envp)
{
	unsigned long *aux;

	while (*envp)
		envp++;
	for (aux = (unsigned long *)(envp + 1); aux[0] != AT_NULL; aux += 2) {
		if (aux[0] == AT_SYSINFO)
			sysinfo = aux[1];
		if (aux[0] == AT_SYSINFO_EHDR)
			ehdr = aux[1];
	}
}

/* The dynamic section's entry tag, as an address in the mapped image (0: none). */
static unsigned long dynamic_entry(const Elf32_Dyn *dyn, int tag)
{
	for (; dyn->d_tag != DT_NULL; dyn++)
		if (dyn->d_tag == tag)
			return ehdr + dyn->d_val;	/* linked at 0: values are offsets */
	return 0;
}

/* A dynamic symbol's address, as glibc's lookup in the vDSO finds it; 0 if none. */
static unsigned long vdso_sym(const char *name)
{
	const Elf32_Ehdr *h = (const Elf32_Ehdr *)ehdr;
	const Elf32_Phdr *ph = (const Elf32_Phdr *)(ehdr + h->e_phoff);
	const Elf32_Dyn *dyn = NULL;
	const Elf32_Sym *sym;
	const Elf32_Word *hash;
	const char *str;

	for (int i = 0; i < h->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const Elf32_Dyn *)(ehdr + ph[i].p_vaddr);
	if (!dyn)
		return 0;
	hash = (const Elf32_Word *)dynamic_entry(dyn, DT_HASH);
	sym = (const Elf32_Sym *)dynamic_entry(dyn, DT_SYMTAB);
	str = (const char *)dynamic_entry(dyn, DT_STRTAB);
	for (Elf32_Word i = 0; hash && sym && str && i < hash[1]; i++)
		if (strcmp(str + sym[i].st_name, name) == 0)
			return ehdr + sym[i].st_value;
	return 0;
}

static void check_image(void)
{
	const Elf32_Ehdr *h = (const Elf32_Ehdr *)ehdr;

	CHECK(ehdr && sysinfo, "AT_SYSINFO_EHDR %#lx AT_SYSINFO %#lx", ehdr, sysinfo);
	if (!ehdr)
		return;
	CHECK(memcmp(h->e_ident, ELFMAG, 4) == 0 && h->e_type == ET_DYN && h->e_machine == EM_386,
	      "AT_SYSINFO_EHDR is not an i386 shared object");
	CHECK(vdso_sym("__kernel_vsyscall") == sysinfo, "__kernel_vsyscall %#lx, AT_SYSINFO %#lx",
	      vdso_sym("__kernel_vsyscall"), sysinfo);
	CHECK(vdso_sym("__kernel_sigreturn") && vdso_sym("__kernel_rt_sigreturn"),
	      "no signal trampolines");
	printf("vdso: ELF image at %#lx, __kernel_vsyscall at %#lx\n", ehdr, sysinfo);
}

static void check_calls(void)
{
	long pid = getpid();
	unsigned long addr;

	CHECK(vsyscall6(sysinfo, __NR_getpid, 1, 2, 3, 4, 5, 6) == pid, "getpid through the vDSO");
	CHECK(vsyscall_clobbers == 0, "a call changed a register besides %%eax");
	addr = vsyscall6(sysinfo, __NR_mmap2, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, MMAP2_PGOFF_MARK);
	CHECK(addr < TASK_SIZE_LIMIT && vsyscall_clobbers == 0, "mmap2 through the vDSO: %#lx", addr);
	*(volatile int *)addr = 1;
	CHECK(vsyscall6(sysinfo, __NR_munmap, addr, PAGE_SIZE, 0, 0, 0, 0) == 0, "munmap");
	CHECK(vsyscall6(sysinfo, __NR_getpid + 100000, 0, 0, 0, 0, 0, 0) == -ENOSYS,
	      "a number past the table: -ENOSYS");
}

static volatile int usr1_hits;

static void on_usr1(int sig)
{
	usr1_hits++;
}

/* A read the signal interrupts restarts (SA_RESTART), through the vDSO's int $0x80. */
static void check_restart(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	int fds[2], status;
	char c = 0;
	long pid, n, parent = getpid();

	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0 && pipe(fds) == 0, "sigaction, pipe");
	pid = fork();
	if (pid == 0) {
		msleep(SIGNAL_DELAY_MS);
		kill(parent, SIGUSR1);
		msleep(SIGNAL_DELAY_MS);
		write(fds[1], "x", 1);
		exit(0);
	}
	n = vsyscall6(sysinfo, __NR_read, fds[0], (long)&c, 1, 0, 0, 0);
	CHECK(n == 1 && c == 'x' && usr1_hits == 1, "read %ld '%c' after %d signals", n, c, usr1_hits);
	waitpid(pid, &status, 0);
	close(fds[0]);
	close(fds[1]);
}

static volatile unsigned long rt_return;

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	rt_return = (unsigned long)__builtin_return_address(0);
}

/* No SA_RESTORER: the kernel's restorer is the vDSO's, as on Linux. */
static void check_restorer(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr2, .sa_flags = SA_SIGINFO };

	CHECK(rt_sigaction(SIGUSR2, &sa, NULL, sizeof(sigset_t)) == 0, "rt_sigaction");
	raise(SIGUSR2);
	CHECK(rt_return == vdso_sym("__kernel_rt_sigreturn"),
	      "the handler returned to %#lx, not __kernel_rt_sigreturn", rt_return);
}

static volatile int steps;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	struct sigcontext *sc = &((struct ucontext *)uc)->uc_mcontext;

	steps++;
	if (sc->ip == (unsigned long)vsyscall_step_done)
		sc->flags &= ~X86_EFLAGS_TF;
}

/* TF through the call: SIGTRAPs of the program's own; the kernel's entry steps are not its. */
static void check_stepping(void)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };

	CHECK(sigaction(SIGTRAP, &sa, NULL) == 0, "sigaction");
	CHECK(vsyscall_stepped(sysinfo, __NR_getpid) == getpid(), "getpid, stepped");
	CHECK(steps > 3, "%d steps through __kernel_vsyscall", steps);
	printf("vdso: %d steps from the call to its return\n", steps);
}

/* Read-only: a write is the writer's SIGSEGV.  A forked child has the same page. */
static void check_page(void)
{
	int status;
	long pid = fork();

	if (pid == 0)
		exit(vsyscall6(sysinfo, __NR_getpid, 0, 0, 0, 0, 0, 0) == getpid() ? 0 : 1);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a forked child's call: status %x", status);
	pid = fork();
	if (pid == 0) {
		*(volatile char *)ehdr = 0;
		exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "a write to the vDSO: status %x", status);
}

static void check_maps(void)
{
	char buf[1024], want[32];
	long fd = open("/proc/self/maps", O_RDONLY), n;

	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "%08lx-%08lx r-xp", ehdr, ehdr + PAGE_SIZE);
	CHECK(strstr(buf, want) && strstr(buf, "[vdso]\n"), "/proc/self/maps:\n%s", buf);
	if (fd >= 0)
		close(fd);
}

/*
 * "bench": what one getpid() costs each way, in TSC cycles - a
 * measurement, printed, never judged.  sysenter saves the CPU's work
 * (the gate, the TSS, the descriptor checks); the vDSO's pushes and
 * pops and the kernel's read of the sixth argument cost some back.
 * Under emulation (QEMU, Bochs) the CPU's work is not what costs.
 */
static void bench(void)
{
	unsigned long long t0, t1, t2;
	int i;

	t0 = rdtsc();
	for (i = 0; i < BENCH_CALLS; i++)
		syscall(__NR_getpid);
	t1 = rdtsc();
	for (i = 0; i < BENCH_CALLS; i++)
		vsyscall6(sysinfo, __NR_getpid, 0, 0, 0, 0, 0, 0);
	t2 = rdtsc();
	printf("vdso bench: getpid by int $0x80 %lu cycles, through __kernel_vsyscall %lu cycles\n",
	       (unsigned long)((t1 - t0) / BENCH_CALLS), (unsigned long)((t2 - t1) / BENCH_CALLS));
}

int main(int argc, char **argv)
{
	read_auxv(argv + argc + 1);
	if (argc == 2 && strcmp(argv[1], "bench") == 0 && sysinfo) {
		bench();
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "spin") == 0) {
		for (long i = simple_strtol(argv[2], NULL, 0); i > 0 && sysinfo; i--)
			CHECK(vsyscall6(sysinfo, __NR_getpid, 0, 0, 0, 0, 0, 0) == getpid(), "getpid");
		return failures;
	}
	check_image();
	if (!ehdr)
		return failures;
	check_calls();
	check_restart();
	check_restorer();
	check_stepping();
	check_page();
	check_maps();
	printf("vdso: %d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures;
}
