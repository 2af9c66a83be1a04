/*
 * exec.c - execve(): a process becomes another program (Linux's
 * fs/exec.c: do_execve(), the linux_binprm, begin_new_exec()).
 *
 *   1. copy the arguments and the environment into the kernel (bprm);
 *   2. find the file by path and check that it may run: a directory or
 *      a file without an x bit is -EACCES, no file -ENOENT;
 *   3. load it into a new address space (kernel/exec.c's
 *      load_elf_binary(): -ENOEXEC, -EIO, -E2BIG, -ENOMEM) while the
 *      caller's stays untouched - any error so far returns to it;
 *   4. begin_new_exec(), the point of no return: the descriptors marked
 *      close-on-exec close, the old address space goes (and with it the
 *      uprobes in its copy of the text, as Linux's uprobe_clear_state()),
 *      the new one is loaded, and the trap frame is rewritten so that
 *      the iret that ends this system call starts the new program.
 *
 * spawn (kernel/process.c) runs steps 1-3 in the parent and step 4 in
 * the new thread: the fork + execve a Linux shell does, without the fork.
 */
#include "kernel.h"
#include "binfmts.h"
#include "process.h"
#include "syscalls.h"
#include "sched.h"
#include "ramfs.h"
#include "fs.h"
#include "fcntl.h"
#include "mm.h"
#include "uaccess.h"
#include "uprobes.h"
#include "signal.h"
#include "string.h"
#include "errno.h"
#include <asm/irqflags.h>
#include <asm/tls.h>
#include <asm/fpu.h>

int bprm_init(struct linux_binprm *bprm, const char *filename)
{
	memset(bprm, 0, sizeof(*bprm));
	bprm->filename = filename;
	bprm->strings = kmalloc(ARG_MAX);
	return bprm->strings ? 0 : -ENOMEM;
}

void bprm_free(struct linux_binprm *bprm)
{
	kfree(bprm->strings);
	bprm->strings = NULL;
}

/* Room for a string and its pointer: Linux counts both against the limit. */
static bool bprm_fits(struct linux_binprm *bprm, size_t len)
{
	size_t ptrs = (bprm->argc + bprm->envc + 1) * sizeof(long);

	return bprm->strings_len + len + ptrs <= ARG_MAX;
}

int bprm_add_string(struct linux_binprm *bprm, const char *s, bool env)
{
	size_t len = strlen(s) + 1;

	if (!bprm_fits(bprm, len))
		return -E2BIG;
	memcpy(bprm->strings + bprm->strings_len, s, len);
	bprm->strings_len += len;
	if (env)
		bprm->envc++;
	else
		bprm->argc++;
	return 0;
}

/* Linux's copy_strings(): a NULL-terminated array of user strings. */
static int copy_strings(struct linux_binprm *bprm, const char __user *const __user *argv,
			bool env)
{
	const char __user *p;
	long len;
	int i;

	for (i = 0; argv; i++) {
		if (copy_from_user(&p, &argv[i], sizeof(p)))
			return -EFAULT;
		if (!p)
			break;
		if (!bprm_fits(bprm, 1))
			return -E2BIG;
		len = strncpy_from_user(bprm->strings + bprm->strings_len, p,
					ARG_MAX - bprm->strings_len);
		if (len < 0)
			return len;
		if (!bprm_fits(bprm, len + 1))
			return -E2BIG;
		bprm->strings_len += len + 1;
		if (env)
			bprm->envc++;
		else
			bprm->argc++;
	}
	return 0;
}

static int load_locked(const unsigned char *data, size_t size, void *arg)
{
	struct linux_binprm *bprm = arg;

	bprm->image = data;
	bprm->size = size;
	return load_elf_binary(bprm);
}

_Static_assert(MM_EXE_PATH_MAX == PATH_MAX, "mm->exe_path holds any path");

/*
 * Linux's open_exec() and may_open(): a regular file with an x bit.  A
 * relative name starts at the working directory, a symbolic link is
 * followed (/proc/self/exe, busybox's way to run an applet); *path is
 * the file's own absolute path (kfree() it).
 */
static int open_exec(const char *name, struct inode **out, char **path)
{
	long err;
	int ret;

	*path = absolute_path_at(AT_FDCWD, name, &err);
	ret = *path ? follow_links(*path, true) : err;
	if (!ret)
		ret = ramfs_lookup(*path, out);
	if (ret)
		return ret;
	if (!S_ISREG((*out)->i_mode) || !((*out)->i_mode & S_IXUGO)) {
		iput(*out);
		return -EACCES;
	}
	return 0;
}

int exec_binprm(struct linux_binprm *bprm)
{
	struct inode *inode;
	char *path;
	int ret = open_exec(bprm->filename, &inode, &path);

	if (!ret) {
		/* The file's bytes cannot change while they are copied in. */
		ret = ramfs_with_data(inode, load_locked, bprm);
		if (ret)
			iput(inode);
	}
	if (!ret) {
		bprm->mm->exe_file = inode;	/* its reference now: mmput() puts it */
		/* what /proc/PID/exe names: the file's absolute path */
		strlcpy(bprm->mm->exe_path, path, sizeof(bprm->mm->exe_path));
	}
	kfree(path);
	return ret;
}

void begin_new_exec(struct linux_binprm *bprm, struct pt_regs *regs)
{
	struct mm_struct *old = current->mm;

	do_close_on_exec(current->files);
	flush_signal_handlers(current);	/* the old program's handlers are gone with it */
	tls_flush_thread(current);	/* and its TLS segments (Linux's flush_thread()) */
	fpu_flush_thread();		/* and its floating-point registers */
	uprobe_free_utask(current);	/* return probes into the old text */
	local_irq_disable();
	set_task_mm(current, bprm->mm);	/* a /proc reader holds the old one or the new */
	switch_mm(bprm->mm);
	local_irq_enable();
	mmput(old);			/* its pages, and its uprobes' bookkeeping */
	exec_mm_release(current);	/* a vfork() parent goes on */
	uprobe_mmap(bprm->mm);		/* the probes of its file */
	strlcpy(current->comm, kbasename(bprm->filename), sizeof(current->comm));
	start_thread(regs, bprm->entry, bprm->sp);
	bprm->mm = NULL;		/* current's now */
}

static int do_execve(const char *filename, const char __user *const __user *argv,
		     const char __user *const __user *envp)
{
	struct linux_binprm bprm;
	int ret = bprm_init(&bprm, filename);

	if (!ret)
		ret = copy_strings(&bprm, argv, false);
	/* Linux 5.18 on: no argv[0] gets an empty one, so argv[0] always exists. */
	if (!ret && bprm.argc == 0)
		ret = bprm_add_string(&bprm, "", false);
	if (!ret)
		ret = copy_strings(&bprm, envp, true);
	if (!ret)
		ret = exec_binprm(&bprm);
	if (!ret)
		begin_new_exec(&bprm, current_pt_regs());
	bprm_free(&bprm);
	return ret;
}

asmlinkage long sys_execve(const char __user *filename,
			   const char __user *const __user *argv,
			   const char __user *const __user *envp)
{
	char *path = kmalloc(PATH_MAX);
	long len, ret;

	if (!path)
		return -ENOMEM;
	len = strncpy_from_user(path, filename, PATH_MAX);
	if (len < 0)
		ret = len;
	else if (len == PATH_MAX)
		ret = -ENAMETOOLONG;
	else
		ret = do_execve(path, argv, envp);
	kfree(path);
	return ret;		/* 0: the new program sees it in %eax */
}
