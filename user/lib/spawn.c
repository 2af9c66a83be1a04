/*
 * spawn.c - start a program the way Linux programs do: fork(), then
 * execve() in the child (what a shell does, and glibc's posix_spawn()).
 *
 * The parent wants execve()'s errno, not just a pid: a missing file
 * should be -ENOENT here, as it was in the child.  The child has no
 * return value to give back, so it writes the errno into a pipe whose
 * ends are close-on-exec (O_CLOEXEC).  A successful execve() closes the
 * child's end without a word, and the parent's read() sees end of file:
 * the program runs.  Four bytes instead: it did not, and the parent
 * reaps the child and returns the errno.
 */
#include "ulib.h"

#define SPAWN_PATH_MAX	256	/* the kernel's PATH_MAX (include/ramfs.h) */
#define EXIT_NOEXEC	127	/* a shell's exit status for "could not run it" */

/* A name without a slash is a program in /bin, as a shell's PATH=/bin finds it. */
static long spawn_path(char *path, const char *name)
{
	strlcpy(path, strchr(name, '/') ? "" : "/bin/", SPAWN_PATH_MAX);
	return strlcat(path, name, SPAWN_PATH_MAX) >= SPAWN_PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The child: become the program, or tell the parent why not. */
static void __attribute__((noreturn)) spawn_child(int report_fd, const char *name,
						  const char *const argv[])
{
	char path[SPAWN_PATH_MAX];
	long err = spawn_path(path, name);

	if (!err)
		err = execve(path, argv, NULL);
	write(report_fd, &err, sizeof(err));
	exit(EXIT_NOEXEC);
}

long spawn(const char *name, const char *const argv[])
{
	int report[2];
	long pid, err, n;

	pid = pipe2(report, O_CLOEXEC);
	if (pid < 0)
		return pid;
	pid = fork();
	if (pid == 0)
		spawn_child(report[1], name, argv);
	close(report[1]);
	if (pid > 0) {
		do	/* a handled signal (SIGCHLD) may interrupt the wait */
			n = read(report[0], &err, sizeof(err));
		while (n == -EINTR);
		if (n == sizeof(err)) {
			waitpid(pid, NULL, 0);
			pid = err;
		}
	}
	close(report[0]);
	return pid;
}
