/*
 * anon_mmap - anonymous memory: mmap() picks a place, pages come zeroed
 * on demand, munmap() takes some back, MAP_FIXED puts one where asked,
 * mprotect() takes the write permission away and gives it back, a fork
 * shares the pages copy-on-write; and each bad request gets Linux's
 * errno.  Prints "anon_mmap: N failures".  `anon_mmap -wprot` then
 * writes a page made read-only: SIGSEGV.
 */
#include "ulib.h"

#define PAGE_SIZE 4096

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("anon_mmap: FAIL %s\n", what);
		failures++;
	}
}

static void fork_keeps_copies_apart(char *p)
{
	int status;
	long pid;

	p[0] = 'P';
	pid = fork();
	if (pid == 0) {
		p[0] = 'C';
		exit(p[0] == 'C' ? 0 : 1);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0, "the child writes its copy");
	check(p[0] == 'P', "the parent keeps its page");
}

int main(int argc, char **argv)
{
	char *p = mmap(NULL, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	check(p != MAP_FAILED && ((unsigned long)p & (PAGE_SIZE - 1)) == 0, "mmap gives a page-aligned place");
	if (p == MAP_FAILED)
		return 1;
	check(p[0] == 0 && p[2 * PAGE_SIZE + 7] == 0, "new pages read zero");
	p[PAGE_SIZE] = 1;
	check(munmap(p + PAGE_SIZE, PAGE_SIZE) == 0, "munmap the middle page");
	check(mmap(p + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p + PAGE_SIZE, "MAP_FIXED maps it again");
	check(p[PAGE_SIZE] == 0, "mapped again: zero");
	check(mprotect(p, PAGE_SIZE, PROT_READ) == 0 && p[0] == 0, "read-only: still readable");
	check(mprotect(p, PAGE_SIZE, PROT_READ | PROT_WRITE) == 0, "writable again");
	p[0] = 5;
	check(p[0] == 5, "written after mprotect");
	fork_keeps_copies_apart(p + 2 * PAGE_SIZE);
	check(mmap2(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == -EINVAL, "len 0: EINVAL");
	check(mmap2(NULL, PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0) == -EINVAL, "MAP_SHARED: EINVAL");
	check(mmap2(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 3, 0) == -ENODEV, "a file: ENODEV");
	check(mmap2(p + 1, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == -EINVAL,
	      "an unaligned MAP_FIXED: EINVAL");
	check(mprotect(p + 8 * PAGE_SIZE, PAGE_SIZE, PROT_READ) == -ENOMEM, "mprotect of nothing: ENOMEM");
	check(munmap((void *)0x1000, PAGE_SIZE) == -EINVAL, "munmap of the kernel's: EINVAL");
	printf("anon_mmap: %d failures\n", failures);
	if (argc > 1 && strcmp(argv[1], "-wprot") == 0) {
		mprotect(p, PAGE_SIZE, PROT_READ);
		printf("anon_mmap: writing a read-only page\n");
		p[0] = 1;	/* SIGSEGV: the area forbids it */
	}
	return failures != 0;
}
