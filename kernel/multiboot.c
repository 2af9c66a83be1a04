/*
 * multiboot.c - read what the boot loader told us (Multiboot spec 3.3).
 *
 * The information block lives in memory the page allocator may hand
 * out later, so everything worth keeping (the command line, module
 * ranges and names) is copied into our own variables here, first thing.
 */
#include "kernel.h"
#include "multiboot.h"
#include "string.h"

#define CMDLINE_MAX 256
#define BOOTLOADER_NAME_MAX 64

struct multiboot_info *boot_info;
struct boot_module boot_modules[MAX_BOOT_MODULES];
int nr_boot_modules;
unsigned long ram_end;
const char *kernel_cmdline = "";
const char *bootloader_name = "unknown";
uint32_t boot_magic;

static char cmdline_copy[CMDLINE_MAX];
static char loader_copy[BOOTLOADER_NAME_MAX];

static void parse_memory_map(struct multiboot_info *mbi)
{
	struct multiboot_mmap_entry *e;

	for_each_mmap_entry(e, mbi) {
		uint64_t top = e->addr + e->len;

		/* We are a 32-bit kernel without PAE: ignore RAM above 4 GiB. */
		if (e->type == MULTIBOOT_MEMORY_AVAILABLE && top <= 0x100000000ULL &&
		    top > ram_end)
			ram_end = (unsigned long)top;
	}
}

static void parse_modules(struct multiboot_info *mbi)
{
	struct multiboot_module *m = (void *)mbi->mods_addr;
	uint32_t i;

	for (i = 0; i < mbi->mods_count && i < MAX_BOOT_MODULES; i++) {
		boot_modules[i].start = m[i].mod_start;
		boot_modules[i].end = m[i].mod_end;
		strlcpy(boot_modules[i].name, m[i].string ? (char *)m[i].string : "",
			sizeof(boot_modules[i].name));
	}
	nr_boot_modules = i;
}

void multiboot_parse(uint32_t magic, struct multiboot_info *mbi)
{
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not booted by a Multiboot loader (eax=%08x, want %08x)",
		      magic, MULTIBOOT_BOOTLOADER_MAGIC);
	boot_magic = magic;
	boot_info = mbi;
	if ((mbi->flags & MULTIBOOT_INFO_CMDLINE) && mbi->cmdline) {
		strlcpy(cmdline_copy, (char *)mbi->cmdline, sizeof(cmdline_copy));
		kernel_cmdline = cmdline_copy;
	}
	if (mbi->flags & MULTIBOOT_INFO_BOOTLOADER_NAME && mbi->boot_loader_name) {
		strlcpy(loader_copy, (char *)mbi->boot_loader_name, sizeof(loader_copy));
		bootloader_name = loader_copy;
	}
	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP)
		parse_memory_map(mbi);
	else if (mbi->flags & MULTIBOOT_INFO_MEMORY)
		ram_end = (unsigned long)multiboot_upper_mem_end(mbi);
	if (mbi->flags & MULTIBOOT_INFO_MODS)
		parse_modules(mbi);
}

static const char *mmap_type_name(uint32_t type)
{
	switch (type) {
	case 1:  return "usable";
	case 3:  return "ACPI reclaimable";
	case 4:  return "ACPI NVS";
	case 5:  return "bad RAM";
	default: return "reserved";
	}
}

void multiboot_print(void)
{
	struct multiboot_info *mbi = boot_info;
	unsigned long p, end;
	int i;

	printk("Boot loader: %s\n", bootloader_name);
	printk("Command line: \"%s\"\n", kernel_cmdline);
	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP) {
		printk("Memory map:\n");
		for (p = mbi->mmap_addr, end = p + mbi->mmap_length; p < end;) {
			struct multiboot_mmap_entry *e = (void *)p;

			printk("  [mem 0x%08llx-0x%08llx] %s\n", e->addr,
			       e->addr + e->len - 1, mmap_type_name(e->type));
			p += e->size + sizeof(e->size);
		}
	}
	printk("RAM: %lu MiB usable up to %#lx\n", ram_end >> 20, ram_end);
	for (i = 0; i < nr_boot_modules; i++)
		printk("Module %d: %#lx-%#lx \"%s\"\n", i, boot_modules[i].start,
		       boot_modules[i].end, boot_modules[i].name);
}
