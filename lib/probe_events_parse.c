/*
 * probe_events_parse.c - one line of tracefs' kprobe_events, parsed.
 *
 *   p[:[GRP/][EVENT]] SYM[+offs]|MEMADDR [FETCHARGS]    probe
 *   p[:[GRP/][EVENT]] SYM%return [FETCHARGS]             return probe
 *   r[MAXACTIVE][:[GRP/][EVENT]] SYM[+0] [FETCHARGS]     return probe
 *   -:[GRP/][EVENT] [SYM [FETCHARGS]]                    delete
 *
 * (GRP.EVENT is GRP/EVENT too.)  uprobe_events lines are the same but
 * for word 1, PATH:OFFSET[%return][(REF_CTR)] (parse_uprobe_point()),
 * and the default group, "uprobes".
 *
 * The checks come in Linux's order (__trace_kprobe_create()): the
 * command, the probe point, the event name, each argument; a symbol
 * Linux can only find unknown when it registers the probe fails the
 * line after all of that.
 *
 * The line is split into words at blanks; '#' starts a comment.  Word 0
 * is the command, word 1 the probe point, the rest are FETCHARGS (each
 * parsed by lib/fetch_args.c).  Nothing is allocated and the input is
 * never written: every failure is a code plus the byte offset of the
 * offending word or character, which tracefs turns into Linux's
 * error_log entry with a caret.  The parser is robust against any bytes:
 * tests/fuzz/fuzz_probe_events.c feeds it random ones under sanitizers.
 */
#include <stdarg.h>
#include <stddef.h>
#include "errno.h"
#include "string.h"
#include "vsprintf.h"
#include "probe_events_internal.h"

/* ---- messages ----------------------------------------------------------- */

#define E(code, msg) [PROBE_ERR_##code] = msg,
static const char *const probe_err_text[] = { PROBE_ERRORS };
#undef E

const char *probe_err_msg(enum probe_err code)
{
	if ((unsigned int)code >= PROBE_ERR_COUNT)
		return "Invalid argument";
	return probe_err_text[code];
}

int probe_fail(struct probe_parse_error *err, enum probe_err code, int pos)
{
	err->code = code;
	err->pos = pos;
	err->errnum = 0;
	return -EINVAL;
}

/* ---- characters and numbers --------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

/* Printable ASCII or a blank: anything else in a command is a mistake. */
static bool is_line_char(char c)
{
	return is_blank(c) || (c >= 0x20 && c < 0x7f);
}

bool probe_is_identifier(const char *s, size_t len)
{
	if (len == 0 || !(probe_is_alpha(s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(probe_is_alpha(s[i]) || probe_is_digit(s[i]) || s[i] == '_'))
			return false;
	return true;
}

/* Value of a digit in base 16, or 16 when c is not one. */
static unsigned int digit_value(char c)
{
	if (probe_is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 16;
}

static bool parse_base(const char *s, size_t len, unsigned int base,
		       unsigned long *val)
{
	unsigned long v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d = digit_value(s[i]);
		if (d >= base)
			return false;
		/* Checked before multiplying, so no wrap on any host. */
		if (v > (PROBE_NUMBER_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*val = v;
	return true;
}

bool probe_parse_number(const char *s, size_t len, unsigned long *val)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_base(s + 2, len - 2, 16, val);
	if (len > 1 && s[0] == '0')
		return parse_base(s + 1, len - 1, 8, val);
	return parse_base(s, len, 10, val);
}

bool probe_parse_decimal(const char *s, size_t len, unsigned long *val)
{
	return parse_base(s, len, 10, val);
}

/* ---- words -------------------------------------------------------------- */

struct word {
	const char *s;
	size_t len;
	int pos;              /* byte offset in the line */
};

/* The next blank-separated word at or after *at, false at the end. */
static bool next_word(const char *line, size_t len, size_t *at, struct word *w)
{
	size_t i = *at;

	while (i < len && is_blank(line[i]))
		i++;
	if (i == len)
		return false;
	w->s = line + i;
	w->pos = (int)i;
	while (i < len && !is_blank(line[i]))
		i++;
	w->len = (size_t)(line + i - w->s);
	*at = i;
	return true;
}

static bool word_is(struct word w, const char *text)
{
	return strlen(text) == w.len && !memcmp(w.s, text, w.len);
}

/* Length of the line without its comment. */
static size_t strip_comment(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] == '#')
			return i;
	return len;
}

static void copy_name(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* ---- word 0: p / r[MAXACTIVE] / - and the event name --------------------- */

/* Where GRP ends: the first '/', else the first '.' (Linux 5.15+), else len. */
static size_t group_end(struct word w)
{
	size_t i;

	for (i = 0; i < w.len && w.s[i] != '/'; i++)
		;
	if (i < w.len)
		return i;
	for (i = 0; i < w.len && w.s[i] != '.'; i++)
		;
	return i;
}

/* "GRP/EVENT", "GRP/" or "EVENT" after the ':'.  An empty event keeps
 * def->event "" so that the caller makes the default name (or, for a
 * delete, removes every event of the group). */
static int parse_event_name(struct word w, struct probe_event_def *def,
			    struct probe_parse_error *err)
{
	size_t slash = group_end(w);
	struct word ev = w;
	bool need_event = false;

	if (slash < w.len) {
		if (slash == 0)
			return probe_fail(err, PROBE_ERR_NO_GROUP_NAME, w.pos);
		if (slash >= PROBE_NAME_LEN)
			return probe_fail(err, PROBE_ERR_GROUP_TOO_LONG, w.pos);
		if (!probe_is_identifier(w.s, slash))
			return probe_fail(err, PROBE_ERR_BAD_GROUP_NAME, w.pos);
		copy_name(def->group, w.s, slash);
		ev.s += slash + 1;
		ev.len -= slash + 1;
		ev.pos += (int)slash + 1;
	} else {
		need_event = true;     /* "p:" says a name is coming */
	}
	if (ev.len == 0) {
		if (need_event)
			return probe_fail(err, PROBE_ERR_NO_EVENT_NAME, ev.pos);
		return 0;
	}
	if (ev.len >= PROBE_NAME_LEN)
		return probe_fail(err, PROBE_ERR_EVENT_TOO_LONG, ev.pos);
	if (!probe_is_identifier(ev.s, ev.len))
		return probe_fail(err, PROBE_ERR_BAD_EVENT_NAME, ev.pos);
	copy_name(def->event, ev.s, ev.len);
	return 0;
}

/* r[MAXACTIVE]: the digits between 'r' and ':' (or the word's end). */
static int parse_maxactive(struct word w, size_t end, struct probe_event_def *def,
			   struct probe_parse_error *err)
{
	unsigned long n;

	if (end == 1)
		return 0;
	if (!probe_parse_number(w.s + 1, end - 1, &n) || n == 0)
		return probe_fail(err, PROBE_ERR_BAD_MAXACT, w.pos + 1);
	if (n > PROBE_MAXACTIVE_MAX)
		return probe_fail(err, PROBE_ERR_MAXACT_TOO_BIG, w.pos + 1);
	def->maxactive = (int)n;
	return 0;
}

/* Word 0 without its names: *names is what follows the ':' (len 0, pos -1: none). */
static int parse_command(struct word w, struct probe_event_def *def,
			 struct word *names, struct probe_parse_error *err)
{
	size_t colon = 1;

	while (colon < w.len && w.s[colon] != ':')
		colon++;
	if (def->fprobe && w.s[0] != 'f' && w.s[0] != '-')
		return probe_fail(err, PROBE_ERR_BAD_FPROBE_CMD, w.pos);
	switch (w.s[0]) {
	case 'f':	/* f[MAXACTIVE]: whether it may have one is known at the %return */
		if (!def->fprobe)
			return probe_fail(err, PROBE_ERR_NONE, w.pos);	/* not ours: below */
		if (parse_maxactive(w, colon, def, err))
			return -EINVAL;
		def->cmd = PROBE_CMD_ADD;
		break;
	case 'p':
		if (colon > 1 && probe_is_digit(w.s[1]))
			return probe_fail(err, PROBE_ERR_BAD_MAXACT_TYPE, w.pos + 1);
		if (colon > 1)
			return probe_fail(err, PROBE_ERR_BAD_CMD, w.pos);
		def->cmd = PROBE_CMD_ADD;
		break;
	case 'r':
		if (parse_maxactive(w, colon, def, err))
			return -EINVAL;
		def->cmd = PROBE_CMD_ADD;
		def->is_return = true;
		break;
	case '-':
		if (colon != 1 || w.len == 1)
			return probe_fail(err, PROBE_ERR_BAD_CMD, w.pos);
		def->cmd = PROBE_CMD_DELETE;
		break;
	default:
		/*
		 * Not a line of this kind at all: Linux's __trace_kprobe_create()
		 * (and the uprobes') answer -ECANCELED, which the file turns into
		 * EINVAL with nothing in error_log.
		 */
		return probe_fail(err, PROBE_ERR_NONE, w.pos);
	}
	names->s = w.s + w.len;
	names->len = 0;
	names->pos = -1;
	if (colon == w.len)
		return 0;
	names->s = w.s + colon + 1;
	names->len = w.len - colon - 1;
	names->pos = w.pos + (int)colon + 1;
	return 0;
}

/* ---- word 1: the probe point ------------------------------------------- */

static bool is_symbol_char(char c)
{
	return probe_is_alpha(c) || probe_is_digit(c) || c == '_' || c == '.';
}

/* [MOD:]SYM: a symbol, or MOD:SYM - one of module MOD's (Linux's form). */
static bool is_probe_symbol(const char *s, size_t n)
{
	size_t colon = 0;

	while (colon < n && s[colon] != ':')
		colon++;
	if (colon < n && (colon == 0 || colon == n - 1))
		return false;
	for (size_t i = 0; i < n; i++)
		if (i != colon && !is_symbol_char(s[i]))
			return false;
	return true;
}

/*
 * SYM+offs -> an address, Linux's kprobe_on_func_entry() at parse time:
 * a known symbol decides whether the probe is at a function entry
 * ($argN, and 'r' needs it).  A symbol kallsyms does not have is refused
 * here, before the arguments, with ENOENT (Linux 6.1's
 * validate_probe_symbol()); a module's MOD:SYM is found, or not, at
 * registration, after the arguments.  An i386 address is 32
 * bits: a sum past PROBE_NUMBER_MAX would wrap round to low memory, so
 * it is refused, as is an offset at or past SYM's last byte - that
 * address belongs to another function, and the probe would be listed
 * as SYM+offs while it fires in the other one.
 */
static int resolve_probe_point(struct word w, const struct fetch_arg_ctx *ctx,
			       struct probe_event_def *def, struct probe_parse_error *err)
{
	const struct probe_parse_ops *ops = ctx->ops;
	unsigned long addr = def->symbol[0] ? ops->lookup_name(def->symbol) : 0;
	unsigned long size = addr && ops->symbol_size ? ops->symbol_size(addr) : 0;

	if (!addr && def->symbol[0] && !probe_is_digit(def->symbol[0]) &&
	    !strchr(def->symbol, ':'))
		return probe_fail(err, PROBE_ERR_NO_SUCH_SYMBOL, w.pos);
	if (!addr || def->offset > PROBE_NUMBER_MAX - addr ||
	    (size && def->offset >= size)) {
		probe_defer(ctx, PROBE_ERR_BAD_PROBE_ADDR);
		return 0;
	}
	if (def->is_return && def->offset)
		return probe_fail(err, PROBE_ERR_BAD_RETPROBE, w.pos);
	def->addr = addr + def->offset;
	return 0;
}

/* "SYM%return" makes a return probe; any other suffix is an error at the '%'. */
static int parse_suffix(struct word *w, struct probe_event_def *def,
			struct probe_parse_error *err)
{
	static const char ret_suffix[] = "%return";
	size_t pct = 0;

	while (pct < w->len && w->s[pct] != '%')
		pct++;
	if (pct == w->len)
		return 0;
	if (w->len - pct != sizeof(ret_suffix) - 1 ||
	    memcmp(w->s + pct, ret_suffix, sizeof(ret_suffix) - 1))
		return probe_fail(err, PROBE_ERR_BAD_ADDR_SUFFIX, w->pos + (int)pct);
	def->is_return = true;
	w->len = pct;
	return 0;
}

static int parse_probe_point(struct word w, const struct fetch_arg_ctx *ctx,
			     struct probe_event_def *def,
			     struct probe_parse_error *err)
{
	size_t n = 0;

	if (probe_is_digit(w.s[0]) && probe_parse_number(w.s, w.len, &def->addr)) {
		/* MEMADDR: only a symbol proves the address is a function entry. */
		if (def->is_return)
			return probe_fail(err, PROBE_ERR_BAD_RETPROBE, w.pos);
		return 0;
	}
	if (parse_suffix(&w, def, err))
		return -EINVAL;
	while (n < w.len && w.s[n] != '+' && w.s[n] != '-')
		n++;
	if (n < w.len && (w.s[n] != '+' ||
			  !probe_parse_number(w.s + n + 1, w.len - n - 1, &def->offset)))
		return probe_fail(err, PROBE_ERR_BAD_PROBE_ADDR, w.pos);
	/* Not a name kallsyms could know: unknown, found so at registration. */
	if (!is_probe_symbol(w.s, n))
		n = 0;
	if (n == 0 || n >= PROBE_SYMBOL_LEN)
		probe_defer(ctx, PROBE_ERR_BAD_PROBE_ADDR);
	else
		copy_name(def->symbol, w.s, n);
	if (ctx->ops && ctx->ops->lookup_name)
		return resolve_probe_point(w, ctx, def, err);
	if (def->is_return && def->offset)
		return probe_fail(err, PROBE_ERR_BAD_RETPROBE, w.pos);
	return 0;
}

/*
 * An fprobe's FUNCTION[%return]: a function's name, nothing else.  Linux
 * hands the name to register_fprobe(), after the arguments: a name no
 * traceable function has - an offset or an address included - is
 * "Invalid probed address or symbol" then, so it is deferred here.
 */
static int parse_fprobe_point(struct word w, const struct fetch_arg_ctx *ctx,
			      struct probe_event_def *def, struct probe_parse_error *err)
{
	const struct probe_parse_ops *ops = ctx->ops;

	if (parse_suffix(&w, def, err))
		return -EINVAL;
	if (w.len == 0 || w.len >= PROBE_SYMBOL_LEN || !is_probe_symbol(w.s, w.len)) {
		probe_defer(ctx, PROBE_ERR_BAD_PROBE_ADDR);
		return 0;
	}
	copy_name(def->symbol, w.s, w.len);
	if (ops && ops->lookup_name) {
		def->addr = ops->lookup_name(def->symbol);
		if (!def->addr)
			probe_defer(ctx, PROBE_ERR_BAD_PROBE_ADDR);
	}
	return 0;
}

/* PATH:OFFSET.  The path's last ':' ends it, as in Linux. */
static bool is_path_char(char c)
{
	return is_symbol_char(c) || c == '/' || c == '-';
}

/* (REF_CTR) at the end of the offset: Linux's reference counter syntax. */
static int parse_ref_ctr(struct word *off, struct probe_event_def *def,
			 struct probe_parse_error *err)
{
	size_t open = 0, close;

	while (open < off->len && off->s[open] != '(')
		open++;
	if (open == off->len)
		return 0;
	for (close = open; close < off->len && off->s[close] != ')'; close++)
		;
	if (close == off->len)
		return probe_fail(err, PROBE_ERR_REFCNT_OPEN_BRACE, off->pos + (int)off->len);
	if (close != off->len - 1)
		return probe_fail(err, PROBE_ERR_BAD_REFCNT_SUFFIX, off->pos + (int)close + 1);
	if (!probe_parse_number(off->s + open + 1, close - open - 1, &def->ref_ctr_offset))
		return probe_fail(err, PROBE_ERR_BAD_REFCNT, off->pos + (int)open + 1);
	off->len = open;
	return 0;
}

static bool word_has_slash(struct word w)
{
	for (size_t i = 0; i < w.len; i++)
		if (w.s[i] == '/')
			return true;
	return false;
}

/* PATH:OFFSET[%return][(REF_CTR)], checked in Linux's order. */
static int parse_uprobe_point(struct word w, const struct probe_parse_ops *ops,
			      struct probe_event_def *def, struct probe_parse_error *err)
{
	size_t colon = w.len;
	struct word off;
	int ret = 0;

	while (colon > 0 && w.s[colon - 1] != ':')
		colon--;
	/*
	 * No '/', or no ':' before a digit: Linux's __trace_uprobe_create()
	 * says -ECANCELED ("not a uprobe"), which uprobe_events turns into
	 * -EINVAL with nothing in error_log.
	 */
	if (!word_has_slash(w) || colon == 0 || colon == w.len || !probe_is_digit(w.s[colon]))
		return probe_fail(err, PROBE_ERR_NONE, w.pos);
	colon--;
	/* Linux looks the path up first: a name no file has is not found. */
	if (colon == 0 || colon >= PROBE_SYMBOL_LEN)
		return probe_fail(err, PROBE_ERR_FILE_NOT_FOUND, w.pos);
	for (size_t i = 0; i < colon; i++)
		if (!is_path_char(w.s[i]))
			return probe_fail(err, PROBE_ERR_FILE_NOT_FOUND, w.pos);
	copy_name(def->symbol, w.s, colon);
	if (ops && ops->file_lookup)
		ret = ops->file_lookup(def->symbol);
	if (ret == PROBE_FILE_NOT_REGULAR)	/* Linux's d_is_reg() check: -EINVAL */
		return probe_fail(err, PROBE_ERR_NO_REGULAR_FILE, w.pos);
	if (ret < 0) {
		probe_fail(err, PROBE_ERR_FILE_NOT_FOUND, w.pos);
		err->errnum = ret;		/* kern_path()'s errno */
		return -EINVAL;
	}
	off.s = w.s + colon + 1;
	off.len = w.len - colon - 1;
	off.pos = w.pos + (int)colon + 1;
	if (parse_ref_ctr(&off, def, err) || parse_suffix(&off, def, err))
		return -EINVAL;
	if (!probe_parse_number(off.s, off.len, &def->offset))
		return probe_fail(err, PROBE_ERR_BAD_UPROBE_OFFS, off.pos);
	return 0;
}

/* The file's last component: "hello" of "/bin/hello". */
static const char *path_basename(const char *path)
{
	const char *base = path;

	for (; *path; path++)
		if (*path == '/')
			base = path + 1;
	return base;
}

/* Linux's default: "p_do_work_0", "r_do_work_0", "p_0xc0101234",
 * "fib__entry", "fib__exit" (an fprobe, Linux 6.7), with anything that
 * cannot be in an event name turned into '_'. */
static void default_event_name(struct probe_event_def *def)
{
	char type = def->is_return ? 'r' : 'p';

	if (def->fprobe)
		snprintf(def->event, sizeof(def->event), "%s__%s",
			 def->symbol[0] ? def->symbol : "fprobe", def->is_return ? "exit" : "entry");
	else if (def->uprobe)
		snprintf(def->event, sizeof(def->event), "%c_%s_0x%lx", type,
			 path_basename(def->symbol), def->offset);
	else if (def->symbol[0])
		snprintf(def->event, sizeof(def->event), "%c_%s_%lu", type,
			 def->symbol, def->offset);
	else
		snprintf(def->event, sizeof(def->event), "%c_0x%08lx", type,
			 def->addr);
	for (char *c = def->event; *c; c++)
		if (!(probe_is_alpha(*c) || probe_is_digit(*c)))
			*c = '_';
}

/* ---- words 2...: FETCHARGS ------------------------------------------------ */

static int parse_arg(struct word w, const struct fetch_arg_ctx *ctx,
		     struct probe_event_def *def, struct probe_parse_error *err)
{
	if (def->nr_args == PROBE_MAX_ARGS)
		return probe_fail(err, PROBE_ERR_TOO_MANY_ARGS, w.pos);
	if (fetch_arg_parse(w.s, w.len, w.pos, def->nr_args, ctx,
			    &def->args[def->nr_args], err))
		return -EINVAL;
	def->nr_args++;
	return 0;
}

/* ---- the line ------------------------------------------------------------ */

/* Reject what no command may contain before looking at words. */
static int check_chars(const char *line, size_t len, struct probe_parse_error *err)
{
	for (size_t i = 0; i < len; i++)
		if (!is_line_char(line[i]))
			return probe_fail(err, PROBE_ERR_BAD_CHAR, (int)i);
	return 0;
}

/* A 'p' probe at a function's first byte: where $argN are the arguments. */
static bool probe_at_entry(const struct probe_event_def *def, const struct probe_parse_ops *ops)
{
	if (def->is_return || def->uprobe || !def->symbol[0] || def->offset)
		return false;
	return !(ops && ops->lookup_name) || def->addr;
}

static int parse_add(const char *line, size_t len, size_t at, struct word cmd,
		     struct word names, const struct probe_parse_ops *ops,
		     struct probe_event_def *def, struct probe_parse_error *err)
{
	struct probe_parse_error late = { PROBE_ERR_NONE, 0, 0 };
	struct fetch_arg_ctx ctx = { .ops = ops, .def = def, .deferred = &late,
				     .uprobe = def->uprobe, .fprobe = def->fprobe };
	struct word w;
	int ret;

	if (!next_word(line, len, &at, &w))
		return probe_fail(err, PROBE_ERR_NO_PROBE_POINT, cmd.pos + (int)cmd.len);
	ctx.probe_pos = w.pos;
	if (def->fprobe)
		ret = parse_fprobe_point(w, &ctx, def, err);
	else if (def->uprobe)
		ret = parse_uprobe_point(w, ops, def, err);
	else
		ret = parse_probe_point(w, &ctx, def, err);
	if (ret)
		return -EINVAL;
	/* Linux 6.7: "f4:..." on an entry is refused at the digit. */
	if (def->fprobe && def->maxactive && !def->is_return)
		return probe_fail(err, PROBE_ERR_BAD_MAXACT_TYPE, cmd.pos + 1);
	if (names.pos >= 0 && parse_event_name(names, def, err))
		return -EINVAL;
	if (!def->event[0])
		default_event_name(def);

	ctx.is_return = def->is_return;
	/* An fprobe is at an entry by definition (Linux's TPARG_FL_FENTRY), found or not. */
	ctx.at_entry = def->fprobe ? !def->is_return : probe_at_entry(def, ops);
	while (next_word(line, len, &at, &w))
		if (parse_arg(w, &ctx, def, err))
			return -EINVAL;
	if (late.code != PROBE_ERR_NONE)
		return probe_fail(err, late.code, late.pos);
	/*
	 * The listing adds what the line left out (the group, "argN=" names)
	 * and must still be one line a user can read and write back: fewer
	 * than PROBE_LINE_MAX bytes, so that it and its newline fit.
	 */
	if (probe_event_show(NULL, 0, def) >= PROBE_LINE_MAX)
		return probe_fail(err, PROBE_ERR_LINE_TOO_LONG, cmd.pos);
	return 0;
}

/* Clear everything but args[]: each argument is cleared as it is parsed
 * and nothing reads past nr_args, so the 20 KiB array is left alone. */
static void reset_def(struct probe_event_def *def)
{
	memset(def, 0, offsetof(struct probe_event_def, args));
}

/* Which *_events grammar a line is read in. */
enum probe_kind { PROBE_KIND_KPROBE, PROBE_KIND_UPROBE, PROBE_KIND_FPROBE };

static const char *const default_groups[] = {
	[PROBE_KIND_KPROBE] = PROBE_GROUP_DEFAULT,
	[PROBE_KIND_UPROBE] = PROBE_GROUP_UPROBES,
	[PROBE_KIND_FPROBE] = PROBE_GROUP_FPROBES,
};

/*
 * What every kind of line starts with: not too long, its comment cut,
 * no character a probe line may not hold, then its first word.  1 with
 * *cmd set, 0 for a blank line, -EINVAL with err saying why.
 */
static int parse_line_start(const char *line, size_t *len, size_t *at, struct word *cmd,
			    struct probe_parse_error *err)
{
	err->code = PROBE_ERR_NONE;
	err->pos = 0;
	err->errnum = 0;
	if (*len > PROBE_LINE_MAX)
		return probe_fail(err, PROBE_ERR_LINE_TOO_LONG, 0);
	*len = strip_comment(line, *len);
	if (check_chars(line, *len, err))
		return -EINVAL;
	return next_word(line, *len, at, cmd) ? 1 : 0;
}

static int parse_event_line(const char *line, size_t len, const struct probe_parse_ops *ops,
		      enum probe_kind kind, struct probe_event_def *def,
		      struct probe_parse_error *err)
{
	struct word cmd, names;
	size_t at = 0;
	int ret;

	reset_def(def);
	def->uprobe = kind == PROBE_KIND_UPROBE;
	def->fprobe = kind == PROBE_KIND_FPROBE;
	ret = parse_line_start(line, &len, &at, &cmd, err);
	if (ret < 0)
		goto fail;
	if (ret == 0)
		return 0;                        /* blank: PROBE_CMD_NONE */

	strlcpy(def->group, default_groups[kind], sizeof(def->group));
	if (parse_command(cmd, def, &names, err))
		goto fail;
	if (def->cmd == PROBE_CMD_DELETE) {
		/* "-:[GRP/]EVENT [SYM [ARGS]]": the words after the name
		 * choose the probes of the event (probe_event_match()). */
		if (parse_event_name(names, def, err))
			goto fail;
		return 0;
	}
	ret = parse_add(line, len, at, cmd, names, ops, def, err);
	if (ret == 0)
		return 0;
fail:
	/* Leave nothing half-parsed behind for a careless caller. */
	reset_def(def);
	return -EINVAL;
}

/* ---- event probes: e[:[GRP/][EVENT]] SYSTEM.EVENT [FETCHARGS] [if FILTER] ---- */

/*
 * SYSTEM.EVENT (or SYSTEM/EVENT), Linux's traceprobe_parse_event_name()
 * with offset 0: every way it can fail ends in "This requires both
 * group and event name to attach" at the word.
 */
static int parse_attached_event(struct word w, struct probe_event_def *def,
				struct probe_parse_error *err)
{
	size_t slash = group_end(w);
	size_t ev_len = slash < w.len ? w.len - slash - 1 : 0;

	if (slash == w.len || slash == 0 || slash >= PROBE_NAME_LEN ||
	    !probe_is_identifier(w.s, slash) || ev_len == 0 || ev_len >= PROBE_NAME_LEN ||
	    !probe_is_identifier(w.s + slash + 1, ev_len))
		return probe_fail(err, PROBE_ERR_NO_EVENT_INFO, w.pos);
	copy_name(def->ep_system, w.s, slash);
	copy_name(def->ep_event, w.s + slash + 1, ev_len);
	return 0;
}

/* Word 0, "e" and what follows its first ':' (Linux looks no further). */
static int parse_eprobe_names(struct word cmd, struct probe_event_def *def,
			      struct probe_parse_error *err, bool *named)
{
	struct word names = cmd;
	size_t colon = 1;

	while (colon < cmd.len && cmd.s[colon] != ':')
		colon++;
	*named = colon < cmd.len;
	if (!*named)
		return 0;
	names.s += colon + 1;
	names.len -= colon + 1;
	names.pos += (int)colon + 1;
	return parse_event_name(names, def, err);
}

/*
 * "if FILTER": its words joined by single spaces, as Linux rebuilds the
 * filter from argv.  at is past the "if"; none left: Linux's caret is
 * one blank past the "if".
 */
static int parse_eprobe_filter(const char *line, size_t len, size_t at, struct word if_word,
			       const struct probe_parse_ops *ops, struct probe_event_def *def,
			       struct probe_parse_error *err)
{
	size_t n = 0;
	struct word w;

	while (next_word(line, len, &at, &w)) {
		if (n + w.len + 1 >= sizeof(def->ep_filter))
			return probe_fail(err, PROBE_ERR_LINE_TOO_LONG, w.pos);
		if (n)
			def->ep_filter[n++] = ' ';
		memcpy(def->ep_filter + n, w.s, w.len);
		n += w.len;
		def->ep_filter[n] = '\0';
	}
	if (n == 0)
		return probe_fail(err, PROBE_ERR_NO_EP_FILTER, if_word.pos + (int)if_word.len + 1);
	/* The kernel compiles it for the attached event's fields and logs why not. */
	if (ops && ops->filter_ok && !ops->filter_ok(def->ep_system, def->ep_event, def->ep_filter))
		return probe_fail(err, PROBE_ERR_NONE, if_word.pos);
	return 0;
}

/* Where the "if" word is (len if none), and the word itself. */
static size_t find_if_word(const char *line, size_t len, size_t at, struct word *if_word)
{
	struct word w;
	size_t start = at;

	while (start = at, next_word(line, len, &at, &w))
		if (word_is(w, "if")) {
			*if_word = w;
			return start;
		}
	return len;
}

static int parse_eprobe_add(const char *line, size_t len, size_t at, struct word cmd,
			    const struct probe_parse_ops *ops, struct probe_event_def *def,
			    struct probe_parse_error *err)
{
	struct probe_parse_error late = { PROBE_ERR_NONE, 0, 0 };
	struct fetch_arg_ctx ctx = { .ops = ops, .def = def, .deferred = &late, .tpoint = true };
	struct word target, w, if_word = { NULL, 0, 0 };
	size_t args_end;
	bool named;

	if (parse_eprobe_names(cmd, def, err, &named))
		return -EINVAL;
	if (!next_word(line, len, &at, &target))	/* Linux: no kind takes it */
		return probe_fail(err, PROBE_ERR_NONE, cmd.pos);
	if (parse_attached_event(target, def, err))
		return -EINVAL;
	if (!def->event[0])
		strlcpy(def->event, def->ep_event, sizeof(def->event));
	if (ops && ops->event_exists && !ops->event_exists(def->ep_system, def->ep_event))
		return probe_fail(err, PROBE_ERR_BAD_ATTACH_EVENT, target.pos);
	args_end = find_if_word(line, len, at, &if_word);
	if (args_end < len &&
	    parse_eprobe_filter(line, len, if_word.pos + if_word.len, if_word, ops, def, err))
		return -EINVAL;
	ctx.probe_pos = target.pos;
	while (next_word(line, args_end, &at, &w))
		if (parse_arg(w, &ctx, def, err))
			return -EINVAL;
	if (late.code != PROBE_ERR_NONE)
		return probe_fail(err, late.code, late.pos);
	if (probe_event_show(NULL, 0, def) >= PROBE_LINE_MAX)
		return probe_fail(err, PROBE_ERR_LINE_TOO_LONG, cmd.pos);
	def->cmd = PROBE_CMD_ADD;
	return 0;
}

int eprobe_event_parse(const char *line, size_t len, const struct probe_parse_ops *ops,
		       struct probe_event_def *def, struct probe_parse_error *err)
{
	struct word cmd, names;
	size_t at = 0;
	int ret;

	reset_def(def);
	def->eprobe = true;
	ret = parse_line_start(line, &len, &at, &cmd, err);
	if (ret < 0)
		goto fail;
	if (ret == 0)
		return 0;				/* blank: PROBE_CMD_NONE */
	strlcpy(def->group, PROBE_GROUP_EPROBES, sizeof(def->group));
	if (cmd.s[0] == '-') {
		if (parse_command(cmd, def, &names, err) || parse_event_name(names, def, err))
			goto fail;
		return 0;
	}
	if (cmd.s[0] != 'e') {
		probe_fail(err, PROBE_ERR_BAD_CMD, cmd.pos);
		goto fail;
	}
	if (parse_eprobe_add(line, len, at, cmd, ops, def, err) == 0)
		return 0;
fail:
	reset_def(def);
	def->eprobe = true;
	return -EINVAL;
}

int probe_event_parse(const char *line, size_t len,
		      const struct probe_parse_ops *ops,
		      struct probe_event_def *def,
		      struct probe_parse_error *err)
{
	return parse_event_line(line, len, ops, PROBE_KIND_KPROBE, def, err);
}

int uprobe_event_parse(const char *line, size_t len, const struct probe_parse_ops *ops,
		       struct probe_event_def *def, struct probe_parse_error *err)
{
	return parse_event_line(line, len, ops, PROBE_KIND_UPROBE, def, err);
}

int fprobe_event_parse(const char *line, size_t len, const struct probe_parse_ops *ops,
		       struct probe_event_def *def, struct probe_parse_error *err)
{
	return parse_event_line(line, len, ops, PROBE_KIND_FPROBE, def, err);
}

/* ---- printing back ---------------------------------------------------------- */

char *probe_tail(char *buf, size_t size, int len, size_t *room)
{
	if ((size_t)len >= size) {
		*room = 0;
		return NULL;
	}
	*room = size - (size_t)len;
	return buf + len;
}

void probe_put(char *buf, size_t size, int *len, const char *fmt, ...)
{
	size_t room;
	char *at = probe_tail(buf, size, *len, &room);
	va_list ap;

	va_start(ap, fmt);
	*len += vsnprintf(at, room, fmt, ap);
	va_end(ap);
}

void probe_put_char(char *buf, size_t size, int *len, char c)
{
	if ((size_t)*len + 1 < size) {
		buf[*len] = c;
		buf[*len + 1] = '\0';
	}
	(*len)++;
}

/* The probe point as the listing writes it: "do_work+4", "0x00001000", "/bin/x:0x00000010", "fib%return". */
static int show_probe_point(char *buf, size_t size, const struct probe_event_def *def)
{
	if (def->fprobe)
		return snprintf(buf, size, "%s%s", def->symbol, def->is_return ? "%return" : "");
	if (def->uprobe && def->ref_ctr_offset)
		return snprintf(buf, size, "%s:0x%08lx(0x%lx)", def->symbol, def->offset,
				def->ref_ctr_offset);
	if (def->uprobe)
		return snprintf(buf, size, "%s:0x%08lx", def->symbol, def->offset);
	if (!def->symbol[0])
		return snprintf(buf, size, "0x%08lx", def->addr);
	if (def->offset)
		return snprintf(buf, size, "%s+%lu", def->symbol, def->offset);
	return snprintf(buf, size, "%s", def->symbol);
}

int probe_event_show(char *buf, size_t size, const struct probe_event_def *def)
{
	size_t room;
	char *at;
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (def->eprobe) {
		/* Linux's eprobe_dyn_event_show(): no filter */
		probe_put(buf, size, &len, "e:%s/%s %s.%s", def->group, def->event,
			  def->ep_system, def->ep_event);
		for (int i = 0; i < def->nr_args && i < PROBE_MAX_ARGS; i++)
			probe_put(buf, size, &len, " %s=%s", def->args[i].name, def->args[i].comm);
		return len;
	}
	probe_put_char(buf, size, &len, def->fprobe ? 'f' : def->is_return ? 'r' : 'p');
	if (def->is_return && def->maxactive)
		probe_put(buf, size, &len, "%d", def->maxactive);
	probe_put(buf, size, &len, ":%s/%s ", def->group, def->event);
	at = probe_tail(buf, size, len, &room);
	len += show_probe_point(at, room, def);
	for (int i = 0; i < def->nr_args && i < PROBE_MAX_ARGS; i++)
		probe_put(buf, size, &len, " %s=%s", def->args[i].name,
			  def->args[i].comm);
	return len;
}

bool probe_event_match(const struct probe_event_def *def, const char *line, size_t len)
{
	char text[PROBE_SYMBOL_LEN + PROBE_ARG_TEXT_MAX + 32];
	size_t at = 0;
	struct word w;
	int i = 0;

	len = strip_comment(line, len);
	if (!next_word(line, len, &at, &w))	/* the command */
		return true;
	if (!next_word(line, len, &at, &w))
		return true;			/* "-:EVENT" alone: every probe */
	if (def->eprobe) {
		/* Linux's eprobe_dyn_event_match(): SYSTEM/EVENT or SYSTEM.EVENT */
		size_t slash = group_end(w);

		if (slash == w.len || strlen(def->ep_system) != slash ||
		    memcmp(w.s, def->ep_system, slash) ||
		    !word_is((struct word){ w.s + slash + 1, w.len - slash - 1, 0 }, def->ep_event))
			return false;
	} else {
		show_probe_point(text, sizeof(text), def);
		if (!word_is(w, text))
			return false;
	}
	for (; next_word(line, len, &at, &w); i++) {
		if (i >= def->nr_args)
			return false;
		snprintf(text, sizeof(text), "%s=%s", def->args[i].name, def->args[i].comm);
		if (!word_is(w, text))
			return false;
	}
	return true;
}

/*
 * error_log: the words joined by single spaces, then a caret under the
 * byte err->pos pointed at (on the blank joining two words when it fell
 * on blanks between them, or just past the end).
 */
int probe_err_format(char *buf, size_t size, const char *line, size_t len,
		     const struct probe_parse_error *err)
{
	static const char prefix[] = "  Command: ";
	size_t at = 0, caret = 0, out = 0;
	bool placed = false;
	struct word w = { NULL, 0, 0 };
	int n = 0;

	if (size)
		buf[0] = '\0';
	probe_put(buf, size, &n, "%s", prefix);
	while (next_word(line, strip_comment(line, len), &at, &w)) {
		if (out) {
			probe_put_char(buf, size, &n, ' ');
			out++;
		}
		if (!placed && err->pos < w.pos + (int)w.len) {
			/* on the blank before the word: Linux's caret is on that blank */
			caret = err->pos < w.pos ? (out ? out - 1 : 0) :
				out + (size_t)(err->pos - w.pos);
			placed = true;
		}
		/* A control byte must not reach the console raw. */
		for (size_t i = 0; i < w.len; i++)
			probe_put_char(buf, size, &n,
				       w.s[i] >= 0x20 && w.s[i] < 0x7f ? w.s[i] : '?');
		out += w.len;
	}
	if (!placed)	/* past the last word: at its end, or one blank after it */
		caret = out + (out && err->pos > (int)(w.pos + w.len) ? 1 : 0);
	probe_put(buf, size, &n, "\n%*s^\n", (int)(sizeof(prefix) - 1 + caret), "");
	return n;
}
