/*
 * execve - become another program: "execve /bin/hello a b" runs hello
 * in this very process (same pid) with argv a, b; a file that is
 * missing, not executable or not an ELF program gives Linux's errno
 * back, and this process goes on to say so and exit 127, as a shell
 * does for a command it cannot run.
 */
#include "ulib.h"

int main(int argc, char **argv)
{
	const char *envp[] = { "HOME=/", "TERM=linux", NULL };
	long err;

	if (argc < 2) {
		printf("usage: execve PATH [ARGS]\n");
		return 2;
	}
	printf("execve: pid %ld runs %s\n", getpid(), argv[1]);
	err = execve(argv[1], (const char *const *)argv + 1, envp);
	printf("execve %s: %s (%s); pid %ld lives on\n", argv[1], errno_name(err),
	       errno_meaning(err), getpid());
	return 127;
}
