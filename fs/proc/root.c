/*
 * root.c - /proc's files (Linux's fs/proc/root.c, where proc_root_init()
 * makes them): the kernel's, each made by its own file, and the
 * directory of each task (base.c).  Linux's /proc/mounts is a link to
 * self/mounts; here both are the one mount table.
 */
#include "kernel.h"
#include "proc_fs.h"
#include "mount.h"
#include "printk.h"

static const struct {
	const char *name;
	int (*show)(struct seq_buf *s, void *data);
} proc_root_files[] = {
	{ "cpuinfo", show_cpuinfo },
	{ "filesystems", filesystems_proc_show },
	{ "kallsyms", kallsyms_proc_show },
	{ "loadavg", loadavg_proc_show },
	{ "meminfo", meminfo_proc_show },
	{ "mounts", mounts_proc_show },
	{ "uptime", uptime_proc_show },
	{ "version", version_proc_show },
};

void proc_root_init(void)
{
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(proc_root_files) && !ret; i++)
		ret = proc_create_single(proc_root_files[i].name, proc_root_files[i].show);
	if (!ret)
		ret = proc_pid_init();
	if (ret)
		printk("proc: cannot make /proc's files (%d)\n", ret);
}
