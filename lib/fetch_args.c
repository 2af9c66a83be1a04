/*
 * fetch_args.c - one FETCHARG of kprobe_events, parsed.
 *
 * A FETCHARG such as "name=+4(+0(%ax)):u16" is compiled once, when the
 * probe is defined, into a short program read left to right:
 *
 *   REG ax          val = regs->ax
 *   DEREF 0         val = *(unsigned long *)(val + 0)
 *   DEREF 4         val = *(u16 *)(val + 4)     (the last read has the type's size)
 *
 * lib/fetch_store.c runs the program at every hit.  The checks and the
 * order they come in are Linux's (traceprobe_parse_probe_arg() and
 * parse_probe_arg() in kernel/trace/trace_probe.c), so a bad argument
 * gets Linux's error_log message with the caret where Linux puts it.
 */
#include <stddef.h>
#include "errno.h"
#include "string.h"
#include "vsprintf.h"
#include "probe_events_internal.h"

/* ---- types ----------------------------------------------------------- */

const struct fetch_type_info fetch_types[] = {
	[FETCH_TYPE_U8]  = { "u8",  1, 'u' }, [FETCH_TYPE_U16] = { "u16", 2, 'u' },
	[FETCH_TYPE_U32] = { "u32", 4, 'u' }, [FETCH_TYPE_U64] = { "u64", 8, 'u' },
	[FETCH_TYPE_S8]  = { "s8",  1, 's' }, [FETCH_TYPE_S16] = { "s16", 2, 's' },
	[FETCH_TYPE_S32] = { "s32", 4, 's' }, [FETCH_TYPE_S64] = { "s64", 8, 's' },
	[FETCH_TYPE_X8]  = { "x8",  1, 'x' }, [FETCH_TYPE_X16] = { "x16", 2, 'x' },
	[FETCH_TYPE_X32] = { "x32", 4, 'x' }, [FETCH_TYPE_X64] = { "x64", 8, 'x' },
	[FETCH_TYPE_STRING] = { "string", 0, 'S' },
	[FETCH_TYPE_SYMBOL] = { "symbol", sizeof(unsigned long), 'y' },
	[FETCH_TYPE_USTRING] = { "ustring", 0, 'S' },
	[FETCH_TYPE_CHAR] = { "char", 1, 'c' },
	[FETCH_TYPE_SYMSTR] = { "symstr", 0, 'S' },
};
#define NR_FETCH_TYPES ((int)(sizeof(fetch_types) / sizeof(fetch_types[0])))

bool fetch_type_valid(int type)
{
	return type > 0 && type < NR_FETCH_TYPES && fetch_types[type].name;
}

bool fetch_type_is_string(int type)
{
	return fetch_type_valid(type) && fetch_types[type].style == 'S';
}

const char *fetch_type_name(enum fetch_type type)
{
	return fetch_type_valid(type) ? fetch_types[type].name : "?";
}

/* The unsigned type of a bitfield's container: b4@4/32 is read as a u32. */
static int container_type(unsigned long bits)
{
	switch (bits) {
	case 8:  return FETCH_TYPE_U8;
	case 16: return FETCH_TYPE_U16;
	case 32: return FETCH_TYPE_U32;
	case 64: return FETCH_TYPE_U64;
	default: return 0;
	}
}

/* Linux's find_fetch_type(): a name, or "b..." with a container size after '/'. */
static int fetch_type_lookup(const char *s, size_t len)
{
	unsigned long bits;
	size_t slash = 0;

	if (len && s[0] == 'b') {
		while (slash < len && s[slash] != '/')
			slash++;
		if (slash == len ||
		    !probe_parse_number(s + slash + 1, len - slash - 1, &bits))
			return 0;
		return container_type(bits);
	}
	for (int t = 1; t < NR_FETCH_TYPES; t++)
		if (strlen(fetch_types[t].name) == len &&
		    !memcmp(fetch_types[t].name, s, len))
			return t;
	return 0;
}

/* ---- registers ------------------------------------------------------- */

/* Both spellings: Linux's short names and the i386 manual's. */
#define REG_IS_SP 0xff      /* %sp: not a pt_regs field, see ptrace.h */
static const struct {
	const char *name;
	uint8_t offset;
} fetch_regs[] = {
	{ "ax", offsetof(struct pt_regs, ax) }, { "eax", offsetof(struct pt_regs, ax) },
	{ "bx", offsetof(struct pt_regs, bx) }, { "ebx", offsetof(struct pt_regs, bx) },
	{ "cx", offsetof(struct pt_regs, cx) }, { "ecx", offsetof(struct pt_regs, cx) },
	{ "dx", offsetof(struct pt_regs, dx) }, { "edx", offsetof(struct pt_regs, dx) },
	{ "si", offsetof(struct pt_regs, si) }, { "esi", offsetof(struct pt_regs, si) },
	{ "di", offsetof(struct pt_regs, di) }, { "edi", offsetof(struct pt_regs, di) },
	{ "bp", offsetof(struct pt_regs, bp) }, { "ebp", offsetof(struct pt_regs, bp) },
	{ "ip", offsetof(struct pt_regs, ip) }, { "eip", offsetof(struct pt_regs, ip) },
	{ "flags", offsetof(struct pt_regs, flags) },
	{ "eflags", offsetof(struct pt_regs, flags) },
	{ "orig_ax", offsetof(struct pt_regs, orig_ax) },
	{ "orig_eax", offsetof(struct pt_regs, orig_ax) },
	{ "cs", offsetof(struct pt_regs, cs) }, { "ds", offsetof(struct pt_regs, ds) },
	{ "es", offsetof(struct pt_regs, es) }, { "fs", offsetof(struct pt_regs, fs) },
	{ "gs", offsetof(struct pt_regs, gs) },
	/* A ring-0 trap pushes no sp: the stack pointer is computed. */
	{ "sp", REG_IS_SP }, { "esp", REG_IS_SP },
};

/* ---- pieces of the text ------------------------------------------------ */

/* A piece of the line being parsed: text, length, byte offset in the line. */
struct span {
	const char *s;
	size_t len;
	int pos;
};

static struct span span_sub(struct span sp, size_t from, size_t len)
{
	struct span r = { sp.s + from, len, sp.pos + (int)from };
	return r;
}

/* Index of the first c in sp, or sp.len. */
static size_t span_find(struct span sp, char c)
{
	size_t i = 0;

	while (i < sp.len && sp.s[i] != c)
		i++;
	return i;
}

/* Index of the last c in sp, or sp.len: Linux's strrchr(). */
static size_t span_find_last(struct span sp, char c)
{
	for (size_t i = sp.len; i > 0; i--)
		if (sp.s[i - 1] == c)
			return i - 1;
	return sp.len;
}

static bool span_is(struct span sp, const char *word)
{
	return strlen(word) == sp.len && !memcmp(sp.s, word, sp.len);
}

static bool span_starts(struct span sp, const char *word)
{
	size_t n = strlen(word);
	return sp.len >= n && !memcmp(sp.s, word, n);
}

static int add_op(struct probe_arg *arg, int code, unsigned long param,
		  int pos, struct probe_parse_error *err)
{
	if (arg->nr_ops >= PROBE_MAX_OPS)
		return probe_fail(err, PROBE_ERR_TOO_MANY_OPS, pos);
	arg->ops[arg->nr_ops].code = code;
	arg->ops[arg->nr_ops].param = param;
	arg->nr_ops++;
	return 0;
}

/* "+12" / "-0x8" / "7" with an optional sign, 32-bit magnitude. */
static bool parse_signed(struct span sp, unsigned long *val)
{
	bool neg = false;

	if (sp.len && (sp.s[0] == '+' || sp.s[0] == '-')) {
		neg = sp.s[0] == '-';
		sp = span_sub(sp, 1, sp.len - 1);
	}
	if (!probe_parse_number(sp.s, sp.len, val))
		return false;
	if (neg)
		*val = -*val;   /* wraps like an address offset */
	return true;
}

void probe_defer(const struct fetch_arg_ctx *ctx, enum probe_err code)
{
	if (ctx->deferred && ctx->deferred->code == PROBE_ERR_NONE) {
		ctx->deferred->code = code;
		ctx->deferred->pos = ctx->probe_pos;
	}
}

/* ---- the expression: %REG $VAR @ADDR \IMM +OFFS(...) ------------------- */

static int parse_register(struct span sp, struct probe_arg *arg,
			  struct probe_parse_error *err)
{
	for (size_t i = 0; i < sizeof(fetch_regs) / sizeof(fetch_regs[0]); i++) {
		if (strlen(fetch_regs[i].name) != sp.len - 1 ||
		    memcmp(fetch_regs[i].name, sp.s + 1, sp.len - 1))
			continue;
		if (fetch_regs[i].offset == REG_IS_SP)
			return add_op(arg, FETCH_OP_STACKP, 0, sp.pos, err);
		return add_op(arg, FETCH_OP_REG, fetch_regs[i].offset, sp.pos, err);
	}
	return probe_fail(err, PROBE_ERR_BAD_REG_NAME, sp.pos);
}

/*
 * $stackN and $argN: every error points at the '$', as Linux's
 * parse_probe_vars() logs them.  A number that is not one is "Invalid
 * $-variable"; only a number out of range has its own message.
 */
static int parse_stack_var(struct span sp, const struct fetch_arg_ctx *ctx,
			   struct probe_arg *arg, struct probe_parse_error *err)
{
	struct span num = span_sub(sp, 6, sp.len - 6);
	unsigned long n;

	if (!probe_parse_decimal(num.s, num.len, &n))
		return probe_fail(err, PROBE_ERR_BAD_VAR, sp.pos);
	/* A kprobe's stack is the kernel's, one THREAD_SIZE at most. */
	if (!ctx->uprobe && n > PROBE_MAX_STACK_NR)
		return probe_fail(err, PROBE_ERR_BAD_STACK_NUM, sp.pos);
	return add_op(arg, FETCH_OP_STACK, n, sp.pos, err);
}

static int parse_arg_var(struct span sp, const struct fetch_arg_ctx *ctx,
			 struct probe_arg *arg, struct probe_parse_error *err)
{
	struct span num = span_sub(sp, 4, sp.len - 4);
	unsigned long n;

	/* Off a function's entry $argN is no variable at all in Linux. */
	if (!ctx->at_entry || !probe_parse_decimal(num.s, num.len, &n))
		return probe_fail(err, PROBE_ERR_BAD_VAR, sp.pos);
	if (n < 1 || n > PROBE_MAX_STACK_NR)
		return probe_fail(err, PROBE_ERR_BAD_ARG_NUM, sp.pos);
	/* Where regs_get_kernel_argument(regs, N - 1) reads it (-mregparm=3). */
	if (n - 1 < NR_REG_ARGUMENTS)
		return add_op(arg, FETCH_OP_REG, regs_argument_offset(n - 1), sp.pos, err);
	return add_op(arg, FETCH_OP_STACK, regs_argument_stack_nth(n - 1), sp.pos, err);
}

/* The attached event's field of that name (-1: none), for an event probe's $NAME. */
static int event_field(const struct fetch_arg_ctx *ctx, const char *name, size_t len)
{
	char buf[PROBE_NAME_LEN];

	if (!ctx->ops || !ctx->ops->event_field || len >= sizeof(buf))
		return -1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return ctx->ops->event_field(ctx->def->ep_system, ctx->def->ep_event, buf);
}

/*
 * An event probe's $NAME is the attached event's field NAME, whatever
 * NAME is (Linux's FETCH_OP_TP_ARG); with no such field, $comm and
 * $COMM are the task's name.  A NAME that is neither stays unresolved
 * (param TP_ARG_NONE): Linux says so only once the argument's type is
 * checked, at the argument (fetch_arg_parse()).
 */
#define TP_ARG_NONE ((unsigned long)-1)

static int parse_event_field(struct span sp, const struct fetch_arg_ctx *ctx,
			     struct probe_arg *arg, struct probe_parse_error *err)
{
	int field = event_field(ctx, sp.s + 1, sp.len - 1);

	if (field < 0 && (span_is(sp, "$comm") || span_is(sp, "$COMM")))
		return add_op(arg, FETCH_OP_COMM, 0, sp.pos, err);
	return add_op(arg, FETCH_OP_TP_ARG, field < 0 ? TP_ARG_NONE : (unsigned long)field,
		      sp.pos, err);
}

/* $retval $comm $stack $stackN $argN */
static int parse_variable(struct span sp, const struct fetch_arg_ctx *ctx,
			  struct probe_arg *arg, struct probe_parse_error *err)
{
	if (ctx->tpoint)
		return parse_event_field(sp, ctx, arg, err);
	if (span_is(sp, "$retval")) {
		if (!ctx->is_return)
			return probe_fail(err, PROBE_ERR_RETVAL_ON_PROBE, sp.pos);
		return add_op(arg, FETCH_OP_REG, offsetof(struct pt_regs, ax),
			      sp.pos, err);
	}
	if (span_is(sp, "$comm") || span_is(sp, "$COMM"))
		return add_op(arg, FETCH_OP_COMM, 0, sp.pos, err);
	if (span_is(sp, "$stack"))
		return add_op(arg, FETCH_OP_STACKP, 0, sp.pos, err);
	if (span_starts(sp, "$stack") && probe_is_digit(sp.s[6]))
		return parse_stack_var(sp, ctx, arg, err);
	if (span_starts(sp, "$arg"))
		return parse_arg_var(sp, ctx, arg, err);
	return probe_fail(err, PROBE_ERR_BAD_VAR, sp.pos);
}

/*
 * Does SYM+offs (offs as parse_signed() made it, negative when `neg`)
 * stay a 32-bit address?  @jiffies-4 does; @jiffies+0xffffffff would
 * wrap round to the word before jiffies and read that instead.
 */
static bool symbol_offset_fits(unsigned long addr, unsigned long offs, bool neg)
{
	unsigned long magnitude = neg ? -offs : offs;

	return neg ? magnitude <= addr : magnitude <= PROBE_NUMBER_MAX - addr;
}

/*
 * @SYM[+|-offs]: Linux keeps the text and looks the symbol up when it
 * registers the probe, so a symbol it cannot use fails the line only
 * after every argument parsed, as "Invalid probed address or symbol" at
 * the probe point (a bad offset: "Failed to register probe event").
 */
static unsigned long resolve_symbol(struct span body, const struct fetch_arg_ctx *ctx,
				    unsigned long *offs)
{
	size_t n = 0;
	char name[PROBE_SYMBOL_LEN];
	unsigned long addr;

	*offs = 0;
	while (n < body.len && body.s[n] != '+' && body.s[n] != '-')
		n++;
	if (n < body.len && !parse_signed(span_sub(body, n, body.len - n), offs)) {
		probe_defer(ctx, PROBE_ERR_FAIL_REG_PROBE);
		return 0;
	}
	addr = 0;
	if (n > 0 && n < sizeof(name) && ctx->ops && ctx->ops->lookup_name) {
		memcpy(name, body.s, n);
		name[n] = '\0';
		addr = ctx->ops->lookup_name(name);
	}
	if (!addr || !symbol_offset_fits(addr, *offs, n < body.len && body.s[n] == '-')) {
		probe_defer(ctx, PROBE_ERR_BAD_PROBE_ADDR);
		return 0;
	}
	return addr;
}

/* @+OFFS: a uprobe's file offset (the program's bytes wherever loaded). */
static int parse_file_offset(struct span sp, const struct fetch_arg_ctx *ctx,
			     struct probe_arg *arg, struct probe_parse_error *err)
{
	unsigned long offs;

	if (!ctx->uprobe)
		return probe_fail(err, PROBE_ERR_FILE_ON_KPROBE, sp.pos);
	if (!parse_signed(span_sub(sp, 2, sp.len - 2), &offs))
		return probe_fail(err, PROBE_ERR_BAD_FILE_OFFS, sp.pos);
	return add_op(arg, FETCH_OP_FOFFS, offs, sp.pos, err);
}

/* @ADDR, @+OFFS or @SYM[+|-offs]: the memory word there.  Errors point at the '@'. */
static int parse_memory(struct span sp, int depth, const struct fetch_arg_ctx *ctx,
			struct probe_arg *arg, struct probe_parse_error *err)
{
	struct span body = span_sub(sp, 1, sp.len - 1);
	unsigned long addr = 0, offs = 0;
	int ret;

	if (depth >= PROBE_MAX_DEREF)
		return probe_fail(err, PROBE_ERR_TOO_MANY_OPS, sp.pos);
	if (body.len && probe_is_digit(body.s[0])) {
		if (!probe_parse_number(body.s, body.len, &addr))
			return probe_fail(err, PROBE_ERR_BAD_MEM_ADDR, sp.pos);
		ret = add_op(arg, FETCH_OP_IMM, addr, sp.pos, err);
	} else if (body.len && body.s[0] == '+') {
		ret = parse_file_offset(sp, ctx, arg, err);
	} else {
		if (ctx->uprobe)
			return probe_fail(err, PROBE_ERR_SYM_ON_UPROBE, sp.pos);
		addr = resolve_symbol(body, ctx, &offs);
		ret = add_op(arg, FETCH_OP_IMM, addr, sp.pos, err);
	}
	return ret ? ret : add_op(arg, FETCH_OP_DEREF, offs, sp.pos, err);
}

/* \1234, \-1, \0x10 or \"text" */
static int parse_immediate(struct span sp, int comm_start, struct probe_arg *arg,
			   struct probe_parse_error *err)
{
	struct span body = span_sub(sp, 1, sp.len - 1);
	unsigned long val;

	if (body.len && body.s[0] == '"') {
		/* Linux marks an unclosed string at its end. */
		if (body.len < 2 || body.s[body.len - 1] != '"')
			return probe_fail(err, PROBE_ERR_IMMSTR_NO_CLOSE, sp.pos + (int)sp.len);
		/* param: where the text sits in arg->comm, and its length. */
		val = (unsigned long)(comm_start + 2) | ((body.len - 2) << 8);
		return add_op(arg, FETCH_OP_IMMSTR, val, sp.pos, err);
	}
	if (!parse_signed(body, &val))
		return probe_fail(err, PROBE_ERR_BAD_IMM, body.pos);
	return add_op(arg, FETCH_OP_IMM, val, sp.pos, err);
}

static int parse_expr(struct span sp, int depth, int comm_start,
		      const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		      struct probe_parse_error *err);

/*
 * +|-OFFS(FETCHARG) and +u|-uOFFS(FETCHARG): the memory at FETCHARG +
 * OFFS, in the kernel or (u) in the process.  As in Linux the inner
 * expression ends at the LAST ')' and its errors are placed the way
 * Linux counts: "+u" is counted one byte short.
 */
static int parse_deref(struct span sp, int depth, int comm_start,
		       const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		       struct probe_parse_error *err)
{
	bool user = sp.len > 1 && sp.s[1] == 'u';
	int op = user ? FETCH_OP_UDEREF : FETCH_OP_DEREF;
	size_t open, close;
	struct span inner;
	unsigned long offs;
	int ret;

	open = span_find(sp, '(');
	if (open == sp.len)
		return probe_fail(err, PROBE_ERR_DEREF_NEED_BRACE, sp.pos);
	/* "+4" "-4", or after the u of "+u4" "-u4" */
	if (!parse_signed(user ? span_sub(sp, 2, open - 2) : span_sub(sp, 0, open), &offs))
		return probe_fail(err, PROBE_ERR_BAD_DEREF_OFFS, sp.pos);
	if (user && sp.s[0] == '-')
		offs = -offs;
	inner = span_sub(sp, open + 1, sp.len - open - 1);
	inner.pos -= user;
	close = span_find_last(inner, ')');
	if (close == inner.len)
		return probe_fail(err, PROBE_ERR_DEREF_OPEN_BRACE, inner.pos + (int)inner.len);
	/* Linux ignores what follows the ')'; that is surely a typo: refused. */
	if (close != inner.len - 1)
		return probe_fail(err, PROBE_ERR_BAD_FETCH_ARG, inner.pos + (int)close + 1 + user);
	if (depth >= PROBE_MAX_DEREF)
		return probe_fail(err, PROBE_ERR_TOO_MANY_OPS, sp.pos);
	inner.len = close;

	ret = parse_expr(inner, depth + 1, comm_start + (int)open + 1, ctx, arg, err);
	if (ret)
		return ret;
	if (arg->ops[arg->nr_ops - 1].code == FETCH_OP_COMM ||
	    arg->ops[arg->nr_ops - 1].code == FETCH_OP_IMMSTR)
		return probe_fail(err, PROBE_ERR_COMM_CANT_DEREF, inner.pos);
	return add_op(arg, op, offs, sp.pos, err);
}

/* One expression without its :TYPE.  depth counts enclosing derefs. */
static int parse_expr(struct span sp, int depth, int comm_start,
		      const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		      struct probe_parse_error *err)
{
	if (sp.len == 0)
		return probe_fail(err, PROBE_ERR_BAD_FETCH_ARG, sp.pos);
	switch (sp.s[0]) {
	case '%':
		/* an event probe reads no registers (Linux logs "Invalid $-valiable
		 * specified" first, then this) */
		if (ctx->tpoint)
			return probe_fail(err, PROBE_ERR_BAD_FETCH_ARG, sp.pos);
		if (ctx->fprobe)	/* Linux: "eprobe and fprobe do not handle registers" */
			return probe_fail(err, PROBE_ERR_BAD_VAR, sp.pos);
		return parse_register(sp, arg, err);
	case '$':
		return parse_variable(sp, ctx, arg, err);
	case '@':
		return parse_memory(sp, depth, ctx, arg, err);
	case '\\':
		return parse_immediate(sp, comm_start, arg, err);
	case '+':
	case '-':
		return parse_deref(sp, depth, comm_start, ctx, arg, err);
	default:
		return probe_fail(err, PROBE_ERR_BAD_FETCH_ARG, sp.pos);
	}
}

/* ---- the :TYPE ------------------------------------------------------------ */

/* Where the ":TYPE" starts in an expression (len if none).  A quoted
 * immediate may itself hold ':', so look after its closing quote. */
static size_t find_type(struct span sp)
{
	size_t i = 0;

	if (sp.len >= 2 && sp.s[0] == '\\' && sp.s[1] == '"') {
		for (i = 2; i < sp.len && sp.s[i] != '"'; i++)
			;
	}
	while (i < sp.len && sp.s[i] != ':')
		i++;
	return i;
}

/* TYPE[N]: cuts "[N]" off *type and sets arg->count (Linux's order of checks). */
static int parse_array(struct span *type, struct probe_arg *arg,
		       struct probe_parse_error *err)
{
	size_t open = span_find(*type, '['), close;
	struct span num;
	unsigned long n;

	if (open == type->len)
		return 0;
	num = span_sub(*type, open + 1, type->len - open - 1);
	close = span_find(num, ']');
	if (close == num.len)
		return probe_fail(err, PROBE_ERR_ARRAY_NO_CLOSE, num.pos + (int)num.len);
	if (close != num.len - 1)
		return probe_fail(err, PROBE_ERR_BAD_ARRAY_SUFFIX, num.pos + (int)close + 1);
	if (!probe_parse_number(num.s, close, &n) || n == 0)
		return probe_fail(err, PROBE_ERR_BAD_ARRAY_NUM, num.pos);
	if (n > PROBE_ARRAY_MAX)
		return probe_fail(err, PROBE_ERR_ARRAY_TOO_BIG, num.pos);
	arg->count = (uint8_t)n;
	type->len = open;
	return 0;
}

/* Value of c as a digit of base, or base when it is not one. */
static unsigned int digit_in(char c, unsigned int base)
{
	unsigned int d = probe_is_digit(c) ? (unsigned int)(c - '0') :
			 (c >= 'a' && c <= 'f') ? (unsigned int)(c - 'a' + 10) :
			 (c >= 'A' && c <= 'F') ? (unsigned int)(c - 'A' + 10) : base;
	return d < base ? d : base;
}

/*
 * A bitfield's width or offset as simple_strtoul(s, &end, 0) reads it:
 * as many digits as there are (0x.. hex, 0.. octal).  Returns the index
 * after them (at when none).  Any value past BITFIELD_BIG is refused
 * later anyway, so it stops growing there.
 */
#define BITFIELD_BIG 0x10000UL
static size_t bitfield_number(struct span sp, size_t at, unsigned long *val)
{
	unsigned int base = 10;
	size_t end = at;

	*val = 0;
	if (at + 2 < sp.len && sp.s[at] == '0' && (sp.s[at + 1] == 'x' || sp.s[at + 1] == 'X') &&
	    digit_in(sp.s[at + 2], 16) < 16) {
		base = 16;
		end += 2;
	} else if (at < sp.len && sp.s[at] == '0') {
		base = 8;
	}
	for (; end < sp.len && digit_in(sp.s[end], base) < base; end++)
		if (*val < BITFIELD_BIG)
			*val = *val * base + digit_in(sp.s[end], base);
	return end;
}

/*
 * bBW@BO/SIZE: BW bits from bit BO of a SIZE-bit container, which must
 * hold them.  The value is isolated by two shifts in the container's
 * width, Linux's FETCH_OP_MOD_BF.
 */
static int parse_bitfield(struct span type, struct probe_arg *arg)
{
	unsigned long bw, bo, bits = fetch_types[arg->type].size * 8;
	size_t at = bitfield_number(type, 1, &bw), end;

	if (bw == 0 || at == type.len || type.s[at] != '@')
		return -EINVAL;
	end = bitfield_number(type, at + 1, &bo);
	if (end == at + 1 || end == type.len || type.s[end] != '/' || bw + bo > bits)
		return -EINVAL;
	arg->bitfield = true;
	arg->bf_lshift = (uint8_t)(bits - (bw + bo));
	arg->bf_rshift = (uint8_t)(bits - bw);
	return 0;
}

static bool last_op_is(const struct probe_arg *arg, int code)
{
	return arg->ops[arg->nr_ops - 1].code == code;
}

/* Linux's checks after the expression: strings, symstr, bitfield, array. */
static int check_type(struct probe_arg *arg, struct span type, bool typed,
		      struct probe_parse_error *err)
{
	bool is_mem = last_op_is(arg, FETCH_OP_DEREF) || last_op_is(arg, FETCH_OP_UDEREF);
	bool is_data = last_op_is(arg, FETCH_OP_COMM) || last_op_is(arg, FETCH_OP_IMMSTR);
	bool is_field = last_op_is(arg, FETCH_OP_TP_ARG);

	if (arg->type == FETCH_TYPE_SYMSTR) {
		/* A symbol is named from a kernel value, not data or user memory. */
		if (is_data || last_op_is(arg, FETCH_OP_IMM) || last_op_is(arg, FETCH_OP_UDEREF))
			return probe_fail(err, PROBE_ERR_BAD_SYMSTRING, type.pos);
	} else if (fetch_type_is_string(arg->type)) {
		if (!is_mem && !is_data && !is_field && !last_op_is(arg, FETCH_OP_IMM))
			return probe_fail(err, PROBE_ERR_BAD_STRING, type.pos);
	}
	if (typed && type.s[0] == 'b' && parse_bitfield(type, arg))
		return probe_fail(err, PROBE_ERR_BAD_BITFIELD, type.pos);
	/* An array is read from memory: a run of values, or of string pointers. */
	if (arg->count && (arg->type == FETCH_TYPE_SYMSTR ||
			   !(last_op_is(arg, FETCH_OP_DEREF) ||
			     (fetch_type_is_string(arg->type) &&
			      (is_mem || last_op_is(arg, FETCH_OP_IMM))))))
		return probe_fail(err, PROBE_ERR_BAD_STRING, type.pos);
	return 0;
}

/* ---- one FETCHARG ------------------------------------------------------------ */

/* Field names every trace event already has (Linux's list). */
static const char *const reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func",
};

static bool name_taken(const struct probe_event_def *def, int upto, const char *name)
{
	for (size_t i = 0; i < sizeof(reserved_names) / sizeof(reserved_names[0]); i++)
		if (!strcmp(reserved_names[i], name))
			return true;
	for (int i = 0; def && i < upto; i++)
		if (!strcmp(def->args[i].name, name))
			return true;
	return false;
}

/* "NAME=" (or "argN"), checked before the expression as Linux does. */
static int parse_arg_name(struct span sp, int idx, const struct fetch_arg_ctx *ctx,
			  struct probe_arg *arg, struct span *body,
			  struct probe_parse_error *err)
{
	size_t eq = span_find(sp, '=');

	*body = sp;
	if (eq == sp.len) {
		snprintf(arg->name, sizeof(arg->name), "arg%d", idx + 1);
	} else {
		if (eq > PROBE_ARG_NAME_MAX)
			return probe_fail(err, PROBE_ERR_ARG_NAME_TOO_LONG, sp.pos);
		if (eq == 0)
			return probe_fail(err, PROBE_ERR_NO_ARG_NAME, sp.pos);
		memcpy(arg->name, sp.s, eq);
		*body = span_sub(sp, eq + 1, sp.len - eq - 1);
		if (!probe_is_identifier(sp.s, eq))
			return probe_fail(err, PROBE_ERR_BAD_ARG_NAME, sp.pos);
	}
	if (name_taken(ctx->def, idx, arg->name))
		return probe_fail(err, PROBE_ERR_USED_ARG_NAME, sp.pos);
	return 0;
}

/* $comm (unless an event probe's attached event has such a field) and \"text". */
static bool is_text_expr(struct span expr, const struct fetch_arg_ctx *ctx)
{
	if (ctx->tpoint && expr.len > 1 && event_field(ctx, expr.s + 1, expr.len - 1) >= 0)
		return false;
	return span_is(expr, "$comm") || span_is(expr, "$COMM") ||
	       span_starts(expr, "\\\"");
}

/* An event probe's $NAME that names no field: Linux's error, at the argument. */
static int check_event_field(const struct probe_arg *arg, struct span sp,
			     struct probe_parse_error *err)
{
	for (int i = 0; i < arg->nr_ops; i++)
		if (arg->ops[i].code == FETCH_OP_TP_ARG && arg->ops[i].param == TP_ARG_NONE)
			return probe_fail(err, PROBE_ERR_BAD_ATTACH_ARG, sp.pos);
	return 0;
}

int fetch_arg_parse(const char *text, size_t len, int pos, int idx,
		    const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		    struct probe_parse_error *err)
{
	struct span sp = { text, len, pos }, body, expr, type;
	size_t colon;
	bool typed;

	memset(arg, 0, sizeof(*arg));
	if (parse_arg_name(sp, idx, ctx, arg, &body, err))
		return -EINVAL;
	if (body.len > PROBE_ARG_TEXT_MAX)
		return probe_fail(err, PROBE_ERR_ARG_TOO_LONG, body.pos);
	if (body.len == 0)
		return probe_fail(err, PROBE_ERR_NO_ARG_BODY, body.pos);
	memcpy(arg->comm, body.s, body.len);

	colon = find_type(body);
	typed = colon < body.len;
	expr = span_sub(body, 0, colon);
	type = typed ? span_sub(body, colon + 1, body.len - colon - 1) : span_sub(body, colon, 0);
	if (typed && parse_array(&type, arg, err))
		return -EINVAL;
	if (is_text_expr(expr, ctx)) {
		/* $comm and \"text" are strings, never arrays. */
		if (arg->count || (typed && !span_is(type, "string")))
			return probe_fail(err, PROBE_ERR_NEED_STRING_TYPE, type.pos);
		arg->type = FETCH_TYPE_STRING;
	} else {
		arg->type = typed ? fetch_type_lookup(type.s, type.len) : FETCH_TYPE_DEFAULT;
		if (!arg->type)
			return probe_fail(err, PROBE_ERR_BAD_TYPE, type.pos);
	}
	if (parse_expr(expr, 0, 0, ctx, arg, err))
		return -EINVAL;
	if (check_type(arg, type, typed, err))
		return -EINVAL;
	return check_event_field(arg, sp, err);
}
