/*
 * proc.c - /proc/cpuinfo (Linux's arch/x86/kernel/cpu/proc.c): a
 * paragraph per online CPU, Linux's x86 field names, each value from
 * CPUID as that CPU answers it (an IPI runs the instruction there).
 *
 * Linux reads CPUID once per CPU at boot into struct cpuinfo_x86; here
 * it is read when the file is opened.  Fields Linux measures (cpu MHz,
 * bogomips), takes from other leaves (microcode, cache size) or works
 * out (bugs) are left out; the flags are those of leaf 1 and of leaf
 * 0x80000001's EDX as the CPU gives them (Linux adds its own, "cpuid",
 * and clears some it distrusts).
 */
#include "kernel.h"
#include "proc_fs.h"
#include "smp.h"
#include "string.h"
#include "vsprintf.h"
#include <asm/processor.h>

#define CPUID_VENDOR		0x00000000
#define CPUID_FEATURES		0x00000001
#define CPUID_EXT_MAX		0x80000000
#define CPUID_EXT_FEATURES	0x80000001
#define CPUID_BRAND_FIRST	0x80000002	/* the model name: three leaves of 16 bytes */
#define CPUID_BRAND_LEAVES	3
#define CPUID_BRAND_LEN		48
#define CPUID_ADDR_SIZES	0x80000008	/* physical and virtual address bits */
#define X86_FEATURE_FPU		(1U << 0)	/* leaf 1 EDX */
#define X86_FEATURE_PAE		(1U << 6)
#define X86_FEATURE_CLFLUSH	(1U << 19)
#define CLFLUSH_DEFAULT		32	/* Linux's i386 line size when CPUID gives none */
#define PHYS_BITS_PAE		36	/* Linux's guess without leaf 0x80000008 */
#define PHYS_BITS		32
#define VIRT_BITS		32

struct cpuid_regs {
	uint32_t a, b, c, d;
};

/* What one CPU says of itself (cpuid_collect() runs on it). */
struct cpuinfo_x86 {
	struct cpuid_regs vendor, features, ext_features, addr_sizes;
	uint32_t ext_max;
	char model_id[CPUID_BRAND_LEN + 1];
};

static void cpuid_regs(uint32_t op, struct cpuid_regs *r)
{
	cpuid(op, &r->a, &r->b, &r->c, &r->d);
}

static void cpuid_collect(void *arg)
{
	struct cpuinfo_x86 *c = arg;
	struct cpuid_regs r;

	cpuid_regs(CPUID_VENDOR, &c->vendor);
	cpuid_regs(CPUID_FEATURES, &c->features);
	cpuid_regs(CPUID_EXT_MAX, &r);
	c->ext_max = r.a;
	if (c->ext_max >= CPUID_EXT_FEATURES)
		cpuid_regs(CPUID_EXT_FEATURES, &c->ext_features);
	if (c->ext_max >= CPUID_ADDR_SIZES)
		cpuid_regs(CPUID_ADDR_SIZES, &c->addr_sizes);
	for (int i = 0; i < CPUID_BRAND_LEAVES && c->ext_max >= CPUID_BRAND_FIRST + i; i++) {
		cpuid_regs(CPUID_BRAND_FIRST + i, &r);
		memcpy(c->model_id + 16 * i, &r, sizeof(r));
	}
}

/* Linux's names of the feature bits (arch/x86/include/asm/cpufeatures.h), "" none. */
static const char *const x86_cap_edx[32] = {
	"fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", "", "sep",
	"mtrr", "pge", "mca", "cmov", "pat", "pse36", "pn", "clflush", "", "dts", "acpi",
	"mmx", "fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe",
};
static const char *const x86_cap_ecx[32] = {
	"pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est", "tm2",
	"ssse3", "cid", "sdbg", "fma", "cx16", "xtpr", "pdcm", "", "pcid", "dca", "sse4_1",
	"sse4_2", "x2apic", "movbe", "popcnt", "tsc_deadline_timer", "aes", "xsave", "",
	"avx", "f16c", "rdrand", "hypervisor",
};
static const char *const x86_cap_ext_edx[32] = {
	[11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
	[26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow",
};

static void cpuinfo_show_flags(struct seq_buf *s, uint32_t bits, const char *const names[32])
{
	for (int i = 0; i < 32; i++)
		if ((bits & (1U << i)) && names[i] && names[i][0])
			seq_buf_printf(s, " %s", names[i]);
}

/* Family, model and stepping from leaf 1's EAX, extended fields added as Linux does. */
static void show_signature(struct seq_buf *s, uint32_t sig)
{
	unsigned int family = (sig >> 8) & 0xf, model = (sig >> 4) & 0xf;

	if (family == 0xf)
		family += (sig >> 20) & 0xff;
	if (family >= 6)
		model += ((sig >> 16) & 0xf) << 4;
	seq_buf_printf(s, "cpu family\t: %u\nmodel\t\t: %u\n", family, model);
}

/* Linux's x86_clflush_size, which is also its cache_alignment. */
static unsigned int clflush_size(const struct cpuinfo_x86 *c)
{
	if (!(c->features.d & X86_FEATURE_CLFLUSH))
		return CLFLUSH_DEFAULT;
	return ((c->features.b >> 8) & 0xff) * 8;
}

static void show_address_sizes(struct seq_buf *s, const struct cpuinfo_x86 *c)
{
	unsigned int phys = c->features.d & X86_FEATURE_PAE ? PHYS_BITS_PAE : PHYS_BITS;
	unsigned int virt = VIRT_BITS;

	if (c->ext_max >= CPUID_ADDR_SIZES) {
		phys = c->addr_sizes.a & 0xff;
		virt = (c->addr_sizes.a >> 8) & 0xff;
	}
	seq_buf_printf(s, "address sizes\t: %u bits physical, %u bits virtual\n", phys, virt);
}

static void show_cpu(struct seq_buf *s, int cpu, const struct cpuinfo_x86 *c)
{
	bool fpu = c->features.d & X86_FEATURE_FPU;
	char vendor[13];

	memcpy(vendor, &c->vendor.b, 4);
	memcpy(vendor + 4, &c->vendor.d, 4);
	memcpy(vendor + 8, &c->vendor.c, 4);
	vendor[12] = '\0';
	seq_buf_printf(s, "processor\t: %d\nvendor_id\t: %s\n", cpu, vendor);
	show_signature(s, c->features.a);
	seq_buf_printf(s, "model name\t: %s\nstepping\t: %u\n",
		       c->model_id[0] ? c->model_id : "unknown", c->features.a & 0xf);
	seq_buf_printf(s, "physical id\t: %d\nsiblings\t: %u\ncore id\t\t: 0\ncpu cores\t: 1\n"
		       "apicid\t\t: %d\ninitial apicid\t: %u\n", cpu, num_online_cpus(),
		       cpu_apic_id[cpu], c->features.b >> 24);
	/* i386's three old errata: no CPU QEMU models has them (Linux's show_cpuinfo_misc()). */
	seq_buf_printf(s, "fdiv_bug\t: no\nf00f_bug\t: no\ncoma_bug\t: no\n");
	seq_buf_printf(s, "fpu\t\t: %s\nfpu_exception\t: %s\ncpuid level\t: %u\nwp\t\t: yes\nflags\t\t:",
		       fpu ? "yes" : "no", fpu ? "yes" : "no", c->vendor.a);
	cpuinfo_show_flags(s, c->features.d, x86_cap_edx);
	cpuinfo_show_flags(s, c->features.c, x86_cap_ecx);
	cpuinfo_show_flags(s, c->ext_features.d, x86_cap_ext_edx);
	seq_buf_printf(s, "\nclflush size\t: %u\ncache_alignment\t: %u\n", clflush_size(c),
		       clflush_size(c));
	show_address_sizes(s, c);
	seq_buf_puts(s, "power management:\n\n");
}

int show_cpuinfo(struct seq_buf *s, void *data)
{
	struct cpuinfo_x86 c;
	int cpu;

	for_each_online_cpu(cpu) {
		memset(&c, 0, sizeof(c));
		if (smp_call_function_single(cpu, cpuid_collect, &c, 1))
			continue;
		show_cpu(s, cpu, &c);
	}
	return 0;
}
