/*
 * proc_fs.h - /proc (fs/proc/): files whose text is made when they are
 * opened, as Linux's seq_file makes it, about the kernel (meminfo,
 * cpuinfo, kallsyms, mounts...) and about each process (/proc/PID/).
 * Its files are pseudofs files below PROC_ROOT (include/mount.h); where
 * proc is mounted, there they are.  docs/procfs.md.
 */
#ifndef PROC_FS_H
#define PROC_FS_H

#include "seq_buf.h"

/* A /proc file at its full pseudofs path (a star for /proc/PID's files). */
int proc_create_at(const char *path, int (*show)(struct seq_buf *s, void *data));
/* /proc/NAME, its text show()'s (Linux's proc_create_single()): 0 or -errno. */
int proc_create_single(const char *name, int (*show)(struct seq_buf *s, void *data));
/* PROC_ROOT "/" name into buf: 0, or -EINVAL if it does not fit. */
int proc_path(char *buf, size_t len, const char *name);
/* Make /proc's files: the kernel's, then the directory of each process (at boot). */
void proc_root_init(void);

/* fs/proc/base.c: /proc/PID/ and /proc/self. */
int proc_pid_init(void);
/* /proc/PID/exe's text, the program's path, in buf: its length, or -ENOENT (no program). */
int proc_pid_exe_link(int pid, char *buf, size_t size);
/* arch/i386/proc.c: /proc/cpuinfo, one paragraph per CPU, from CPUID. */
int show_cpuinfo(struct seq_buf *s, void *data);
/* fs/proc/meminfo.c, fs/proc/uptime.c: one file each. */
int meminfo_proc_show(struct seq_buf *s, void *data);
int uptime_proc_show(struct seq_buf *s, void *data);
int version_proc_show(struct seq_buf *s, void *data);
int loadavg_proc_show(struct seq_buf *s, void *data);
/* fs/proc/kallsyms.c: /proc/kallsyms. */
int kallsyms_proc_show(struct seq_buf *s, void *data);
/* The release /proc/version names: Linux's the programs here were written against. */
#define PROC_UTS_RELEASE	"6.1.0-kprobes-i386"

#endif
