/*
 * test_files.c - suite "files": the file system calls a Linux program
 * makes (docs/files.md), from ring 3 by user/fscalls.c, one case per
 * group of calls; and the ramfs's rename, rmdir and d_path underneath
 * them, from the kernel.
 *
 * Each ring-3 case runs `fscalls GROUP` and wants every one of its
 * check lines "ok" (their number is fixed: a check that silently
 * stopped running fails the case too), no process left behind and no
 * page lost.
 */
#include "ktest.h"
#include "process.h"
#include "ramfs.h"
#include "fcntl.h"
#include "sched.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "trace.h"

/* The check() lines of each group of user/fscalls.c. */
#define CWD_CHECKS	40
#define AT_CHECKS	64
#define STAT_CHECKS	24
#define FCNTL_CHECKS	27
#define RW_CHECKS	26
#define TRACEFS_CHECKS	13
#define LINKS_CHECKS	32

/* `fscalls group`: its exit status, with its "ok" lines counted in *oks. */
static int run_fscalls(struct ktest *t, const char *group, int *oks)
{
	const char *argv[] = { "fscalls", group };
	struct task_struct *p;
	const char *s;
	int err, status;

	ktest_capture_start();
	p = process_spawn("fscalls", argv, 2, &err);
	status = p ? process_wait(p) : err;
	ktest_capture_stop();
	*oks = 0;
	for (s = ktest_captured(); (s = strstr(s, "ok ")); s++)
		*oks += s == ktest_captured() || s[-1] == '\n';
	if (!strstr(ktest_captured(), "fscalls: 0 failed"))
		ktest_fail(t, __FILE__, __LINE__, "%s", ktest_captured());
	return status;
}

static void run_group(struct ktest *t, const char *group, int checks)
{
	unsigned long pages0 = pages_free();
	int oks;

	KTEST_EXPECT_EQ(t, run_fscalls(t, group, &oks), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, oks, checks);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

static void cwd_chdir_fchdir_getcwd(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);	/* a tracefs directory as the working one */
	run_group(t, "cwd", CWD_CHECKS);
}

static void at_calls_rename_rmdir_access_umask(struct ktest *t)
{
	run_group(t, "at", AT_CHECKS);
}

static void statx_and_fstatat64(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);	/* the test image mounts it on first use */
	run_group(t, "stat", STAT_CHECKS);
}

static void fcntl64_dup3_cloexec(struct ktest *t)
{
	run_group(t, "fcntl", FCNTL_CHECKS);
}

static void readv_writev_pread_truncate(struct ktest *t)
{
	run_group(t, "rw", RW_CHECKS);
}

/* busybox's echo into tracefs does what the kernel's prompt does. */
static void tracefs_written_by_a_process(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	run_group(t, "tracefs", TRACEFS_CHECKS);
}

/* symlink, readlink, lstat, O_NOFOLLOW and the walk through links, from ring 3. */
static void symbolic_links_from_ring3(struct ktest *t)
{
	run_group(t, "links", LINKS_CHECKS);
}

/* ---- the ramfs underneath, from the kernel ---------------------------------- */

static void ramfs_path_of_a_directory(struct ktest *t)
{
	struct inode *dir;
	char buf[32];

	ramfs_mkdir("/tmp/kp", 0755);
	ramfs_mkdir("/tmp/kp/sub", 0755);
	KTEST_ASSERT_EQ(t, ramfs_lookup("/tmp/kp/sub", &dir), 0);
	KTEST_EXPECT_EQ(t, ramfs_path(dir, buf, sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "/tmp/kp/sub");
	KTEST_EXPECT_EQ(t, ramfs_path(dir, buf, strlen("/tmp/kp/sub")), -ERANGE);
	KTEST_EXPECT_EQ(t, ramfs_rename("/tmp/kp/sub", "/tmp/kp/moved", 0), 0);
	KTEST_EXPECT_EQ(t, ramfs_path(dir, buf, sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "/tmp/kp/moved");
	KTEST_EXPECT_EQ(t, ramfs_rmdir("/tmp/kp"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, ramfs_rmdir("/tmp/kp/moved"), 0);
	KTEST_EXPECT_EQ(t, ramfs_path(dir, buf, sizeof(buf)), -ENOENT);
	KTEST_EXPECT_EQ(t, ramfs_rmdir("/tmp/kp"), 0);
	iput(dir);			/* the last reference: the parent goes with it */
	KTEST_EXPECT_EQ(t, ramfs_lookup("/", &dir), 0);
	KTEST_EXPECT_EQ(t, ramfs_path(dir, buf, sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "/");
	iput(dir);
}

/* A removed directory's heap goes with its last holder, its parent's too. */
static void removed_directories_free_their_heap(struct ktest *t)
{
	unsigned long blocks0 = ramfs_heap_blocks();
	struct inode *dir;

	ramfs_mkdir("/tmp/kh", 0755);
	ramfs_mkdir("/tmp/kh/a", 0755);
	KTEST_ASSERT_EQ(t, ramfs_lookup("/tmp/kh/a", &dir), 0);
	KTEST_EXPECT_EQ(t, ramfs_rmdir("/tmp/kh/a"), 0);
	KTEST_EXPECT_EQ(t, ramfs_rmdir("/tmp/kh"), 0);
	KTEST_EXPECT_EQ(t, ramfs_heap_blocks(), blocks0 + 4);	/* both held by dir */
	iput(dir);
	KTEST_EXPECT_EQ(t, ramfs_heap_blocks(), blocks0);
}

static void rename_flags_and_dots(struct ktest *t)
{
	struct inode *f;

	KTEST_ASSERT_EQ(t, ramfs_create("/tmp/kr", 0644, true, &f), 0);
	iput(f);
	KTEST_EXPECT_EQ(t, ramfs_rename("/tmp/kr", "/tmp/kr2", RENAME_EXCHANGE), -EINVAL);
	KTEST_EXPECT_EQ(t, ramfs_rename("/tmp/kr", "/tmp/..", 0), -EBUSY);
	KTEST_EXPECT_EQ(t, ramfs_rename("/", "/tmp/x", 0), -EBUSY);
	KTEST_EXPECT_EQ(t, ramfs_rename("/tmp/kr", "/tmp", 0), -EISDIR);
	KTEST_EXPECT_EQ(t, ramfs_rename("/tmp", "/tmp/kr", 0), -EINVAL);
	KTEST_EXPECT_EQ(t, ramfs_rename("/tmp/kr", "/none/kr", 0), -ENOENT);
	KTEST_EXPECT_EQ(t, ramfs_unlink("/tmp/kr"), 0);
}

static struct ktest_case files_cases[] = {
	KTEST_CASE(cwd_chdir_fchdir_getcwd),
	KTEST_CASE(at_calls_rename_rmdir_access_umask),
	KTEST_CASE(statx_and_fstatat64),
	KTEST_CASE(fcntl64_dup3_cloexec),
	KTEST_CASE(readv_writev_pread_truncate),
	KTEST_CASE(tracefs_written_by_a_process),
	KTEST_CASE(symbolic_links_from_ring3),
	KTEST_CASE(ramfs_path_of_a_directory),
	KTEST_CASE(removed_directories_free_their_heap),
	KTEST_CASE(rename_flags_and_dots),
	KTEST_END
};

static struct ktest_suite files_suite = {
	.name = "files",
	.cases = files_cases,
};
KTEST_SUITE(files_suite);
