/*
 * test_procfs.c - suite "procfs": the mount table, /proc and /dev
 * (docs/procfs.md).
 *
 * /proc/mounts at boot as a Linux init leaves it; tracefs unmounted
 * from its place and mounted back (its mount point stays a directory
 * of sysfs's, its files go and come); /proc lists a directory per task
 * and "self"; /proc/PID/stat names the task; cpuinfo has a paragraph
 * per CPU; and user/mounttest.c's checks of mount(2), umount2(2),
 * /proc and /dev from ring 3.
 */
#include "ktest.h"
#include "pseudofs_io.h"
#include "mount.h"
#include "trace.h"
#include "process.h"
#include "sched.h"
#include "smp.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define MOUNTTEST_CHECKS	50	/* the check() lines of user/mounttest.c */
#define TEXT_MAX		4096

static char text[TEXT_MAX];

static const char boot_mounts_text[] =
	"rootfs / rootfs rw 0 0\n"
	"sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
	"proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
	"devtmpfs /dev devtmpfs rw,nosuid,relatime 0 0\n"
	"tracefs /sys/kernel/tracing tracefs rw,nosuid,nodev,noexec,relatime 0 0\n"
	"debugfs /sys/kernel/debug debugfs rw,nosuid,nodev,noexec,relatime 0 0\n";

/* Is line (with its '\n') one of text's lines? */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n - 1] == '\n')
			return true;
	return false;
}

static void proc_mounts_at_boot(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, pseudofs_read_into("/proc/mounts", text, sizeof(text)), 0);
	KTEST_EXPECT_STREQ(t, text, boot_mounts_text);
	KTEST_EXPECT_EQ(t, pseudofs_read_into("/proc/self/mounts", text, sizeof(text)), 0);
	KTEST_EXPECT_STREQ(t, text, boot_mounts_text);
}

static void tracefs_umount_and_mount_back(struct ktest *t)
{
	struct seq_buf s;

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);	/* the shell makes its files; a test boot has no shell */
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/sys/kernel/tracing/trace"), 1);
	KTEST_EXPECT_EQ(t, path_umount("/sys/kernel", 0), -EINVAL);	/* no mount point */
	KTEST_EXPECT_EQ(t, path_umount("/sys", 0), -EBUSY);		/* tracefs below it */
	KTEST_ASSERT_EQ(t, path_umount("/sys/kernel/tracing", 0), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/sys/kernel/tracing/trace"), 0);
	KTEST_EXPECT_EQ(t, path_lookup_type("/sys/kernel/tracing"), 2);	/* sysfs's directory */
	seq_buf_init(&s, text, sizeof(text));
	KTEST_EXPECT_EQ(t, pseudofs_list("/sys/kernel/tracing", &s), 0);	/* empty */
	KTEST_EXPECT_EQ(t, do_mount("nodev", "/sys/kernel/tracing", "tracefs", 0), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/sys/kernel/tracing/trace"), 1);
	KTEST_EXPECT_EQ(t, do_mount("nodev", "/sys/kernel/tracing", "tracefs", 0), -EBUSY);
	KTEST_EXPECT_EQ(t, do_mount("nodev", "/sys/kernel/tracing", "nosuchfs", 0), -ENODEV);
	KTEST_EXPECT_EQ(t, pseudofs_read_into("/proc/mounts", text, sizeof(text)), 0);
	KTEST_EXPECT_TRUE(t, strstr(text, "nodev /sys/kernel/tracing tracefs rw,relatime 0 0\n"));
	/* Back as at boot, for the suites after this one. */
	KTEST_EXPECT_EQ(t, do_mount(NULL, "/sys/kernel/tracing", NULL,
				    MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RELATIME), 0);
}

static void read_only_mount_refuses_writes(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	KTEST_ASSERT_EQ(t, do_mount("nodev", "/sys/kernel/tracing", NULL, MS_REMOUNT | MS_RDONLY), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str("/sys/kernel/tracing/tracing_on", "1\n", true), -EROFS);
	KTEST_EXPECT_EQ(t, do_mount(NULL, "/sys/kernel/tracing", NULL,
				    MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RELATIME), 0);
	KTEST_EXPECT_EQ(t, pseudofs_write_str("/sys/kernel/tracing/tracing_on", "1\n", true), 0);
}

static void proc_lists_tasks_and_self(struct ktest *t)
{
	char want[32], path[48];
	struct seq_buf s;

	seq_buf_init(&s, text, sizeof(text));
	KTEST_EXPECT_TRUE(t, pseudofs_list("/proc", &s) > 0);
	snprintf(want, sizeof(want), "%d/\n", current->pid);
	KTEST_EXPECT_EQ(t, has_line(text, want), current->pid != 0);	/* pid 0: Linux's idle task, unlisted */
	KTEST_EXPECT_FALSE(t, has_line(text, "0/\n"));
	KTEST_EXPECT_TRUE(t, has_line(text, "self/\n"));
	KTEST_EXPECT_TRUE(t, has_line(text, "kallsyms\n"));
	snprintf(path, sizeof(path), "/proc/%d/stat", current->pid);
	KTEST_EXPECT_EQ(t, pseudofs_read_into(path, text, sizeof(text)), 0);
	snprintf(want, sizeof(want), "%d (%s) R ", current->pid, current->comm);
	KTEST_EXPECT_EQ(t, strncmp(text, want, strlen(want)), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/proc/self/status"), 1);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/proc/4194303/stat"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/proc/01/stat"), 0);
	KTEST_EXPECT_EQ(t, pseudofs_lookup("/proc/x/stat"), 0);
}

static void cpuinfo_has_every_cpu(struct ktest *t)
{
	const char *p = text;
	unsigned int n = 0;

	KTEST_EXPECT_EQ(t, pseudofs_read_into("/proc/cpuinfo", text, sizeof(text)), 0);
	while ((p = strstr(p, "processor\t: ")))
		n++, p++;
	KTEST_EXPECT_EQ(t, n, num_online_cpus());
	KTEST_EXPECT_TRUE(t, strstr(text, "\nflags\t\t: fpu") != NULL);
}

static void mounttest_from_ring3(struct ktest *t)
{
	const char *argv[] = { "mounttest", "cmdline-arg" };
	unsigned long pages0 = pages_free();
	int err, oks = 0, status;
	struct task_struct *p;
	const char *c;

	KTEST_ASSERT_EQ(t, tracefs_init(), 0);
	ktest_capture_start();
	p = process_spawn("mounttest", argv, ARRAY_SIZE(argv), &err);
	status = p ? process_wait(p) : err;
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0, 0));
	for (c = ktest_captured(); (c = strstr(c, "ok ")); c++)
		oks += c == ktest_captured() || c[-1] == '\n';
	KTEST_EXPECT_EQ(t, oks, MOUNTTEST_CHECKS);
	if (!strstr(ktest_captured(), "mounttest: 0 failed"))
		ktest_fail(t, __FILE__, __LINE__, "%s", ktest_captured());
	KTEST_EXPECT_TRUE(t, strstr(ktest_captured(), "console says hi\n") != NULL);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

static struct ktest_case procfs_cases[] = {
	KTEST_CASE(proc_mounts_at_boot),
	KTEST_CASE(tracefs_umount_and_mount_back),
	KTEST_CASE(read_only_mount_refuses_writes),
	KTEST_CASE(proc_lists_tasks_and_self),
	KTEST_CASE(cpuinfo_has_every_cpu),
	KTEST_CASE(mounttest_from_ring3),
	KTEST_END
};

static struct ktest_suite procfs_suite = {
	.name = "procfs",
	.cases = procfs_cases,
};
KTEST_SUITE(procfs_suite);
