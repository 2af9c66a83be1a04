/* hw_breakpoint_asm.h - hw_breakpoint_asm.S: accesses whose next ip is known. */
#ifndef HW_BREAKPOINT_ASM_H
#define HW_BREAKPOINT_ASM_H

void hwbp_write8(void *addr, unsigned long val);
void hwbp_write16(void *addr, unsigned long val);
void hwbp_write32(void *addr, unsigned long val);
unsigned long hwbp_read32(const void *addr, unsigned long unused);
extern char hwbp_write8_after[], hwbp_write16_after[], hwbp_write32_after[];
extern char hwbp_read32_after[];

/* movl %eax, hwbp_shared_var at hwbp_store_shared_insn. */
extern volatile unsigned long hwbp_shared_var;
void hwbp_store_shared(unsigned long val);
extern char hwbp_store_shared_insn[];

#endif
