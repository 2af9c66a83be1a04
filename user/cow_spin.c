/*
 * cow_spin - fork; the child sleeps (argv[1] ms, default 3000) and
 * keeps its half of the shared pages alive, the parent calls
 * cow_spin_tick() for ever, with no system call: it never leaves its
 * CPU, so only a TLB shootdown tells that CPU its text page changed
 * (tests/kernel/test_cow.c puts a uprobe there meanwhile).  `kill` ends it.
 */
#include "ulib.h"

static volatile unsigned long ticks;

__attribute__((noinline)) void cow_spin_tick(void)
{
	ticks++;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? simple_strtol(argv[1], NULL, 0) : 3000;
	long pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		msleep(ms);
		return 0;
	}
	printf("cow_spin: child %ld\n", pid);
	for (;;)
		cow_spin_tick();
}
