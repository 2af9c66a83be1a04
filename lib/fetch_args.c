/*
 * fetch_args.c - FETCHARGS of kprobe_events: parse, fetch, print.
 *
 * A FETCHARG such as "name=+4(+0(%ax)):u16" is compiled once, when the
 * probe is defined, into a short program read left to right:
 *
 *   REG ax          val = regs->ax
 *   DEREF 0         val = *(unsigned long *)(val + 0)
 *   DEREF 4         val = *(u16 *)(val + 4)     (the last read has the type's size)
 *
 * At every hit fetch_arg_exec() runs the program against the trapped
 * pt_regs.  It reads memory only through ops->read_mem, which the kernel
 * points at copy_from_kernel_nofault(): a bad pointer in a probed
 * function makes the value "(fault)", never an oops.  The same code runs
 * in the host tests with a fake register frame and fake memory.
 *
 * Printing follows Linux: u/s types in decimal, x types as 0x..., strings
 * in double quotes, :symbol as sym+0xoff/0xsize.
 */
#include <stddef.h>
#include "errno.h"
#include "string.h"
#include "vsprintf.h"
#include "probe_events_internal.h"

/* The fetch path runs inside a probe handler: an int3 in it would
 * recurse, so the kernel build lists it in the kprobes blacklist. */
#ifdef HOST_BUILD
#define NOKPROBE_SYMBOL(fn)
#else
#include "nokprobe.h"
#endif

/* ---- types ----------------------------------------------------------- */

static const struct {
	const char *name;
	uint8_t size;         /* bytes; 0 for string */
	char style;           /* 'u' unsigned, 's' signed, 'x' hex, 'S' string, 'y' symbol */
} fetch_types[] = {
	[FETCH_TYPE_U8]  = { "u8",  1, 'u' }, [FETCH_TYPE_U16] = { "u16", 2, 'u' },
	[FETCH_TYPE_U32] = { "u32", 4, 'u' }, [FETCH_TYPE_U64] = { "u64", 8, 'u' },
	[FETCH_TYPE_S8]  = { "s8",  1, 's' }, [FETCH_TYPE_S16] = { "s16", 2, 's' },
	[FETCH_TYPE_S32] = { "s32", 4, 's' }, [FETCH_TYPE_S64] = { "s64", 8, 's' },
	[FETCH_TYPE_X8]  = { "x8",  1, 'x' }, [FETCH_TYPE_X16] = { "x16", 2, 'x' },
	[FETCH_TYPE_X32] = { "x32", 4, 'x' }, [FETCH_TYPE_X64] = { "x64", 8, 'x' },
	[FETCH_TYPE_STRING] = { "string", 0, 'S' },
	[FETCH_TYPE_SYMBOL] = { "symbol", sizeof(unsigned long), 'y' },
	[FETCH_TYPE_USTRING] = { "ustring", 0, 'S' },
};
#define NR_FETCH_TYPES ((int)(sizeof(fetch_types) / sizeof(fetch_types[0])))

static bool fetch_type_valid(int type)
{
	return type > 0 && type < NR_FETCH_TYPES;
}

/* :string or :ustring: bytes after the values, not a number. */
static bool fetch_type_is_string(int type)
{
	return fetch_type_valid(type) && fetch_types[type].style == 'S';
}

const char *fetch_type_name(enum fetch_type type)
{
	return fetch_type_valid(type) ? fetch_types[type].name : "?";
}

static int fetch_type_lookup(const char *s, size_t len)
{
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

/* ---- parsing one FETCHARG ---------------------------------------------- */

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

static bool span_is(struct span sp, const char *word)
{
	return strlen(word) == sp.len && !memcmp(sp.s, word, sp.len);
}

static bool span_starts(struct span sp, const char *word)
{
	size_t n = strlen(word);
	return sp.len >= n && !memcmp(sp.s, word, n);
}

/* $retval $comm $stack $stackN $argN */
static int parse_variable(struct span sp, const struct fetch_arg_ctx *ctx,
			  struct probe_arg *arg, struct probe_parse_error *err)
{
	unsigned long n;

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
	if (span_starts(sp, "$stack")) {
		struct span num = span_sub(sp, 6, sp.len - 6);
		if (!probe_parse_decimal(num.s, num.len, &n) || n > PROBE_MAX_STACK_NR)
			return probe_fail(err, PROBE_ERR_BAD_STACK_NUM, num.pos);
		return add_op(arg, FETCH_OP_STACK, n, sp.pos, err);
	}
	if (span_starts(sp, "$arg")) {
		struct span num = span_sub(sp, 4, sp.len - 4);
		if (!probe_parse_decimal(num.s, num.len, &n) || n < 1 ||
		    n > PROBE_MAX_STACK_NR)
			return probe_fail(err, PROBE_ERR_BAD_ARG_NUM, num.pos);
		if (!ctx->at_entry)
			return probe_fail(err, PROBE_ERR_NOFENTRY_ARGS, sp.pos);
		/* Where regs_get_kernel_argument(regs, N - 1) reads it (-mregparm=3). */
		if (n - 1 < NR_REG_ARGUMENTS)
			return add_op(arg, FETCH_OP_REG, regs_argument_offset(n - 1), sp.pos, err);
		return add_op(arg, FETCH_OP_STACK, regs_argument_stack_nth(n - 1), sp.pos, err);
	}
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

/* @ADDR or @SYM[+|-offs]: the memory word at that address. */
static int parse_memory(struct span sp, int depth, const struct fetch_arg_ctx *ctx,
			struct probe_arg *arg, struct probe_parse_error *err)
{
	struct span body = span_sub(sp, 1, sp.len - 1);
	char name[PROBE_SYMBOL_LEN];
	unsigned long addr, offs = 0;
	size_t n = 0;
	int ret;

	if (depth >= PROBE_MAX_DEREF)
		return probe_fail(err, PROBE_ERR_TOO_MANY_OPS, sp.pos);
	if (body.len && probe_is_digit(body.s[0])) {
		if (!probe_parse_number(body.s, body.len, &addr))
			return probe_fail(err, PROBE_ERR_BAD_MEM_ADDR, body.pos);
	} else {
		while (n < body.len && body.s[n] != '+' && body.s[n] != '-')
			n++;
		if (n == 0 || n >= sizeof(name) ||
		    (n < body.len && !parse_signed(span_sub(body, n, body.len - n), &offs)))
			return probe_fail(err, PROBE_ERR_BAD_MEM_ADDR, body.pos);
		memcpy(name, body.s, n);
		name[n] = '\0';
		addr = ctx->ops && ctx->ops->lookup_name ?
			ctx->ops->lookup_name(name) : 0;
		if (!addr || !symbol_offset_fits(addr, offs, n < body.len && body.s[n] == '-'))
			return probe_fail(err, PROBE_ERR_BAD_MEM_ADDR, body.pos);
	}
	ret = add_op(arg, FETCH_OP_IMM, addr, sp.pos, err);
	return ret ? ret : add_op(arg, FETCH_OP_DEREF, offs, sp.pos, err);
}

/* \1234, \-1, \0x10 or \"text" */
static int parse_immediate(struct span sp, int comm_start, struct probe_arg *arg,
			   struct probe_parse_error *err)
{
	struct span body = span_sub(sp, 1, sp.len - 1);
	unsigned long val;

	if (body.len && body.s[0] == '"') {
		/* The type was split off after the closing quote, so the
		 * quote must end the expression. */
		if (body.len < 2 || body.s[body.len - 1] != '"')
			return probe_fail(err, PROBE_ERR_IMMSTR_NO_CLOSE, body.pos);
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

/* +|-OFFS(FETCHARG): the memory at FETCHARG + OFFS. */
static int parse_deref(struct span sp, int depth, int comm_start,
		       const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		       struct probe_parse_error *err)
{
	size_t open = 0, close, level = 0;
	unsigned long offs;
	int ret;

	while (open < sp.len && sp.s[open] != '(')
		open++;
	if (open == sp.len)
		return probe_fail(err, PROBE_ERR_DEREF_NEED_BRACE, sp.pos);
	if (!parse_signed(span_sub(sp, 0, open), &offs))
		return probe_fail(err, PROBE_ERR_BAD_DEREF_OFFS, sp.pos);
	/* The matching ')' must be the expression's last character. */
	for (close = open; close < sp.len; close++) {
		if (sp.s[close] == '(')
			level++;
		else if (sp.s[close] == ')' && --level == 0)
			break;
	}
	if (close == sp.len)
		return probe_fail(err, PROBE_ERR_DEREF_OPEN_BRACE, sp.pos + (int)sp.len);
	if (close != sp.len - 1)
		return probe_fail(err, PROBE_ERR_BAD_FETCH_ARG, sp.pos + (int)close + 1);
	if (depth >= PROBE_MAX_DEREF)
		return probe_fail(err, PROBE_ERR_TOO_MANY_OPS, sp.pos);

	ret = parse_expr(span_sub(sp, open + 1, close - open - 1), depth + 1,
			 comm_start + (int)open + 1, ctx, arg, err);
	if (ret)
		return ret;
	if (arg->ops[arg->nr_ops - 1].code == FETCH_OP_COMM ||
	    arg->ops[arg->nr_ops - 1].code == FETCH_OP_IMMSTR)
		return probe_fail(err, PROBE_ERR_COMM_CANT_DEREF, sp.pos + (int)open + 1);
	return add_op(arg, FETCH_OP_DEREF, offs, sp.pos, err);
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

/* Check the :TYPE against what the program produces. */
static int check_type(struct probe_arg *arg, bool typed, int type_pos,
		      struct probe_parse_error *err)
{
	int last = arg->ops[arg->nr_ops - 1].code;
	bool is_text = last == FETCH_OP_COMM || last == FETCH_OP_IMMSTR;

	if (!typed)
		arg->type = is_text ? FETCH_TYPE_STRING : FETCH_TYPE_DEFAULT;
	if (is_text && arg->type != FETCH_TYPE_STRING)
		return probe_fail(err, PROBE_ERR_NEED_STRING_TYPE, type_pos);
	if (fetch_type_is_string(arg->type) && !is_text && last != FETCH_OP_DEREF)
		return probe_fail(err, PROBE_ERR_BAD_STRING, type_pos);
	return 0;
}

int fetch_arg_parse(const char *text, size_t len, int pos,
		    const struct fetch_arg_ctx *ctx, struct probe_arg *arg,
		    struct probe_parse_error *err)
{
	struct span sp = { text, len, pos }, body;
	size_t eq = 0, colon;
	bool typed;

	memset(arg, 0, sizeof(*arg));
	while (eq < len && text[eq] != '=')
		eq++;
	if (eq < len) {
		if (eq == 0)
			return probe_fail(err, PROBE_ERR_NO_ARG_NAME, pos);
		if (eq > PROBE_ARG_NAME_MAX)
			return probe_fail(err, PROBE_ERR_ARG_NAME_TOO_LONG, pos);
		if (!probe_is_identifier(text, eq))
			return probe_fail(err, PROBE_ERR_BAD_ARG_NAME, pos);
		memcpy(arg->name, text, eq);
		body = span_sub(sp, eq + 1, len - eq - 1);
	} else {
		body = sp;
	}
	if (body.len == 0)
		return probe_fail(err, PROBE_ERR_NO_ARG_BODY, body.pos);
	if (body.len > PROBE_ARG_TEXT_MAX)
		return probe_fail(err, PROBE_ERR_ARG_TOO_LONG, body.pos);
	memcpy(arg->comm, body.s, body.len);

	colon = find_type(body);
	typed = colon < body.len;
	if (typed) {
		arg->type = fetch_type_lookup(body.s + colon + 1, body.len - colon - 1);
		if (!arg->type)
			return probe_fail(err, PROBE_ERR_BAD_TYPE, body.pos + (int)colon + 1);
	}
	if (parse_expr(span_sub(body, 0, colon), 0, 0, ctx, arg, err))
		return -EINVAL;
	return check_type(arg, typed, body.pos + (int)colon + 1, err);
}

/* ---- fetching at a hit ------------------------------------------------- */

/*
 * %sp, $stack, $stackN: the stack the probed code was using.  A kprobe
 * hit traps from ring 0, whose stack continues above the frame; a
 * uprobe hit traps from ring 3, whose stack pointer the CPU saved in
 * the frame (Linux's fetch_store uses user_stack_pointer() for uprobes).
 */
static unsigned long probe_stack_pointer(struct pt_regs *regs)
{
	return user_mode(regs) ? user_stack_pointer(regs) : kernel_stack_pointer(regs);
}
NOKPROBE_SYMBOL(probe_stack_pointer);

/* Read size (1..8) bytes at addr as a little-endian number. */
static int read_number(const struct fetch_ops *ops, unsigned long addr,
		       size_t size, uint64_t *out)
{
	uint8_t bytes[8];
	uint64_t v = 0;

	if (ops->read_mem(bytes, (const void *)addr, size))
		return -EFAULT;
	while (size--)
		v = (v << 8) | bytes[size];
	*out = v;
	return 0;
}
NOKPROBE_SYMBOL(read_number);

/* Run ops[0..n) and leave the value in *val. */
static int run_ops(const struct fetch_op *op, int n, struct pt_regs *regs,
		   const struct fetch_ops *ops, unsigned long *val)
{
	uint64_t word;

	for (; n > 0; n--, op++) {
		switch (op->code) {
		case FETCH_OP_REG:
			*val = pt_regs_read(regs, op->param);
			break;
		case FETCH_OP_STACKP:
			*val = probe_stack_pointer(regs);
			break;
		case FETCH_OP_STACK:
			if (read_number(ops, probe_stack_pointer(regs) +
					op->param * PROBE_STACK_WORD,
					sizeof(unsigned long), &word))
				return -EFAULT;
			*val = (unsigned long)word;
			break;
		case FETCH_OP_IMM:
			*val = op->param;
			break;
		case FETCH_OP_DEREF:
			if (read_number(ops, *val + op->param,
					sizeof(unsigned long), &word))
				return -EFAULT;
			*val = (unsigned long)word;
			break;
		default:
			return -EINVAL;    /* COMM/IMMSTR are never in the middle */
		}
	}
	return 0;
}
NOKPROBE_SYMBOL(run_ops);

/* Copy the NUL-terminated string at addr, one byte per read so that a
 * string ending just before an unmapped page is still fetched whole. */
static int fetch_string(long (*read)(void *dst, const void *src, size_t size),
			unsigned long addr, char *str, size_t strsize, uint16_t *len)
{
	size_t n = 0;
	char c;

	if (!read)
		return -EFAULT;
	if (strsize > PROBE_STRING_MAX)
		strsize = PROBE_STRING_MAX;
	while (n < strsize) {
		if (read(&c, (const void *)(addr + n), 1))
			return -EFAULT;
		if (c == '\0')
			break;
		str[n++] = c;
	}
	*len = (uint16_t)n;
	return 0;
}
NOKPROBE_SYMBOL(fetch_string);

static void copy_text(const char *text, size_t len, char *str, size_t strsize,
		      uint16_t *out_len)
{
	if (len > strsize)
		len = strsize;
	if (len > PROBE_STRING_MAX)
		len = PROBE_STRING_MAX;
	memcpy(str, text, len);
	*out_len = (uint16_t)len;
}
NOKPROBE_SYMBOL(copy_text);

static int exec_string(const struct probe_arg *arg, struct pt_regs *regs,
		       const struct fetch_ops *ops, struct fetch_value *val,
		       char *str, size_t strsize)
{
	const struct fetch_op *last = &arg->ops[arg->nr_ops - 1];
	unsigned long base = 0;

	if (last->code == FETCH_OP_COMM) {
		const char *name = ops->comm ? ops->comm() : "";
		copy_text(name, strnlen(name, PROBE_STRING_MAX), str, strsize,
			  &val->str_len);
		return 0;
	}
	if (last->code == FETCH_OP_IMMSTR) {
		size_t start = last->param & 0xff, len = last->param >> 8;
		if (start + len > PROBE_ARG_TEXT_MAX)
			return -EINVAL;
		copy_text(arg->comm + start, len, str, strsize, &val->str_len);
		return 0;
	}
	/*
	 * The last dereference names the string's address: the pointer
	 * itself is found in the kernel (a register, a kernel word), the
	 * bytes of a :ustring in the process that was running.
	 */
	if (run_ops(arg->ops, arg->nr_ops - 1, regs, ops, &base))
		return -EFAULT;
	return fetch_string(arg->type == FETCH_TYPE_USTRING ? ops->read_user : ops->read_mem,
			    base + last->param, str, strsize, &val->str_len);
}
NOKPROBE_SYMBOL(exec_string);

static int exec_number(const struct probe_arg *arg, struct pt_regs *regs,
		       const struct fetch_ops *ops, struct fetch_value *val)
{
	const struct fetch_op *last = &arg->ops[arg->nr_ops - 1];
	size_t size = fetch_types[arg->type].size;
	unsigned long v = 0;

	if (last->code == FETCH_OP_DEREF) {
		/* Read exactly the type's size: a u8 at the last byte of
		 * a page must not touch the next one. */
		if (run_ops(arg->ops, arg->nr_ops - 1, regs, ops, &v))
			return -EFAULT;
		return read_number(ops, v + last->param, size, &val->raw);
	}
	if (run_ops(arg->ops, arg->nr_ops, regs, ops, &v))
		return -EFAULT;
	val->raw = v;
	if (size < 8)
		val->raw &= (1ULL << (size * 8)) - 1;
	return 0;
}
NOKPROBE_SYMBOL(exec_number);

int fetch_arg_exec(const struct probe_arg *arg, struct pt_regs *regs,
		   const struct fetch_ops *ops, struct fetch_value *val,
		   char *str, size_t strsize)
{
	int ret;

	memset(val, 0, sizeof(*val));
	if (arg->nr_ops == 0 || arg->nr_ops > PROBE_MAX_OPS ||
	    !fetch_type_valid(arg->type))
		return -EINVAL;
	if (fetch_type_is_string(arg->type))
		ret = exec_string(arg, regs, ops, val, str, strsize);
	else
		ret = exec_number(arg, regs, ops, val);
	if (ret) {
		val->fault = 1;
		val->raw = 0;
		val->str_len = 0;
	}
	return ret;
}
NOKPROBE_SYMBOL(fetch_arg_exec);

/* ---- records ------------------------------------------------------------- */

/* str_off and str_len are 16 bits: no record is longer than this. */
#define RECORD_MAX 0xffff

size_t probe_args_record_max(const struct probe_event_def *def)
{
	size_t n = (size_t)def->nr_args * sizeof(struct fetch_value);

	for (int i = 0; i < def->nr_args; i++)
		if (fetch_type_is_string(def->args[i].type))
			n += PROBE_STRING_MAX;
	return n;
}

int probe_args_fetch(const struct probe_event_def *def, struct pt_regs *regs,
		     const struct fetch_ops *ops, void *buf, size_t size)
{
	size_t off = (size_t)def->nr_args * sizeof(struct fetch_value);
	struct fetch_value val;
	char *rec = buf;

	if (size > RECORD_MAX)
		size = RECORD_MAX;
	if (def->nr_args < 0 || def->nr_args > PROBE_MAX_ARGS || off > size)
		return -ENOSPC;
	for (int i = 0; i < def->nr_args; i++) {
		fetch_arg_exec(&def->args[i], regs, ops, &val, rec + off, size - off);
		if (fetch_type_is_string(def->args[i].type))
			val.str_off = (uint16_t)off;
		off += val.str_len;
		memcpy(rec + i * sizeof(val), &val, sizeof(val));
	}
	return (int)off;
}
NOKPROBE_SYMBOL(probe_args_fetch);

/* ---- printing ------------------------------------------------------------ */

/* Sign-extend the low size bytes of raw. */
static int64_t sign_extend(uint64_t raw, size_t size)
{
	int shift = 64 - (int)size * 8;

	return (int64_t)(raw << shift) >> shift;
}

int fetch_value_format(char *buf, size_t size, enum fetch_type type,
		       const struct fetch_value *val, const char *str,
		       int (*sprint_symbol)(char *buf, size_t len, unsigned long addr))
{
	char sym[PROBE_SYMBOL_LEN + 32];
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (val->fault || !fetch_type_valid(type)) {
		probe_put(buf, size, &len, "(fault)");
		return len;
	}
	switch (fetch_types[type].style) {
	case 'u':
		probe_put(buf, size, &len, "%llu", (unsigned long long)val->raw);
		break;
	case 's':
		probe_put(buf, size, &len, "%lld",
		    (long long)sign_extend(val->raw, fetch_types[type].size));
		break;
	case 'x':
		probe_put(buf, size, &len, "0x%llx", (unsigned long long)val->raw);
		break;
	case 'S':
		probe_put(buf, size, &len, "\"%.*s\"", (int)val->str_len, str ? str : "");
		break;
	case 'y':
		if (sprint_symbol)
			sprint_symbol(sym, sizeof(sym), (unsigned long)val->raw);
		else
			snprintf(sym, sizeof(sym), "0x%lx", (unsigned long)val->raw);
		probe_put(buf, size, &len, "%s", sym);
		break;
	}
	return len;
}

int probe_args_format(char *buf, size_t size, const struct probe_event_def *def,
		      const void *rec, size_t reclen,
		      int (*sprint_symbol)(char *buf, size_t len, unsigned long addr))
{
	const char *bytes = rec;
	struct fetch_value val;
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (def->nr_args < 0 || def->nr_args > PROBE_MAX_ARGS ||
	    (size_t)def->nr_args * sizeof(val) > reclen) {
		probe_put(buf, size, &len, " (bad record)");
		return len;
	}
	for (int i = 0; i < def->nr_args; i++) {
		const struct probe_arg *arg = &def->args[i];
		size_t room;
		char *at;

		memcpy(&val, bytes + i * sizeof(val), sizeof(val));
		if ((size_t)val.str_off + val.str_len > reclen) {
			probe_put(buf, size, &len, " %s=(bad record)", arg->name);
			continue;
		}
		probe_put(buf, size, &len, " %s=", arg->name);
		at = probe_tail(buf, size, len, &room);
		len += fetch_value_format(at, room, arg->type, &val,
					  bytes + val.str_off, sprint_symbol);
	}
	return len;
}
