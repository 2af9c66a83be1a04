/*
 * mpspec.h - finding the CPUs: what the firmware tells us.
 *
 * Nothing in a CPU says how many others there are.  The firmware does,
 * in a table it leaves in memory: the ACPI MADT ("Multiple APIC
 * Description Table", arch/i386/acpi.c) on anything built since about
 * 2000, and before it Intel's MultiProcessor Specification table
 * (arch/i386/mpparse.c), which SeaBIOS still provides.  Both list one
 * entry per CPU with its local APIC id, and the address of the local
 * APIC registers.  We read the MADT and fall back to the MP table.
 *
 * Both must be read before paging_init(): the ACPI tables sit in a
 * reserved region above the RAM we identity-map.
 */
#ifndef MPSPEC_H
#define MPSPEC_H

#include "kernel.h"
#include <asm/percpu.h>

/* What one table listed: the APIC id of each enabled CPU. */
struct cpu_table {
	const char *source;		/* "ACPI MADT" or "MP table" */
	int apicid[NR_CPUS];
	int count;			/* CPUs listed (at most NR_CPUS kept) */
	unsigned long lapic_addr;	/* where the APIC registers are */
};

/* Each returns 0 and fills *t, or -ENODEV when the table is missing. */
int acpi_parse_madt(struct cpu_table *t);
int mp_parse_table(struct cpu_table *t);

/* Both tables as found at boot, and which one smp_boot_cpus() used. */
extern struct cpu_table madt_cpus, mptable_cpus;
extern const struct cpu_table *boot_cpu_table;

/* Read the tables (from kmain, before paging_init). */
void detect_cpus(void);

/* mpparse.c: the search both use for their entry-point structure. */
void *firmware_scan(const char *sig, size_t checksum_len);
bool firmware_checksum_ok(const void *p, size_t len);
void cpu_table_add(struct cpu_table *t, int apicid);

#endif
