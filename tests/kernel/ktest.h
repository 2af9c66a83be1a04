/*
 * ktest.h - the in-kernel test framework, in the spirit of KUnit.
 *
 * A test case is a function taking a struct ktest *.  Cases are grouped
 * into suites; a suite is placed in the .ktest_suites section by
 * KTEST_SUITE(), so tests/kernel/ktest.c finds every suite without a list.
 * Output is KTAP version 1 on every console (and so on COM1):
 *
 *   KTAP version 1
 *   1..2
 *       KTAP version 1
 *       # Subtest: traps
 *       1..3
 *       ok 1 idt_gate_types
 *       # traps.c:42: EXPECT_EQ(vector, 14) failed: got 13 (0xd), want 14 (0xe)
 *       not ok 2 pf_null_read
 *       ok 3 ud2_fixup # SKIP no fpu
 *   not ok 1 traps
 */
#ifndef KTEST_H
#define KTEST_H

#include "kernel.h"

struct ktest {
	const char *name;     /* the case running now */
	bool failed;
	bool skipped;
	const char *skip_reason;
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	struct ktest_case *cases;   /* terminated by {NULL, NULL} */
	int (*init)(struct ktest *t);      /* before each case; optional */
	void (*exit)(struct ktest *t);     /* after each case; optional */
	bool on_request;   /* long: runs only when named (test=NAME), never in a plain `test` */
};

#define KTEST_CASE(fn) { #fn, fn }
#define KTEST_END      { NULL, NULL }

#define KTEST_SUITE(var)                                              \
	static struct ktest_suite *__ktest_ptr_##var                      \
	__attribute__((used, section(".ktest_suites"))) = &var

/* A suite that must run after every other one (the linker puts it last). */
#define KTEST_SUITE_LAST(var)                                         \
	static struct ktest_suite *__ktest_ptr_##var                      \
	__attribute__((used, section(".ktest_suites.last"))) = &var

/* Report one failed expectation; keep running the case. */
void ktest_fail(struct ktest *t, const char *file, int line,
		const char *fmt, ...) __printf(4, 5);
void ktest_skip(struct ktest *t, const char *reason);
/* A '# ' diagnostic line at the current KTAP indent. */
void ktest_info(struct ktest *t, const char *fmt, ...) __printf(2, 3);

/*
 * Capture what printk prints, so a case can check a message: start,
 * do the work, stop, then search ktest_captured() (NUL-terminated; the
 * first KTEST_CAPTURE_SIZE - 1 bytes are kept).  Output still reaches
 * the real consoles too.
 */
#define KTEST_CAPTURE_SIZE 8192
void ktest_capture_start(void);
void ktest_capture_stop(void);
const char *ktest_captured(void);
/*
 * Reading a figure out of a message: the hex number right after the
 * first `key` in text ("... at ip 0804809c ..."); false if there is no key.
 */
bool ktest_hex_after(const char *text, const char *key, unsigned long *val);

/* Run the suites named in `list` ("a,b"), or all when list is NULL. */
int ktest_run(const char *list);   /* returns number of failed cases */

/*
 * FNV-1a of the kernel's .text (_text.._etext): any changed byte changes
 * it.  The runner takes it once before the first suite, when the text is
 * as boot left it, in ktest_boot_text_checksum; a suite compares after
 * probing to prove every int3 and jump it planted is gone again.
 */
uint32_t ktest_text_checksum(void);
extern uint32_t ktest_boot_text_checksum;

/*
 * The ramfs file /bin/NAME of a built-in program, what a uprobe is
 * registered on (NULL if there is none).  Its name in /bin keeps it
 * alive: the lookup's reference is given back.
 */
struct inode *ktest_program_inode(const char *name);

#define KTEST_EXPECT_EQ(t, got, want) do {                               \
	long long __g = (long long)(got), __w = (long long)(want);           \
	if (__g != __w)                                                      \
		ktest_fail(t, __FILE__, __LINE__,                                \
			   "EXPECT_EQ(%s, %s) failed: got %lld (0x%llx), want %lld (0x%llx)", \
			   #got, #want, __g, (unsigned long long)__g, __w,          \
			   (unsigned long long)__w);                                \
} while (0)

#define KTEST_EXPECT_NE(t, got, bad) do {                                \
	long long __g = (long long)(got), __b = (long long)(bad);            \
	if (__g == __b)                                                      \
		ktest_fail(t, __FILE__, __LINE__,                                \
			   "EXPECT_NE(%s, %s) failed: both are %lld (0x%llx)",      \
			   #got, #bad, __g, (unsigned long long)__g);               \
} while (0)

#define KTEST_EXPECT_TRUE(t, cond) do {                                  \
	if (!(cond))                                                         \
		ktest_fail(t, __FILE__, __LINE__, "EXPECT_TRUE(%s) failed", #cond); \
} while (0)

#define KTEST_EXPECT_FALSE(t, cond) do {                                 \
	if (cond)                                                            \
		ktest_fail(t, __FILE__, __LINE__, "EXPECT_FALSE(%s) failed", #cond); \
} while (0)

#define KTEST_EXPECT_STREQ(t, got, want) do {                            \
	const char *__g = (got), *__w = (want);                              \
	if (!__g || !__w || strcmp(__g, __w) != 0)                           \
		ktest_fail(t, __FILE__, __LINE__,                                \
			   "EXPECT_STREQ(%s, %s) failed: got \"%s\", want \"%s\"",   \
			   #got, #want, __g ? __g : "(null)", __w ? __w : "(null)"); \
} while (0)

/*
 * ASSERT variants stop the case (return) when THEIR check fails.  An
 * earlier EXPECT failure was already reported and must not make a later,
 * passing ASSERT end the case, so the flag is set aside around the check.
 */
#define KTEST_ASSERT(t, expect) do {                                     \
	bool __failed_before = (t)->failed;                                  \
	(t)->failed = false;                                                 \
	expect;                                                              \
	if ((t)->failed)                                                     \
		return;                                                          \
	(t)->failed = __failed_before;                                       \
} while (0)

#define KTEST_ASSERT_EQ(t, got, want)    KTEST_ASSERT(t, KTEST_EXPECT_EQ(t, got, want))
#define KTEST_ASSERT_NE(t, got, bad)     KTEST_ASSERT(t, KTEST_EXPECT_NE(t, got, bad))
#define KTEST_ASSERT_TRUE(t, cond)       KTEST_ASSERT(t, KTEST_EXPECT_TRUE(t, cond))
#define KTEST_ASSERT_FALSE(t, cond)      KTEST_ASSERT(t, KTEST_EXPECT_FALSE(t, cond))
#define KTEST_ASSERT_STREQ(t, got, want) KTEST_ASSERT(t, KTEST_EXPECT_STREQ(t, got, want))

#endif
