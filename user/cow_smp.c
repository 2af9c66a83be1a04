/*
 * cow_smp - parent and child write the same PAGES shared pages at the
 * same moment (both sleep to the same tick first), then check every
 * byte they wrote: on two CPUs both take the copy-on-write fault of a
 * page at once, and each must end with a copy of its own (one copies,
 * the other copies too or reuses the page).  Each side prints its
 * faults - exactly one per page - and the bytes it found wrong.
 */
#include "ulib.h"

#define PAGE_SIZE 4096
#define PAGES     64
#define ROUNDS    8

static char pages[PAGES][PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

/* Write mine into every page, ROUNDS times over; the bytes not mine after. */
static long write_and_check(char mine)
{
	long wrong = 0;

	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < PAGES; i++)
			pages[i][(r * 509 + i) % PAGE_SIZE] = mine;
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < PAGES; i++)
			wrong += pages[i][(r * 509 + i) % PAGE_SIZE] != mine;
	return wrong;
}

int main(void)
{
	long pid, before, faults, wrong;
	int status = 0;

	for (int i = 0; i < PAGES; i++)
		pages[i][0] = 'O';	/* present before the fork: shared after it */
	pid = fork();
	if (pid < 0)
		return 1;
	msleep(20);			/* both wake on the same tick */
	minor_faults();
	before = minor_faults();
	wrong = write_and_check(pid ? 'P' : 'C');
	faults = minor_faults() - before;
	printf("cow_smp: %s wrote %d shared pages, %ld faults, %ld wrong\n",
	       pid ? "parent" : "child", PAGES, faults, wrong);
	if (pid == 0)
		return wrong != 0;
	waitpid(pid, &status, 0);
	return wrong != 0 || status != 0;
}
