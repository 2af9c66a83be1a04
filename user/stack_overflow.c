/*
 * stack_overflow - recurse until the stack runs out: the page below it
 * is never mapped, so the next push is a #PF there (the report says
 * "stack guard page"), SIGSEGV.  noinline: gcc would otherwise inline
 * a few levels into one 4 KiB frame whose first store lands past the
 * guard page ("stack clash": why Linux keeps a 1 MiB gap below stacks).
 */
#include "ulib.h"

/* Without end on purpose: gcc sees that too (-Winfinite-recursion). */
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static __attribute__((noinline)) int depth(int n)
{
	volatile char frame[512];

	frame[0] = n;
	return depth(n + 1) + frame[0];
}

int main(void)
{
	printf("stack_overflow: recursing\n");
	return depth(0);
}
