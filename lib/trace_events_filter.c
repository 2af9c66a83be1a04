/*
 * trace_events_filter.c - the event filter language (Linux's
 * kernel/trace/trace_events_filter.c, written again for this kernel):
 *
 *   text:  n > 3 && !(comm == "sh" || name ~ "fi*")
 *   pass 1 (check_parens): quotes closed, parentheses balanced, with
 *          Linux's error positions
 *   pass 2 (parse_or...):  a tree in an array, && binding tighter than ||
 *   a hit: filter_match() walks the tree, stopping early as C's && and || do
 *
 * Each predicate is "FIELD OP VALUE": numbers compare at the field's
 * size and sign (a u8 field compares its low byte, as Linux's
 * filter_pred_LT_u8 does), strings with == != or ~ (a glob).  An
 * operand is a number ([-]digits, 0x... or 0... as kstrtoull) or a
 * quoted string; a bare word is refused, as Linux refuses it.
 */
#include "trace_events_filter.h"
#include "glob.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

#define E(code, msg) msg,
static const char *const filter_err_text[] = { FILTER_ERRORS };
#undef E

const char *filter_err_msg(enum filter_err code)
{
	return code < FILT_ERR_COUNT ? filter_err_text[code] : "Error";
}

/* "<=" before "<", ">=" before ">": the first that matches is taken. */
static const char *const op_text[] = {
	[OP_GLOB] = "~", [OP_NE] = "!=", [OP_EQ] = "==", [OP_LE] = "<=",
	[OP_LT] = "<", [OP_GE] = ">=", [OP_GT] = ">", [OP_BAND] = "&",
};

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

struct parser {
	const char *s;
	int i;				/* where we are in s */
	const struct filter_field *fields;
	int nr_fields;
	struct event_filter *f;
	struct filter_parse_error *err;
};

static int fail(struct parser *p, enum filter_err code, int pos)
{
	p->err->code = code;
	p->err->pos = pos;
	return -EINVAL;
}

/* ---- pass 1: quotes and parentheses -------------------------------------- */

/*
 * Linux counts the whole text as one "( )" and reports: an unclosed
 * quote at the quote, a ')' too many at itself, a '(' never closed at
 * that '(' (found walking back from the end).
 */
static int check_parens(struct parser *p)
{
	const char *s = p->s;
	int open = 1, quote = 0, last_quote = 0, i, level;

	for (i = 0; s[i]; i++) {
		if (quote) {
			if (s[i] == quote)
				quote = 0;
		} else if (s[i] == '\'' || s[i] == '"') {
			quote = s[i];
			last_quote = i;
		} else if (s[i] == '(') {
			open++;
		} else if (s[i] == ')' && open-- == 1) {
			return fail(p, FILT_ERR_TOO_MANY_CLOSE, i);
		}
	}
	if (quote)
		return fail(p, FILT_ERR_MISSING_QUOTE, last_quote);
	if (open == 1)
		return 0;
	for (level = open, i--; i > 0; i--) {
		if (quote) {
			if (s[i] == quote)
				quote = 0;
		} else if (s[i] == '\'' || s[i] == '"') {
			quote = s[i];
		} else if (s[i] == ')') {
			level++;
		} else if (s[i] == '(' && level-- == open) {
			return fail(p, FILT_ERR_TOO_MANY_OPEN, i);
		}
	}
	return fail(p, FILT_ERR_TOO_MANY_OPEN, 0);
}

/* ---- one predicate -------------------------------------------------------- */

static int find_field(struct parser *p, const char *name, int len)
{
	for (int k = 0; k < p->nr_fields; k++)
		if ((int)strlen(p->fields[k].name) == len &&
		    strncmp(p->fields[k].name, name, len) == 0)
			return k;
	return -1;
}

static int digit_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* kstrtoull(s, 0) / kstrtoll(s, 0): the whole of s[0..len), no overflow. */
static bool parse_u64(const char *s, int len, bool is_signed, uint64_t *val)
{
	bool neg = len && s[0] == '-';
	unsigned int base = 10;
	uint64_t v = 0;
	int i = neg;

	if (neg && !is_signed)
		return false;
	if (len - i > 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (len - i > 1 && s[i] == '0') {
		base = 8;
	}
	if (i >= len)
		return false;
	for (; i < len; i++) {
		unsigned int d = digit_value(s[i]);

		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (neg && v > (uint64_t)INT64_MAX + 1)
		return false;
	*val = neg ? (uint64_t)(-(int64_t)(v - 1) - 1) : v;
	return true;
}

/* Linux's filter_parse_regex(): which cheap match a '~' pattern needs. */
static void build_glob(struct filter_pred *pred)
{
	char *pat = pred->pattern;
	int len = strlen(pat);

	pred->match = MATCH_FULL;
	for (int k = 0; k < len; k++) {
		if (pat[k] == '*') {
			if (k == 0) {
				pred->match = MATCH_END_ONLY;
			} else if (k == len - 1) {
				pred->match = pred->match == MATCH_END_ONLY ?
					      MATCH_MIDDLE_ONLY : MATCH_FRONT_ONLY;
				pat[k] = '\0';
				break;
			} else {
				pred->match = MATCH_GLOB;
				return;
			}
		} else if (pat[k] == '[' || pat[k] == '?' || pat[k] == '\\') {
			pred->match = MATCH_GLOB;
			return;
		}
	}
	if (pat[0] == '*')
		memmove(pat, pat + 1, strlen(pat));
}

/* A quoted string at s[i]: for ==, != and ~ on a string field. */
static int string_value(struct parser *p, struct filter_pred *pred, int base, int i)
{
	const char *s = p->s + base;
	char q = s[i];
	int start = i + 1, len;

	if (pred->op != OP_EQ && pred->op != OP_NE && pred->op != OP_GLOB)
		return fail(p, FILT_ERR_ILLEGAL_FIELD_OP, base + 1 + i);
	if (!p->fields[pred->field].is_string)
		return fail(p, FILT_ERR_EXPECT_DIGIT, base + 1 + i);
	for (i++; s[i] && s[i] != q; i++)
		;
	if (!s[i])
		return fail(p, FILT_ERR_MISSING_QUOTE, base + 1 + i);
	len = i - start;
	if (len >= FILTER_STR_MAX)
		return fail(p, FILT_ERR_OPERAND_TOO_LONG, base + 1 + i);
	memcpy(pred->pattern, s + start, len);
	pred->pattern[len] = '\0';
	pred->not = pred->op == OP_NE;
	if (pred->op == OP_GLOB)
		build_glob(pred);
	return i + 1;
}

/* A number at s[i], cut to the field's size. */
static int number_value(struct parser *p, struct filter_pred *pred, int base, int i)
{
	const struct filter_field *field = &p->fields[pred->field];
	const char *s = p->s + base;
	int start = i, bits = field->size * 8;

	if (field->is_string)
		return fail(p, FILT_ERR_EXPECT_STRING, base + 1 + i);
	if (pred->op == OP_GLOB)
		return fail(p, FILT_ERR_ILLEGAL_FIELD_OP, base + 1 + i);
	if (s[i] == '-')
		i++;
	while (is_alnum(s[i]))
		i++;
	if (i - start >= 24)		/* Linux's num_buf */
		return fail(p, FILT_ERR_OPERAND_TOO_LONG, base + 1 + i);
	if (!parse_u64(s + start, i - start, field->is_signed, &pred->val))
		return fail(p, FILT_ERR_ILLEGAL_INTVAL, base + 1 + start);
	if (bits < 64)
		pred->val &= (1ULL << bits) - 1;
	pred->not = pred->op == OP_NE;
	return i;
}

/*
 * "FIELD OP VALUE" at p->s[base]: returns the characters it took.
 * Positions in errors follow Linux's parse_pred(), which counts from
 * one past the predicate's first character.
 */
static int parse_pred(struct parser *p, int base)
{
	const char *s = p->s + base;
	struct filter_pred *pred;
	int i = 0, start, field, op;

	while (is_space(s[i]))
		i++;
	start = i;
	while (is_alnum(s[i]) || s[i] == '_')
		i++;
	if (i == start)			/* Linux's parse_pred() returns -1 here, */
		return -EPERM;		/* with no message: the write fails EPERM */
	field = find_field(p, s + start, i - start);
	if (field < 0)
		return fail(p, FILT_ERR_FIELD_NOT_FOUND, base + 1 + i);
	while (is_space(s[i]))
		i++;
	for (op = 0; op < (int)(sizeof(op_text) / sizeof(op_text[0])); op++)
		if (strncmp(s + i, op_text[op], strlen(op_text[op])) == 0)
			break;
	if (op == (int)(sizeof(op_text) / sizeof(op_text[0])))
		return fail(p, FILT_ERR_INVALID_OP, base + 1 + i);
	i += strlen(op_text[op]);
	while (is_space(s[i]))
		i++;
	if (p->f->nr_preds == FILTER_PRED_MAX)
		return fail(p, FILT_ERR_TOO_MANY_PREDS, base);
	pred = &p->f->preds[p->f->nr_preds];
	memset(pred, 0, sizeof(*pred));
	pred->field = field;
	pred->op = op;
	pred->is_string = p->fields[field].is_string;
	pred->size = p->fields[field].size;
	pred->is_signed = p->fields[field].is_signed;
	if (s[i] == '\'' || s[i] == '"')
		i = string_value(p, pred, base, i);
	else if (is_digit(s[i]) || s[i] == '-')
		i = number_value(p, pred, base, i);
	else
		return fail(p, FILT_ERR_INVALID_VALUE, base + 1 + i);
	if (i < 0)
		return i;
	p->f->nr_preds++;
	return i;
}

/* ---- pass 2: the expression ------------------------------------------------ */

static void skip_spaces(struct parser *p)
{
	while (is_space(p->s[p->i]))
		p->i++;
}

static int new_node(struct parser *p, int kind, int left, int right, int pred)
{
	struct filter_node *n = &p->f->nodes[p->f->nr_nodes];

	n->kind = kind;
	n->invert = false;
	n->left = left;
	n->right = right;
	n->pred = pred;
	return p->f->nr_nodes++;
}

static int parse_or(struct parser *p);

/* After a predicate or a ')' only ")", "&&", "||" or the end may come. */
static int check_follow(struct parser *p, int node)
{
	const char *s = p->s;

	skip_spaces(p);
	if (s[p->i] && s[p->i] != ')' &&
	    !((s[p->i] == '&' || s[p->i] == '|') && s[p->i + 1] == s[p->i]))
		return fail(p, FILT_ERR_TOO_MANY_PREDS, p->i);
	return node;
}

/* '!' TERM | '(' OR ')' | PREDICATE, then what may follow it. */
static int parse_term(struct parser *p)
{
	int node, len;

	skip_spaces(p);
	if (p->s[p->i] == '!' && p->s[p->i + 1] != '=' && p->s[p->i + 1] != '~') {
		p->i++;
		node = parse_term(p);
		if (node >= 0)
			p->f->nodes[node].invert = !p->f->nodes[node].invert;
		return node;
	}
	if (p->s[p->i] == '(') {
		p->i++;
		node = parse_or(p);
		if (node < 0)
			return node;
		skip_spaces(p);
		p->i++;			/* the ')': check_parens() saw it there */
		return check_follow(p, node);
	}
	len = parse_pred(p, p->i);
	if (len < 0)
		return len;
	p->i += len;
	node = new_node(p, FILTER_LEAF, -1, -1, p->f->nr_preds - 1);
	return check_follow(p, node);
}

static bool take(struct parser *p, const char *tok)
{
	skip_spaces(p);
	if (strncmp(p->s + p->i, tok, 2) != 0)
		return false;
	p->i += 2;
	return true;
}

static int parse_and(struct parser *p)
{
	int left = parse_term(p), right;

	while (left >= 0 && take(p, "&&")) {
		right = parse_term(p);
		if (right < 0)
			return right;
		left = new_node(p, FILTER_AND, left, right, -1);
	}
	return left;
}

static int parse_or(struct parser *p)
{
	int left = parse_and(p), right;

	while (left >= 0 && take(p, "||")) {
		right = parse_and(p);
		if (right < 0)
			return right;
		left = new_node(p, FILTER_OR, left, right, -1);
	}
	return left;
}

static bool has_predicate(const char *s)
{
	for (; *s; s++)
		if (!is_space(*s) && *s != '(' && *s != ')' && *s != '!')
			return true;
	return false;
}

int filter_parse(const char *text, const struct filter_field *fields, int nr_fields,
		 struct event_filter *f, struct filter_parse_error *err)
{
	struct parser p = { .s = text, .fields = fields, .nr_fields = nr_fields,
			    .f = f, .err = err };
	int ret;

	memset(f, 0, sizeof(*f));
	err->code = FILT_ERR_NONE;
	err->pos = 0;
	ret = check_parens(&p);
	if (ret)
		return ret;
	if (!has_predicate(text))
		return -EINVAL;		/* Linux: no predicate, no message */
	f->root = parse_or(&p);
	if (f->root < 0)
		return f->root;
	skip_spaces(&p);
	if (text[p.i])			/* a ')' that closes nothing we opened */
		return fail(&p, FILT_ERR_TOO_MANY_CLOSE, p.i + 1);
	return 0;
}

/*
 * Linux's append_filter_err(): the caret goes under position pos, one
 * further right except at 0 ("indexing is off by one"), never past the
 * text's end.
 */
int filter_format_error(char *buf, size_t size, const char *text,
			const struct filter_parse_error *err)
{
	int pos = err->pos, len = strlen(text);

	if (pos > len)
		pos = len;
	if (pos)
		pos++;
	if (err->code == FILT_ERR_NONE)	/* refused without a parse error */
		return snprintf(buf, size, "%s\nError: (0)\n", text);
	return snprintf(buf, size, "%s\n%*s\nparse_error: %s\n", text, pos, "^",
			filter_err_msg(err->code));
}

/* ---- a hit ---------------------------------------------------------------- */

static bool string_match(const struct filter_pred *pred, const char *str, size_t len)
{
	size_t plen = strlen(pred->pattern);

	switch (pred->match) {
	case MATCH_FRONT_ONLY:
		return len >= plen && memcmp(str, pred->pattern, plen) == 0;
	case MATCH_END_ONLY:
		return len >= plen && memcmp(str + len - plen, pred->pattern, plen) == 0;
	case MATCH_MIDDLE_ONLY:
		for (size_t k = 0; k + plen <= len; k++)
			if (memcmp(str + k, pred->pattern, plen) == 0)
				return true;
		return false;
	case MATCH_GLOB:
		return glob_match_len(pred->pattern, str, len);
	default:
		return len == plen && memcmp(str, pred->pattern, len) == 0;
	}
}

static int64_t sign_extend(uint64_t v, int size)
{
	int shift = 64 - size * 8;

	return (int64_t)(v << shift) >> shift;
}

static bool number_match(const struct filter_pred *pred, uint64_t v)
{
	int size = pred->size;
	uint64_t a = size < 8 ? v & ((1ULL << size * 8) - 1) : v, b = pred->val;
	int64_t sa = sign_extend(a, size), sb = sign_extend(b, size);

	switch (pred->op) {
	case OP_EQ:   return a == b;
	case OP_NE:   return a != b;
	case OP_BAND: return (a & b) != 0;
	case OP_LT:   return pred->is_signed ? sa < sb : a < b;
	case OP_LE:   return pred->is_signed ? sa <= sb : a <= b;
	case OP_GT:   return pred->is_signed ? sa > sb : a > b;
	case OP_GE:   return pred->is_signed ? sa >= sb : a >= b;
	}
	return false;
}

static bool pred_match(const struct filter_pred *pred, const struct filter_record_ops *ops,
		       const void *rec)
{
	const char *str;
	size_t len;

	if (!pred->is_string)
		return number_match(pred, ops->num(pred->field, rec));
	str = ops->str(pred->field, rec, &len);
	return string_match(pred, str, len) != pred->not;
}

static bool node_match(const struct event_filter *f, int n, const struct filter_record_ops *ops,
		       const void *rec)
{
	const struct filter_node *node = &f->nodes[n];
	bool r;

	if (node->kind == FILTER_LEAF)
		r = pred_match(&f->preds[node->pred], ops, rec);
	else if (node->kind == FILTER_AND)
		r = node_match(f, node->left, ops, rec) && node_match(f, node->right, ops, rec);
	else
		r = node_match(f, node->left, ops, rec) || node_match(f, node->right, ops, rec);
	return r != node->invert;
}

bool filter_match(const struct event_filter *f, const struct filter_record_ops *ops,
		  const void *rec)
{
	return !f || f->nr_preds == 0 || node_match(f, f->root, ops, rec);
}
