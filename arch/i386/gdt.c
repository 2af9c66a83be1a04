/*
 * gdt.c - the Global Descriptor Table, one per CPU.
 *
 * Paging does all our memory protection, so the segments are "flat":
 * base 0, limit 4 GiB, for both code and data, in ring 0 and in ring 3
 * (the user segments differ from the kernel's only in their DPL).  The
 * GDT still matters because every trap loads %cs from the IDT gate's
 * selector, and because the CPU needs a Task State Segment (TSS)
 * descriptor: the one it always runs in (cpu_tss[cpu]) and a second,
 * clean one for double faults.
 *
 * Entries 6..8 are the running process's own (tls.c): the third use of
 * segments here, after the flat ones and the TSS.
 *
 * Why one GDT per CPU (as Linux has its per-CPU gdt_page):
 *   - ltr marks the TSS descriptor "busy", and a busy TSS cannot be
 *     loaded again: two CPUs cannot share one TSS descriptor, and each
 *     needs a TSS of its own anyway (a #DF task switch saves the
 *     interrupted registers into it).
 *   - the per-CPU data segment: every CPU loads the SAME selector,
 *     __KERNEL_PERCPU, into %fs, but in each CPU's GDT that descriptor
 *     has a different base, __per_cpu_offset[cpu].  So %fs:var is this
 *     CPU's copy of var, and a saved %fs restored by iret on another
 *     CPU (a thread that moved) still means "this CPU" there.
 */
#include "kernel.h"
#include <asm/segment.h>
#include <asm/desc.h>
#include "string.h"
#include <asm/percpu.h>
#include "smp.h"
#include <asm/desc_defs.h>

struct seg_desc {
	uint16_t limit_low;
	uint16_t base_low;
	uint8_t  base_mid;
	uint8_t  access;
	uint8_t  limit_high_flags;   /* limit 19:16 | flags << 4 */
	uint8_t  base_high;
} __packed;

static struct seg_desc cpu_gdt[NR_CPUS][GDT_ENTRIES] __aligned(8);

struct tss_struct cpu_tss[NR_CPUS] __aligned(16);

static void set_seg(struct seg_desc *gdt, int i, uint32_t base, uint32_t limit,
		    uint8_t access, uint8_t flags)
{
	gdt[i].limit_low = limit & 0xFFFF;
	gdt[i].base_low = base & 0xFFFF;
	gdt[i].base_mid = (base >> 16) & 0xFF;
	gdt[i].access = access;
	gdt[i].limit_high_flags = ((limit >> 16) & 0xF) | (flags << 4);
	gdt[i].base_high = (base >> 24) & 0xFF;
}

static void set_tss_desc(struct seg_desc *gdt, int entry, struct tss_struct *tss)
{
	set_seg(gdt, entry, (uint32_t)tss, sizeof(*tss) - 1,
		SEG_PRESENT | SEG_DPL0 | SEG_TSS32_AVAIL, 0);
}

void gdt_set_tss(int entry, struct tss_struct *tss)
{
	set_tss_desc(cpu_gdt[smp_processor_id()], entry, tss);
}

/* A flat 4 GiB data segment whose addresses start at base. */
static void set_data_seg(struct seg_desc *gdt, int i, uint32_t base, uint8_t present)
{
	set_seg(gdt, i, base, SEG_LIMIT_4G,
		present | SEG_DPL0 | SEG_CODE_DATA | SEG_DATA_WRITE,
		SEG_GRAN_4K | SEG_SIZE_32);
}

/*
 * Ring 3's flat code and data segments: the same 4 GiB as the kernel's,
 * only DPL 3.  Segments do not keep user code out of the kernel: the
 * page tables do (kernel pages have U/S=0, include/mm_types.h).
 */
static void set_user_segs(struct seg_desc *gdt)
{
	set_seg(gdt, GDT_ENTRY_DEFAULT_USER_CS, 0, SEG_LIMIT_4G,
		SEG_PRESENT | SEG_DPL3 | SEG_CODE_DATA | SEG_CODE_READ,
		SEG_GRAN_4K | SEG_SIZE_32);
	set_seg(gdt, GDT_ENTRY_DEFAULT_USER_DS, 0, SEG_LIMIT_4G,
		SEG_PRESENT | SEG_DPL3 | SEG_CODE_DATA | SEG_DATA_WRITE,
		SEG_GRAN_4K | SEG_SIZE_32);
}

/*
 * Linux's write_gdt_entry(): one descriptor of CPU cpu's table, as
 * load_TLS() (tls.c) writes a task's three at every switch.
 */
void write_gdt_entry(int cpu, int entry, const struct desc_struct *desc)
{
	memcpy(&cpu_gdt[cpu][entry], desc, sizeof(cpu_gdt[cpu][entry]));
}

/* Fill CPU cpu's table; its per-CPU area must already exist. */
void setup_cpu_gdt(int cpu)
{
	struct seg_desc *gdt = cpu_gdt[cpu];
	struct tss_struct *tss = &cpu_tss[cpu];

	set_seg(gdt, GDT_ENTRY_NULL, 0, 0, 0, 0);
	set_seg(gdt, GDT_ENTRY_KERNEL_CS, 0, SEG_LIMIT_4G,
		SEG_PRESENT | SEG_DPL0 | SEG_CODE_DATA | SEG_CODE_READ,
		SEG_GRAN_4K | SEG_SIZE_32);
	set_data_seg(gdt, GDT_ENTRY_KERNEL_DS, 0, SEG_PRESENT);
	/* The same two where sysenter and sysexit need them (asm/segment.h). */
	set_seg(gdt, GDT_ENTRY_SYSENTER_CS, 0, SEG_LIMIT_4G,
		SEG_PRESENT | SEG_DPL0 | SEG_CODE_DATA | SEG_CODE_READ,
		SEG_GRAN_4K | SEG_SIZE_32);
	set_data_seg(gdt, GDT_ENTRY_SYSENTER_DS, 0, SEG_PRESENT);

	/*
	 * A writable data segment with the present bit clear: loading it
	 * into SS is a stack fault, into DS a segment-not-present fault.
	 * Nothing uses it; it is there to be loaded by mistake (crash=ss).
	 */
	set_data_seg(gdt, GDT_ENTRY_NOT_PRESENT, 0, 0);

	/* %fs: addresses are shifted by this CPU's per-CPU offset. */
	set_data_seg(gdt, GDT_ENTRY_PERCPU, __per_cpu_offset[cpu], SEG_PRESENT);
	set_user_segs(gdt);

	/*
	 * A trap from ring 3 switches to the stack ss0:esp0 names: the
	 * kernel stack of the task running on this CPU, which the
	 * scheduler writes at every switch (load_sp0(), arch/i386/include/asm/desc.h).
	 * A hardware task switch (our #DF task gate) saves the interrupted
	 * state here too.  An I/O map base past the limit means "no I/O
	 * bitmap": ring 3 may use no port.
	 */
	memset(tss, 0, sizeof(*tss));
	tss->ss0 = __KERNEL_DS;
	tss->iomap_base = sizeof(*tss);
	set_tss_desc(gdt, GDT_ENTRY_TSS, tss);
}

/* Run on CPU cpu itself: switch to its table, segments and TSS. */
void load_cpu_gdt(int cpu)
{
	struct desc_ptr gdtr;

	gdtr.size = sizeof(cpu_gdt[cpu]) - 1;
	gdtr.address = (uint32_t)cpu_gdt[cpu];
	gdt_load(&gdtr, __KERNEL_CS, __KERNEL_DS);
	load_percpu_segment();
	tss_load(__TSS_SEL);
}

void gdt_init(void)
{
	setup_cpu_gdt(0);
	load_cpu_gdt(0);
}
