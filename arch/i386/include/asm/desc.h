/*
 * desc.h - the shapes of GDT/IDT entries and the 32-bit TSS, and the
 * accessors tests use to read the IDT back.
 */
#ifndef DESC_H
#define DESC_H

#include <stdint.h>
#include "smp.h"
#include <asm/sysenter.h>

/* One 8-byte IDT gate. */
struct gate_desc {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t  zero;
	uint8_t  type_attr;   /* P | DPL(2) | 0 | type(4) */
	uint16_t offset_high;
} __attribute__((packed));

/* Gate types (SDM vol. 3, 6.11).  An interrupt gate clears IF on entry;
 * a trap gate leaves it as it was; a task gate switches to another TSS. */
#define GATE_TASK        0x5
#define GATE_INTERRUPT   0xE
#define GATE_TRAP        0xF
#define GATE_PRESENT     0x80
#define GATE_DPL(attr)   (((attr) >> 5) & 3)
#define GATE_DPL_USER    0x60   /* DPL 3: "int N" allowed from ring 3 */
#define GATE_TYPE(attr)  ((attr) & 0xF)

struct gate_desc *idt_entry(int vector);
unsigned long gate_offset(const struct gate_desc *g);
const char *gate_type_name(int type);
void set_task_gate(int vector, unsigned short tss_selector);

/* The 32-bit task-state segment (SDM vol. 3, 7.2.1). */
struct tss_struct {
	uint32_t prev_task, esp0, ss0, esp1, ss1, esp2, ss2;
	uint32_t cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint32_t es, cs, ss, ds, fs, gs, ldt;
	uint16_t trap, iomap_base;
} __attribute__((packed));

/*
 * Each CPU's own TSS (gdt.c): the task it always runs in.  The #DF task
 * switch saves the interrupted registers there.
 */
extern struct tss_struct cpu_tss[NR_CPUS];
#define this_cpu_tss()	(&cpu_tss[smp_processor_id()])

/*
 * Linux's load_sp0(): the stack this CPU switches to when a trap comes
 * from ring 3 - the top of the next task's kernel stack, set at every
 * context switch (a process may run on any CPU, each with its own TSS).
 */
static inline void load_sp0(unsigned long sp0)
{
	this_cpu_tss()->esp0 = sp0;
	sysenter_load_sp0(sp0);		/* ... and the one sysenter switches to */
}

/* The 6-byte operand of lgdt/lidt (and what sgdt/sidt store). */
struct desc_ptr {
	uint16_t size;		/* the table's length in bytes, minus 1 */
	uint32_t address;
} __attribute__((packed));

/* Where the CPU's GDT and IDT are, and the TSS selector it holds
 * (Linux's native_store_gdt(), store_idt(), store_tr()). */
static inline void store_gdt(struct desc_ptr *dtr)
{
	__asm__ __volatile__("sgdt %0" : "=m" (*dtr));
}

static inline void store_idt(struct desc_ptr *dtr)
{
	__asm__ __volatile__("sidt %0" : "=m" (*dtr));
}

static inline uint16_t store_tr(void)
{
	uint16_t tr;

	__asm__ __volatile__("str %0" : "=r" (tr));
	return tr;
}

/* desc_load.S: lgdt and reload every segment register; ltr; lidt. */
void gdt_load(struct desc_ptr *p, unsigned int code_sel, unsigned int data_sel);
void tss_load(unsigned int sel);
void idt_load(struct desc_ptr *p);

#endif
