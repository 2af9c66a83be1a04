/*
 * test_boot.c - suite "boot": what the Multiboot loader handed us.
 * The harness runs it once under QEMU's -kernel loader and once from the
 * GRUB ISO with "expect_loader=GRUB", so both boot paths stay alive.
 */
#include "ktest.h"
#include "multiboot.h"
#include "string.h"

#define MIN_RAM (32u << 20)

static void multiboot_magic(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, boot_magic, MULTIBOOT_BOOTLOADER_MAGIC);
	KTEST_EXPECT_TRUE(t, boot_info != NULL);
}

static void command_line_seen(struct ktest *t)
{
	/* We are running tests, so "test" must be on the command line. */
	KTEST_EXPECT_TRUE(t, strstr(kernel_cmdline, "test") != NULL);
	KTEST_EXPECT_TRUE(t, cmdline_has("test"));
	KTEST_EXPECT_FALSE(t, cmdline_has("tes"));
}

/* A value that does not fit is refused, not cut: a cut list would be another list. */
static void command_line_value_never_cut(struct ktest *t)
{
	const char *saved = kernel_cmdline;
	char small[8], big[32];

	kernel_cmdline = "nosmoke test=traps,kprobes,tracefs quiet";
	KTEST_EXPECT_TRUE(t, cmdline_value("test", small, sizeof(small)) == NULL);
	KTEST_EXPECT_TRUE(t, cmdline_has_value("test"));
	KTEST_EXPECT_STREQ(t, cmdline_value("test", big, sizeof(big)), "traps,kprobes,tracefs");
	KTEST_EXPECT_FALSE(t, cmdline_has_value("nosmoke"));
	KTEST_EXPECT_TRUE(t, cmdline_value("nosmoke", big, sizeof(big)) == NULL);
	kernel_cmdline = saved;
}

static void memory_map_parsed(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, boot_info->flags & MULTIBOOT_INFO_MEM_MAP);
	KTEST_EXPECT_TRUE(t, boot_info->mmap_length > 0);
	KTEST_EXPECT_TRUE(t, ram_end >= MIN_RAM);
}

static void boot_loader_named(struct ktest *t)
{
	char buf[32];
	const char *want = cmdline_value("expect_loader", buf, sizeof(buf));

	if (!want) {
		ktest_skip(t, "no expect_loader= on the command line");
		return;
	}
	if (!strstr(bootloader_name, want))
		ktest_fail(t, __FILE__, __LINE__, "boot loader \"%s\", want \"%s\"",
			   bootloader_name, want);
}

static struct ktest_case boot_cases[] = {
	KTEST_CASE(multiboot_magic),
	KTEST_CASE(command_line_seen),
	KTEST_CASE(command_line_value_never_cut),
	KTEST_CASE(memory_map_parsed),
	KTEST_CASE(boot_loader_named),
	KTEST_END,
};

static struct ktest_suite boot_suite = { .name = "boot", .cases = boot_cases };
KTEST_SUITE(boot_suite);
