/*
 * fetch_store.c - FETCHARGS at a probe hit: fetch, store, print.
 *
 * lib/fetch_args.c compiled each argument into a program of fetch ops;
 * fetch_arg_exec() runs one against the trapped pt_regs (Linux's
 * process_fetch_insn()).  It reads memory only through ops->read_mem,
 * which the kernel points at copy_from_kernel_nofault(): a bad pointer
 * in a probed function makes the value "(fault)", never an oops.  The
 * same code runs in the host tests with a fake register frame and fake
 * memory.
 *
 * Printing follows Linux: u/s types in decimal, x types as 0x..., char
 * as 'c', strings in double quotes, :symbol as sym+0xoff/0xsize, an
 * array as {v1,v2,...}.
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

typedef long (*read_fn)(void *dst, const void *src, size_t size);

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
static int read_number(read_fn read, unsigned long addr, size_t size, uint64_t *out)
{
	uint8_t bytes[8];
	uint64_t v = 0;

	if (!read || read(bytes, (const void *)addr, size))
		return -EFAULT;
	while (size--)
		v = (v << 8) | bytes[size];
	*out = v;
	return 0;
}
NOKPROBE_SYMBOL(read_number);

/* The reader a dereference op uses: +u.. reads the process's memory. */
static read_fn op_reader(const struct fetch_op *op, const struct fetch_ops *ops)
{
	return op->code == FETCH_OP_UDEREF ? ops->read_user : ops->read_mem;
}
NOKPROBE_SYMBOL(op_reader);

/* One op: the new running value in *val. */
static int run_op(const struct fetch_op *op, struct pt_regs *regs,
		  const struct fetch_ops *ops, unsigned long *val)
{
	uint64_t word;

	switch (op->code) {
	case FETCH_OP_REG:
		*val = pt_regs_read(regs, op->param);
		return 0;
	case FETCH_OP_STACKP:
		*val = probe_stack_pointer(regs);
		return 0;
	case FETCH_OP_STACK:
		if (read_number(ops->read_mem, probe_stack_pointer(regs) +
				op->param * PROBE_STACK_WORD, sizeof(unsigned long), &word))
			return -EFAULT;
		*val = (unsigned long)word;
		return 0;
	case FETCH_OP_IMM:
		*val = op->param;
		return 0;
	case FETCH_OP_FOFFS:
		if (!ops->file_offset_to_vaddr)
			return -EFAULT;
		*val = ops->file_offset_to_vaddr(ops->ctx, op->param);
		return 0;
	case FETCH_OP_TP_ARG:
		if (!ops->event_field)
			return -EFAULT;
		*val = ops->event_field(ops->ctx, op->param);
		return 0;
	case FETCH_OP_DEREF:
	case FETCH_OP_UDEREF:
		if (read_number(op_reader(op, ops), *val + op->param,
				sizeof(unsigned long), &word))
			return -EFAULT;
		*val = (unsigned long)word;
		return 0;
	default:
		return -EINVAL;    /* COMM/IMMSTR are never in the middle */
	}
}
NOKPROBE_SYMBOL(run_op);

/* Run ops[0..n) and leave the value in *val. */
static int run_ops(const struct fetch_op *op, int n, struct pt_regs *regs,
		   const struct fetch_ops *ops, unsigned long *val)
{
	for (; n > 0; n--, op++)
		if (run_op(op, regs, ops, val))
			return -EFAULT;
	return 0;
}
NOKPROBE_SYMBOL(run_ops);

/* Copy the NUL-terminated string at addr, one byte per read so that a
 * string ending just before an unmapped page is still fetched whole. */
static int fetch_string(read_fn read, unsigned long addr, char *str, size_t strsize,
			uint16_t *len)
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

/* $comm and \"text": data of their own, never from memory. */
static int exec_text(const struct probe_arg *arg, const struct fetch_op *last,
		     const struct fetch_ops *ops, struct fetch_value *val,
		     char *str, size_t strsize)
{
	if (last->code == FETCH_OP_COMM) {
		const char *name = ops->comm ? ops->comm() : "";
		copy_text(name, strnlen(name, PROBE_STRING_MAX), str, strsize, &val->str_len);
		return 0;
	}
	{
		size_t start = last->param & 0xff, len = last->param >> 8;
		if (start + len > PROBE_ARG_TEXT_MAX)
			return -EINVAL;
		copy_text(arg->comm + start, len, str, strsize, &val->str_len);
		return 0;
	}
}
NOKPROBE_SYMBOL(exec_text);

/* :symstr: the value, named by the kernel's symbols at the hit. */
static int exec_symstr(const struct probe_arg *arg, struct pt_regs *regs,
		       const struct fetch_ops *ops, struct fetch_value *val,
		       char *str, size_t strsize)
{
	char sym[PROBE_SYMBOL_LEN + 32];
	unsigned long v = 0;

	if (run_ops(arg->ops, arg->nr_ops, regs, ops, &v))
		return -EFAULT;
	if (ops->sprint_symbol)
		ops->sprint_symbol(sym, sizeof(sym), v);
	else
		snprintf(sym, sizeof(sym), "0x%lx", v);
	copy_text(sym, strnlen(sym, sizeof(sym)), str, strsize, &val->str_len);
	return 0;
}
NOKPROBE_SYMBOL(exec_symstr);

/*
 * A string, element idx of :string[N]: the last op gives its address -
 * an immediate, or a dereference naming where the string is (the string
 * is AT the dereferenced address).  In an array the same address holds
 * N pointers, element idx's string is where pointer idx points.
 */
static int exec_string(const struct probe_arg *arg, int idx, struct pt_regs *regs,
		       const struct fetch_ops *ops, struct fetch_value *val,
		       char *str, size_t strsize)
{
	const struct fetch_op *last = &arg->ops[arg->nr_ops - 1];
	read_fn read = arg->type == FETCH_TYPE_USTRING ? ops->read_user : ops->read_mem;
	unsigned long base = 0;
	uint64_t ptr;

	if (last->code == FETCH_OP_COMM || last->code == FETCH_OP_IMMSTR)
		return exec_text(arg, last, ops, val, str, strsize);
	if (arg->type == FETCH_TYPE_SYMSTR)
		return exec_symstr(arg, regs, ops, val, str, strsize);
	if (last->code == FETCH_OP_IMM) {
		base = last->param;
	} else if (last->code == FETCH_OP_TP_ARG) {
		/* a field of the attached event's record: a string field's text */
		if (run_ops(arg->ops, arg->nr_ops, regs, ops, &base))
			return -EFAULT;
	} else {
		if (run_ops(arg->ops, arg->nr_ops - 1, regs, ops, &base))
			return -EFAULT;
		base += last->param;
		if (last->code == FETCH_OP_UDEREF)
			read = ops->read_user;
	}
	if (arg->count) {
		if (read_number(last->code == FETCH_OP_UDEREF ? ops->read_user : ops->read_mem,
				base + idx * sizeof(unsigned long), sizeof(unsigned long), &ptr))
			return -EFAULT;
		base = (unsigned long)ptr;
	}
	return fetch_string(read, base, str, strsize, &val->str_len);
}
NOKPROBE_SYMBOL(exec_string);

/* Linux's FETCH_OP_MOD_BF: the field's bits, shifted down, in the container's width. */
static uint64_t bitfield_value(const struct probe_arg *arg, uint64_t raw)
{
	int bits = fetch_types[arg->type].size * 8;

	raw <<= arg->bf_lshift + (64 - bits);
	return raw >> (arg->bf_rshift + (64 - bits));
}
NOKPROBE_SYMBOL(bitfield_value);

/* A number, element idx of :TYPE[N] (the elements follow each other in memory). */
static int exec_number(const struct probe_arg *arg, int idx, struct pt_regs *regs,
		       const struct fetch_ops *ops, struct fetch_value *val)
{
	const struct fetch_op *last = &arg->ops[arg->nr_ops - 1];
	size_t size = fetch_types[arg->type].size;
	unsigned long v = 0;

	if (last->code == FETCH_OP_DEREF || last->code == FETCH_OP_UDEREF) {
		/* Read exactly the type's size: a u8 at the last byte of
		 * a page must not touch the next one. */
		if (run_ops(arg->ops, arg->nr_ops - 1, regs, ops, &v) ||
		    read_number(op_reader(last, ops), v + last->param + idx * size,
				size, &val->raw))
			return -EFAULT;
	} else {
		if (run_ops(arg->ops, arg->nr_ops, regs, ops, &v))
			return -EFAULT;
		val->raw = v;
		if (size < 8)
			val->raw &= (1ULL << (size * 8)) - 1;
	}
	if (arg->bitfield)
		val->raw = bitfield_value(arg, val->raw);
	return 0;
}
NOKPROBE_SYMBOL(exec_number);

/* Element idx of the argument (0 for one that is not an array). */
static int fetch_elem_exec(const struct probe_arg *arg, int idx, struct pt_regs *regs,
			   const struct fetch_ops *ops, struct fetch_value *val,
			   char *str, size_t strsize)
{
	int ret;

	memset(val, 0, sizeof(*val));
	if (arg->nr_ops == 0 || arg->nr_ops > PROBE_MAX_OPS ||
	    !fetch_type_valid(arg->type))
		return -EINVAL;
	if (fetch_type_is_string(arg->type))
		ret = exec_string(arg, idx, regs, ops, val, str, strsize);
	else
		ret = exec_number(arg, idx, regs, ops, val);
	if (ret) {
		val->fault = 1;
		val->raw = 0;
		val->str_len = 0;
	}
	return ret;
}
NOKPROBE_SYMBOL(fetch_elem_exec);

int fetch_arg_exec(const struct probe_arg *arg, struct pt_regs *regs,
		   const struct fetch_ops *ops, struct fetch_value *val,
		   char *str, size_t strsize)
{
	return fetch_elem_exec(arg, 0, regs, ops, val, str, strsize);
}
NOKPROBE_SYMBOL(fetch_arg_exec);

/* ---- records ------------------------------------------------------------- */

/* str_off and str_len are 16 bits: no record is longer than this. */
#define RECORD_MAX 0xffff

size_t probe_args_slots(const struct probe_event_def *def)
{
	size_t n = 0;

	for (int i = 0; i < def->nr_args; i++)
		n += probe_arg_slots(&def->args[i]);
	return n;
}
NOKPROBE_SYMBOL(probe_args_slots);

size_t probe_args_record_max(const struct probe_event_def *def)
{
	size_t n = probe_args_slots(def) * sizeof(struct fetch_value);

	for (int i = 0; i < def->nr_args; i++)
		if (fetch_type_is_string(def->args[i].type))
			n += PROBE_STRING_MAX * probe_arg_slots(&def->args[i]);
	return n;
}

int probe_args_fetch(const struct probe_event_def *def, struct pt_regs *regs,
		     const struct fetch_ops *ops, void *buf, size_t size)
{
	size_t off, slot = 0;
	struct fetch_value val;
	char *rec = buf;

	if (size > RECORD_MAX)
		size = RECORD_MAX;
	if (def->nr_args < 0 || def->nr_args > PROBE_MAX_ARGS)
		return -ENOSPC;
	off = probe_args_slots(def) * sizeof(struct fetch_value);
	if (off > size)
		return -ENOSPC;
	for (int i = 0; i < def->nr_args; i++) {
		for (int j = 0; j < probe_arg_slots(&def->args[i]); j++, slot++) {
			fetch_elem_exec(&def->args[i], j, regs, ops, &val, rec + off, size - off);
			if (fetch_type_is_string(def->args[i].type))
				val.str_off = (uint16_t)off;
			off += val.str_len;
			memcpy(rec + slot * sizeof(val), &val, sizeof(val));
		}
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
	case 'c':
		/* Linux prints the byte as it is; a control byte must not
		 * reach the console raw, so it is shown as '?'. */
		probe_put(buf, size, &len, "'%c'",
			  val->raw >= 0x20 && val->raw < 0x7f ? (char)val->raw : '?');
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

/* One slot of a record, its string checked against the record's end. */
static void format_slot(char *buf, size_t size, int *len, const struct probe_arg *arg,
			const char *bytes, size_t reclen, size_t slot,
			int (*sprint_symbol)(char *buf, size_t len, unsigned long addr))
{
	struct fetch_value val;
	size_t room;
	char *at;

	memcpy(&val, bytes + slot * sizeof(val), sizeof(val));
	if ((size_t)val.str_off + val.str_len > reclen) {
		probe_put(buf, size, len, "(bad record)");
		return;
	}
	at = probe_tail(buf, size, *len, &room);
	*len += fetch_value_format(at, room, arg->type, &val, bytes + val.str_off,
				   sprint_symbol);
}

int probe_args_format(char *buf, size_t size, const struct probe_event_def *def,
		      const void *rec, size_t reclen,
		      int (*sprint_symbol)(char *buf, size_t len, unsigned long addr))
{
	const char *bytes = rec;
	size_t slot = 0;
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (def->nr_args < 0 || def->nr_args > PROBE_MAX_ARGS ||
	    probe_args_slots(def) * sizeof(struct fetch_value) > reclen) {
		probe_put(buf, size, &len, " (bad record)");
		return len;
	}
	for (int i = 0; i < def->nr_args; i++) {
		const struct probe_arg *arg = &def->args[i];

		probe_put(buf, size, &len, " %s=", arg->name);
		if (arg->count)
			probe_put_char(buf, size, &len, '{');
		for (int j = 0; j < probe_arg_slots(arg); j++, slot++) {
			if (j)
				probe_put_char(buf, size, &len, ',');
			format_slot(buf, size, &len, arg, bytes, reclen, slot, sprint_symbol);
		}
		if (arg->count)
			probe_put_char(buf, size, &len, '}');
	}
	return len;
}
