/*
 * stack_grow - recurse 64 frames of 4 KiB each: 256 KiB of stack, far
 * past the 32 KiB area exec gives.  Each new page below is a fault that
 * grows the stack's area down and maps a zeroed page, up to the stack's
 * limit (1 MiB); below that limit is the guard gap (stack_overflow).
 */
#include "ulib.h"

#define PAGE_SIZE 4096
#define FRAMES    64

static __attribute__((noinline)) long dig(int n)
{
	volatile char frame[PAGE_SIZE];

	frame[0] = n;
	frame[PAGE_SIZE - 1] = n;
	if (n == 0)
		return 0;
	return dig(n - 1) + frame[0] + frame[PAGE_SIZE - 1];
}

int main(void)
{
	long before, sum, want = (long)FRAMES * (FRAMES + 1);

	minor_faults();
	before = minor_faults();
	sum = dig(FRAMES);
	printf("stack_grow: %d frames of 4 KiB, sum %s, %ld faults\n", FRAMES,
	       sum == want ? "ok" : "WRONG", minor_faults() - before);
	return sum != want;
}
