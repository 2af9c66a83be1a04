/*
 * test_exec.c - suite "exec": programs found by path and started by
 * execve (docs/exec.md).
 *
 * The ramfs at "/", the initramfs unpacked into it (odd sizes, a
 * truncated archive refused whole), execve of a good file and of every
 * kind of bad one (each with Linux's errno, the calling process alive
 * after it), the stack and auxiliary vector exec builds, and the file,
 * pipe and wait calls, run from ring 3 by user/fstest.c and
 * user/pipeline.c.  The kernel thread running a case is the parent of
 * the processes it starts.
 */
#include "ktest.h"
#include "process.h"
#include "binfmts.h"
#include <asm/processor.h>
#include "ramfs.h"
#include "initramfs.h"
#include "fs.h"		/* ramfs_get_link() */
#include "cpio.h"
#include "exec_elf.h"
#include "sched.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "uprobes.h"
#include <asm/vdso.h>

#define CPIO_BUF	(64 * 1024)	/* room for hello's ELF file and a few small ones */
#define FSTEST_CHECKS	58		/* the check() lines of user/fstest.c */

/* Run prog with up to two arguments; its wait status, or -errno if it never started. */
static int run(const char *prog, const char *arg1, const char *arg2)
{
	const char *argv[] = { prog, arg1, arg2 };
	int argc = arg1 ? (arg2 ? 3 : 2) : 1, err;
	struct task_struct *p = process_spawn(prog, argv, argc, &err);

	return p ? process_wait(p) : err;
}

/* The same, with the console's output kept for ktest_captured(). */
static int run_captured(const char *prog, const char *arg1, const char *arg2)
{
	int status;

	ktest_capture_start();
	status = run(prog, arg1, arg2);
	ktest_capture_stop();
	return status;
}

static bool captured(const char *text)
{
	return strstr(ktest_captured(), text) != NULL;
}

static int write_file(const char *path, const void *data, size_t size, unsigned int mode)
{
	struct inode *inode;
	long ret = ramfs_create(path, mode, false, &inode);

	if (ret)
		return ret;
	ret = ramfs_write(inode, data, size, 0);
	iput(inode);
	return ret < 0 ? ret : 0;
}

static void count_task(struct task_struct *t, void *arg)
{
	(*(int *)arg)++;
}

static int nr_tasks(void)
{
	int n = 0;

	for_each_task(count_task, &n);
	return n;
}

/* ---- execve ---------------------------------------------------------------- */

static void execve_by_path_keeps_the_pid(struct ktest *t)
{
	char line[64];
	const char *out;
	int pid;

	KTEST_EXPECT_EQ(t, run_captured("execve", "/bin/hello", "x"), W_EXITCODE(0, 0));
	out = strstr(ktest_captured(), "execve: pid ");
	KTEST_ASSERT_TRUE(t, out != NULL);
	pid = simple_strtol(out + strlen("execve: pid "), NULL, 10);
	snprintf(line, sizeof(line), "I am pid %d, running in ring 3", pid);
	KTEST_EXPECT_TRUE(t, captured(line));		/* the same process, another program */
	KTEST_EXPECT_TRUE(t, captured("argv[1] = \"x\""));
	KTEST_EXPECT_EQ(t, run("/bin/hello", NULL, NULL), W_EXITCODE(0, 0));
}

/* The end of hello's last PT_LOAD segment's bytes in the file. */
static size_t segments_end(const struct user_program *prog)
{
	const Elf32_Ehdr *h = (const void *)prog->elf;
	const Elf32_Phdr *ph = (const void *)(prog->elf + h->e_phoff);
	size_t end = 0;
	int i;

	for (i = 0; i < h->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	return end;
}

struct bad_file {
	const char *path;
	int err;
	const char *name;	/* what user/execve.c prints */
};

static const struct bad_file bad_files[] = {
	{ "/tmp/bad/none", -ENOENT, "ENOENT" },
	{ "/tmp/bad", -EACCES, "EACCES" },		/* a directory */
	{ "/tmp/bad/noexec", -EACCES, "EACCES" },	/* no x bit */
	{ "/tmp/bad/empty", -ENOEXEC, "ENOEXEC" },
	{ "/tmp/bad/magic", -ENOEXEC, "ENOEXEC" },
	{ "/tmp/bad/phdrs", -EIO, "EIO" },		/* program headers cut off */
	{ "/tmp/bad/segment", -EIO, "EIO" },		/* the last segment cut short */
	{ "/tmp/bad/none/x", -ENOENT, "ENOENT" },
	{ "/tmp/bad/magic/x", -ENOTDIR, "ENOTDIR" },
};

static void make_bad_files(struct ktest *t, const struct user_program *hello)
{
	const Elf32_Ehdr *h = (const void *)hello->elf;
	unsigned char *img = kmalloc(hello->size);

	KTEST_ASSERT_TRUE(t, img != NULL);
	ramfs_mkdir("/tmp/bad", 0755);
	memcpy(img, hello->elf, hello->size);
	KTEST_EXPECT_EQ(t, write_file("/tmp/bad/noexec", img, hello->size, 0644), 0);
	KTEST_EXPECT_EQ(t, write_file("/tmp/bad/empty", img, 0, 0755), 0);
	KTEST_EXPECT_EQ(t, write_file("/tmp/bad/phdrs", img, h->e_phoff + 8, 0755), 0);
	KTEST_EXPECT_EQ(t, write_file("/tmp/bad/segment", img, segments_end(hello) - 1, 0755), 0);
	img[0] = 'X';
	KTEST_EXPECT_EQ(t, write_file("/tmp/bad/magic", img, hello->size, 0755), 0);
	kfree(img);
}

static void bad_files_get_linux_errno(struct ktest *t)
{
	const struct user_program *hello = find_user_program("hello");
	unsigned long pages0;
	char want[96];
	size_t i;

	KTEST_ASSERT_TRUE(t, hello != NULL);
	make_bad_files(t, hello);
	pages0 = pages_free();
	for (i = 0; i < ARRAY_SIZE(bad_files); i++) {
		const struct bad_file *b = &bad_files[i];

		/* spawn: execve's errno, nothing started. */
		KTEST_EXPECT_EQ(t, run(b->path, NULL, NULL), b->err);
		/* execve from a process: the errno comes back and the process goes on. */
		KTEST_EXPECT_EQ(t, run_captured("execve", b->path, NULL), W_EXITCODE(127, 0));
		snprintf(want, sizeof(want), "execve %s: %s (", b->path, b->name);
		if (!captured(want))
			ktest_fail(t, __FILE__, __LINE__, "no \"%s\" in: %s", want, ktest_captured());
		KTEST_EXPECT_TRUE(t, captured("lives on"));
	}
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

static void arguments_past_arg_max_are_e2big(struct ktest *t)
{
	struct linux_binprm bprm;
	char arg[MAX_ARG_STRLEN];
	const char *argv[MAX_ARG_STRINGS + 1];
	int i, ret = 0, n = 0;

	KTEST_ASSERT_EQ(t, bprm_init(&bprm, "/bin/hello"), 0);
	memset(arg, 'a', sizeof(arg) - 1);
	arg[sizeof(arg) - 1] = '\0';
	while (!ret && n < (int)ARG_MAX) {
		ret = bprm_add_string(&bprm, arg, n % 2);
		n++;
	}
	KTEST_EXPECT_EQ(t, ret, -E2BIG);
	KTEST_EXPECT_TRUE(t, bprm.strings_len + (bprm.argc + bprm.envc) * sizeof(long) <= ARG_MAX);
	KTEST_EXPECT_EQ(t, n - 1, (int)(ARG_MAX / (sizeof(arg) + sizeof(long))));
	bprm_free(&bprm);
	for (i = 0; i <= MAX_ARG_STRINGS; i++)
		argv[i] = "x";
	KTEST_EXPECT_TRUE(t, process_spawn("hello", argv, MAX_ARG_STRINGS + 1, &ret) == NULL);
	KTEST_EXPECT_EQ(t, ret, -E2BIG);
}

/* "auxv TYPE VALUE" as user/auxv.c prints it, for the value wanted. */
static bool has_aux(unsigned long type, unsigned long val)
{
	char line[48];

	snprintf(line, sizeof(line), val ? "auxv %lu %#lx\n" : "auxv %lu 0\n", type, val);
	return captured(line);
}

static void auxv_matches_the_elf_file(struct ktest *t)
{
	const struct user_program *auxv = find_user_program("auxv");
	const Elf32_Ehdr *h;
	const Elf32_Phdr *ph;
	char random1[32] = "";
	const char *r;

	KTEST_ASSERT_TRUE(t, auxv != NULL);
	h = (const void *)auxv->elf;
	ph = (const void *)(auxv->elf + h->e_phoff);
	KTEST_EXPECT_EQ(t, run_captured("auxv", NULL, NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, has_aux(AT_PAGESZ, PAGE_SIZE));
	KTEST_EXPECT_TRUE(t, has_aux(AT_PHENT, sizeof(Elf32_Phdr)));
	KTEST_EXPECT_TRUE(t, has_aux(AT_PHNUM, h->e_phnum));
	KTEST_EXPECT_TRUE(t, has_aux(AT_ENTRY, h->e_entry));
	/* The first PT_LOAD starts at file offset 0, so the headers are loaded with it. */
	KTEST_EXPECT_EQ(t, ph[0].p_type, PT_LOAD);
	KTEST_EXPECT_TRUE(t, has_aux(AT_PHDR, ph[0].p_vaddr - ph[0].p_offset + h->e_phoff));
	KTEST_EXPECT_TRUE(t, has_aux(AT_BASE, 0));
	KTEST_EXPECT_TRUE(t, captured("execfn /bin/auxv\n"));
	KTEST_EXPECT_TRUE(t, captured("\nsp 0x"));
	/*
	 * Linux i386's order: ARCH_DLINFO first - AT_SYSINFO, the vDSO's
	 * __kernel_vsyscall, then AT_SYSINFO_EHDR, its ELF header - then
	 * AT_HWCAP (CPUID's features); AT_PLATFORM names the CPU.
	 */
	KTEST_EXPECT_TRUE(t, strncmp(strstr(ktest_captured(), "auxv "), "auxv 32 ", 8) == 0);
	KTEST_EXPECT_TRUE(t, has_aux(AT_SYSINFO, VDSO_VADDR + vdso_image()->sym___kernel_vsyscall));
	KTEST_EXPECT_TRUE(t, has_aux(AT_SYSINFO_EHDR, VDSO_VADDR));
	KTEST_EXPECT_TRUE(t, has_aux(AT_HWCAP, cpuid_features_edx()));
	KTEST_EXPECT_TRUE(t, captured("platform i686\n"));
	r = strstr(ktest_captured(), "random ");
	KTEST_ASSERT_TRUE(t, r != NULL);
	strlcpy(random1, r, sizeof(random1));
	/* AT_RANDOM's bytes are new at every exec. */
	KTEST_EXPECT_EQ(t, run_captured("auxv", NULL, NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, strncmp(strstr(ktest_captured(), "random "), random1,
				     strlen("random 0123456789abcdef")) != 0);
	/* execve passes the environment: user/execve.c gives HOME and TERM. */
	KTEST_EXPECT_EQ(t, run_captured("execve", "/bin/auxv", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("env HOME=/\nenv TERM=linux\n"));
}

/* The file offset of prog's function name (its symbol table), 0 if none. */
static unsigned long main_offset(const struct user_program *prog)
{
	struct load_info info = { .image = prog->elf, .len = prog->size };
	const Elf32_Sym *sym = elf_exec_func(&info, "main", 0);
	const Elf32_Ehdr *h = (const void *)prog->elf;
	const Elf32_Phdr *ph = (const void *)(prog->elf + h->e_phoff);
	unsigned int i;

	for (i = 0; sym && i < h->e_phnum; i++, ph++)
		if (ph->p_type == PT_LOAD && sym->st_value - ph->p_vaddr < ph->p_filesz)
			return sym->st_value - ph->p_vaddr + ph->p_offset;
	return 0;
}

static int uprobe_nop(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	return 0;
}

/*
 * exec drops the old image's probes with its address space and gives
 * the new image the probes of its program: a probe on each main is hit
 * once per image.  A copy of hello in another file is another program
 * (Linux's uprobes are on an inode): not hit.
 */
static void uprobes_follow_exec(struct ktest *t)
{
	const struct user_program *hello = find_user_program("hello");
	const struct user_program *execve = find_user_program("execve");
	static struct uprobe_consumer uh = { .handler = uprobe_nop };
	static struct uprobe_consumer ue = { .handler = uprobe_nop };
	unsigned long pages0 = pages_free();

	KTEST_ASSERT_TRUE(t, hello && execve && main_offset(hello) && main_offset(execve));
	KTEST_ASSERT_EQ(t, write_file("/tmp/hello3", hello->elf, hello->size, 0755), 0);
	uh.nhit = ue.nhit = 0;
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode("hello"), main_offset(hello), &uh, NULL), 0);
	KTEST_ASSERT_EQ(t, uprobe_register(ktest_program_inode("execve"), main_offset(execve), &ue, NULL), 0);
	KTEST_EXPECT_EQ(t, run("execve", "/bin/hello", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, ue.nhit, 1);
	KTEST_EXPECT_EQ(t, uh.nhit, 1);
	KTEST_EXPECT_EQ(t, run("execve", "/bin/execve", NULL), W_EXITCODE(2, 0));	/* its usage */
	KTEST_EXPECT_EQ(t, ue.nhit, 3);
	KTEST_EXPECT_EQ(t, run("execve", "/tmp/hello3", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, ue.nhit, 4);
	KTEST_EXPECT_EQ(t, uh.nhit, 1);
	uprobe_unregister(ktest_program_inode("hello"), main_offset(hello), &uh);
	uprobe_unregister(ktest_program_inode("execve"), main_offset(execve), &ue);
	KTEST_EXPECT_EQ(t, ramfs_unlink("/tmp/hello3"), 0);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

/* ---- files, pipes, wait4 from ring 3 --------------------------------------- */

static void fstest_from_ring3(struct ktest *t)
{
	int tasks0 = nr_tasks(), oks = 0;
	unsigned long pages0 = pages_free();
	const char *p;

	KTEST_EXPECT_EQ(t, run_captured("fstest", NULL, NULL), W_EXITCODE(0, 0));
	for (p = ktest_captured(); (p = strstr(p, "ok ")); p++)
		oks += p == ktest_captured() || p[-1] == '\n';
	KTEST_EXPECT_EQ(t, oks, FSTEST_CHECKS);
	if (!captured("fstest: 0 failed"))
		ktest_fail(t, __FILE__, __LINE__, "%s", ktest_captured());
	/* Every child it started was reaped: no zombie, no page left. */
	KTEST_EXPECT_EQ(t, nr_tasks(), tasks0);
	KTEST_EXPECT_EQ(t, pages_free(), pages0);
}

static void pipeline_between_two_processes(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, run_captured("pipeline", "hello", "wc"), W_EXITCODE(0, 0));
	/* hello's one line, as wc counts it on the pipe's far end: 1 line, 12 words. */
	KTEST_EXPECT_TRUE(t, captured("1 12 "));
	KTEST_EXPECT_FALSE(t, captured("Hello from user space"));	/* not on the console */
	KTEST_EXPECT_TRUE(t, captured("pipeline: hello exited 0"));
	KTEST_EXPECT_TRUE(t, captured("pipeline: wc exited 0"));
}

/* ---- the ramfs and the initramfs ------------------------------------------- */

static void ramfs_paths_and_files(struct ktest *t)
{
	struct inode *a, *b;
	char buf[8];

	KTEST_ASSERT_EQ(t, ramfs_lookup("/bin/../bin/./hello", &a), 0);
	KTEST_ASSERT_EQ(t, ramfs_lookup("//bin//hello", &b), 0);
	KTEST_EXPECT_TRUE(t, a == b && S_ISREG(a->i_mode) && (a->i_mode & S_IXUGO));
	iput(a);
	iput(b);
	KTEST_EXPECT_EQ(t, ramfs_lookup("/bin/hello/x", &a), -ENOTDIR);
	KTEST_EXPECT_EQ(t, ramfs_lookup("", &a), -ENOENT);
	KTEST_EXPECT_EQ(t, ramfs_mkdir("/tmp/rt", 0755), 0);
	KTEST_EXPECT_EQ(t, ramfs_mkdir("/", 0755), -EEXIST);
	KTEST_ASSERT_EQ(t, ramfs_create("/tmp/rt/f", 0644, true, &a), 0);
	KTEST_EXPECT_EQ(t, ramfs_create("/tmp/rt/f", 0644, true, &b), -EEXIST);
	KTEST_EXPECT_EQ(t, ramfs_write(a, "xy", 2, 4), 2);	/* a hole of 4 bytes */
	KTEST_EXPECT_EQ(t, ramfs_read(a, buf, sizeof(buf), 0), 6);
	KTEST_EXPECT_TRUE(t, memcmp(buf, "\0\0\0\0xy", 6) == 0);
	KTEST_EXPECT_EQ(t, ramfs_unlink("/tmp/rt"), -EISDIR);
	KTEST_EXPECT_EQ(t, ramfs_unlink("/tmp/rt/f"), 0);
	KTEST_EXPECT_EQ(t, ramfs_read(a, buf, 2, 4), 2);	/* open: its bytes stay */
	iput(a);
	KTEST_EXPECT_EQ(t, ramfs_lookup("/tmp/rt/f", &a), -ENOENT);
}

/* Append one newc entry to buf at *len. */
static void put_entry(char *buf, size_t *len, const char *name, unsigned int mode,
		      const void *data, size_t size)
{
	size_t namesize = strlen(name) + 1;

	*len += snprintf(buf + *len, CPIO_BUF - *len,
			 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
			 1, mode, 0, 0, 1, 0, (unsigned int)size, 0, 0, 0, 0,
			 (unsigned int)namesize, 0);
	memcpy(buf + *len, name, namesize);
	*len = ALIGN_UP(*len + namesize, CPIO_ALIGN);
	memcpy(buf + *len, data, size);
	*len = ALIGN_UP(*len + size, CPIO_ALIGN);
}

static void initramfs_with_odd_sizes(struct ktest *t)
{
	const struct user_program *hello = find_user_program("hello");
	char *buf = kzalloc(CPIO_BUF), got[16];
	struct initramfs_stats st;
	struct inode *inode;
	struct kstat kst;
	const char *why = NULL;
	size_t len = 0;

	KTEST_ASSERT_TRUE(t, buf != NULL && hello != NULL);
	put_entry(buf, &len, ".", S_IFDIR | 0755, "", 0);
	put_entry(buf, &len, "tmp/ird", S_IFDIR | 0755, "", 0);
	put_entry(buf, &len, "tmp/ird/a", S_IFREG | 0644, "1", 1);
	put_entry(buf, &len, "./tmp/ird/seven13", S_IFREG | 0644, "hello, world\n", 13);
	put_entry(buf, &len, "tmp/ird/link", S_IFLNK | 0777, "a", 1);
	put_entry(buf, &len, "tmp/ird/hello2", S_IFREG | 0755, hello->elf, hello->size);
	put_entry(buf, &len, CPIO_TRAILER, 0, "", 0);
	KTEST_ASSERT_EQ(t, unpack_to_rootfs((void *)buf, len, &st, &why), 0);
	KTEST_EXPECT_EQ(t, st.files, 3);
	KTEST_EXPECT_EQ(t, st.dirs, 1);
	KTEST_EXPECT_EQ(t, st.skipped, 0);
	KTEST_EXPECT_EQ(t, st.symlinks, 1);
	KTEST_ASSERT_EQ(t, ramfs_lookup("/tmp/ird/seven13", &inode), 0);
	KTEST_EXPECT_EQ(t, ramfs_read(inode, got, sizeof(got), 0), 13);
	KTEST_EXPECT_TRUE(t, memcmp(got, "hello, world\n", 13) == 0);
	iput(inode);
	KTEST_EXPECT_EQ(t, ramfs_get_link("/tmp/ird/link", got, sizeof(got)), 1);	/* Linux's do_symlink() */
	KTEST_EXPECT_STREQ(t, got, "a");
	/* The archive's mtime (0 here), not the time of unpacking: Linux's do_utime(). */
	KTEST_ASSERT_EQ(t, ramfs_lookup("/tmp/ird/a", &inode), 0);
	ramfs_getattr(inode, &kst);
	KTEST_EXPECT_EQ(t, kst.mtime, 0);
	iput(inode);
	KTEST_ASSERT_EQ(t, ramfs_lookup("/tmp/ird", &inode), 0);
	ramfs_getattr(inode, &kst);
	KTEST_EXPECT_EQ(t, kst.mtime, 0);	/* set after its files were made */
	iput(inode);
	/* A program from the archive runs: a copy, not the built-in image. */
	KTEST_EXPECT_EQ(t, run_captured("/tmp/ird/hello2", "z", NULL), W_EXITCODE(0, 0));
	KTEST_EXPECT_TRUE(t, captured("argv[1] = \"z\""));
	kfree(buf);
}

static void truncated_initramfs_changes_nothing(struct ktest *t)
{
	char *buf = kzalloc(CPIO_BUF);
	struct initramfs_stats st;
	struct heap_stats h0, h1;
	struct inode *inode;
	const char *why = NULL;
	size_t len = 0, cut;

	KTEST_ASSERT_TRUE(t, buf != NULL);
	put_entry(buf, &len, "tmp/trunc", S_IFDIR | 0755, "", 0);
	put_entry(buf, &len, "tmp/trunc/x", S_IFREG | 0644, "0123456789", 10);
	cut = len - 3;				/* inside x's data */
	put_entry(buf, &len, CPIO_TRAILER, 0, "", 0);
	heap_get_stats(&h0);
	KTEST_EXPECT_EQ(t, unpack_to_rootfs((void *)buf, cut, &st, &why), -EINVAL);
	KTEST_EXPECT_TRUE(t, why && strstr(why, "truncated") != NULL);
	/* No trailer: an archive cut between two entries is refused too. */
	KTEST_EXPECT_EQ(t, unpack_to_rootfs((void *)buf, len - CPIO_HEADER_LEN - 12, &st, &why),
			-EINVAL);
	heap_get_stats(&h1);
	KTEST_EXPECT_EQ(t, ramfs_lookup("/tmp/trunc", &inode), -ENOENT);
	KTEST_EXPECT_EQ(t, h1.live_allocs, h0.live_allocs);
	kfree(buf);
}

static struct ktest_case exec_cases[] = {
	KTEST_CASE(execve_by_path_keeps_the_pid),
	KTEST_CASE(bad_files_get_linux_errno),
	KTEST_CASE(arguments_past_arg_max_are_e2big),
	KTEST_CASE(uprobes_follow_exec),
	KTEST_CASE(auxv_matches_the_elf_file),
	KTEST_CASE(fstest_from_ring3),
	KTEST_CASE(pipeline_between_two_processes),
	KTEST_CASE(ramfs_paths_and_files),
	KTEST_CASE(initramfs_with_odd_sizes),
	KTEST_CASE(truncated_initramfs_changes_nothing),
	KTEST_END
};

static struct ktest_suite exec_suite = {
	.name = "exec",
	.cases = exec_cases,
};
KTEST_SUITE(exec_suite);
