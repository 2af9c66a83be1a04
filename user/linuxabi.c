/*
 * linuxabi - the calls a C library's startup and a shell make, checked
 * from ring 3 with Linux i386's numbers, structures and errno values
 * (docs/busybox.md): set_thread_area and a %gs that survives switches
 * and fork, the SSE registers kept per process, uname, the ids, the
 * clocks, the console's tty ioctls, getrandom, prctl, ugetrlimit.
 * One "FAIL what" line per wrong answer; the exit status counts them.
 */
#include "ucheck.h"

#define NR_ioctl		54
#define NR_getppid		64
#define NR_gettimeofday		78
#define NR_uname		122
#define NR_prctl		172
#define NR_ugetrlimit		191
#define NR_getuid32		199
#define NR_getgid32		200
#define NR_geteuid32		201
#define NR_getegid32		202
#define NR_getresuid32		209
#define NR_set_thread_area	243
#define NR_get_thread_area	244
#define NR_set_tid_address	258
#define NR_clock_gettime	265
#define NR_set_robust_list	311
#define NR_getrandom		355
#define NR_rseq			386
#define NR_clock_gettime64	403
#define NR_clock_nanosleep	267
#define NR_clock_nanosleep64	407

#define EBADF	9
#define EFAULT	14
#define EINVAL	22
#define ESRCH	3
#define ENOTTY	25
#define ENOSYS	38
#define EINTR	4
#define EOPNOTSUPP 95

#define TLS_MIN		6
#define TLS_MAX		8
#define USER_RPL	3
#define TCGETS		0x5401
#define TIOCGPGRP	0x540F
#define TIOCGWINSZ	0x5413
#define ICANON		0000002
#define ECHO		0000010
#define CLOCK_REALTIME	0
#define CLOCK_MONOTONIC	1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_MONOTONIC_RAW 4
#define TIMER_ABSTIME	1
#define LONG_SLEEP_S	5
#define PR_SET_NAME	15
#define PR_GET_NAME	16
#define RLIMIT_STACK	3
#define SECONDS_2020	1577836800L
#define NSEC_PER_MSEC	1000000LL
#define SLEEP_MS	30
#define TICK_MS		10

struct user_desc {
	unsigned int entry_number;
	unsigned int base_addr;
	unsigned int limit;
	unsigned int seg_32bit : 1;
	unsigned int contents : 2;
	unsigned int read_exec_only : 1;
	unsigned int limit_in_pages : 1;
	unsigned int seg_not_present : 1;
	unsigned int useable : 1;
};

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

struct termios {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
};

struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

struct timespec64 {
	long long tv_sec, tv_nsec;
};

/* linuxabi_asm.S */
void load_gs(unsigned int selector);
unsigned int read_gs_word(void);
unsigned int read_gs(void);
void set_xmm0(const void *bytes);
void get_xmm0(void *bytes);


/* The thread block %gs will point at: its first word is what %gs:0 reads. */
static unsigned int tls_block[4] = { 0x7151b10c };

/* A flat 32-bit data segment over base, as glibc asks for its TLS. */
static struct user_desc tls_desc(int entry, unsigned int base)
{
	struct user_desc d = { .entry_number = entry, .base_addr = base, .limit = 0xfffff,
			       .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	return d;
}

static void check_tls_errors(void)
{
	struct user_desc d = tls_desc(TLS_MIN - 1, 0);

	CHECK(syscall(NR_set_thread_area, &d) == -EINVAL, "set_thread_area entry 5");
	d.entry_number = TLS_MAX + 1;
	CHECK(syscall(NR_set_thread_area, &d) == -EINVAL, "set_thread_area entry 9");
	d = tls_desc(-1, 0);
	d.seg_32bit = 0;
	CHECK(syscall(NR_set_thread_area, &d) == -EINVAL, "a 16-bit TLS segment");
	d = tls_desc(-1, 0);
	d.contents = 2;
	CHECK(syscall(NR_set_thread_area, &d) == -EINVAL, "a code TLS segment");
	d = tls_desc(-1, 0);
	d.seg_not_present = 1;
	CHECK(syscall(NR_set_thread_area, &d) == -EINVAL, "a not-present TLS segment");
	CHECK(syscall(NR_set_thread_area, (void *)16) == -EFAULT, "set_thread_area bad pointer");
	d.entry_number = TLS_MAX + 1;
	CHECK(syscall(NR_get_thread_area, &d) == -EINVAL, "get_thread_area entry 9");
}

/* -1 takes 7 and 8 next, then none is free; an all-zero desc frees one. */
static void check_tls_allocation(void)
{
	struct user_desc d = tls_desc(-1, 0x1000), zero = { .entry_number = TLS_MAX };

	CHECK(syscall(NR_set_thread_area, &d) == 0 && d.entry_number == 7, "second entry: %u",
	      d.entry_number);
	d.entry_number = -1;
	CHECK(syscall(NR_set_thread_area, &d) == 0 && d.entry_number == 8, "third entry: %u",
	      d.entry_number);
	d.entry_number = -1;
	CHECK(syscall(NR_set_thread_area, &d) == -ESRCH, "a fourth entry");
	CHECK(syscall(NR_set_thread_area, &zero) == 0, "clearing entry 8");
	d.entry_number = -1;
	CHECK(syscall(NR_set_thread_area, &d) == 0 && d.entry_number == 8, "entry 8 again: %u",
	      d.entry_number);
}

static volatile unsigned int gs_in_handler;

static void note_gs(int sig)
{
	gs_in_handler = read_gs();
}

/* A signal's frame saves %gs = 0x33 and sigreturn takes it back (glibc's handlers return so). */
static void check_tls_across_a_signal(unsigned int sel)
{
	signal(SIGUSR1, note_gs);
	kill(getpid(), SIGUSR1);
	CHECK(gs_in_handler == sel, "%%gs in the handler: %#x", gs_in_handler);
	CHECK(read_gs() == sel && read_gs_word() == tls_block[0], "%%gs after sigreturn: %#x",
	      read_gs());
}

/* The child sees its parent's %gs and TLS; its changes stay its own. */
static void check_tls_across_fork(unsigned int sel)
{
	struct user_desc mine = tls_desc(TLS_MIN, (unsigned int)&tls_block[1]);
	int status = -1;
	long pid = fork();

	if (pid == 0) {
		int bad = read_gs() != sel || read_gs_word() != tls_block[0];

		tls_block[1] = 0xc41d;
		syscall(NR_set_thread_area, &mine);
		load_gs(sel);
		exit(bad || read_gs_word() != 0xc41d);
	}
	CHECK(pid > 0, "fork: %ld", pid);
	waitpid(pid, &status, 0);
	CHECK(status == 0, "the child's %%gs: status %#x", status);
	CHECK(read_gs_word() == tls_block[0], "%%gs:0 after the child changed its own entry 6");
}

static void check_tls(void)
{
	struct user_desc d = tls_desc(-1, (unsigned int)tls_block), back = { .entry_number = TLS_MIN };
	unsigned int sel = TLS_MIN * 8 | USER_RPL;

	CHECK(syscall(NR_set_thread_area, &d) == 0, "set_thread_area(-1)");
	CHECK(d.entry_number == TLS_MIN, "the first free entry: %u", d.entry_number);
	load_gs(sel);
	CHECK(read_gs_word() == tls_block[0], "%%gs:0 reads %#x", read_gs_word());
	msleep(SLEEP_MS);		/* other tasks run on this CPU meanwhile */
	CHECK(read_gs() == sel && read_gs_word() == tls_block[0], "%%gs after a sleep");
	CHECK(syscall(NR_get_thread_area, &back) == 0, "get_thread_area(6)");
	CHECK(back.base_addr == (unsigned int)tls_block && back.limit == 0xfffff &&
	      back.seg_32bit && back.limit_in_pages && back.useable && !back.contents &&
	      !back.read_exec_only && !back.seg_not_present, "get_thread_area's fields");
	check_tls_across_fork(sel);
	check_tls_across_a_signal(sel);
	check_tls_errors();
	check_tls_allocation();
	printf("tls: %%gs %#x reads %#x\n", read_gs(), read_gs_word());
}

/* xmm0 keeps its value while another process sets its own and the CPU switches. */
static void check_sse(void)
{
	static const unsigned char mine[16] = "parent's xmm0!!", theirs[16] = "the child's one";
	unsigned char got[16];
	int status = -1;
	long pid;

	set_xmm0(mine);
	pid = fork();
	if (pid == 0) {
		set_xmm0(theirs);
		msleep(SLEEP_MS);
		get_xmm0(got);
		exit(memcmp(got, theirs, sizeof(got)) != 0);
	}
	msleep(SLEEP_MS / 2);
	waitpid(pid, &status, 0);
	get_xmm0(got);
	CHECK(memcmp(got, mine, sizeof(got)) == 0, "xmm0 after a switch: %.15s", got);
	CHECK(status == 0, "the child's xmm0: status %#x", status);
}

static void check_ids(void)
{
	unsigned int r = 1, e = 1, s = 1;
	struct new_utsname u;
	int status = -1;
	long parent = getpid(), pid;

	CHECK(syscall(NR_uname, &u) == 0 && strcmp(u.sysname, "Linux") == 0 &&
	      strcmp(u.machine, "i686") == 0, "uname: %s %s", u.sysname, u.machine);
	printf("uname: %s %s %s\n", u.sysname, u.release, u.machine);
	CHECK(syscall(NR_getuid32) == 0 && syscall(NR_geteuid32) == 0 &&
	      syscall(NR_getgid32) == 0 && syscall(NR_getegid32) == 0, "the ids are root's");
	CHECK(syscall(NR_getresuid32, &r, &e, &s) == 0 && !r && !e && !s, "getresuid32");
	pid = fork();
	if (pid == 0)
		exit(syscall(NR_getppid) != parent);
	waitpid(pid, &status, 0);
	CHECK(status == 0, "getppid in the child");
	CHECK(syscall(NR_set_tid_address, &r) == parent, "set_tid_address returns the pid");
	CHECK(syscall(NR_set_robust_list, &r, 12) == 0, "set_robust_list");
	CHECK(syscall(NR_set_robust_list, &r, 13) == -EINVAL, "set_robust_list, wrong len");
	CHECK(syscall(NR_rseq, 0, 0, 0, 0) == -ENOSYS, "rseq is not provided");
	CHECK(syscall(NR_rseq, 0, 0, 0, 0) == -ENOSYS, "rseq, again (the log names it once)");
}

static void check_clocks(void)
{
	struct timespec64 a, b;
	long tv[2] = { 0, 0 };
	int ts32[2];

	CHECK(syscall(NR_gettimeofday, tv, NULL) == 0 && tv[0] > SECONDS_2020 &&
	      tv[1] >= 0 && tv[1] < 1000000, "gettimeofday: %ld.%06ld", tv[0], tv[1]);
	CHECK(syscall(NR_clock_gettime64, CLOCK_MONOTONIC, &a) == 0, "clock_gettime64");
	msleep(SLEEP_MS);
	CHECK(syscall(NR_clock_gettime64, CLOCK_MONOTONIC, &b) == 0, "clock_gettime64");
	/* A sleep is whole ticks (10 ms): it may end up to one tick early. */
	CHECK((b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec >=
	      (SLEEP_MS - TICK_MS) * NSEC_PER_MSEC, "the monotonic clock over a sleep");
	CHECK(syscall(NR_clock_gettime, CLOCK_REALTIME, ts32) == 0 &&
	      ts32[0] - tv[0] >= 0 && ts32[0] - tv[0] <= 2, "clock_gettime(REALTIME) %d", ts32[0]);
	CHECK(syscall(NR_clock_gettime, 99, ts32) == -EINVAL, "clock 99");
	CHECK(syscall(NR_clock_gettime64, CLOCK_PROCESS_CPUTIME_ID, &a) == -EINVAL,
	      "no CPU-time clock");
}

static long long ns_between(const struct timespec64 *a, const struct timespec64 *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + b->tv_nsec - a->tv_nsec;
}

static void wake_me(int sig)
{
}

/* A sleep a signal cuts short: -EINTR, and the time still to go in rem. */
static void check_nanosleep_interrupted(void)
{
	struct timespec64 req = { LONG_SLEEP_S, 0 }, rem = { -1, -1 };
	int status = -1;
	long ret, parent = getpid(), pid;

	signal(SIGUSR1, wake_me);
	pid = fork();
	if (pid == 0) {
		msleep(SLEEP_MS);
		kill(parent, SIGUSR1);
		exit(0);
	}
	ret = syscall(NR_clock_nanosleep64, CLOCK_MONOTONIC, 0, &req, &rem);
	waitpid(pid, &status, 0);
	CHECK(ret == -EINTR && rem.tv_sec >= LONG_SLEEP_S - 2 && rem.tv_sec < LONG_SLEEP_S &&
	      rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000LL,
	      "clock_nanosleep cut by a signal: %ld, %lld s left", ret, rem.tv_sec);
}

/* glibc's nanosleep()/sleep(): clock_nanosleep_time64, then clock_nanosleep. */
static void check_nanosleep(void)
{
	struct timespec64 a, b, req = { 0, SLEEP_MS * NSEC_PER_MSEC }, bad = { 0, 1000000000LL };
	int req32[2] = { 0, 0 };

	syscall(NR_clock_gettime64, CLOCK_MONOTONIC, &a);
	CHECK(syscall(NR_clock_nanosleep64, CLOCK_MONOTONIC, 0, &req, NULL) == 0,
	      "clock_nanosleep_time64, a span");
	syscall(NR_clock_gettime64, CLOCK_MONOTONIC, &b);
	/* The kernel reads the clock again before it returns: never early. */
	CHECK(ns_between(&a, &b) >= SLEEP_MS * NSEC_PER_MSEC, "slept %lld ns", ns_between(&a, &b));
	syscall(NR_clock_gettime64, CLOCK_MONOTONIC, &a);
	req32[0] = (int)a.tv_sec;
	req32[1] = (int)a.tv_nsec;
	req32[1] += SLEEP_MS * NSEC_PER_MSEC;
	if (req32[1] >= 1000000000) {
		req32[0]++;
		req32[1] -= 1000000000;
	}
	CHECK(syscall(NR_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, req32, NULL) == 0,
	      "clock_nanosleep, until a time");
	syscall(NR_clock_gettime64, CLOCK_MONOTONIC, &b);
	CHECK(b.tv_sec > req32[0] || (b.tv_sec == req32[0] && b.tv_nsec >= req32[1]),
	      "woke before the time asked");
	CHECK(syscall(NR_clock_nanosleep64, CLOCK_REALTIME, TIMER_ABSTIME, &req, NULL) == 0,
	      "a date long past: no sleep");
	CHECK(syscall(NR_clock_nanosleep64, CLOCK_MONOTONIC_RAW, 0, &req, NULL) == -EOPNOTSUPP,
	      "the raw clock has no sleep");
	CHECK(syscall(NR_clock_nanosleep64, 99, 0, &req, NULL) == -EINVAL, "sleep on clock 99");
	CHECK(syscall(NR_clock_nanosleep64, CLOCK_MONOTONIC, 0, &bad, NULL) == -EINVAL,
	      "a billion nanoseconds");
	CHECK(syscall(NR_clock_nanosleep64, CLOCK_MONOTONIC, 0, (void *)16, NULL) == -EFAULT,
	      "a bad request pointer");
	check_nanosleep_interrupted();
}

static void check_tty(void)
{
	struct termios t;
	struct winsize w;
	int pgrp = -1, fds[2];

	CHECK(syscall(NR_ioctl, 0, TCGETS, &t) == 0 && (t.c_lflag & (ICANON | ECHO)) ==
	      (ICANON | ECHO), "TCGETS on the console");
	CHECK(syscall(NR_ioctl, 1, TIOCGWINSZ, &w) == 0 && w.ws_row == 25 && w.ws_col == 80,
	      "TIOCGWINSZ: %ux%u", w.ws_col, w.ws_row);
	CHECK(syscall(NR_ioctl, 0, TIOCGPGRP, &pgrp) == 0 && pgrp >= 0, "TIOCGPGRP");
	CHECK(syscall(NR_ioctl, 0, 0x1234, 0) == -ENOTTY, "an unknown request");
	CHECK(syscall(NR_ioctl, 31, TCGETS, &t) == -EBADF, "ioctl on no file");
	CHECK(pipe(fds) == 0 && syscall(NR_ioctl, fds[0], TCGETS, &t) == -ENOTTY,
	      "a pipe is no terminal");
	CHECK(syscall(NR_ioctl, 0, TCGETS, (void *)16) == -EFAULT, "TCGETS bad pointer");
}

static void check_misc(void)
{
	unsigned char rnd[16] = { 0 };
	unsigned long lim[2];
	char name[16];
	int i, nonzero = 0;

	CHECK(syscall(NR_getrandom, rnd, sizeof(rnd), 0) == sizeof(rnd), "getrandom");
	for (i = 0; i < (int)sizeof(rnd); i++)
		nonzero |= rnd[i];
	CHECK(nonzero, "getrandom's bytes are not all zero");
	CHECK(syscall(NR_getrandom, rnd, sizeof(rnd), 0x8) == -EINVAL, "getrandom flag 8");
	CHECK(syscall(NR_prctl, PR_SET_NAME, "renamed") == 0 &&
	      syscall(NR_prctl, PR_GET_NAME, name) == 0 && strcmp(name, "renamed") == 0,
	      "prctl names");
	CHECK(syscall(NR_prctl, 9999, 0) == -EINVAL, "prctl 9999");
	CHECK(syscall(NR_ugetrlimit, RLIMIT_STACK, lim) == 0 && lim[0] == 1024 * 1024,
	      "the stack's limit %lu", lim[0]);
	CHECK(syscall(NR_ugetrlimit, 99, lim) == -EINVAL, "limit 99");
}

int main(void)
{
	check_tls();
	check_sse();
	check_ids();
	check_clocks();
	check_nanosleep();
	check_tty();
	check_misc();
	printf("linuxabi: %d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures;
}
