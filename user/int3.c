/*
 * int3 - a breakpoint in ring 3: #BP, SIGTRAP.  kprobes must decline
 * it (user_mode(regs)): it is the process's, not a kernel probe.
 * "int3 -long" uses the two-byte form, int $3 (cd 03): the byte before
 * the trap's ip is then 03, not cc - which kprobes, taking it for a
 * probe just removed by another CPU, would "rewind" over.
 */
#include "ulib.h"

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-long") == 0) {
		printf("int3: int $3, the long form\n");
		__asm__ __volatile__(".byte 0xcd, 0x03");
	} else {
		printf("int3: a breakpoint nobody debugs\n");
		__asm__ __volatile__("int3");
	}
	return 0;
}
