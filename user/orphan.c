/*
 * orphan N - fork N children and exit at once, waiting for none: each
 * child sleeps a little, so it is still running when its parent has
 * gone, and then exits.  Nobody can wait4() for them; the kernel frees
 * each as it ends (autoreap, kernel/exit.c), and tests/kernel/test_cow.c
 * checks that nothing of them stays.
 */
#include "ulib.h"

#define CHILD_SLEEP_MS	50	/* long enough to outlive the parent */

int main(int argc, char **argv)
{
	long n = argc > 1 ? simple_strtol(argv[1], NULL, 0) : 4;
	long i, pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid == 0) {
			msleep(CHILD_SLEEP_MS);
			exit(0);
		}
		if (pid < 0)
			return 1;
	}
	printf("orphan: %ld children left running\n", n);
	return 0;
}
