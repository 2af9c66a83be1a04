/*
 * acpi.c - finding the CPUs in ACPI's MADT.
 *
 * ACPI's entry point is the RSDP ("RSD PTR "), found where the MP
 * floating pointer is (mpparse.c: firmware_scan()).  It gives the
 * address of the RSDT, a list of 32-bit pointers to tables, each with a
 * common 36-byte header whose 4-letter signature names it.  The one we
 * want is "APIC", the Multiple APIC Description Table: the local APIC
 * address, then variable-length entries; type 0, "processor local
 * APIC", is one CPU with its APIC id and an enabled flag.  (ACPI 2.0
 * adds the XSDT with 64-bit pointers; a 32-bit kernel reads the RSDT.)
 */
#include "kernel.h"
#include <asm/mpspec.h>
#include "string.h"
#include "errno.h"

#define RSDP_SIGNATURE		"RSD PTR "
#define RSDP_V1_LENGTH		20	/* the part ACPI 1.0 checksums */
#define MADT_SIGNATURE		"APIC"
#define ACPI_MADT_TYPE_LOCAL_APIC 0
#define ACPI_MADT_ENABLED	0x1	/* the CPU may be started */

struct acpi_rsdp {
	char signature[8];
	uint8_t checksum;
	char oem_id[6];
	uint8_t revision;
	uint32_t rsdt_address;
} __packed;

struct acpi_table_header {		/* every table starts so */
	char signature[4];
	uint32_t length;		/* header included */
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t asl_compiler_id;
	uint32_t asl_compiler_revision;
} __packed;

struct acpi_table_madt {
	struct acpi_table_header header;
	uint32_t address;		/* local APIC registers */
	uint32_t flags;
} __packed;

struct acpi_subtable_header {
	uint8_t type;
	uint8_t length;
} __packed;

struct acpi_madt_local_apic {		/* type 0 */
	struct acpi_subtable_header header;
	uint8_t processor_id;
	uint8_t id;			/* the local APIC id */
	uint32_t lapic_flags;
} __packed;

static const struct acpi_table_header *valid_table(uint32_t addr)
{
	const struct acpi_table_header *h = (const void *)addr;

	if (!addr || !firmware_checksum_ok(h, h->length))
		return NULL;
	return h;
}

/* The RSDT entry whose signature is sig. */
static const struct acpi_table_header *acpi_get_table(const char *sig)
{
	const struct acpi_rsdp *rsdp = firmware_scan(RSDP_SIGNATURE, RSDP_V1_LENGTH);
	const struct acpi_table_header *rsdt, *h;
	const uint32_t *entry;
	int n;

	if (!rsdp || !(rsdt = valid_table(rsdp->rsdt_address)))
		return NULL;
	entry = (const uint32_t *)(rsdt + 1);
	n = (rsdt->length - sizeof(*rsdt)) / sizeof(*entry);
	for (int i = 0; i < n; i++) {
		h = valid_table(entry[i]);
		if (h && !memcmp(h->signature, sig, sizeof(h->signature)))
			return h;
	}
	return NULL;
}

int acpi_parse_madt(struct cpu_table *t)
{
	const struct acpi_table_madt *madt = (const void *)acpi_get_table(MADT_SIGNATURE);
	const uint8_t *p, *end;

	memset(t, 0, sizeof(*t));
	t->source = "ACPI MADT";
	if (!madt)
		return -ENODEV;
	t->lapic_addr = madt->address;
	p = (const uint8_t *)(madt + 1);
	end = (const uint8_t *)madt + madt->header.length;
	while (p + sizeof(struct acpi_subtable_header) <= end) {
		const struct acpi_subtable_header *sub = (const void *)p;
		const struct acpi_madt_local_apic *lapic = (const void *)p;

		if (sub->length < sizeof(*sub))
			return -EINVAL;		/* a broken table: stop */
		if (sub->type == ACPI_MADT_TYPE_LOCAL_APIC &&
		    (lapic->lapic_flags & ACPI_MADT_ENABLED))
			cpu_table_add(t, lapic->id);
		p += sub->length;
	}
	return 0;
}
