/*
 * run - spawn each program named on the command line, wait for it and
 * print how it ended: "run hello crash_null spin 5".  spawn() and
 * waitpid() from user space.
 */
#include "ulib.h"

static const char *const signames[] = {
	[4] = "SIGILL", [5] = "SIGTRAP", [7] = "SIGBUS", [8] = "SIGFPE",
	[9] = "SIGKILL", [11] = "SIGSEGV",
};

int main(int argc, char **argv)
{
	int i, status;
	long pid;

	for (i = 1; i < argc; i++) {
		const char *child_argv[] = { argv[i], NULL };

		pid = spawn(argv[i], child_argv);
		if (pid < 0) {
			printf("run: %s: error %ld\n", argv[i], pid);
			continue;
		}
		if (waitpid(pid, &status, 0) != pid)
			return 1;
		if (WIFSIGNALED(status))
			printf("run: %s (pid %ld) killed by %s\n", argv[i], pid,
			       WTERMSIG(status) < 12 && signames[WTERMSIG(status)] ?
			       signames[WTERMSIG(status)] : "a signal");
		else
			printf("run: %s (pid %ld) exited %d\n", argv[i], pid,
			       WEXITSTATUS(status));
	}
	return 0;
}
