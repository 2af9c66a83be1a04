/*
 * test_probe_events.c - lib/probe_events_parse.c and lib/fetch_args.c.
 *
 * Parsing: every form of a kprobe_events line and every error code with
 * the byte position tracefs puts its caret under.  Fetching: programs run
 * against a fake register frame and a fake memory map whose reads fail
 * outside the mapped regions, the way copy_from_kernel_nofault() fails on
 * an unmapped page.  Printing: each :TYPE in Linux's format.
 *
 * Memory words are unsigned long (4 bytes in the kernel, 8 on a 64-bit
 * host), so lines with offsets are built with W = sizeof(unsigned long).
 */
#include "ktest_host.h"
#include "errno.h"
#include "vsprintf.h"
#include "probe_events.h"

#define W ((int)sizeof(unsigned long))

static struct probe_event_def def;
static struct probe_parse_error err;
static char line[PROBE_LINE_MAX + 64];

/* ---- a fake kernel: symbols, memory, current task --------------------- */

#define FAKE_DATA   0x1000UL     /* "jiffies": an array of words */
#define FAKE_TEXT   0x2000UL     /* "greeting": a string */
#define FAKE_EDGE   0x3000UL     /* 3 mapped bytes, then a hole */
#define FAKE_FUNC   0xc0101000UL /* "do_work": a function */
#define FAKE_USER   0x08049000UL /* a process's string: only read_user reaches it */

static unsigned long fake_data[8];
static char fake_text[] = "hello";
static unsigned char fake_edge[3] = { 0x11, 0x22, 0x80 };

struct fake_frame {          /* pt_regs, then the rest of the stack */
	struct pt_regs regs;
	unsigned long more[8];
};
static struct fake_frame frame;

static unsigned long fake_lookup(const char *name)
{
	if (!strcmp(name, "jiffies"))
		return FAKE_DATA;
	if (!strcmp(name, "greeting"))
		return FAKE_TEXT;
	if (!strcmp(name, "do_work") || !strcmp(name, "do_work.isra.0") ||
	    !strcmp(name, "mymod:do_work"))
		return FAKE_FUNC;
	return 0;
}

static const struct probe_parse_ops parse_ops = { .lookup_name = fake_lookup };

struct region {
	unsigned long base;
	void *host;
	size_t len;
};

static long fake_read(void *dst, const void *src, size_t size)
{
	struct region map[] = {
		{ FAKE_DATA, fake_data, sizeof(fake_data) },
		{ FAKE_TEXT, fake_text, sizeof(fake_text) },
		{ FAKE_EDGE, fake_edge, sizeof(fake_edge) },
		{ (unsigned long)&frame, &frame, sizeof(frame) },
	};
	unsigned long addr = (unsigned long)src;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		if (addr >= map[i].base && size <= map[i].len &&
		    addr - map[i].base <= map[i].len - size) {
			memcpy(dst, (char *)map[i].host + (addr - map[i].base), size);
			return 0;
		}
	}
	return -EFAULT;
}

static const char *fake_comm(void)
{
	return "worker";
}

static char fake_user[] = "from user";

/* copy_from_user_nofault: the user region only, never kernel memory. */
static long fake_read_user(void *dst, const void *src, size_t size)
{
	unsigned long addr = (unsigned long)src;

	if (addr < FAKE_USER || size > sizeof(fake_user) ||
	    addr - FAKE_USER > sizeof(fake_user) - size)
		return -EFAULT;
	memcpy(dst, fake_user + (addr - FAKE_USER), size);
	return 0;
}

static int fake_sprint_symbol(char *buf, size_t len, unsigned long addr)
{
	if (addr >= FAKE_FUNC && addr < FAKE_FUNC + 0x20)
		return snprintf(buf, len, "do_work+0x%lx/0x20", addr - FAKE_FUNC);
	return snprintf(buf, len, "0x%lx", addr);
}

/* A uprobe's @+OFFS: the program's file is loaded at FAKE_DATA. */
static unsigned long fake_file_offset_to_vaddr(const void *ctx, unsigned long offs)
{
	return FAKE_DATA + offs;
}

static const struct fetch_ops fetch_ops = {
	.read_mem = fake_read, .read_user = fake_read_user, .comm = fake_comm,
	.sprint_symbol = fake_sprint_symbol,
	.file_offset_to_vaddr = fake_file_offset_to_vaddr,
};

/* A frame as a probe at do_work's first byte sees it: the first three
 * arguments in ax, dx, cx (-mregparm=3), sp -> return address, then
 * the fourth and fifth. */
static void setup_frame(void)
{
	memset(&frame, 0, sizeof(frame));
	frame.regs.ax = 3;
	frame.regs.bx = FAKE_DATA;
	frame.regs.cx = FAKE_TEXT;
	frame.regs.dx = 0xdead0000;          /* unmapped */
	frame.regs.ip = FAKE_FUNC + 1;
	frame.regs.flags = 0x246;
	frame.regs.sp = 0xc0105678;          /* word 0: return address */
	frame.regs.ss = 111;                 /* word 1: $arg4 */
	frame.more[0] = 222;                 /* word 2: $arg5 */
	for (int i = 0; i < 8; i++)
		fake_data[i] = 0x100 + i;
	fake_data[2] = FAKE_DATA + 3 * W;    /* a pointer to fake_data[3] */
}

static int parse(const char *text)
{
	return probe_event_parse(text, strlen(text), &parse_ops, &def, &err);
}

/* Parse a one-argument probe at do_work and run its program. */
static int fetch_one(const char *argtext, struct fetch_value *val, char *str,
		     size_t strsize)
{
	snprintf(line, sizeof(line), "p do_work %s", argtext);
	if (parse(line))
		return -1000 - err.code;
	setup_frame();
	return fetch_arg_exec(&def.args[0], &frame.regs, &fetch_ops, val, str, strsize);
}

/* The full " name=value" text of a one-argument probe. */
static const char *fetch_text(const char *argtext)
{
	static char out[512];
	static unsigned char rec[4096];
	int n;

	snprintf(line, sizeof(line), "r:ev do_work %s", argtext);
	if (parse(line)) {
		snprintf(out, sizeof(out), "parse error %d at %d", err.code, err.pos);
		return out;
	}
	setup_frame();
	n = probe_args_fetch(&def, &frame.regs, &fetch_ops, rec, sizeof(rec));
	if (n < 0)
		return "fetch failed";
	probe_args_format(out, sizeof(out), &def, rec, n, fake_sprint_symbol);
	return out;
}

/* ---- probe definitions -------------------------------------------------- */

static void probe_default_names(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_ADD);
	KTEST_EXPECT_FALSE(t, def.is_return);
	KTEST_EXPECT_STREQ(t, def.group, "kprobes");
	KTEST_EXPECT_STREQ(t, def.event, "p_do_work_0");
	KTEST_EXPECT_STREQ(t, def.symbol, "do_work");
	KTEST_EXPECT_EQ(t, def.offset, 0);
	KTEST_EXPECT_EQ(t, def.addr, FAKE_FUNC);
	KTEST_EXPECT_EQ(t, def.nr_args, 0);

	KTEST_ASSERT_EQ(t, parse("p do_work+0x10"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "p_do_work_16");
	KTEST_EXPECT_EQ(t, def.offset, 16);
	KTEST_EXPECT_EQ(t, def.addr, FAKE_FUNC + 16);

	KTEST_ASSERT_EQ(t, parse("r do_work"), 0);
	KTEST_EXPECT_TRUE(t, def.is_return);
	KTEST_EXPECT_STREQ(t, def.event, "r_do_work_0");

	/* '.' cannot be in an event name: Linux turns it into '_'. */
	KTEST_ASSERT_EQ(t, parse("p do_work.isra.0+4"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "p_do_work_isra_0_4");
	KTEST_EXPECT_STREQ(t, def.symbol, "do_work.isra.0");
}

static void probe_memaddr(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p 0xc0101234"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "p_0xc0101234");
	KTEST_EXPECT_STREQ(t, def.symbol, "");
	KTEST_EXPECT_EQ(t, def.addr, 0xc0101234UL);
	KTEST_ASSERT_EQ(t, parse("p:at 4096"), 0);
	KTEST_EXPECT_EQ(t, def.addr, 4096);
	KTEST_ASSERT_EQ(t, parse("p 0x10"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "p_0x00000010");
	KTEST_ASSERT_EQ(t, parse("p 0xffffffff"), 0);    /* largest i386 address */
}

static void probe_group_and_event(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p:myprobe do_work"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "kprobes");
	KTEST_EXPECT_STREQ(t, def.event, "myprobe");
	KTEST_ASSERT_EQ(t, parse("p:grp/ev do_work"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "ev");
	/* "GRP/" alone: the group is given, the event name is made up. */
	KTEST_ASSERT_EQ(t, parse("p:grp/ do_work+2"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "p_do_work_2");
	/* 63 characters fit, the longest name there is. */
	snprintf(line, sizeof(line), "p:%.63s do_work",
		 "_23456789012345678901234567890123456789012345678901234567890123456789");
	KTEST_ASSERT_EQ(t, parse(line), 0);
	KTEST_EXPECT_EQ(t, strlen(def.event), 63);
}

static void return_probe_maxactive(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("r4:rp do_work"), 0);
	KTEST_EXPECT_TRUE(t, def.is_return);
	KTEST_EXPECT_EQ(t, def.maxactive, 4);
	KTEST_EXPECT_STREQ(t, def.event, "rp");
	KTEST_ASSERT_EQ(t, parse("r4096 do_work"), 0);
	KTEST_EXPECT_EQ(t, def.maxactive, 4096);
	KTEST_ASSERT_EQ(t, parse("r do_work+0"), 0);       /* +0 is the entry */
	KTEST_EXPECT_EQ(t, def.maxactive, 0);
}

static void delete_command(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("-:myprobe"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_DELETE);
	KTEST_EXPECT_STREQ(t, def.group, "kprobes");
	KTEST_EXPECT_STREQ(t, def.event, "myprobe");
	KTEST_ASSERT_EQ(t, parse("-:grp/ev"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "ev");
}

static void blank_and_comment_lines(struct ktest *t)
{
	const char *lines[] = { "", "   ", "\t\n", "# all comment", "   # x %$@", "\n" };

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		KTEST_EXPECT_EQ(t, parse(lines[i]), 0);
		KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_NONE);
	}
	/* A comment after a command; a trailing newline; any blanks. */
	KTEST_ASSERT_EQ(t, parse("  p:a \t do_work   %ax  # why\n"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "a");
	KTEST_EXPECT_EQ(t, def.nr_args, 1);
}

static void line_need_not_be_terminated(struct ktest *t)
{
	/* Only len bytes are read: the "XX" after them must not matter. */
	const char text[] = "p:ev do_work %axXX";

	KTEST_ASSERT_EQ(t, probe_event_parse(text, strlen(text) - 2, &parse_ops,
					     &def, &err), 0);
	KTEST_EXPECT_STREQ(t, def.args[0].comm, "%ax");
}

static void no_resolver_leaves_symbol(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, probe_event_parse("p nosuch+4", 10, NULL, &def, &err), 0);
	KTEST_EXPECT_STREQ(t, def.symbol, "nosuch");
	KTEST_EXPECT_EQ(t, def.addr, 0);
	/* @SYM needs the resolver: without one it is unknown, as at registration. */
	KTEST_EXPECT_EQ(t, probe_event_parse("p f @jiffies", 12, NULL, &def, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, err.pos, 2);
}

/* ---- FETCHARGS compile to the right program ------------------------------ */

static void expect_op(struct ktest *t, const struct probe_arg *a, int i,
		      int code, unsigned long param)
{
	KTEST_EXPECT_EQ(t, a->ops[i].code, code);
	KTEST_EXPECT_EQ(t, a->ops[i].param, param);
}

static void args_registers(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work %ax %eax %bx %ecx %dx %si %edi %bp "
				 "%ip %eip %flags %eflags %sp %esp %cs %orig_ax"), 0);
	KTEST_ASSERT_EQ(t, def.nr_args, 16);
	expect_op(t, &def.args[0], 0, FETCH_OP_REG, offsetof(struct pt_regs, ax));
	expect_op(t, &def.args[1], 0, FETCH_OP_REG, offsetof(struct pt_regs, ax));
	expect_op(t, &def.args[2], 0, FETCH_OP_REG, offsetof(struct pt_regs, bx));
	expect_op(t, &def.args[3], 0, FETCH_OP_REG, offsetof(struct pt_regs, cx));
	expect_op(t, &def.args[5], 0, FETCH_OP_REG, offsetof(struct pt_regs, si));
	expect_op(t, &def.args[6], 0, FETCH_OP_REG, offsetof(struct pt_regs, di));
	expect_op(t, &def.args[8], 0, FETCH_OP_REG, offsetof(struct pt_regs, ip));
	expect_op(t, &def.args[10], 0, FETCH_OP_REG, offsetof(struct pt_regs, flags));
	/* %sp is not regs->sp: a ring-0 trap never saved one. */
	expect_op(t, &def.args[12], 0, FETCH_OP_STACKP, 0);
	expect_op(t, &def.args[13], 0, FETCH_OP_STACKP, 0);
	expect_op(t, &def.args[15], 0, FETCH_OP_REG, offsetof(struct pt_regs, orig_ax));
	KTEST_EXPECT_STREQ(t, def.args[0].name, "arg1");
	KTEST_EXPECT_STREQ(t, def.args[15].name, "arg16");
	KTEST_EXPECT_EQ(t, def.args[0].type, FETCH_TYPE_X32);   /* the default */
}

static void args_variables(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work $stack $stack0 $stack3 $arg1 $arg2 $comm "
				 "$arg3 $arg4 $arg5"), 0);
	expect_op(t, &def.args[0], 0, FETCH_OP_STACKP, 0);
	expect_op(t, &def.args[1], 0, FETCH_OP_STACK, 0);
	expect_op(t, &def.args[2], 0, FETCH_OP_STACK, 3);
	/* -mregparm=3: ax, dx, cx, then the words above the return address. */
	expect_op(t, &def.args[3], 0, FETCH_OP_REG, offsetof(struct pt_regs, ax));
	expect_op(t, &def.args[4], 0, FETCH_OP_REG, offsetof(struct pt_regs, dx));
	expect_op(t, &def.args[5], 0, FETCH_OP_COMM, 0);
	KTEST_EXPECT_EQ(t, def.args[5].type, FETCH_TYPE_STRING);
	expect_op(t, &def.args[6], 0, FETCH_OP_REG, offsetof(struct pt_regs, cx));
	expect_op(t, &def.args[7], 0, FETCH_OP_STACK, 1);
	expect_op(t, &def.args[8], 0, FETCH_OP_STACK, 2);

	KTEST_ASSERT_EQ(t, parse("r do_work $retval ret=$retval:s32"), 0);
	expect_op(t, &def.args[0], 0, FETCH_OP_REG, offsetof(struct pt_regs, ax));
	KTEST_EXPECT_STREQ(t, def.args[1].name, "ret");
	KTEST_EXPECT_EQ(t, def.args[1].type, FETCH_TYPE_S32);
}

static void args_memory_and_immediates(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work @0x1000 @jiffies+8 @jiffies-4 \\123 "
				 "\\-1 \\0x10 \\\"hi\""), 0);
	expect_op(t, &def.args[0], 0, FETCH_OP_IMM, 0x1000);
	expect_op(t, &def.args[0], 1, FETCH_OP_DEREF, 0);
	expect_op(t, &def.args[1], 0, FETCH_OP_IMM, FAKE_DATA);
	expect_op(t, &def.args[1], 1, FETCH_OP_DEREF, 8);
	expect_op(t, &def.args[2], 1, FETCH_OP_DEREF, (unsigned long)-4);
	expect_op(t, &def.args[3], 0, FETCH_OP_IMM, 123);
	KTEST_EXPECT_EQ(t, def.args[3].nr_ops, 1);
	expect_op(t, &def.args[4], 0, FETCH_OP_IMM, (unsigned long)-1);
	expect_op(t, &def.args[5], 0, FETCH_OP_IMM, 16);
	KTEST_EXPECT_EQ(t, def.args[6].ops[0].code, FETCH_OP_IMMSTR);
	KTEST_EXPECT_EQ(t, def.args[6].type, FETCH_TYPE_STRING);
}

static void args_dereference(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work p=+4(+0(%ax)):u16 s=-8(%bp):string"), 0);
	KTEST_ASSERT_EQ(t, def.args[0].nr_ops, 3);
	expect_op(t, &def.args[0], 0, FETCH_OP_REG, offsetof(struct pt_regs, ax));
	expect_op(t, &def.args[0], 1, FETCH_OP_DEREF, 0);
	expect_op(t, &def.args[0], 2, FETCH_OP_DEREF, 4);
	KTEST_EXPECT_EQ(t, def.args[0].type, FETCH_TYPE_U16);
	KTEST_EXPECT_STREQ(t, def.args[0].name, "p");
	KTEST_EXPECT_STREQ(t, def.args[0].comm, "+4(+0(%ax)):u16");
	expect_op(t, &def.args[1], 1, FETCH_OP_DEREF, (unsigned long)-8);
	KTEST_EXPECT_EQ(t, def.args[1].type, FETCH_TYPE_STRING);

	/* Eight levels are allowed: @ counts as one. */
	KTEST_EXPECT_EQ(t, parse("p do_work +0(+0(+0(+0(+0(+0(+0(+0(%ax))))))))"), 0);
	KTEST_EXPECT_EQ(t, def.args[0].nr_ops, PROBE_MAX_OPS);
	KTEST_EXPECT_EQ(t, parse("p do_work +0(+0(+0(+0(+0(+0(+0(@jiffies)))))))"), 0);
}

static void args_every_type(struct ktest *t)
{
	static const char *const names[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
		"x8", "x16", "x32", "x64", "symbol",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(line, sizeof(line), "p do_work %%ax:%s", names[i]);
		KTEST_ASSERT_EQ(t, parse(line), 0);
		KTEST_EXPECT_STREQ(t, fetch_type_name(def.args[0].type), names[i]);
	}
	KTEST_ASSERT_EQ(t, parse("p do_work +0(%ax):string $comm:string"), 0);
	KTEST_EXPECT_STREQ(t, fetch_type_name(def.args[0].type), "string");
}

static void max_args_accepted(struct ktest *t)
{
	int n = snprintf(line, sizeof(line), "p do_work");

	for (int i = 0; i < PROBE_MAX_ARGS; i++)
		n += snprintf(line + n, sizeof(line) - n, " %%ax");
	KTEST_ASSERT_EQ(t, parse(line), 0);
	KTEST_EXPECT_EQ(t, def.nr_args, PROBE_MAX_ARGS);
	KTEST_EXPECT_STREQ(t, def.args[127].name, "arg128");
}

/* ---- arithmetic on the numbers a line gives ------------------------------ */

#define FAKE_FUNC_SIZE 0x40UL   /* do_work's extent for symbol_size() */

static unsigned long fake_symbol_size(unsigned long addr)
{
	return addr == FAKE_FUNC ? FAKE_FUNC_SIZE : 0;
}

static const struct probe_parse_ops sized_ops = {
	.lookup_name = fake_lookup, .symbol_size = fake_symbol_size,
};

static int parse_with(const struct probe_parse_ops *ops, const char *text)
{
	return probe_event_parse(text, strlen(text), ops, &def, &err);
}

/* do_work is at 0xc0101000: +0x3fefefff is 0xffffffff, one more wraps to 0. */
static void probe_offset_must_not_wrap(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work+0x3fefeffe"), 0);
	KTEST_EXPECT_EQ(t, def.addr, 0xfffffffeUL);
	KTEST_ASSERT_EQ(t, parse("p do_work+0x3fefefff"), 0);
	KTEST_EXPECT_EQ(t, def.addr, 0xffffffffUL);
	KTEST_EXPECT_EQ(t, parse("p do_work+0x3feff000"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, err.pos, 2);
	KTEST_EXPECT_EQ(t, parse("p:wrap do_work+4294967288"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, parse("p do_work+0xffffffff"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
}

/* With the symbol's size known, SYM+offs must be one of SYM's bytes. */
static void probe_offset_inside_the_symbol(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse_with(&sized_ops, "p do_work+0x3f"), 0);
	KTEST_EXPECT_EQ(t, def.addr, FAKE_FUNC + FAKE_FUNC_SIZE - 1);
	KTEST_EXPECT_EQ(t, parse_with(&sized_ops, "p do_work+0x40"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, parse_with(&sized_ops, "p do_work+65"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, parse_with(&sized_ops, "p do_work+0xfffffff8"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	/* A symbol of unknown size keeps only the 4 GiB rule. */
	KTEST_EXPECT_EQ(t, parse_with(&sized_ops, "p jiffies+0x100"), 0);
}

/*
 * jiffies is at 0x1000: @jiffies-0x1000 is address 0, one more wraps.
 * Such a symbol cannot be used, found (like Linux's unknown symbol) when
 * the whole line has parsed, and reported at the probe point.
 */
static void memory_offset_must_not_wrap(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, parse("p do_work x=@jiffies-0x1000 y=@jiffies+0xffffefff"), 0);
	KTEST_EXPECT_EQ(t, parse("p do_work x=@jiffies-0x1001"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, err.pos, 2);
	KTEST_EXPECT_EQ(t, parse("p do_work x=@jiffies+0xfffff000"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	KTEST_EXPECT_EQ(t, parse("p do_work x=@jiffies+4294967295"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	/* A later argument's own error still comes first. */
	KTEST_EXPECT_EQ(t, parse("p do_work x=@jiffies-0x1001 %zz"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_REG_NAME);
}

/* ---- every length limit at N-1, N and N+1 -------------------------------- */

static const char *repeat(char c, size_t n)
{
	static char buf[2][PROBE_LINE_MAX + 1];
	static int which;
	char *b = buf[which++ & 1];

	memset(b, c, n);
	b[n] = '\0';
	return b;
}

/* Parse a line made by fmt around n copies of c; 0 or the error code. */
static int parse_limit(const char *fmt, char c, size_t n)
{
	snprintf(line, sizeof(line), fmt, repeat(c, n));
	return parse(line) ? (int)err.code : 0;
}

static void name_limits(struct ktest *t)
{
	const size_t name = PROBE_NAME_LEN - 1, arg = PROBE_ARG_NAME_MAX;

	KTEST_EXPECT_EQ(t, parse_limit("p:%s do_work", 'e', name - 1), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p:%s do_work", 'e', name), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p:%s do_work", 'e', name + 1), PROBE_ERR_EVENT_TOO_LONG);
	KTEST_EXPECT_EQ(t, parse_limit("p:%s/e do_work", 'g', name - 1), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p:%s/e do_work", 'g', name), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p:%s/e do_work", 'g', name + 1), PROBE_ERR_GROUP_TOO_LONG);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work %s=%%ax", 'n', arg - 1), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work %s=%%ax", 'n', arg), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work %s=%%ax", 'n', arg + 1), PROBE_ERR_ARG_NAME_TOO_LONG);
}

/* A FETCHARG body "\\0...01" of n characters; a symbol; a uprobe's path. */
static void text_limits(struct ktest *t)
{
	const size_t body = PROBE_ARG_TEXT_MAX, sym = PROBE_SYMBOL_LEN - 1;
	struct probe_event_def *d = &def;

	KTEST_EXPECT_EQ(t, parse_limit("p do_work x=\\%s1", '0', body - 3), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work x=\\%s1", '0', body - 2), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work x=\\%s1", '0', body - 1), PROBE_ERR_ARG_TOO_LONG);
	/* Symbols: no resolver, so a 127-character name is kept as written. */
	snprintf(line, sizeof(line), "p %s", repeat('s', sym));
	KTEST_ASSERT_EQ(t, probe_event_parse(line, strlen(line), NULL, d, &err), 0);
	KTEST_EXPECT_EQ(t, strlen(d->symbol), sym);
	snprintf(line, sizeof(line), "p %s", repeat('s', sym + 1));
	KTEST_EXPECT_EQ(t, probe_event_parse(line, strlen(line), NULL, d, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
	snprintf(line, sizeof(line), "p /%s:0x10", repeat('f', sym - 1));
	KTEST_EXPECT_EQ(t, uprobe_event_parse(line, strlen(line), NULL, d, &err), 0);
	snprintf(line, sizeof(line), "p /%s:0x10", repeat('f', sym));
	KTEST_EXPECT_EQ(t, uprobe_event_parse(line, strlen(line), NULL, d, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_FILE_NOT_FOUND);
}

/* PROBE_LINE_MAX bytes (a comment pads it) is a line; one more is not. */
static void whole_line_limit(struct ktest *t)
{
	const size_t head = strlen("p do_work #");

	KTEST_EXPECT_EQ(t, parse_limit("p do_work #%s", '#', PROBE_LINE_MAX - head - 1), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work #%s", '#', PROBE_LINE_MAX - head), 0);
	KTEST_EXPECT_EQ(t, parse_limit("p do_work #%s", '#', PROBE_LINE_MAX - head + 1),
			PROBE_ERR_LINE_TOO_LONG);
}

/* "p:e do_work" and named arguments of `len` bytes in all. */
static size_t build_named_line(size_t len)
{
	size_t n = (size_t)snprintf(line, sizeof(line), "p:e do_work");
	int i = 0;

	while (len - n > 66)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " v%03d=\\%s1", i++,
				      repeat('0', 50));
	snprintf(line + n, sizeof(line) - n, " v%03d=\\%s1", i, repeat('0', len - n - 8));
	return strlen(line);
}

/*
 * The listing adds "kprobes/" to this line: it must stay under
 * PROBE_LINE_MAX bytes, so that kprobe_events can print it and a user
 * can write it back.
 */
static void listing_limit(struct ktest *t)
{
	static char shown[2 * PROBE_LINE_MAX];
	const size_t extra = strlen("kprobes/");

	KTEST_ASSERT_EQ(t, build_named_line(PROBE_LINE_MAX - 2 - extra), PROBE_LINE_MAX - 2 - extra);
	KTEST_ASSERT_EQ(t, parse(line), 0);
	KTEST_EXPECT_EQ(t, probe_event_show(shown, sizeof(shown), &def), PROBE_LINE_MAX - 2);
	KTEST_ASSERT_EQ(t, build_named_line(PROBE_LINE_MAX - 1 - extra), PROBE_LINE_MAX - 1 - extra);
	KTEST_ASSERT_EQ(t, parse(line), 0);
	KTEST_EXPECT_EQ(t, probe_event_show(shown, sizeof(shown), &def), PROBE_LINE_MAX - 1);
	KTEST_ASSERT_EQ(t, build_named_line(PROBE_LINE_MAX - extra), PROBE_LINE_MAX - extra);
	KTEST_EXPECT_EQ(t, parse(line), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_LINE_TOO_LONG);
}

/* ---- every error, with its caret position -------------------------------- */

struct bad_line {
	const char *text;
	enum probe_err code;
	int pos;
};

#define LONG64 "a234567890123456789012345678901234567890123456789012345678901234"
static const struct bad_line bad_lines[] = {
	{ "x do_work",             PROBE_ERR_NONE, 0 },	/* Linux: EINVAL, not logged */
	{ "px do_work",            PROBE_ERR_BAD_CMD, 0 },
	{ "-",                     PROBE_ERR_BAD_CMD, 0 },
	{ "-foo",                  PROBE_ERR_BAD_CMD, 0 },
	{ "  p4:x do_work",        PROBE_ERR_BAD_MAXACT_TYPE, 3 },
	{ "r0 do_work",            PROBE_ERR_BAD_MAXACT, 1 },
	{ "rx do_work",            PROBE_ERR_BAD_MAXACT, 1 },
	{ "r99999999999 do_work",  PROBE_ERR_BAD_MAXACT, 1 },
	{ "r4097 do_work",         PROBE_ERR_MAXACT_TOO_BIG, 1 },
	{ "p",                     PROBE_ERR_NO_PROBE_POINT, 1 },
	{ "p:ev   ",               PROBE_ERR_NO_PROBE_POINT, 4 },
	{ "p do_work+x",           PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p do_work+",            PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p do_work-4",           PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p do_work+0x100000000", PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p 0xzz",                PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p 4294967296",          PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p 99999999999999999999999", PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p mod:do_work",         PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p nosuch",              PROBE_ERR_NO_SUCH_SYMBOL, 2 },
	{ "r do_work+4",           PROBE_ERR_BAD_RETPROBE, 2 },
	{ "r 0xc0101000",          PROBE_ERR_BAD_RETPROBE, 2 },
	{ "p:/ev do_work",         PROBE_ERR_NO_GROUP_NAME, 2 },
	{ "p:" LONG64 "/e do_work", PROBE_ERR_GROUP_TOO_LONG, 2 },
	{ "p:1grp/ev do_work",     PROBE_ERR_BAD_GROUP_NAME, 2 },
	{ "p: do_work",            PROBE_ERR_NO_EVENT_NAME, 2 },
	{ "-:",                    PROBE_ERR_NO_EVENT_NAME, 2 },
	{ "p:" LONG64 " do_work",  PROBE_ERR_EVENT_TOO_LONG, 2 },
	{ "p:g/" LONG64 " do_work", PROBE_ERR_EVENT_TOO_LONG, 4 },
	{ "p:my-ev do_work",       PROBE_ERR_BAD_EVENT_NAME, 2 },
	{ "p:grp/9 do_work",       PROBE_ERR_BAD_EVENT_NAME, 6 },
	{ "p:a/b/c do_work",       PROBE_ERR_BAD_EVENT_NAME, 4 },
	{ "p do_work $retval",     PROBE_ERR_RETVAL_ON_PROBE, 10 },
	/* Linux's parse_probe_vars() marks every $-variable at its '$'. */
	{ "p do_work $stackx",     PROBE_ERR_BAD_VAR, 10 },
	{ "p do_work $stack1025",  PROBE_ERR_BAD_STACK_NUM, 10 },
	{ "p do_work $stack10000", PROBE_ERR_BAD_STACK_NUM, 10 },
	{ "p do_work $stack-1",    PROBE_ERR_BAD_VAR, 10 },
	{ "p do_work $arg0",       PROBE_ERR_BAD_ARG_NUM, 10 },
	{ "p do_work $arg10000",   PROBE_ERR_BAD_ARG_NUM, 10 },
	{ "p do_work $argx",       PROBE_ERR_BAD_VAR, 10 },
	{ "p do_work+4 $arg1",     PROBE_ERR_BAD_VAR, 12 },
	{ "r do_work $arg1",       PROBE_ERR_BAD_VAR, 10 },
	{ "p 0x1000 $arg1",        PROBE_ERR_BAD_VAR, 9 },
	{ "p do_work $foo",        PROBE_ERR_BAD_VAR, 10 },
	{ "p do_work $",           PROBE_ERR_BAD_VAR, 10 },
	{ "p do_work %xyz",        PROBE_ERR_BAD_REG_NAME, 10 },
	{ "p do_work %",           PROBE_ERR_BAD_REG_NAME, 10 },
	{ "p do_work %AX",         PROBE_ERR_BAD_REG_NAME, 10 },
	{ "p do_work %ss",         PROBE_ERR_BAD_REG_NAME, 10 },
	/* @ errors at the '@'; a symbol fails only at registration, at the probe point. */
	{ "p do_work @0xq",        PROBE_ERR_BAD_MEM_ADDR, 10 },
	{ "p do_work @12345678abcde", PROBE_ERR_BAD_MEM_ADDR, 10 },
	{ "p do_work @+10",        PROBE_ERR_FILE_ON_KPROBE, 10 },
	{ "p do_work @",           PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p do_work @nosuch",     PROBE_ERR_BAD_PROBE_ADDR, 2 },
	{ "p do_work @jiffies+x",  PROBE_ERR_FAIL_REG_PROBE, 2 },
	{ "p do_work @nosuch %zz", PROBE_ERR_BAD_REG_NAME, 18 },
	/* an unknown symbol is refused before the arguments (Linux 6.1's validate_probe_symbol()) */
	{ "p nosuch %zz",          PROBE_ERR_NO_SUCH_SYMBOL, 2 },
	{ "p nosuch $arg1",        PROBE_ERR_NO_SUCH_SYMBOL, 2 },
	{ "p nosuch+4",            PROBE_ERR_NO_SUCH_SYMBOL, 2 },
	{ "p do_work x=\\x",       PROBE_ERR_BAD_IMM, 13 },
	{ "p do_work \\",          PROBE_ERR_BAD_IMM, 11 },
	{ "p do_work \\0x1ffffffff", PROBE_ERR_BAD_IMM, 11 },
	{ "p do_work \\\"abcd",    PROBE_ERR_IMMSTR_NO_CLOSE, 16 },
	{ "p do_work \\\"",        PROBE_ERR_IMMSTR_NO_CLOSE, 12 },
	{ "p do_work +0(+0(+0(+0(+0(+0(+0(+0(+0(%ax)))))))))", PROBE_ERR_TOO_MANY_OPS, 34 },
	{ "p do_work +0(+0(+0(+0(+0(+0(+0(+0(@jiffies))))))))", PROBE_ERR_TOO_MANY_OPS, 34 },
	{ "p do_work +4%ax",       PROBE_ERR_DEREF_NEED_BRACE, 10 },
	{ "p do_work +x(%ax)",     PROBE_ERR_BAD_DEREF_OFFS, 10 },
	{ "p do_work +(%ax)",      PROBE_ERR_BAD_DEREF_OFFS, 10 },
	{ "p do_work +0(%ax",      PROBE_ERR_DEREF_OPEN_BRACE, 16 },
	{ "p do_work +0((%ax)",    PROBE_ERR_BAD_FETCH_ARG, 13 },
	{ "p do_work +0(+0(@0)",   PROBE_ERR_DEREF_OPEN_BRACE, 18 },
	/* Linux counts "+u" one byte short for what is inside. */
	{ "p do_work +u0(+0(%ax)", PROBE_ERR_DEREF_OPEN_BRACE, 19 },
	{ "p do_work +u0(%zz)",    PROBE_ERR_BAD_REG_NAME, 13 },
	{ "p do_work +u(%ax)",     PROBE_ERR_BAD_DEREF_OFFS, 10 },
	{ "p do_work +0($comm)",   PROBE_ERR_COMM_CANT_DEREF, 13 },
	{ "p do_work +0(\\\"a\")", PROBE_ERR_COMM_CANT_DEREF, 13 },
	{ "p do_work 123",         PROBE_ERR_BAD_FETCH_ARG, 10 },
	{ "p do_work +0()",        PROBE_ERR_BAD_FETCH_ARG, 13 },
	{ "p do_work +0(%ax)x",    PROBE_ERR_BAD_FETCH_ARG, 17 },
	{ "p do_work x=:u8",       PROBE_ERR_BAD_FETCH_ARG, 12 },
	{ "p do_work %ax:u128",    PROBE_ERR_BAD_TYPE, 14 },
	{ "p do_work %ax:",        PROBE_ERR_BAD_TYPE, 14 },
	{ "p do_work %ax:u8:u8",   PROBE_ERR_BAD_TYPE, 14 },
	{ "p do_work %ax:string",  PROBE_ERR_BAD_STRING, 14 },
	{ "p do_work $stack1:string", PROBE_ERR_BAD_STRING, 18 },
	{ "p do_work %ax:symstr:x", PROBE_ERR_BAD_TYPE, 14 },
	{ "p do_work%ret",         PROBE_ERR_BAD_ADDR_SUFFIX, 9 },
	{ "p do_work+4%return",    PROBE_ERR_BAD_RETPROBE, 2 },
	{ "p do_work +0(%ax):u8[4", PROBE_ERR_ARRAY_NO_CLOSE, 22 },
	{ "p do_work +0(%ax):u8[4]x", PROBE_ERR_BAD_ARRAY_SUFFIX, 23 },
	{ "p do_work +0(%ax):u8[0]", PROBE_ERR_BAD_ARRAY_NUM, 21 },
	{ "p do_work +0(%ax):u8[x]", PROBE_ERR_BAD_ARRAY_NUM, 21 },
	{ "p do_work +0(%ax):u8[65]", PROBE_ERR_ARRAY_TOO_BIG, 21 },
	{ "p do_work %ax:u8[4]",   PROBE_ERR_BAD_STRING, 14 },
	{ "p do_work +u0(%ax):u8[4]", PROBE_ERR_BAD_STRING, 19 },
	{ "p do_work +0(%ax):symstr[2]", PROBE_ERR_BAD_STRING, 18 },
	{ "p do_work $comm:string[2]", PROBE_ERR_NEED_STRING_TYPE, 16 },
	{ "p do_work \\1:symstr",  PROBE_ERR_BAD_SYMSTRING, 13 },
	{ "p do_work +u0(%ax):symstr", PROBE_ERR_BAD_SYMSTRING, 19 },
	{ "p do_work $comm:symstr", PROBE_ERR_NEED_STRING_TYPE, 16 },
	{ "p do_work +0(%ax):b0@4/32", PROBE_ERR_BAD_BITFIELD, 18 },
	{ "p do_work +0(%ax):b4@5/8", PROBE_ERR_BAD_BITFIELD, 18 },
	{ "p do_work +0(%ax):b4/32", PROBE_ERR_BAD_BITFIELD, 18 },
	{ "p do_work +0(%ax):b4@/32", PROBE_ERR_BAD_BITFIELD, 18 },
	{ "p do_work +0(%ax):b4@4/12", PROBE_ERR_BAD_TYPE, 18 },
	{ "p do_work +0(%ax):b4@4/32x", PROBE_ERR_BAD_TYPE, 18 },
	{ "p do_work $comm:u32",   PROBE_ERR_NEED_STRING_TYPE, 16 },
	{ "p do_work \\\"x\":u8",  PROBE_ERR_NEED_STRING_TYPE, 15 },
	{ "p do_work a23456789012345678901234567890123=%ax", PROBE_ERR_ARG_NAME_TOO_LONG, 10 },
	{ "p do_work =%ax",        PROBE_ERR_NO_ARG_NAME, 10 },
	{ "p do_work 1x=%ax",      PROBE_ERR_BAD_ARG_NAME, 10 },
	{ "p do_work a-b=%ax",     PROBE_ERR_BAD_ARG_NAME, 10 },
	{ "p do_work x=%ax y=%bx x=%cx", PROBE_ERR_USED_ARG_NAME, 22 },
	{ "p do_work %ax arg1=%bx", PROBE_ERR_USED_ARG_NAME, 14 },
	{ "p do_work common_pid=%ax", PROBE_ERR_USED_ARG_NAME, 10 },
	{ "p do_work x=" LONG64,   PROBE_ERR_ARG_TOO_LONG, 12 },
	{ "p do_work x=",          PROBE_ERR_NO_ARG_BODY, 12 },
	{ "p do_\x01work",         PROBE_ERR_BAD_CHAR, 5 },
	{ "p do_work \xc3\xa9",    PROBE_ERR_BAD_CHAR, 10 },
	{ "p do_work\x7f",         PROBE_ERR_BAD_CHAR, 9 },
};

/*
 * Each line of a table must be refused with its error code at its column,
 * and leave nothing half-parsed behind.
 */
static void expect_bad_lines(struct ktest *t, const struct bad_line *lines, size_t n,
			     int (*parser)(const char *text))
{
	for (size_t i = 0; i < n; i++) {
		const struct bad_line *b = &lines[i];

		KTEST_EXPECT_EQ(t, parser(b->text), -EINVAL);
		if (err.code != b->code || err.pos != b->pos)
			ktest_fail(t, __FILE__, __LINE__,
				   "\"%s\": got %s (%d) at %d, want %s (%d) at %d",
				   b->text, probe_err_msg(err.code), err.code, err.pos,
				   probe_err_msg(b->code), b->code, b->pos);
		KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_NONE);
		KTEST_EXPECT_EQ(t, def.nr_args, 0);
	}
}

static void every_bad_line(struct ktest *t)
{
	expect_bad_lines(t, bad_lines, ARRAY_SIZE(bad_lines), parse);
}

/* uprobe_events lines: the same grammar but for PATH:OFFSET. */
static const struct bad_line bad_uprobe_lines[] = {
	/* not PATH:OFFSET at all: Linux's -ECANCELED, -EINVAL and no log */
	{ "p:myup /bin/hello",          PROBE_ERR_NONE, 7 },
	{ "p:myup /bin/hello:",         PROBE_ERR_NONE, 7 },
	{ "p:myup do_work+4",           PROBE_ERR_NONE, 7 },
	{ "p:myup :0x10",               PROBE_ERR_NONE, 7 },
	{ "p:myup hello:0x10",          PROBE_ERR_NONE, 7 },
	{ "p:myup /bin/hello:12x",      PROBE_ERR_BAD_UPROBE_OFFS, 18 },
	{ "p:myup /bin/he$llo:0x10",    PROBE_ERR_FILE_NOT_FOUND, 7 },
	{ "p:myup /bin/hello:0x10 @+ab",  PROBE_ERR_BAD_FILE_OFFS, 23 },
	{ "p:myup /bin/hello:0x10 @sym",  PROBE_ERR_SYM_ON_UPROBE, 23 },
	{ "p:myup /bin/hello:0x10(0x20",  PROBE_ERR_REFCNT_OPEN_BRACE, 27 },
	{ "p:myup /bin/hello:0x10(0x20)x", PROBE_ERR_BAD_REFCNT_SUFFIX, 28 },
	{ "p:myup /bin/hello:0x10(zz)",   PROBE_ERR_BAD_REFCNT, 23 },
	{ "p:myup /bin/hello:0x10%ret",   PROBE_ERR_BAD_ADDR_SUFFIX, 22 },
	{ "p:myup /bin/hello:0x10 $arg1", PROBE_ERR_BAD_VAR, 23 },
	{ "r:myup /bin/hello:0x10 x=$arg1", PROBE_ERR_BAD_VAR, 25 },
	{ "p:myup /bin/hello:0x10 $retval", PROBE_ERR_RETVAL_ON_PROBE, 23 },
	{ "q:myup /bin/hello:0x10",     PROBE_ERR_NONE, 0 },
};

static int parse_uprobe(const char *text)
{
	return uprobe_event_parse(text, strlen(text), NULL, &def, &err);
}

static void every_bad_uprobe_line(struct ktest *t)
{
	expect_bad_lines(t, bad_uprobe_lines, ARRAY_SIZE(bad_uprobe_lines), parse_uprobe);
}

/* /bin/hello is a file, /bin a directory, /bin/hello/x a path through a file. */
static int fake_file_lookup(const char *path)
{
	if (!strcmp(path, "/bin/hello"))
		return 0;
	if (!strcmp(path, "/bin"))
		return PROBE_FILE_NOT_REGULAR;
	return strncmp(path, "/bin/hello/", 11) ? -ENOENT : -ENOTDIR;
}

/* Linux looks the file up before the arguments: a missing one is the error. */
static void uprobe_file_looked_up_first(struct ktest *t)
{
	static const struct probe_parse_ops file_ops = { .file_lookup = fake_file_lookup };
	const char *bad = "p:u /bin/nosuch:0x10 %zz", *good = "p:u /bin/hello:0x10 %zz";
	const char *dir = "p:u /bin:0x10 %zz", *notdir = "p:u /bin/hello/x:0x10";

	KTEST_EXPECT_EQ(t, uprobe_event_parse(bad, strlen(bad), &file_ops, &def, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_FILE_NOT_FOUND);
	KTEST_EXPECT_EQ(t, err.pos, 4);
	KTEST_EXPECT_EQ(t, err.errnum, -ENOENT);
	KTEST_EXPECT_EQ(t, uprobe_event_parse(good, strlen(good), &file_ops, &def, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_REG_NAME);
	KTEST_EXPECT_EQ(t, err.errnum, 0);
	/* Linux: a directory is "Not a regular file", -EINVAL, before the arguments */
	KTEST_EXPECT_EQ(t, uprobe_event_parse(dir, strlen(dir), &file_ops, &def, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_NO_REGULAR_FILE);
	KTEST_EXPECT_EQ(t, err.pos, 4);
	KTEST_EXPECT_EQ(t, err.errnum, 0);
	/* kern_path()'s own errno goes back to the writer */
	KTEST_EXPECT_EQ(t, uprobe_event_parse(notdir, strlen(notdir), &file_ops, &def, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_FILE_NOT_FOUND);
	KTEST_EXPECT_EQ(t, err.errnum, -ENOTDIR);
}

/* Linux's examples: the path and file offset, the "uprobes" group, r: and -:. */
static void uprobe_lines(struct ktest *t)
{
	char shown[128];

	KTEST_ASSERT_EQ(t, parse_uprobe("p:myup /bin/hello:0x1234 %ax"), 0);
	KTEST_EXPECT_TRUE(t, def.uprobe);
	KTEST_EXPECT_STREQ(t, def.group, "uprobes");
	KTEST_EXPECT_STREQ(t, def.event, "myup");
	KTEST_EXPECT_STREQ(t, def.symbol, "/bin/hello");
	KTEST_EXPECT_EQ(t, def.offset, 0x1234);
	KTEST_EXPECT_EQ(t, def.nr_args, 1);
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "p:uprobes/myup /bin/hello:0x00001234 arg1=%ax");

	KTEST_ASSERT_EQ(t, parse_uprobe("p /bin/hello:4660"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "p_hello_0x1234");	/* Linux's default name */
	KTEST_ASSERT_EQ(t, parse_uprobe("r:grp/ret /bin/my-prog.v2:0x40 ret=$retval"), 0);
	KTEST_EXPECT_TRUE(t, def.is_return);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.symbol, "/bin/my-prog.v2");
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "r:grp/ret /bin/my-prog.v2:0x00000040 ret=$retval");
	KTEST_ASSERT_EQ(t, parse_uprobe("-:myup"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_DELETE);
	KTEST_EXPECT_STREQ(t, def.group, "uprobes");
	/* The kprobe parser still knows nothing of paths. */
	KTEST_EXPECT_EQ(t, parse("p:myup /bin/hello:0x1234"), -EINVAL);
	KTEST_EXPECT_FALSE(t, def.uprobe);
}

/* f: lines of dynamic_events (Linux 6.7+): FUNCTION[%return], no %REG. */
static const struct bad_line bad_fprobe_lines[] = {
	{ "f",                           PROBE_ERR_NO_PROBE_POINT, 1 },
	{ "f4:ev do_work",               PROBE_ERR_BAD_MAXACT_TYPE, 1 },
	{ "f0:ev do_work%return",        PROBE_ERR_BAD_MAXACT, 1 },
	{ "f:ev do_work %ax",            PROBE_ERR_BAD_VAR, 13 },
	{ "f:ev do_work $retval",        PROBE_ERR_RETVAL_ON_PROBE, 13 },
	{ "f:ev do_work%return x=$arg1", PROBE_ERR_BAD_VAR, 22 },
	{ "f:ev do_work%ret",            PROBE_ERR_BAD_ADDR_SUFFIX, 12 },
	{ "f:ev do_work+4",              PROBE_ERR_BAD_PROBE_ADDR, 5 },
	{ "f:ev 0xc0101000",             PROBE_ERR_BAD_PROBE_ADDR, 5 },
	{ "f:ev nosuch x=$arg1",         PROBE_ERR_BAD_PROBE_ADDR, 5 },
	{ "p:ev do_work",                PROBE_ERR_BAD_FPROBE_CMD, 0 },
	{ "r:ev do_work",                PROBE_ERR_BAD_FPROBE_CMD, 0 },
};

static int parse_fprobe(const char *text)
{
	return fprobe_event_parse(text, strlen(text), &parse_ops, &def, &err);
}

static void every_bad_fprobe_line(struct ktest *t)
{
	expect_bad_lines(t, bad_fprobe_lines, ARRAY_SIZE(bad_fprobe_lines), parse_fprobe);
	/* kprobe_events takes no f: line. */
	KTEST_EXPECT_EQ(t, parse("f:ev do_work"), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_NONE);		/* not logged, as Linux */
}

/* Linux 6.7's examples: the "fprobes" group, FUNC__entry / FUNC__exit, f[N]. */
static void fprobe_lines(struct ktest *t)
{
	char shown[128];

	KTEST_ASSERT_EQ(t, parse_fprobe("f do_work a=$arg1 d=$arg4"), 0);
	KTEST_EXPECT_TRUE(t, def.fprobe);
	KTEST_EXPECT_FALSE(t, def.is_return);
	KTEST_EXPECT_STREQ(t, def.group, "fprobes");
	KTEST_EXPECT_STREQ(t, def.event, "do_work__entry");
	KTEST_EXPECT_EQ(t, def.addr, FAKE_FUNC);
	expect_op(t, &def.args[0], 0, FETCH_OP_REG, offsetof(struct pt_regs, ax));
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "f:fprobes/do_work__entry do_work a=$arg1 d=$arg4");

	KTEST_ASSERT_EQ(t, parse_fprobe("f:grp/ev do_work%return r=$retval"), 0);
	KTEST_EXPECT_TRUE(t, def.is_return);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "f:grp/ev do_work%return r=$retval");
	KTEST_EXPECT_TRUE(t, probe_event_match(&def, "-:ev do_work%return", 19));
	KTEST_EXPECT_FALSE(t, probe_event_match(&def, "-:ev do_work", 12));

	KTEST_ASSERT_EQ(t, parse_fprobe("f8 do_work%return"), 0);
	KTEST_EXPECT_EQ(t, def.maxactive, 8);
	KTEST_EXPECT_STREQ(t, def.event, "do_work__exit");
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "f8:fprobes/do_work__exit do_work%return");

	KTEST_ASSERT_EQ(t, parse_fprobe("-:ev"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_DELETE);
	KTEST_EXPECT_STREQ(t, def.group, "fprobes");
}

/*
 * A pushed selector fills only the low 16 bits of its 32-bit slot on a
 * CPU that writes no more (Bochs, real hardware): %ds and %cs are the
 * selector, never the junk the stack held above it.
 */
static void fetch_selector_ignores_its_slots_upper_half(struct ktest *t)
{
	const uint32_t ds_slot = 0x00240010, cs_slot = 0x00390008;
	struct fetch_value v;
	char s[16];

	KTEST_ASSERT_EQ(t, parse("p do_work %ds %cs"), 0);
	setup_frame();
	memcpy((char *)&frame.regs + offsetof(struct pt_regs, ds), &ds_slot, sizeof(ds_slot));
	memcpy((char *)&frame.regs + offsetof(struct pt_regs, cs), &cs_slot, sizeof(cs_slot));
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[0], &frame.regs, &fetch_ops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x10);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[1], &frame.regs, &fetch_ops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x08);
}

/*
 * A uprobe traps from ring 3: %sp, $stackN and +N(%sp) are the
 * process's stack (regs->sp), not the kernel's.
 */
static void fetch_from_a_user_frame(struct ktest *t)
{
	struct fetch_value v;
	char s[16];

	setup_frame();
	frame.regs.cs = 0x3b;			/* RPL 3: a frame from ring 3 */
	frame.regs.sp = FAKE_DATA;
	/* Words are W bytes here, the host's unsigned long. */
	snprintf(line, sizeof(line), "p /bin/hello:0x10 %%sp +%d(%%sp) $stack2 +0(+%d(%%sp))",
		 W, 2 * W);
	KTEST_ASSERT_EQ(t, parse_uprobe(line), 0);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[0], &frame.regs, &fetch_ops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, FAKE_DATA);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[1], &frame.regs, &fetch_ops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x101);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[2], &frame.regs, &fetch_ops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, FAKE_DATA + 3 * W);
	KTEST_ASSERT_EQ(t, fetch_arg_exec(&def.args[3], &frame.regs, &fetch_ops, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x103);
}

/* The lines above, the two built below and the NUL test use every code. */
static void every_error_is_tested(struct ktest *t)
{
	/* The last three need an existing event: tests/sessions/18_probe_grammar.txt. */
	bool seen[PROBE_ERR_COUNT] = { [PROBE_ERR_NONE] = true,
		[PROBE_ERR_TOO_MANY_ARGS] = true, [PROBE_ERR_LINE_TOO_LONG] = true,
		[PROBE_ERR_DIFF_PROBE_TYPE] = true, [PROBE_ERR_DIFF_ARG_TYPE] = true,
		[PROBE_ERR_SAME_PROBE] = true,
		/* event probes': tests/host/test_eprobe_events.c; the name taken, the kernel's */
		[PROBE_ERR_NO_EVENT_INFO] = true, [PROBE_ERR_BAD_ATTACH_EVENT] = true,
		[PROBE_ERR_BAD_ATTACH_ARG] = true, [PROBE_ERR_NO_EP_FILTER] = true,
		[PROBE_ERR_EVENT_EXIST] = true,
		/* needs a file lookup: uprobe_file_looked_up_first */
		[PROBE_ERR_NO_REGULAR_FILE] = true };

	for (size_t i = 0; i < ARRAY_SIZE(bad_lines); i++)
		seen[bad_lines[i].code] = true;
	for (size_t i = 0; i < ARRAY_SIZE(bad_uprobe_lines); i++)
		seen[bad_uprobe_lines[i].code] = true;
	for (size_t i = 0; i < ARRAY_SIZE(bad_fprobe_lines); i++)
		seen[bad_fprobe_lines[i].code] = true;
	for (int c = 0; c < PROBE_ERR_COUNT; c++)
		if (!seen[c])
			ktest_fail(t, __FILE__, __LINE__, "no test for error %d \"%s\"",
				   c, probe_err_msg(c));
}

static void too_many_args(struct ktest *t)
{
	int n = snprintf(line, sizeof(line), "p do_work");
	int pos = 0;

	for (int i = 0; i <= PROBE_MAX_ARGS; i++) {
		pos = n + 1;
		n += snprintf(line + n, sizeof(line) - n, " %%ax");
	}
	KTEST_EXPECT_EQ(t, parse(line), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_TOO_MANY_ARGS);
	KTEST_EXPECT_EQ(t, err.pos, pos);         /* the 129th argument */
}

static void overlong_line(struct ktest *t)
{
	memset(line, 'a', PROBE_LINE_MAX + 1);
	line[0] = 'p';
	line[1] = ' ';
	line[PROBE_LINE_MAX + 1] = '\0';
	KTEST_EXPECT_EQ(t, parse(line), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_LINE_TOO_LONG);
	/* One byte less is a (bad) symbol, not a long line. */
	line[PROBE_LINE_MAX] = '\0';
	KTEST_EXPECT_EQ(t, parse(line), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_PROBE_ADDR);
}

static void nul_byte_in_line(struct ktest *t)
{
	const char text[] = "p do_work\0 %ax";

	KTEST_EXPECT_EQ(t, probe_event_parse(text, sizeof(text) - 1, &parse_ops,
					     &def, &err), -EINVAL);
	KTEST_EXPECT_EQ(t, err.code, PROBE_ERR_BAD_CHAR);
	KTEST_EXPECT_EQ(t, err.pos, 9);
}

static void error_messages(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, probe_err_msg(PROBE_ERR_NO_EVENT_NAME),
			   "Event name is not specified");
	KTEST_EXPECT_STREQ(t, probe_err_msg(PROBE_ERR_TOO_MANY_ARGS),
			   "Too many arguments are specified");
	KTEST_EXPECT_STREQ(t, probe_err_msg(PROBE_ERR_BAD_STRING),
			   "String accepts only memory argument");
	KTEST_EXPECT_STREQ(t, probe_err_msg(PROBE_ERR_COUNT), "Invalid argument");
	KTEST_EXPECT_STREQ(t, probe_err_msg(-1), "Invalid argument");
	for (int c = 0; c < PROBE_ERR_COUNT; c++)
		KTEST_EXPECT_TRUE(t, strlen(probe_err_msg(c)) > 5);
}

static void error_log_caret(struct ktest *t)
{
	const char *text = "p:myprobe   do_work \t foo  # note";
	char buf[256];
	int n;

	KTEST_ASSERT_EQ(t, parse(text), -EINVAL);     /* foo: Invalid fetch argument */
	n = probe_err_format(buf, sizeof(buf), text, strlen(text), &err);
	KTEST_EXPECT_STREQ(t, buf, "  Command: p:myprobe do_work foo\n"
			   "                             ^\n");
	KTEST_EXPECT_EQ(t, n, (int)strlen(buf));
	/* Short buffer: still terminated, same length returned. */
	KTEST_EXPECT_EQ(t, probe_err_format(buf, 8, text, strlen(text), &err), n);
	KTEST_EXPECT_STREQ(t, buf, "  Comma");
	/* The caret lands inside a word, and past the end. */
	KTEST_ASSERT_EQ(t, parse("p do_work +0(%ax"), -EINVAL);
	probe_err_format(buf, sizeof(buf), "p do_work +0(%ax", 16, &err);
	KTEST_EXPECT_STREQ(t, buf, "  Command: p do_work +0(%ax\n"
			   "                           ^\n");
	/* Control bytes are shown as '?'. */
	KTEST_ASSERT_EQ(t, parse("p do\x01"), -EINVAL);
	probe_err_format(buf, sizeof(buf), "p do\x01", 5, &err);
	KTEST_EXPECT_STREQ(t, buf, "  Command: p do?\n"
			   "               ^\n");
}

/* ---- kprobe_events listing -------------------------------------------- */

static void show_definitions(struct ktest *t)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "p do_work", "p:kprobes/p_do_work_0 do_work" },
		{ "p:g/e do_work+0x10 a=%ax %bx:u8", "p:g/e do_work+16 a=%ax arg2=%bx:u8" },
		{ "r8:rp do_work $retval", "r8:kprobes/rp do_work arg1=$retval" },
		{ "p 0x1000 s=+0(%cx):string", "p:kprobes/p_0x00001000 0x00001000 s=+0(%cx):string" },
	};
	char buf[256], again[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		KTEST_ASSERT_EQ(t, parse(cases[i].in), 0);
		KTEST_EXPECT_EQ(t, probe_event_show(buf, sizeof(buf), &def),
				(int)strlen(cases[i].out));
		KTEST_EXPECT_STREQ(t, buf, cases[i].out);
		/* What is listed reads back as the same definition. */
		KTEST_ASSERT_EQ(t, parse(buf), 0);
		probe_event_show(again, sizeof(again), &def);
		KTEST_EXPECT_STREQ(t, again, buf);
	}
	KTEST_EXPECT_EQ(t, probe_event_show(buf, 4, &def), (int)strlen(again));
	KTEST_EXPECT_STREQ(t, buf, "p:k");
}

/* ---- fetching ------------------------------------------------------------ */

static void fetch_registers_and_stack(struct ktest *t)
{
	struct fetch_value v;
	char s[16];

	KTEST_ASSERT_EQ(t, fetch_one("%ax", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 3);
	KTEST_ASSERT_EQ(t, fetch_one("%flags", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x246);
	KTEST_ASSERT_EQ(t, fetch_one("%sp:x64", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, (unsigned long)&frame.regs.sp);
	KTEST_ASSERT_EQ(t, fetch_one("$stack:x64", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, (unsigned long)&frame.regs.sp);
	KTEST_ASSERT_EQ(t, fetch_one("$stack0", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0xc0105678);                  /* return address */
	KTEST_ASSERT_EQ(t, fetch_one("$arg1", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 3);                           /* ax */
	KTEST_ASSERT_EQ(t, fetch_one("$arg2:u32", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0xdead0000);                  /* dx */
	KTEST_ASSERT_EQ(t, fetch_one("$arg3", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, FAKE_TEXT);                   /* cx */
	KTEST_ASSERT_EQ(t, fetch_one("$arg4", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 111);                         /* the word above the return address */
	KTEST_ASSERT_EQ(t, fetch_one("$arg5:u32", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 222);
	KTEST_ASSERT_EQ(t, fetch_one("$stack2", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 222);
	/* Far beyond the fake stack: a failed read, not a crash. */
	KTEST_EXPECT_EQ(t, fetch_one("$stack1000", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, v.fault, 1);
}

static void fetch_memory(struct ktest *t)
{
	struct fetch_value v;
	char s[16], text[64];

	KTEST_ASSERT_EQ(t, fetch_one("@0x1000", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x100);
	snprintf(text, sizeof(text), "@jiffies+%d", W);
	KTEST_ASSERT_EQ(t, fetch_one(text, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x101);
	snprintf(text, sizeof(text), "+%d(%%bx)", 4 * W);
	KTEST_ASSERT_EQ(t, fetch_one(text, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x104);
	/* fake_data[2] points at fake_data[3]. */
	snprintf(text, sizeof(text), "+0(+%d(%%bx)):u16", 2 * W);
	KTEST_ASSERT_EQ(t, fetch_one(text, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x103);
	snprintf(text, sizeof(text), "-%d(+%d(%%bx))", W, 2 * W);
	KTEST_ASSERT_EQ(t, fetch_one(text, &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, FAKE_DATA + 3 * W);   /* fake_data[2] itself */
	KTEST_ASSERT_EQ(t, fetch_one("\\0x1234", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x1234);
}

static void fetch_reads_only_the_type_size(struct ktest *t)
{
	struct fetch_value v;
	char s[4];

	/* fake_edge has 3 bytes: a u8 or u16 at its end reads, a u32 faults. */
	KTEST_ASSERT_EQ(t, fetch_one("@0x3002:u8", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x80);
	KTEST_ASSERT_EQ(t, fetch_one("+2(\\0x3000):u8", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x80);
	KTEST_ASSERT_EQ(t, fetch_one("+1(\\0x3000):u16", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.raw, 0x8022);                  /* little-endian */
	KTEST_EXPECT_EQ(t, fetch_one("+1(\\0x3000):u32", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, v.fault, 1);
}

static void fetch_faults(struct ktest *t)
{
	struct fetch_value v;
	char s[16];

	KTEST_EXPECT_EQ(t, fetch_one("+0(%dx)", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, v.fault, 1);
	KTEST_EXPECT_EQ(t, v.raw, 0);
	KTEST_EXPECT_EQ(t, fetch_one("+0(+0(%dx))", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, fetch_one("+0(%dx):string", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, v.str_len, 0);
	KTEST_EXPECT_EQ(t, fetch_one("@0x10", &v, s, sizeof(s)), -EFAULT);
}

static void fetch_strings(struct ktest *t)
{
	struct fetch_value v;
	char s[16];

	KTEST_ASSERT_EQ(t, fetch_one("+0(%cx):string", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.str_len, 5);
	KTEST_EXPECT_EQ(t, memcmp(s, "hello", 5), 0);
	KTEST_ASSERT_EQ(t, fetch_one("@greeting:string", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.str_len, 5);
	KTEST_ASSERT_EQ(t, fetch_one("+2(%cx):string", &v, s, 2), 0);   /* truncated */
	KTEST_EXPECT_EQ(t, v.str_len, 2);
	KTEST_EXPECT_EQ(t, memcmp(s, "ll", 2), 0);
	KTEST_ASSERT_EQ(t, fetch_one("$comm", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.str_len, 6);
	KTEST_EXPECT_EQ(t, memcmp(s, "worker", 6), 0);
	KTEST_ASSERT_EQ(t, fetch_one("\\\"a:b\"", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.str_len, 3);
	KTEST_EXPECT_EQ(t, memcmp(s, "a:b", 3), 0);
	/* A string running into unmapped memory is a fault. */
	fake_text[5] = '!';
	KTEST_EXPECT_EQ(t, fetch_one("+0(%cx):string", &v, s, sizeof(s)), -EFAULT);
	fake_text[5] = '\0';
}

/* :ustring reads through read_user, :string through read_mem: neither reaches the other's memory. */
static void fetch_user_strings(struct ktest *t)
{
	struct fetch_value v;
	char s[16];

	KTEST_ASSERT_EQ(t, fetch_one("+0(\\0x8049000):ustring", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, v.str_len, 9);
	KTEST_EXPECT_EQ(t, memcmp(s, "from user", 9), 0);
	KTEST_ASSERT_EQ(t, fetch_one("+5(\\0x8049000):ustring", &v, s, sizeof(s)), 0);
	KTEST_EXPECT_EQ(t, memcmp(s, "user", 4), 0);
	KTEST_EXPECT_EQ(t, fetch_one("+0(\\0x8049000):string", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, fetch_one("+0(%cx):ustring", &v, s, sizeof(s)), -EFAULT);
	KTEST_EXPECT_EQ(t, v.fault, 1);
	KTEST_ASSERT_EQ(t, parse("p do_work buf=+0(%cx):ustring"), 0);
	KTEST_EXPECT_STREQ(t, fetch_type_name(def.args[0].type), "ustring");
	KTEST_EXPECT_EQ(t, parse("p do_work %ax:ustring"), -EINVAL);
	KTEST_EXPECT_EQ(t, parse("p do_work $comm:ustring"), -EINVAL);
}

/* ---- printing ------------------------------------------------------------ */

static void format_each_type(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, fetch_text("\\255:u8"), " arg1=255");
	KTEST_EXPECT_STREQ(t, fetch_text("\\255:s8"), " arg1=-1");
	KTEST_EXPECT_STREQ(t, fetch_text("\\255:x8"), " arg1=0xff");
	KTEST_EXPECT_STREQ(t, fetch_text("\\0x18000:u16"), " arg1=32768");
	KTEST_EXPECT_STREQ(t, fetch_text("\\0x8000:s16"), " arg1=-32768");
	KTEST_EXPECT_STREQ(t, fetch_text("\\0x8000:x16"), " arg1=0x8000");
	KTEST_EXPECT_STREQ(t, fetch_text("\\-1:u32"), " arg1=4294967295");
	KTEST_EXPECT_STREQ(t, fetch_text("\\-1:s32"), " arg1=-1");
	KTEST_EXPECT_STREQ(t, fetch_text("\\-2:x32"), " arg1=0xfffffffe");
	KTEST_EXPECT_STREQ(t, fetch_text("\\31"), " arg1=0x1f");          /* default x32 */
	KTEST_EXPECT_STREQ(t, fetch_text("\\31:u64"), " arg1=31");
	KTEST_EXPECT_STREQ(t, fetch_text("\\31:s64"), " arg1=31");
	KTEST_EXPECT_STREQ(t, fetch_text("\\31:x64"), " arg1=0x1f");
	KTEST_EXPECT_STREQ(t, fetch_text("+0(%cx):string"), " arg1=\"hello\"");
	KTEST_EXPECT_STREQ(t, fetch_text("\\0xc0101004:symbol"), " arg1=do_work+0x4/0x20");
	KTEST_EXPECT_STREQ(t, fetch_text("x=+0(%dx)"), " x=(fault)");
	KTEST_EXPECT_STREQ(t, fetch_text("x=+0(%dx):string"), " x=(fault)");
	KTEST_EXPECT_STREQ(t, fetch_text("$retval:s32 $comm"), " arg1=3 arg2=\"worker\"");
}

static void format_s64_from_memory(struct ktest *t)
{
	struct fetch_value v = { .raw = 0xffffffffffffff85ULL };
	char buf[32];

	fetch_value_format(buf, sizeof(buf), FETCH_TYPE_S64, &v, NULL, NULL);
	KTEST_EXPECT_STREQ(t, buf, "-123");
	fetch_value_format(buf, sizeof(buf), FETCH_TYPE_X64, &v, NULL, NULL);
	KTEST_EXPECT_STREQ(t, buf, "0xffffffffffffff85");
	fetch_value_format(buf, sizeof(buf), FETCH_TYPE_U64, &v, NULL, NULL);
	KTEST_EXPECT_STREQ(t, buf, "18446744073709551493");
	v.raw = 0xc0101000;
	fetch_value_format(buf, sizeof(buf), FETCH_TYPE_SYMBOL, &v, NULL, NULL);
	KTEST_EXPECT_STREQ(t, buf, "0xc0101000");                  /* no kallsyms */
	v.fault = 1;
	fetch_value_format(buf, sizeof(buf), FETCH_TYPE_U8, &v, NULL, NULL);
	KTEST_EXPECT_STREQ(t, buf, "(fault)");
}

static void record_end_to_end(struct ktest *t)
{
	unsigned char rec[1024];
	char out[256];
	int n;

	KTEST_ASSERT_EQ(t, parse("p:ev do_work fd=%ax name=+0(%cx):string "
				 "bad=+0(%dx) who=$comm a4=$arg4:s32"), 0);
	setup_frame();
	KTEST_EXPECT_TRUE(t, probe_args_record_max(&def) <= sizeof(rec));
	n = probe_args_fetch(&def, &frame.regs, &fetch_ops, rec, sizeof(rec));
	KTEST_ASSERT_EQ(t, n, (int)(5 * sizeof(struct fetch_value) + 5 + 6));
	KTEST_EXPECT_EQ(t, probe_args_format(out, sizeof(out), &def, rec, n, NULL),
			(int)strlen(out));
	KTEST_EXPECT_STREQ(t, out, " fd=0x3 name=\"hello\" bad=(fault) who=\"worker\" a4=111");

	/* Strings are cut when the record is short... */
	n = probe_args_fetch(&def, &frame.regs, &fetch_ops, rec,
			     5 * sizeof(struct fetch_value) + 3);
	KTEST_ASSERT_EQ(t, n, (int)(5 * sizeof(struct fetch_value) + 3));
	probe_args_format(out, sizeof(out), &def, rec, n, NULL);
	KTEST_EXPECT_STREQ(t, out, " fd=0x3 name=\"hel\" bad=(fault) who=\"\" a4=111");
	/* ...and refused when not even the values fit. */
	KTEST_EXPECT_EQ(t, probe_args_fetch(&def, &frame.regs, &fetch_ops, rec, 8), -ENOSPC);
	/* A record shorter than it claims is not read past its end. */
	probe_args_format(out, sizeof(out), &def, rec, 8, NULL);
	KTEST_EXPECT_STREQ(t, out, " (bad record)");
	n = probe_args_fetch(&def, &frame.regs, &fetch_ops, rec, sizeof(rec));
	probe_args_format(out, sizeof(out), &def, rec, n - 6, NULL);
	KTEST_EXPECT_STREQ(t, out, " fd=0x3 name=\"hello\" bad=(fault) who=(bad record) a4=111");
	/* Output truncation behaves like snprintf. */
	KTEST_EXPECT_EQ(t, probe_args_format(out, 6, &def, rec, n, NULL),
			(int)strlen(" fd=0x3 name=\"hello\" bad=(fault) who=\"worker\" a4=111"));
	KTEST_EXPECT_STREQ(t, out, " fd=0");
}

/* ---- the forms Linux 6.1 (and later) added ------------------------------ */

static void return_suffix_and_dot_group(struct ktest *t)
{
	char shown[128];

	KTEST_ASSERT_EQ(t, parse("p:rp do_work%return $retval"), 0);
	KTEST_EXPECT_TRUE(t, def.is_return);
	KTEST_EXPECT_STREQ(t, def.symbol, "do_work");
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "r:kprobes/rp do_work arg1=$retval");
	KTEST_ASSERT_EQ(t, parse("p do_work%return"), 0);
	KTEST_EXPECT_STREQ(t, def.event, "r_do_work_0");
	/* MOD:SYM: a module's symbol, kallsyms finds it by both names. */
	KTEST_ASSERT_EQ(t, parse("p mymod:do_work"), 0);
	KTEST_EXPECT_STREQ(t, def.symbol, "mymod:do_work");
	KTEST_EXPECT_STREQ(t, def.event, "p_mymod_do_work_0");
	KTEST_EXPECT_EQ(t, parse("p :do_work"), -EINVAL);
	KTEST_EXPECT_EQ(t, parse("p mymod:"), -EINVAL);
	KTEST_ASSERT_EQ(t, parse("p:grp.ev do_work"), 0);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "ev");
	/* "-:GRP/" names every event of the group. */
	KTEST_ASSERT_EQ(t, parse("-:grp/"), 0);
	KTEST_EXPECT_EQ(t, def.cmd, PROBE_CMD_DELETE);
	KTEST_EXPECT_STREQ(t, def.group, "grp");
	KTEST_EXPECT_STREQ(t, def.event, "");
}

static void fetch_bitfields(struct ktest *t)
{
	/* fake_data[0] is 0x100: bits 8..11 hold 1; ax is 3. */
	KTEST_EXPECT_STREQ(t, fetch_text("a=+0(%bx):b4@8/32 b=%ax:b1@1/8 c=+0(%bx):b8@0/8 "
					 "d=+0(%bx):b0x4@0x8/16"),
			   " a=1 b=1 c=0 d=1");
	KTEST_ASSERT_EQ(t, parse("p do_work +0(%bx):b4@8/32"), 0);
	KTEST_EXPECT_TRUE(t, def.args[0].bitfield);
	KTEST_EXPECT_STREQ(t, fetch_type_name(def.args[0].type), "u32");
	KTEST_EXPECT_STREQ(t, def.args[0].comm, "+0(%bx):b4@8/32");
}

static void fetch_arrays(struct ktest *t)
{
	/* fake_edge: 0x11 0x22 0x80, then a hole. */
	KTEST_EXPECT_STREQ(t, fetch_text("a=@0x3000:u8[3] b=@0x3000:x8[2] c=@0x3000:s8[3]"),
			   " a={17,34,128} b={0x11,0x22} c={17,34,-128}");
	KTEST_EXPECT_STREQ(t, fetch_text("a=@0x3000:u8[4]"), " a={17,34,128,(fault)}");
	KTEST_EXPECT_STREQ(t, fetch_text("c=+0(%cx):char[5]"), " c={'h','e','l','l','o'}");
	KTEST_ASSERT_EQ(t, parse("p do_work +0(%cx):u8[64]"), 0);
	KTEST_EXPECT_EQ(t, def.args[0].count, PROBE_ARRAY_MAX);
	KTEST_EXPECT_EQ(t, probe_args_record_max(&def), PROBE_ARRAY_MAX * sizeof(struct fetch_value));
}

static void fetch_string_arrays(struct ktest *t)
{
	unsigned char rec[2048];
	char out[256];
	int n;

	KTEST_ASSERT_EQ(t, parse("p do_work s=+0(%bx):string[2] u=\\0x2000:string"), 0);
	setup_frame();
	fake_data[0] = FAKE_TEXT;          /* two string pointers */
	fake_data[1] = FAKE_TEXT + 1;
	n = probe_args_fetch(&def, &frame.regs, &fetch_ops, rec, sizeof(rec));
	KTEST_ASSERT_TRUE(t, n > 0);
	probe_args_format(out, sizeof(out), &def, rec, n, NULL);
	/* \IMM:string is the string AT the immediate, as in Linux. */
	KTEST_EXPECT_STREQ(t, out, " s={\"hello\",\"ello\"} u=\"hello\"");
}

static void fetch_char_and_symstr(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, fetch_text("c=+0(%cx):char d=+1(%cx):char"), " c='h' d='e'");
	KTEST_EXPECT_STREQ(t, fetch_text("s=%ip:symstr"), " s=\"do_work+0x1/0x20\"");
	KTEST_EXPECT_STREQ(t, fetch_text("s=+0(%bx):symstr"), " s=\"0x100\"");
	KTEST_ASSERT_EQ(t, parse("p do_work s=%ip:symstr"), 0);
	KTEST_EXPECT_STREQ(t, fetch_type_name(def.args[0].type), "symstr");
}

/* +uOFFS(...): the process's memory, through read_user only. */
static void fetch_user_dereference(struct ktest *t)
{
	char args[96];

	snprintf(args, sizeof(args), "s=+u0(\\0x%lx):string b=+u0(\\0x%lx):u8 "
		 "k=+u0(%%bx):u8", FAKE_USER, FAKE_USER);
	KTEST_EXPECT_STREQ(t, fetch_text(args), " s=\"from user\" b=102 k=(fault)");
	KTEST_ASSERT_EQ(t, parse("p do_work +u4(%ax)"), 0);
	KTEST_EXPECT_EQ(t, def.args[0].ops[1].code, FETCH_OP_UDEREF);
	KTEST_EXPECT_EQ(t, def.args[0].ops[1].param, 4);
	KTEST_ASSERT_EQ(t, parse("p do_work -u4(%ax)"), 0);
	KTEST_EXPECT_EQ(t, def.args[0].ops[1].param, (unsigned long)-4);
}

/* uprobe_events: PATH:OFFS%return(REF_CTR) and @+OFFS. */
static void uprobe_ref_ctr_and_file_offset(struct ktest *t)
{
	unsigned char rec[256];
	char shown[128];
	int n;

	KTEST_ASSERT_EQ(t, parse_uprobe("p:u /bin/hello:0x10(0x20)"), 0);
	KTEST_EXPECT_EQ(t, def.offset, 0x10);
	KTEST_EXPECT_EQ(t, def.ref_ctr_offset, 0x20);
	probe_event_show(shown, sizeof(shown), &def);
	KTEST_EXPECT_STREQ(t, shown, "p:uprobes/u /bin/hello:0x00000010(0x20)");
	KTEST_ASSERT_EQ(t, parse_uprobe("p:u /bin/hello:0x10%return(8)"), 0);
	KTEST_EXPECT_TRUE(t, def.is_return);
	KTEST_EXPECT_EQ(t, def.ref_ctr_offset, 8);

	snprintf(line, sizeof(line), "p /bin/hello:0x10 w=@+%d", W);
	KTEST_ASSERT_EQ(t, parse_uprobe(line), 0);
	KTEST_EXPECT_EQ(t, def.args[0].ops[0].code, FETCH_OP_FOFFS);
	setup_frame();
	n = probe_args_fetch(&def, &frame.regs, &fetch_ops, rec, sizeof(rec));
	probe_args_format((char *)shown, sizeof(shown), &def, rec, n, NULL);
	KTEST_EXPECT_STREQ(t, shown, " w=0x101");
}

/* "-:EVENT PROBE [ARGS]": the words must be the listing's, probe point first. */
static void delete_names_the_probe(struct ktest *t)
{
	static const struct { const char *del; bool match; } cases[] = {
		{ "-:ev", true },
		{ "-:ev do_work+4", true },
		{ "-:ev do_work+4 a=%ax", true },
		{ "-:ev do_work+4 a=%ax arg2=+0(%bx):u8", true },
		{ "-:ev do_work+4 a=%ax arg2=+0(%bx):u8 x=%cx", false },
		{ "-:ev do_work+0x4", false },
		{ "-:ev do_work", false },
		{ "-:ev do_work+4 %ax", false },
		{ "-:ev do_work+4 a=%bx", false },
	};

	KTEST_ASSERT_EQ(t, parse("p:ev do_work+4 a=%ax +0(%bx):u8"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (probe_event_match(&def, cases[i].del, strlen(cases[i].del)) != cases[i].match)
			ktest_fail(t, __FILE__, __LINE__, "\"%s\": want %s", cases[i].del,
				   cases[i].match ? "a match" : "no match");
	KTEST_ASSERT_EQ(t, parse_uprobe("p:u /bin/hello:0x10(0x20)"), 0);
	KTEST_EXPECT_TRUE(t, probe_event_match(&def, "-:u /bin/hello:0x00000010(0x20)", 31));
	KTEST_EXPECT_FALSE(t, probe_event_match(&def, "-:u /bin/hello:0x10", 19));
	KTEST_ASSERT_EQ(t, parse("p:a 0x1000"), 0);
	KTEST_EXPECT_TRUE(t, probe_event_match(&def, "-:a 0x00001000", 14));
}

static struct ktest_case cases[] = {
	KTEST_CASE(probe_default_names),
	KTEST_CASE(probe_memaddr),
	KTEST_CASE(probe_group_and_event),
	KTEST_CASE(return_probe_maxactive),
	KTEST_CASE(delete_command),
	KTEST_CASE(blank_and_comment_lines),
	KTEST_CASE(line_need_not_be_terminated),
	KTEST_CASE(no_resolver_leaves_symbol),
	KTEST_CASE(args_registers),
	KTEST_CASE(args_variables),
	KTEST_CASE(args_memory_and_immediates),
	KTEST_CASE(args_dereference),
	KTEST_CASE(args_every_type),
	KTEST_CASE(max_args_accepted),
	KTEST_CASE(probe_offset_must_not_wrap),
	KTEST_CASE(probe_offset_inside_the_symbol),
	KTEST_CASE(memory_offset_must_not_wrap),
	KTEST_CASE(name_limits),
	KTEST_CASE(text_limits),
	KTEST_CASE(whole_line_limit),
	KTEST_CASE(listing_limit),
	KTEST_CASE(every_bad_line),
	KTEST_CASE(every_bad_uprobe_line),
	KTEST_CASE(uprobe_file_looked_up_first),
	KTEST_CASE(uprobe_lines),
	KTEST_CASE(every_bad_fprobe_line),
	KTEST_CASE(fprobe_lines),
	KTEST_CASE(fetch_from_a_user_frame),
	KTEST_CASE(fetch_selector_ignores_its_slots_upper_half),
	KTEST_CASE(every_error_is_tested),
	KTEST_CASE(too_many_args),
	KTEST_CASE(overlong_line),
	KTEST_CASE(nul_byte_in_line),
	KTEST_CASE(error_messages),
	KTEST_CASE(error_log_caret),
	KTEST_CASE(show_definitions),
	KTEST_CASE(fetch_registers_and_stack),
	KTEST_CASE(fetch_memory),
	KTEST_CASE(fetch_reads_only_the_type_size),
	KTEST_CASE(fetch_faults),
	KTEST_CASE(fetch_strings),
	KTEST_CASE(fetch_user_strings),
	KTEST_CASE(format_each_type),
	KTEST_CASE(format_s64_from_memory),
	KTEST_CASE(record_end_to_end),
	KTEST_CASE(return_suffix_and_dot_group),
	KTEST_CASE(fetch_bitfields),
	KTEST_CASE(fetch_arrays),
	KTEST_CASE(fetch_string_arrays),
	KTEST_CASE(fetch_char_and_symstr),
	KTEST_CASE(fetch_user_dereference),
	KTEST_CASE(uprobe_ref_ctr_and_file_offset),
	KTEST_CASE(delete_names_the_probe),
	KTEST_END
};

KTEST_HOST_MAIN(cases)
