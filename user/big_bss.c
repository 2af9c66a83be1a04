/*
 * big_bss - a 4 MiB .bss, of which three pages are touched: exec maps
 * none of it, each first touch is one fault that maps a zeroed page
 * (demand-zero), and the rest never costs memory.
 */
#include "ulib.h"

#define PAGE_SIZE 4096
#define BIG       (4 << 20)

static char big[BIG];
static const long spots[] = { 0, BIG / 2 + 123, BIG - 1 };

int main(void)
{
	long before, i, nonzero = 0;

	minor_faults();
	before = minor_faults();
	for (i = 0; i < 3; i++) {
		nonzero += big[spots[i]] != 0;	/* the read maps it: zeroed */
		big[spots[i]] = 1;		/* the write needs no second fault */
	}
	printf("big_bss: %d KiB of .bss, 3 pages touched, %ld faults, %ld not zero\n",
	       BIG / 1024, minor_faults() - before, nonzero);
	return nonzero != 0;
}
