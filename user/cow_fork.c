/*
 * cow_fork - fork, then both sides write a page they share, and count
 * the page faults each took (getrusage()'s ru_minflt).  The child's
 * write faults and copies the page (the parent still holds it); the
 * parent, writing after the child is gone, faults once more and finds
 * itself the page's last holder: no copy, the page is made writable
 * again.  Neither sees the other's write.
 *
 *   cow_fork        as above
 *   cow_fork -wait  both sleep WAIT_MS after the fork, then call
 *                   cow_probed_a() and cow_probed_b() (a uprobe arrives
 *                   meanwhile, tests/kernel/test_cow.c)
 *   cow_fork -hwbp  sleep WAIT_MS before the fork (a hardware breakpoint
 *                   on sys_getpid arrives for this process meanwhile);
 *                   after it, each side calls getpid() once
 */
#include "ulib.h"

#define PAGE_SIZE 4096
#define WAIT_MS   300

/* In .data: a page of the file, shared by parent and child after the fork. */
static char shared[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE))) = { 'O' };
static volatile int sink;

/* noipa: real calls, each kept although its result is known. */
__attribute__((noipa)) int cow_probed_a(int x)
{
	return x + 1;
}

__attribute__((noipa)) int cow_probed_b(int x)
{
	return x + 2;
}

/* The faults one write to `shared` costs (warmed up: the calls' own stack faults come first). */
static long write_shared(char c)
{
	long before;

	minor_faults();
	before = minor_faults();
	shared[0] = c;
	return minor_faults() - before;
}

int main(int argc, char **argv)
{
	int wait = argc > 1 && strcmp(argv[1], "-wait") == 0;
	int hwbp = argc > 1 && strcmp(argv[1], "-hwbp") == 0;
	long pid, faults;
	int status;

	if (hwbp) {
		printf("cow_fork: sleeping before the fork\n");
		msleep(WAIT_MS);
	}
	pid = fork();
	if (pid < 0) {
		printf("cow_fork: fork failed: %ld\n", pid);
		return 1;
	}
	if (pid == 0)
		printf("cow_fork: forked\n");
	if (wait)
		msleep(WAIT_MS);
	getpid();
	sink = cow_probed_a(0) + cow_probed_b(0);
	if (pid == 0) {
		faults = write_shared('C');
		printf("cow_fork: child wrote C, reads %c, %ld fault(s)\n", shared[0], faults);
		return 0;
	}
	waitpid(pid, &status, 0);
	printf("cow_fork: parent reads %c after the child's write\n", shared[0]);
	faults = write_shared('P');
	printf("cow_fork: parent wrote P, reads %c, %ld fault(s)\n", shared[0], faults);
	return status;
}
