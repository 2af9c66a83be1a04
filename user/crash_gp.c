/*
 * crash_gp - cli in ring 3: with IOPL 0 only the kernel may turn
 * interrupts off, so the CPU raises #GP (error code 0); Linux sends
 * SIGSEGV.
 */
#include "ulib.h"

int main(void)
{
	printf("crash_gp: cli in ring 3\n");
	__asm__ __volatile__("cli");
	return 0;
}
