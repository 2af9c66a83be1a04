/*
 * int3 - a breakpoint in ring 3: #BP, SIGTRAP.  kprobes must decline
 * it (user_mode(regs)): it is the process's, not a kernel probe.
 */
#include "ulib.h"

int main(void)
{
	printf("int3: a breakpoint nobody debugs\n");
	__asm__ __volatile__("int3");
	return 0;
}
