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
/*
 * 6, 7, 8: the running process's three thread-local storage segments,
 * where Linux i386 has them.  set_thread_area() fills a task's copy,
 * every context switch writes the next task's copy here (load_TLS(),
 * arch/i386/tls.c), and glibc points %gs at one: %gs:0 is its thread.
 */
#define GDT_ENTRY_TLS_MIN     6
#define GDT_ENTRY_TLS_ENTRIES 3
#define GDT_ENTRY_TLS_MAX     (GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)
#define GDT_ENTRY_PERCPU      9   /* data segment based at this CPU's per-CPU area */
/*
 * 12, 13: flat ring-0 code and data, copies of 1 and 2, for sysenter
 * and sysexit, which take their selectors from one MSR: sysenter loads
 * %cs = IA32_SYSENTER_CS and %ss = it + 8; sysexit %cs = it + 16 and
 * %ss = it + 24, RPL 3.  So the kernel's pair must sit right below
 * ring 3's - Linux's kernel segments are 12 and 13 for that reason.
 * This kernel's are 1 and 2; the sysenter entry runs on these copies
 * only until its first instruction (arch/i386/entry.S).
 */
#define GDT_ENTRY_SYSENTER_CS 12
#define GDT_ENTRY_SYSENTER_DS 13
/* Ring 3's flat segments where Linux i386 has them: %cs 0x73, the rest 0x7b. */
#define GDT_ENTRY_DEFAULT_USER_CS 14  /* ring 3's flat code segment (DPL 3) */
#define GDT_ENTRY_DEFAULT_USER_DS 15  /* ring 3's flat data and stack segment */
#define GDT_ENTRIES           16

#define __KERNEL_CS   (GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS   (GDT_ENTRY_KERNEL_DS * 8)
#define __TSS_SEL     (GDT_ENTRY_TSS * 8)
#define __DF_TSS_SEL  (GDT_ENTRY_DOUBLEFAULT_TSS * 8)
#define __NOT_PRESENT_SEL (GDT_ENTRY_NOT_PRESENT * 8)
#define __KERNEL_PERCPU (GDT_ENTRY_PERCPU * 8)   /* what %fs holds in the kernel */
#define __SYSENTER_CS (GDT_ENTRY_SYSENTER_CS * 8) /* IA32_SYSENTER_CS */
/*
 * A user selector requests privilege 3 (RPL, the low two bits): ring 3
 * may only load a segment whose DPL is 3, and iret to a %cs with RPL 3
 * is what drops the CPU into ring 3.  Linux's names.
 */
#define USER_RPL      3
#define __USER_CS     (GDT_ENTRY_DEFAULT_USER_CS * 8 + USER_RPL)
#define __USER_DS     (GDT_ENTRY_DEFAULT_USER_DS * 8 + USER_RPL)
#define SEGMENT_RPL_MASK 3

/* Access byte bits (SDM vol. 3, 3.4.5) */
#define SEG_PRESENT     0x80
#define SEG_DPL0        0x00
#define SEG_DPL3        0x60   /* descriptor privilege level 3: ring 3 may use it */
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
struct desc_struct;
void write_gdt_entry(int cpu, int entry, const struct desc_struct *desc);

/* The selector in a segment register now (Linux's savesegment()):
 * savesegment(ds, sel).  The register is named in the instruction. */
#define savesegment(seg, value) \
	__asm__ __volatile__("mov %%" #seg ", %0" : "=r" (value) : : "memory")
#endif

#endif
