/*
 * traps_asm.h - the routines of traps_asm.S that raise one exception
 * each, on purpose, and the register values the frame tests load first.
 */
#ifndef TRAPS_ASM_H
#define TRAPS_ASM_H

/*
 * What raise_*_known_regs() put in the general registers before the
 * exception: every pt_regs slot of the frame has a value of its own, so
 * a frame one word off shows in every slot.
 */
#define KNOWN_EAX 0xa0000001
#define KNOWN_EBX 0xb0000002
#define KNOWN_ECX 0xc0000003
#define KNOWN_EDX 0xd0000004
#define KNOWN_ESI 0x51000005
#define KNOWN_EDI 0xd1000006

#ifndef __ASSEMBLER__

/* Each returns -1 when it faulted (its fixup ran), 0 when it did not. */
int raise_divide_error(void);
int raise_invalid_opcode(void);
int raise_breakpoint(void);
int raise_general_protection(void);
int raise_page_fault_read(const void *addr);
int raise_page_fault_write(void *addr);
unsigned long raise_single_step(void);
void raise_claimed_breakpoint(void);
extern char single_step_expected_ip[], claimed_breakpoint_next_ip[];

/*
 * int3, a #GP loading the selector past the GDT, and a #PF writing
 * known_regs_pf_target (read-only text), with the KNOWN_* registers.
 * The *_ip words hold where each frame's ip must point; the stack and
 * frame pointers at that instruction are saved in known_regs_sp/_bp.
 */
int raise_breakpoint_known_regs(void);
int raise_general_protection_known_regs(void);
int raise_page_fault_known_regs(void);
extern const unsigned long breakpoint_known_regs_ip,
	general_protection_known_regs_ip, page_fault_known_regs_ip;
extern char known_regs_pf_target[];
extern unsigned long known_regs_sp, known_regs_bp;

#endif
#endif
