/*
 * pipeline - run two programs joined by a pipe, as a shell runs
 * "hello | wc": "pipeline hello wc".  The first one's standard output
 * is the pipe's write end, the second one's standard input its read
 * end; the children get them as copies of our descriptors 1 and 0
 * (dup2), which we then put back.  Then wait4 both and say how each
 * ended.  The reader sees end of file once every write end is closed:
 * the writer's, at its exit, and ours, closed right after the spawn.
 */
#include "ulib.h"

/* Start prog with descriptor `fd` (0 or 1) replaced by `with`. */
static long start(const char *prog, int fd, int with)
{
	const char *argv[] = { prog, NULL };
	long saved = dup(fd), pid;

	dup2(with, fd);
	pid = spawn(prog, argv);
	dup2(saved, fd);
	close(saved);
	return pid;
}

static void report(long pid, const char *prog)
{
	int status;

	if (wait4(pid, &status, 0, NULL) != pid)
		printf("pipeline: wait4 %ld failed\n", pid);
	else if (WIFEXITED(status))
		printf("pipeline: %s exited %d\n", prog, WEXITSTATUS(status));
	else
		printf("pipeline: %s killed by signal %d\n", prog, WTERMSIG(status));
}

int main(int argc, char **argv)
{
	int fds[2];
	long writer, reader;

	if (argc != 3) {
		printf("usage: pipeline WRITER READER\n");
		return 2;
	}
	if (pipe(fds) < 0)
		return 1;
	writer = start(argv[1], STDOUT_FILENO, fds[1]);
	close(fds[1]);		/* else the reader never sees end of file */
	reader = start(argv[2], STDIN_FILENO, fds[0]);
	close(fds[0]);
	if (writer < 0 || reader < 0) {
		printf("pipeline: spawn: %ld %ld\n", writer, reader);
		return 1;
	}
	report(writer, argv[1]);
	report(reader, argv[2]);
	return 0;
}
