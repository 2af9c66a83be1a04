/*
 * gdt.c - the Global Descriptor Table.
 *
 * Paging does all our memory protection, so the segments are "flat":
 * base 0, limit 4 GiB, for both code and data.  The GDT still matters
 * because every trap loads %cs from the IDT gate's selector, and because
 * the CPU needs a Task State Segment (TSS) descriptor: the one we always
 * run in (main_tss) and a second, clean one for double faults.
 */
#include "kernel.h"
#include "segment.h"
#include "desc.h"
#include "string.h"

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

struct seg_desc {
	uint16_t limit_low;
	uint16_t base_low;
	uint8_t  base_mid;
	uint8_t  access;
	uint8_t  limit_high_flags;   /* limit 19:16 | flags << 4 */
	uint8_t  base_high;
} __packed;

static struct seg_desc gdt[GDT_ENTRIES] __aligned(8);

struct tss_struct main_tss __aligned(16);

static void set_seg(int i, uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
	gdt[i].limit_low = limit & 0xFFFF;
	gdt[i].base_low = base & 0xFFFF;
	gdt[i].base_mid = (base >> 16) & 0xFF;
	gdt[i].access = access;
	gdt[i].limit_high_flags = ((limit >> 16) & 0xF) | (flags << 4);
	gdt[i].base_high = (base >> 24) & 0xFF;
}

void gdt_set_tss(int entry, struct tss_struct *tss)
{
	set_seg(entry, (uint32_t)tss, sizeof(*tss) - 1,
		SEG_PRESENT | SEG_DPL0 | SEG_TSS32_AVAIL, 0);
}

void gdt_init(void)
{
	static struct desc_ptr gdtr;

	set_seg(GDT_ENTRY_NULL, 0, 0, 0, 0);
	set_seg(GDT_ENTRY_KERNEL_CS, 0, 0xFFFFF,
		SEG_PRESENT | SEG_DPL0 | SEG_CODE_DATA | SEG_CODE_READ,
		SEG_GRAN_4K | SEG_SIZE_32);
	set_seg(GDT_ENTRY_KERNEL_DS, 0, 0xFFFFF,
		SEG_PRESENT | SEG_DPL0 | SEG_CODE_DATA | SEG_DATA_WRITE,
		SEG_GRAN_4K | SEG_SIZE_32);

	/*
	 * A writable data segment with the present bit clear: loading it
	 * into SS is a stack fault, into DS a segment-not-present fault.
	 * Nothing uses it; it is there to be loaded by mistake (crash=ss).
	 */
	set_seg(GDT_ENTRY_NOT_PRESENT, 0, 0xFFFFF,
		SEG_DPL0 | SEG_CODE_DATA | SEG_DATA_WRITE, SEG_GRAN_4K | SEG_SIZE_32);

	/*
	 * We never leave ring 0, so the CPU never reads esp0/ss0.  The TSS
	 * is still needed: a hardware task switch (our #DF task gate) saves
	 * the interrupted state into whatever TSS the task register names.
	 * An I/O map base past the limit means "no I/O bitmap".
	 */
	memset(&main_tss, 0, sizeof(main_tss));
	main_tss.ss0 = __KERNEL_DS;
	main_tss.iomap_base = sizeof(main_tss);
	gdt_set_tss(GDT_ENTRY_TSS, &main_tss);

	gdtr.size = sizeof(gdt) - 1;
	gdtr.address = (uint32_t)gdt;
	gdt_load(&gdtr, __KERNEL_CS, __KERNEL_DS);
	tss_load(__TSS_SEL);
}
