/*
 * mpparse.c - the MultiProcessor Specification table (Intel, 1997), and
 * the search for a firmware table that both it and ACPI use.
 *
 * The MP spec's entry point is a 16-byte "floating pointer structure"
 * with the signature "_MP_", on a 16-byte boundary in one of three
 * places: the first KiB of the Extended BIOS Data Area, the last KiB of
 * base memory, or the BIOS ROM at 0xE0000-0xFFFFF.  It points to the
 * configuration table ("PCMP"): a header, then entries of several
 * types, of which we read the processor entries (one per CPU, with its
 * local APIC id and an "enabled" flag).  xv6's mp.c is the small model.
 */
#include "kernel.h"
#include <asm/mpspec.h>
#include "string.h"
#include "errno.h"

/* The BIOS Data Area (real-mode segment 0x40) and the ROM. */
#define BDA_EBDA_SEGMENT	0x40E	/* u16: the EBDA's segment */
#define BDA_BASE_MEM_KB		0x413	/* u16: base memory in KiB */
#define BIOS_ROM_START		0xE0000ul
#define BIOS_ROM_END		0x100000ul
#define SCAN_WINDOW		1024	/* bytes searched in the EBDA, base memory */
#define SCAN_STEP		16	/* entry points sit on 16-byte boundaries */
#define REAL_MODE_SEG_SHIFT	4	/* segment * 16 = address */

#define MPF_SIGNATURE	"_MP_"
#define MPC_SIGNATURE	"PCMP"
#define MP_PROCESSOR	0		/* entry types; only this one is read */
#define MP_BUS		1
#define MP_IOAPIC	2
#define MP_INTSRC	3
#define MP_LINTSRC	4
#define CPU_ENABLED	0x01		/* processor entry flags */
#define MP_ENTRY_SIZE	8		/* every entry but a processor's */

struct mpf_intel {			/* the floating pointer */
	char signature[4];
	uint32_t physptr;		/* the configuration table */
	uint8_t length;			/* in 16-byte units: 1 */
	uint8_t specification;
	uint8_t checksum;
	uint8_t feature1;		/* non-zero: a default config, no table */
	uint8_t feature2;
	uint8_t reserved[3];
} __packed;

struct mpc_table {			/* the configuration table's header */
	char signature[4];
	uint16_t length;		/* header and entries, bytes */
	uint8_t spec;
	uint8_t checksum;
	char oem[8];
	char productid[12];
	uint32_t oemptr;
	uint16_t oemsize;
	uint16_t oemcount;		/* number of entries */
	uint32_t lapic;			/* local APIC registers */
	uint16_t reserved;
	uint8_t reserved2[2];
} __packed;

struct mpc_cpu {			/* entry type 0 */
	uint8_t type;
	uint8_t apicid;
	uint8_t apicver;
	uint8_t cpuflag;
	uint32_t cpufeature;
	uint32_t featureflag;
	uint32_t reserved[2];
} __packed;

/* Firmware tables carry a checksum byte chosen so all bytes sum to 0. */
bool firmware_checksum_ok(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	while (len--)
		sum += *b++;
	return sum == 0;
}

static void *scan_range(unsigned long start, unsigned long len,
			const char *sig, size_t checksum_len)
{
	for (unsigned long a = start; a + checksum_len <= start + len; a += SCAN_STEP)
		if (!memcmp((void *)a, sig, strlen(sig)) &&
		    firmware_checksum_ok((void *)a, checksum_len))
			return (void *)a;
	return NULL;
}

/*
 * A 16-bit word of the BIOS Data Area.  The empty asm hides the
 * constant address from GCC, which would otherwise take a read near
 * address 0 for an out-of-bounds access.
 */
static unsigned long bda_read16(unsigned long offset)
{
	const volatile uint16_t *p = (const volatile uint16_t *)offset;

	__asm__("" : "+r"(p));
	return *p;
}

/*
 * Where the MP spec (and ACPI, for its RSDP) says to look.  Reads the
 * BIOS Data Area in page 0, so it runs before paging unmaps that page.
 */
void *firmware_scan(const char *sig, size_t checksum_len)
{
	unsigned long ebda = bda_read16(BDA_EBDA_SEGMENT) << REAL_MODE_SEG_SHIFT;
	unsigned long base_top = bda_read16(BDA_BASE_MEM_KB) * 1024;
	void *p = NULL;

	if (ebda)
		p = scan_range(ebda, SCAN_WINDOW, sig, checksum_len);
	if (!p && base_top >= SCAN_WINDOW)
		p = scan_range(base_top - SCAN_WINDOW, SCAN_WINDOW, sig, checksum_len);
	if (!p)
		p = scan_range(BIOS_ROM_START, BIOS_ROM_END - BIOS_ROM_START,
			       sig, checksum_len);
	return p;
}

void cpu_table_add(struct cpu_table *t, int apicid)
{
	if (t->count < NR_CPUS)
		t->apicid[t->count] = apicid;
	else
		printk("%s: CPU with APIC id %d ignored (NR_CPUS is %d)\n",
		       t->source, apicid, NR_CPUS);
	t->count++;
}

static int entry_size(uint8_t type)
{
	return type == MP_PROCESSOR ? (int)sizeof(struct mpc_cpu) : MP_ENTRY_SIZE;
}

/* Walk the configuration table's entries; keep the enabled CPUs. */
static int read_mpc(const struct mpc_table *mpc, struct cpu_table *t)
{
	const uint8_t *p = (const uint8_t *)(mpc + 1);
	const uint8_t *end = (const uint8_t *)mpc + mpc->length;

	for (int i = 0; i < mpc->oemcount && p < end; i++) {
		if (*p > MP_LINTSRC)
			return -EINVAL;		/* unknown entry: its size too */
		if (*p == MP_PROCESSOR) {
			const struct mpc_cpu *c = (const void *)p;

			if (c->cpuflag & CPU_ENABLED)
				cpu_table_add(t, c->apicid);
		}
		p += entry_size(*p);
	}
	t->lapic_addr = mpc->lapic;
	return 0;
}

int mp_parse_table(struct cpu_table *t)
{
	struct mpf_intel *mpf = firmware_scan(MPF_SIGNATURE, sizeof(*mpf));
	struct mpc_table *mpc;

	memset(t, 0, sizeof(*t));
	t->source = "MP table";
	if (!mpf || mpf->feature1 || !mpf->physptr)
		return -ENODEV;		/* no table, or a "default" config */
	mpc = (struct mpc_table *)mpf->physptr;
	if (memcmp(mpc->signature, MPC_SIGNATURE, sizeof(mpc->signature)) ||
	    !firmware_checksum_ok(mpc, mpc->length))
		return -ENODEV;
	return read_mpc(mpc, t);
}
