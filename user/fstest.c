/*
 * fstest - the file and process calls of docs/exec.md, checked from
 * ring 3: pipes (end of file, EPIPE, EAGAIN, a full pipe), dup and
 * dup2, lseek, ramfs files and directories (open O_CREAT, read, write,
 * getdents64, stat64, mkdir, unlink), wait4's status encoding, and
 * execve's errno for bad pointers.  One line per check, "ok NAME" or
 * "FAIL NAME: got X want Y"; the suite "exec" counts them.
 */
#include "ucheck.h"

#define KERNEL_TEXT	0x00100000ul	/* mapped, supervisor-only: -EFAULT */
#define PIPE_SIZE	4096		/* one page, the kernel's pipe buffer */
#define SIGFPE		8

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

struct stat64 {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned long __st_ino;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned long st_uid, st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	unsigned long st_times[6];
	unsigned long long st_ino;
};

static void pipes(void)
{
	static char big[2 * PIPE_SIZE];
	char buf[16];
	int p[2];

	check("pipe", pipe(p), 0);
	check("pipe_write", write(p[1], "hello", 5), 5);
	check("pipe_read", read(p[0], buf, sizeof(buf)), 5);
	check("pipe_bytes", memcmp(buf, "hello", 5), 0);
	close(p[1]);
	check("pipe_eof_after_last_writer", read(p[0], buf, sizeof(buf)), 0);
	close(p[0]);

	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);	/* as a program that wants -EPIPE rather than its end */
	check("pipe_epipe_without_reader", write(p[1], "x", 1), -EPIPE);
	signal(SIGPIPE, SIG_DFL);
	check("lseek_pipe_espipe", lseek(p[1], 0, SEEK_SET), -ESPIPE);
	close(p[1]);

	check("pipe2_nonblock", pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	check("read_empty_eagain", read(p[0], buf, 1), -EAGAIN);
	check("fill_stops_at_pipe_size", write(p[1], big, sizeof(big)), PIPE_SIZE);
	check("write_full_eagain", write(p[1], big, 1), -EAGAIN);
	close(p[0]);
	close(p[1]);
	check("pipe2_bad_flags", pipe2(p, O_APPEND), -EINVAL);
	check("pipe_efault", pipe((int *)KERNEL_TEXT), -EFAULT);
}

static void dups(void)
{
	char buf[8];
	int p[2];
	long d;

	pipe(p);
	check("dup2_returns_newfd", dup2(p[1], 20), 20);
	check("dup2_same_fd", dup2(20, 20), 20);
	write(20, "ab", 2);
	close(20);
	d = dup(p[1]);
	check("dup_lowest_free", d > p[1], 1);
	write(d, "c", 1);
	close(d);
	close(p[1]);
	check("read_through_dups", read(p[0], buf, sizeof(buf)), 3);
	check("eof_after_every_copy_closed", read(p[0], buf, sizeof(buf)), 0);
	close(p[0]);
	check("dup2_bad_oldfd", dup2(25, 3), -EBADF);
	check("dup2_newfd_too_big", dup2(1, 4096), -EBADF);
	check("close_bad_fd", close(30), -EBADF);
}

static int count_entries(const char *dir, const char *want, int *found)
{
	char buf[256];
	long fd = open(dir, O_RDONLY | O_DIRECTORY), n, off;
	int count = 0;

	*found = 0;
	if (fd < 0)
		return fd;
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += ((struct linux_dirent64 *)(buf + off))->d_reclen) {
			count++;
			*found |= strcmp(((struct linux_dirent64 *)(buf + off))->d_name, want) == 0;
		}
	}
	close(fd);
	return n < 0 ? n : count;
}

static void files(void)
{
	struct stat64 st;
	char buf[32];
	long fd;
	int found;

	check("mkdir", mkdir("/tmp/fstest", 0755), 0);
	check("mkdir_exists", mkdir("/tmp/fstest", 0755), -EEXIST);
	check("mkdir_no_parent", mkdir("/tmp/none/x", 0755), -ENOENT);
	fd = open("/tmp/fstest/f", O_CREAT | O_RDWR | O_TRUNC, 0644);
	check("open_creat", fd >= 3, 1);
	check("write_file", write(fd, "0123456789", 10), 10);
	check("lseek_set", lseek(fd, 2, SEEK_SET), 2);
	check("read_file", read(fd, buf, 3), 3);
	check("read_file_bytes", memcmp(buf, "234", 3), 0);
	check("lseek_end", lseek(fd, 0, SEEK_END), 10);
	check("lseek_negative", lseek(fd, -11, SEEK_END), -EINVAL);
	check("fstat64_size", fstat64(fd, &st) == 0 && st.st_size == 10, 1);
	close(fd);
	check("open_creat_excl", open("/tmp/fstest/f", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	fd = open("/tmp/fstest/f", O_WRONLY | O_APPEND);
	write(fd, "ab", 2);
	close(fd);
	check("stat64_append", stat64("/tmp/fstest/f", &st) == 0 && st.st_size == 12, 1);
	check("stat64_regular", (st.st_mode & 0170000) == 0100000, 1);
	check("stat64_dir", stat64("/tmp/fstest", &st) == 0 && (st.st_mode & 0170000) == 0040000, 1);
	check("getdents64_count", count_entries("/tmp/fstest", "f", &found), 3);	/* . .. f */
	check("getdents64_name", found, 1);
	check("getdents64_notdir", count_entries("/tmp/fstest/f", "", &found), -ENOTDIR);
	check("open_dir_for_write", open("/tmp/fstest", O_WRONLY), -EISDIR);
	check("open_through_file", open("/tmp/fstest/f/x", O_RDONLY), -ENOTDIR);
	fd = open("/tmp/fstest/f", O_RDONLY);
	check("unlink", unlink("/tmp/fstest/f"), 0);
	check("read_after_unlink", read(fd, buf, sizeof(buf)), 12);
	close(fd);
	check("open_unlinked", open("/tmp/fstest/f", O_RDONLY), -ENOENT);
	check("unlink_dir", unlink("/tmp/fstest"), -EISDIR);
	check("bin_lists_hello", count_entries("/bin", "hello", &found) > 3 && found, 1);
}

static long spawn1(const char *prog, const char *arg)
{
	const char *argv[] = { prog, arg, NULL };

	return spawn(prog, argv);
}

static void waits(void)
{
	const char *argv[] = { "x", NULL };
	long pid, spin;
	int status;

	pid = spawn1("div0", NULL);
	check("wait4_pid", wait4(-1, &status, 0, NULL), pid);
	check("wait4_signaled", WIFSIGNALED(status) && WTERMSIG(status) == SIGFPE, 1);
	pid = spawn1("execve", "/tmp/none");
	check("waitpid_pid", waitpid(pid, &status, 0), pid);
	check("wait4_exit_code", WIFEXITED(status) && WEXITSTATUS(status) == 127, 1);
	spin = spawn1("spin", "5");
	check("wait4_wnohang_running", wait4(spin, &status, WNOHANG, NULL), 0);
	kill(spin, 9);
	check("wait4_killed", wait4(spin, &status, 0, NULL) == spin && WTERMSIG(status) == 9, 1);
	check("wait4_no_child", wait4(-1, &status, 0, NULL), -ECHILD);
	check("wait4_bad_options", wait4(-1, &status, 0x100, NULL), -EINVAL);
	check("execve_efault_path", execve((const char *)KERNEL_TEXT, argv, NULL), -EFAULT);
	check("execve_efault_argv", execve("/bin/hello", (const char *const *)KERNEL_TEXT, NULL),
	      -EFAULT);
	check("execve_missing", execve("/bin/none", argv, NULL), -ENOENT);
	check("execve_dir", execve("/tmp", argv, NULL), -EACCES);
}

int main(int argc, char **argv)
{
	pipes();
	dups();
	files();
	waits();
	printf("fstest: %d failed\n", failures);
	return failures != 0;
}
