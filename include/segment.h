/*
 * segment.h - GDT layout and the selectors that index it.
 * A selector is (index << 3) | table-indicator | requested privilege.
 */
#ifndef SEGMENT_H
#define SEGMENT_H

#define GDT_ENTRY_NULL        0
#define GDT_ENTRY_KERNEL_CS   1
#define GDT_ENTRY_KERNEL_DS   2
#define GDT_ENTRY_TSS         3   /* the task we always run in */
#define GDT_ENTRY_DOUBLEFAULT_TSS 4   /* a clean task for #DF */
#define GDT_ENTRY_NOT_PRESENT 5   /* a data segment marked not present (crash=ss) */
#define GDT_ENTRY_PERCPU      6   /* data segment based at this CPU's per-CPU area */
#define GDT_ENTRIES           7

#define __KERNEL_CS   (GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS   (GDT_ENTRY_KERNEL_DS * 8)
#define __TSS_SEL     (GDT_ENTRY_TSS * 8)
#define __DF_TSS_SEL  (GDT_ENTRY_DOUBLEFAULT_TSS * 8)
#define __NOT_PRESENT_SEL (GDT_ENTRY_NOT_PRESENT * 8)
#define __KERNEL_PERCPU (GDT_ENTRY_PERCPU * 8)   /* what %fs always holds */

/* Access byte bits (SDM vol. 3, 3.4.5) */
#define SEG_PRESENT     0x80
#define SEG_DPL0        0x00
#define SEG_CODE_DATA   0x10   /* S=1: code or data, not a system segment */
#define SEG_CODE_READ   0x0A   /* execute/read */
#define SEG_DATA_WRITE  0x02   /* read/write */
#define SEG_TSS32_AVAIL 0x09   /* system segment: available 32-bit TSS */

/* Flags nibble */
#define SEG_GRAN_4K     0x8    /* limit counts 4 KiB pages */
#define SEG_SIZE_32     0x4    /* 32-bit default operand size */
#define SEG_LIMIT_4G    0xFFFFF   /* in 4 KiB pages: the whole 4 GiB */

#ifndef __ASSEMBLER__
void gdt_init(void);
void idt_init(void);
void load_current_idt(void);

/*
 * Each CPU has its own GDT (the same layout, its own TSS, #DF TSS and
 * per-CPU segment base).  smpboot.c sets up an AP's table before it
 * starts the AP; the AP loads it itself.
 */
void setup_cpu_gdt(int cpu);
void load_cpu_gdt(int cpu);

/* The TSS descriptor for #DF is installed by the double-fault code. */
struct tss_struct;
void gdt_set_tss(int entry, struct tss_struct *tss);	/* this CPU's GDT */
#endif

#endif
