/*
 * fork_many N - fork N children, one at a time (every other one with
 * clone(SIGCHLD, NULL), which is fork too): each writes a page it
 * shares with the parent (a copy-on-write copy) and exits with i & 0x7f;
 * the parent waits for each and checks its status.  What the kernel
 * gave a child must all come back (tests/kernel/test_cow.c counts).
 */
#include "ulib.h"

#define CLONE_VM	0x00000100	/* share the address space (kernel/fork.c refuses it) */

static volatile long counter = 1;	/* .data: shared until the child writes it */

int main(int argc, char **argv)
{
	long n = argc > 1 ? simple_strtol(argv[1], NULL, 0) : 10;
	long i, pid, failures = 0;
	int status;

	for (i = 0; i < n; i++) {
		pid = i & 1 ? clone(SIGCHLD, NULL, NULL, 0, NULL) : fork();
		if (pid == 0) {
			counter += i;
			exit(i & 0x7f);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    WEXITSTATUS(status) != (i & 0x7f))
			failures++;
	}
	if (clone(SIGCHLD | CLONE_VM, NULL, NULL, 0, NULL) != -EINVAL)	/* a thread: none here */
		failures++;
	printf("fork_many: %ld forks, %ld failures, counter %ld\n", n, failures, counter);
	return failures != 0;
}
