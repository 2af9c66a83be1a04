/*
 * multiboot.h - the Multiboot 1 information block (Multiboot spec 0.6.96,
 * section 3.3).  GRUB or QEMU leaves its physical address in %ebx.
 */
#ifndef MULTIBOOT_H
#define MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC     0x1BADB002  /* in our header */
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002  /* in %eax at entry */

/* Header flags we ask for */
#define MULTIBOOT_PAGE_ALIGN  0x00000001   /* modules on page boundaries */
#define MULTIBOOT_MEMORY_INFO 0x00000002   /* give us mem_* and mmap_* */

/* Info flags telling which fields are valid */
#define MULTIBOOT_INFO_MEMORY   0x00000001
#define MULTIBOOT_INFO_CMDLINE  0x00000004
#define MULTIBOOT_INFO_MODS     0x00000008
#define MULTIBOOT_INFO_MEM_MAP  0x00000040
#define MULTIBOOT_INFO_BOOTLOADER_NAME 0x00000200

#ifndef __ASSEMBLER__
#include <stdint.h>

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;     /* KiB below 1 MiB / above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
} __attribute__((packed));

struct multiboot_mmap_entry {
	uint32_t size;          /* of the rest of this entry */
	uint64_t addr, len;
	uint32_t type;          /* 1 = usable RAM */
} __attribute__((packed));
#define MULTIBOOT_MEMORY_AVAILABLE 1

/*
 * Memory-map entries are variable length: each one's `size` counts the
 * bytes after the size field itself.
 */
static inline struct multiboot_mmap_entry *
multiboot_mmap_next(struct multiboot_mmap_entry *e)
{
	return (void *)((unsigned long)e + e->size + sizeof(e->size));
}

#define for_each_mmap_entry(e, mbi)					\
	for ((e) = (void *)(unsigned long)(mbi)->mmap_addr;		\
	     (unsigned long)(e) < (mbi)->mmap_addr + (mbi)->mmap_length;	\
	     (e) = multiboot_mmap_next(e))

/* Without a memory map: mem_upper is KiB of RAM starting at 1 MiB. */
#define MULTIBOOT_UPPER_MEM_START 0x100000ul
static inline uint64_t multiboot_upper_mem_end(const struct multiboot_info *mbi)
{
	return MULTIBOOT_UPPER_MEM_START + (uint64_t)mbi->mem_upper * 1024;
}

struct multiboot_module {
	uint32_t mod_start, mod_end;
	uint32_t string;
	uint32_t reserved;
} __attribute__((packed));

/* Kept for later subsystems (modules): copied out of the info block. */
struct boot_module {
	unsigned long start, end;
	char name[64];
};
#define MAX_BOOT_MODULES 32   /* room for the samples and the loader's test objects */
extern struct boot_module boot_modules[MAX_BOOT_MODULES];
extern int nr_boot_modules;
extern struct multiboot_info *boot_info;
/* Highest physical address of usable RAM, from the memory map. */
extern unsigned long ram_end;
extern uint32_t boot_magic;            /* %eax at entry */
extern const char *bootloader_name;    /* "unknown" when not given */

void multiboot_parse(uint32_t magic, struct multiboot_info *mbi);
void multiboot_print(void);
#endif

#endif
