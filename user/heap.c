/*
 * heap - brk(2) as Linux answers it: the heap's end moves up and down,
 * a refused move leaves it where it was, new heap pages read zero
 * (also after a shrink and a grow again), sbrk() on top.  Prints
 * "heap: N failures".  `heap -past` then touches the page past the
 * heap's end: no area is there, so it dies of SIGSEGV.
 */
#include "ulib.h"

#define PAGE_SIZE 4096
#define STACK_AREA 0xBFF00000ul		/* the stack's limit: no heap there */

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("heap: FAIL %s\n", what);
		failures++;
	}
}

int main(int argc, char **argv)
{
	unsigned long start = brk(0), end = start + 3 * PAGE_SIZE + 5;
	char *p = (char *)start;

	check(start != 0 && start % PAGE_SIZE == 0, "brk(0) is the page-aligned end of the segments");
	check(brk(start - 1) == start, "below the heap's start is refused");
	check(brk(end) == end, "grow by three pages and five bytes");
	check(p[0] == 0 && p[3 * PAGE_SIZE + 4] == 0, "new heap reads zero");
	p[0] = 1;
	p[3 * PAGE_SIZE + 4] = 2;
	check(brk(start + PAGE_SIZE) == start + PAGE_SIZE, "shrink to one page");
	check(p[0] == 1, "the page kept keeps its bytes");
	check(brk(end) == end && p[3 * PAGE_SIZE + 4] == 0, "grown again: zero again");
	check(brk(STACK_AREA) == end, "into the stack's area is refused");
	check(sbrk(PAGE_SIZE) == (void *)end && brk(0) == end + PAGE_SIZE, "sbrk grows");
	check(sbrk(0) == (void *)(end + PAGE_SIZE), "sbrk(0) asks");
	printf("heap: %d failures\n", failures);
	if (argc > 1 && strcmp(argv[1], "-past") == 0) {
		brk(start + PAGE_SIZE);
		printf("heap: touching past the end\n");
		p[PAGE_SIZE] = 1;	/* SIGSEGV: no area */
	}
	return failures != 0;
}
