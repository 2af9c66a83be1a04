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
#define GDT_ENTRIES           6

#define __KERNEL_CS   (GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS   (GDT_ENTRY_KERNEL_DS * 8)
#define __TSS_SEL     (GDT_ENTRY_TSS * 8)
#define __DF_TSS_SEL  (GDT_ENTRY_DOUBLEFAULT_TSS * 8)
#define __NOT_PRESENT_SEL (GDT_ENTRY_NOT_PRESENT * 8)

#ifndef __ASSEMBLER__
void gdt_init(void);
void idt_init(void);

/* The TSS descriptor for #DF is installed by the double-fault code. */
struct tss_struct;
void gdt_set_tss(int entry, struct tss_struct *tss);
#endif

#endif
