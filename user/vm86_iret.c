/*
 * vm86_iret - iret from ring 3 with EFLAGS.VM set in the popped flags.
 *
 * The SDM says iret enters virtual-8086 mode only from CPL 0 and leaves
 * VM alone elsewhere; QEMU's emulated CPU enters vm86 from ring 3 too.
 * Then the process runs real-mode code at CS * 16 + IP - a kernel page,
 * as every linear address below 1 MiB + 64 KiB is - and the next trap
 * arrives with a vm86 frame: a cs whose low bits look like ring 0, and
 * the real-mode segments above ss.  The kernel must see that frame as
 * the process's (user_mode() tests EFLAGS.VM, as Linux's does) and end
 * the process with SIGSEGV: no kernel oops, and no iret back into vm86.
 */
#include "ulib.h"
#include <asm/processor.h>

/* Real-mode values, each its own, so the kill report can be checked. */
#define VM86_CS	0x1000		/* RPL bits 0: "ring 0" to a test of cs alone */
#define VM86_IP	0x0000		/* linear 0x10000: a kernel page */
#define VM86_SS	0x6000
#define VM86_SP	0xfffe
#define VM86_ES	0x3000
#define VM86_DS	0x2000
#define VM86_FS	0x4000
#define VM86_GS	0x5000

int main(void)
{
	printf("vm86_iret: iret to virtual-8086 mode\n");
	/* A vm86 iret pops eip, cs, eflags, esp, ss, es, ds, fs, gs (SDM vol. 2, IRET). */
	__asm__ __volatile__(
		"pushl %[gs]\n\t"
		"pushl %[fs]\n\t"
		"pushl %[ds]\n\t"
		"pushl %[es]\n\t"
		"pushl %[ss]\n\t"
		"pushl %[sp]\n\t"
		"pushl %[flags]\n\t"
		"pushl %[cs]\n\t"
		"pushl %[ip]\n\t"
		"iret"
		: : [gs] "i"(VM86_GS), [fs] "i"(VM86_FS), [ds] "i"(VM86_DS),
		    [es] "i"(VM86_ES), [ss] "i"(VM86_SS), [sp] "i"(VM86_SP),
		    [flags] "i"(X86_EFLAGS_VM | X86_EFLAGS_IF | X86_EFLAGS_FIXED),
		    [cs] "i"(VM86_CS), [ip] "i"(VM86_IP)
		: "memory");
	printf("vm86_iret: still in protected mode (iret ignored VM)\n");
	return 0;
}
