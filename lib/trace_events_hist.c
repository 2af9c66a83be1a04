/*
 * trace_events_hist.c - a hist trigger's expressions and actions as
 * text (Linux's parse_expr(), contains_operator(), parse_atom(),
 * parse_field(), onmatch_parse() and action_parse() in
 * kernel/trace/trace_events_hist.c, written again for this kernel):
 *
 *   "common_timestamp.usecs-$ts0"      MINUS(TIMESTAMP.usecs, VAR_REF ts0)
 *   "onmatch(kprobes.start).trace(lat,$lat,common_pid)"
 *
 * Only the syntax is checked here; whether a field or a variable exists
 * is the kernel's question (kernel/trace/trace_events_hist.c).  Like
 * Linux, an expression splits at its last + or - (else its last * or /)
 * so that a-b-c is (a-b)-c, and no more than 3 operators are taken.
 */
#include "trace_events_trigger.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

static int fail(enum hist_err *herr, const char **bad, enum hist_err code, const char *where)
{
	*herr = code;
	*bad = where;
	return -EINVAL;
}

/* ---- atoms ------------------------------------------------------------------- */

static int add_node(struct hist_expr *e)
{
	if (e->nr_nodes == HIST_EXPR_NODES)
		return -1;
	memset(&e->nodes[e->nr_nodes], 0, sizeof(e->nodes[0]));
	e->nodes[e->nr_nodes].operand[0] = e->nodes[e->nr_nodes].operand[1] = -1;
	return e->nr_nodes++;
}

/* ".bucket[s]=N" after "bucket": the caret goes where Linux's reading stopped. */
static int parse_buckets(struct hist_node *n, char *s, enum hist_err *herr, const char **bad)
{
	unsigned long buckets;

	if (*s == 's')
		s++;
	if (*s != '=')
		return fail(herr, bad, HIST_ERR_BAD_FIELD_MODIFIER, s);
	s++;
	if (kstrtoul(s, 0, &buckets) || !buckets)
		return fail(herr, bad, HIST_ERR_BAD_FIELD_MODIFIER, s);
	n->mods = HIST_MOD_BUCKETS;
	n->buckets = buckets;
	return 0;
}

/* "name.modifier": Linux's parse_field() modifiers this kernel can give. */
static int parse_modifier(struct hist_node *n, char *mod, enum hist_err *herr, const char **bad)
{
	if (strcmp(mod, "hex") == 0)
		n->mods = HIST_MOD_HEX;
	else if (strcmp(mod, "sym") == 0)
		n->mods = HIST_MOD_SYM;
	else if (strcmp(mod, "symXoffset") == 0)	/* ".sym-offset", renamed before parsing */
		n->mods = HIST_MOD_SYM_OFFSET;
	else if (strcmp(mod, "execname") == 0 && strcmp(n->name, "common_pid") == 0)
		n->mods = HIST_MOD_EXECNAME;
	else if (strcmp(mod, "log2") == 0)
		n->mods = HIST_MOD_LOG2;
	else if (strcmp(mod, "usecs") == 0)
		n->mods = HIST_MOD_USECS;
	else if (strcmp(mod, "syscall") == 0)
		n->mods = HIST_MOD_SYSCALL;
	else if (strncmp(mod, "bucket", 6) == 0)
		return parse_buckets(n, mod + 6, herr, bad);
	else
		return fail(herr, bad, HIST_ERR_BAD_FIELD_MODIFIER, mod);
	return 0;
}

static int parse_atom(char *str, struct hist_expr *e, enum hist_err *herr, const char **bad)
{
	int i = add_node(e);
	struct hist_node *n;
	char *dot;

	if (i < 0)
		return fail(herr, bad, HIST_ERR_TOO_MANY_SUBEXPR, str);
	n = &e->nodes[i];
	if (str[0] >= '0' && str[0] <= '9') {
		unsigned long long constant;

		n->atom = HIST_ATOM_CONST;
		if (kstrtoull(str, 0, &constant))
			return fail(herr, bad, HIST_ERR_EXPECT_NUMBER, str);
		n->constant = constant;
		return i;
	}
	if (str[0] == '$' && str[1]) {		/* Linux's is_var_ref() */
		n->atom = HIST_ATOM_VAR_REF;
		if (strlen(str + 1) >= HIST_NAME_LEN)
			return fail(herr, bad, HIST_ERR_VAR_NOT_FOUND, str + 1);
		strlcpy(n->name, str + 1, sizeof(n->name));
		return i;
	}
	dot = strchr(str, '.');
	if (dot)
		*dot = '\0';
	if (strlen(str) >= HIST_NAME_LEN)
		return fail(herr, bad, HIST_ERR_FIELD_NOT_FOUND, str);
	strlcpy(n->name, str, sizeof(n->name));
	if (dot && parse_modifier(n, dot + 1, herr, bad))
		return -EINVAL;
	if (strcmp(n->name, "common_timestamp") == 0)
		n->atom = HIST_ATOM_TIMESTAMP;
	else if (strcmp(n->name, "common_cpu") == 0)
		n->atom = HIST_ATOM_CPU;
	else
		n->atom = HIST_ATOM_FIELD;
	return i;
}

/* ---- operators --------------------------------------------------------------------- */

/* The root operator of str and where it is (Linux's contains_operator()). */
static enum hist_op contains_operator(char *str, char **sep)
{
	char *minus = strrchr(str, '-'), *plus = strrchr(str, '+');
	char *div = strrchr(str, '/'), *mult = strrchr(str, '*');

	*sep = NULL;
	if (minus == str) {			/* unary minus is always the root */
		*sep = minus;
		return HIST_OP_UNARY_MINUS;
	}
	if (plus || minus) {			/* the rightmost: left to right */
		*sep = plus > minus ? plus : minus;
		return plus > minus ? HIST_OP_PLUS : HIST_OP_MINUS;
	}
	if (div || mult) {
		*sep = mult > div ? mult : div;
		return mult > div ? HIST_OP_MULT : HIST_OP_DIV;
	}
	return HIST_OP_NONE;
}

static int parse_sub(char *str, struct hist_expr *e, int *n_subexprs, enum hist_err *herr,
		     const char **bad);

/* "-(EXPR)": Linux takes unary minus with parentheses only. */
static int parse_unary(char *str, struct hist_expr *e, int *n_subexprs, enum hist_err *herr,
		       const char **bad)
{
	char *close;
	int i, op;

	if (++*n_subexprs > HIST_SUBEXPR_MAX)
		return fail(herr, bad, HIST_ERR_TOO_MANY_SUBEXPR, str);
	str++;
	if (!strchr(str, '('))
		return -EINVAL;
	str++;
	close = strrchr(str, ')');
	if (!close)
		return -EINVAL;
	if (close[1])
		return fail(herr, bad, HIST_ERR_UNARY_MINUS_SUBEXPR, str);
	*close = '\0';
	op = parse_sub(str, e, n_subexprs, herr, bad);
	if (op < 0)
		return op;
	i = add_node(e);
	if (i < 0)
		return fail(herr, bad, HIST_ERR_TOO_MANY_SUBEXPR, str);
	e->nodes[i].op = HIST_OP_UNARY_MINUS;
	e->nodes[i].operand[0] = op;
	return i;
}

static uint64_t fold(enum hist_op op, uint64_t a, uint64_t b)
{
	switch (op) {
	case HIST_OP_PLUS:  return a + b;
	case HIST_OP_MINUS: return a - b;
	case HIST_OP_MULT:  return a * b;
	default:            return b ? a / b : (uint64_t)-1;	/* Linux: -1 when undefined */
	}
}

/* Both operands numbers: one number, as Linux's combine_consts. */
static int binary_node(struct hist_expr *e, enum hist_op op, int left, int right, char *rtext,
		       enum hist_err *herr, const char **bad)
{
	struct hist_node *l = &e->nodes[left], *r = &e->nodes[right];
	bool lconst = l->op == HIST_OP_NONE && l->atom == HIST_ATOM_CONST;
	bool rconst = r->op == HIST_OP_NONE && r->atom == HIST_ATOM_CONST;
	int i;

	if (op == HIST_OP_DIV && rconst && r->constant == 0) {
		fail(herr, bad, HIST_ERR_DIVISION_BY_ZERO, rtext);
		return -EDOM;
	}
	if (lconst && rconst) {
		l->constant = fold(op, l->constant, r->constant);
		e->nr_nodes--;			/* right was the last node made */
		return left;
	}
	i = add_node(e);
	if (i < 0)
		return fail(herr, bad, HIST_ERR_TOO_MANY_SUBEXPR, rtext);
	e->nodes[i].op = op;
	e->nodes[i].operand[0] = left;
	e->nodes[i].operand[1] = right;
	return i;
}

/* The node index of str's expression, or a negative errno. */
static int parse_sub(char *str, struct hist_expr *e, int *n_subexprs, enum hist_err *herr,
		     const char **bad)
{
	enum hist_op op;
	char *sep, *right;
	int left, r;

	if (*n_subexprs > HIST_SUBEXPR_MAX)
		return fail(herr, bad, HIST_ERR_TOO_MANY_SUBEXPR, str);
	op = contains_operator(str, &sep);
	if (op == HIST_OP_NONE)
		return parse_atom(str, e, herr, bad);
	if (op == HIST_OP_UNARY_MINUS)
		return parse_unary(str, e, n_subexprs, herr, bad);
	++*n_subexprs;
	*sep = '\0';
	right = sep + 1;
	if (!*str || !*right)
		return -EINVAL;			/* both operands are needed; Linux logs nothing */
	left = parse_sub(str, e, n_subexprs, herr, bad);
	if (left < 0)
		return left;
	r = parse_sub(right, e, n_subexprs, herr, bad);
	if (r < 0)
		return r;
	return binary_node(e, op, left, r, right, herr, bad);
}

int hist_expr_parse(char *str, struct hist_expr *e, enum hist_err *herr, const char **bad)
{
	int n_subexprs = 0, root;

	memset(e, 0, sizeof(*e));
	root = parse_sub(str, e, &n_subexprs, herr, bad);
	if (root < 0)
		return root;		/* -EINVAL, or -EDOM for a division by zero, as Linux */
	e->root = root;
	return 0;
}

void hist_expr_stacktrace(struct hist_expr *e)
{
	memset(e, 0, sizeof(*e));
	e->nr_nodes = 1;
	e->nodes[0].atom = HIST_ATOM_STACKTRACE;
	e->nodes[0].operand[0] = e->nodes[0].operand[1] = -1;
	strlcpy(e->nodes[0].name, "stacktrace", sizeof(e->nodes[0].name));
}

/* ---- printing -------------------------------------------------------------------- */

/* Linux's get_hist_field_flags(): the one modifier printed. */
static const char *modifier_name(unsigned int mods)
{
	return mods & HIST_MOD_HEX ? "hex" : mods & HIST_MOD_SYM ? "sym" :
	       mods & HIST_MOD_SYM_OFFSET ? "sym-offset" : mods & HIST_MOD_EXECNAME ? "execname" :
	       mods & HIST_MOD_LOG2 ? "log2" : mods & HIST_MOD_BUCKETS ? "buckets" :
	       mods & HIST_MOD_USECS ? "usecs" : mods & HIST_MOD_SYSCALL ? "syscall" : NULL;
}

#define LEFT(n, size) ((size_t)(n) < (size) ? (size) - (n) : 0)

static int format_node(char *buf, size_t size, const struct hist_expr *e, int i, bool top)
{
	const struct hist_node *n = &e->nodes[i];
	static const char op_chars[] = { [HIST_OP_PLUS] = '+', [HIST_OP_MINUS] = '-',
					 [HIST_OP_DIV] = '/', [HIST_OP_MULT] = '*' };
	const char *mod;
	int len;

	if (n->op == HIST_OP_UNARY_MINUS) {
		len = snprintf(buf, size, "-(");
		len += format_node(buf + len, LEFT(len, size), e, n->operand[0], false);
		return len + snprintf(buf + len, LEFT(len, size), ")");
	}
	if (n->op != HIST_OP_NONE) {
		len = format_node(buf, size, e, n->operand[0], false);
		len += snprintf(buf + len, LEFT(len, size), "%c", op_chars[n->op]);
		return len + format_node(buf + len, LEFT(len, size), e, n->operand[1], false);
	}
	if (n->atom == HIST_ATOM_VAR_REF)
		return snprintf(buf, size, "$%s", n->name);
	if (n->atom == HIST_ATOM_CONST)
		return snprintf(buf, size, "%llu", (unsigned long long)n->constant);
	len = snprintf(buf, size, "%s", n->name);
	mod = modifier_name(n->mods);
	if (mod)
		len += snprintf(buf + len, LEFT(len, size), ".%s", mod);
	if (top && (n->mods & HIST_MOD_BUCKETS))	/* hist_field_print() adds "=N" */
		len += snprintf(buf + len, LEFT(len, size), "=%lu", n->buckets);
	return len;
}

int hist_expr_format(char *buf, size_t size, const struct hist_expr *e)
{
	if (size)
		buf[0] = '\0';
	return format_node(buf, size, e, e->root, true);
}

int hist_expr_name(char *buf, size_t size, const struct hist_expr *e)
{
	const struct hist_node *n = &e->nodes[e->root];

	if (n->op != HIST_OP_NONE)
		return hist_expr_format(buf, size, e);
	/* Linux's hist_field_name() has no name for a constant or the stack: sort= cannot pick them */
	return snprintf(buf, size, "%s", n->atom == HIST_ATOM_CONST ||
			n->atom == HIST_ATOM_STACKTRACE ? "" : n->name);
}

bool hist_expr_has_var_ref(const struct hist_expr *e)
{
	for (int i = 0; i < e->nr_nodes; i++)
		if (e->nodes[i].op == HIST_OP_NONE && e->nodes[i].atom == HIST_ATOM_VAR_REF)
			return true;
	return false;
}

/* ---- actions ----------------------------------------------------------------------- */

/* Cut *s at the first c: the piece before, *s after it (NULL if no c), as strsep(). */
static char *cut(char **s, char c)
{
	char *start = *s, *p;

	if (!start)
		return NULL;
	p = strchr(start, c);
	if (p) {
		*p = '\0';
		*s = p + 1;
	} else {
		*s = NULL;
	}
	return start;
}

static char *strip(char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	return s;
}

/* "a,b,c": the first is the synthetic event when the action is .trace(). */
static int parse_params(char *params, struct hist_action *a, enum hist_err *herr,
			const char **bad)
{
	bool first = true;
	char *param;

	while ((param = cut(&params, ',')) != NULL) {
		if (a->nr_params == HIST_PARAMS_MAX)
			return fail(herr, bad, HIST_ERR_TOO_MANY_PARAMS, "");
		param = strip(param);
		if (strlen(param) < 2 || strlen(param) >= HIST_NAME_LEN)
			return fail(herr, bad, HIST_ERR_INVALID_PARAM, param);
		if (first && a->trace_keyword)
			strlcpy(a->synth, param, sizeof(a->synth));
		else
			strlcpy(a->params[a->nr_params++], param, HIST_NAME_LEN);
		first = false;
	}
	return 0;
}

/* ".save(...)", ".snapshot()", ".trace(...)" or ".SYNTH(...)" after the handler. */
static int parse_action_kind(char *str, struct hist_action *a, enum hist_err *herr,
			     const char **bad)
{
	char *name, *params;

	cut(&str, '.');
	if (!str)
		return fail(herr, bad, HIST_ERR_ACTION_NOT_FOUND, "");
	name = cut(&str, '(');
	if (!str || strlen(name) >= HIST_NAME_LEN)
		return fail(herr, bad, HIST_ERR_ACTION_NOT_FOUND, "");
	strlcpy(a->name, name, sizeof(a->name));
	params = cut(&str, ')');
	if (strncmp(name, "save", 4) == 0 || strncmp(name, "snapshot", 8) == 0) {
		a->action = name[1] == 'a' ? HIST_ACTION_SAVE : HIST_ACTION_SNAPSHOT;
		if (a->action == HIST_ACTION_SNAPSHOT && !str)
			return fail(herr, bad, HIST_ERR_NO_CLOSING_PAREN, params);
		if (a->action == HIST_ACTION_SAVE && parse_params(params, a, herr, bad))
			return -EINVAL;
		if (a->handler == HIST_HANDLER_ONMATCH)
			return fail(herr, bad, HIST_ERR_ACTION_MISMATCH, name);
		return 0;
	}
	a->action = HIST_ACTION_TRACE;
	a->trace_keyword = strncmp(name, "trace", 5) == 0;
	if (!a->trace_keyword)
		strlcpy(a->synth, name, sizeof(a->synth));
	return params ? parse_params(params, a, herr, bad) : 0;
}

int hist_action_parse(char *str, struct hist_action *a, enum hist_err *herr, const char **bad)
{
	char *arg;

	memset(a, 0, sizeof(*a));
	if (strncmp(str, "onmatch(", 8) == 0) {
		a->handler = HIST_HANDLER_ONMATCH;
		str += 8;
		arg = cut(&str, ')');
		if (!str)
			return fail(herr, bad, HIST_ERR_NO_CLOSING_PAREN, arg);
		if (!strchr(arg, '.'))
			return fail(herr, bad, HIST_ERR_SUBSYS_NOT_FOUND, arg);
		strlcpy(a->system, cut(&arg, '.'), sizeof(a->system));
		strlcpy(a->event, arg, sizeof(a->event));
	} else if (strncmp(str, "onmax(", 6) == 0 || strncmp(str, "onchange(", 9) == 0) {
		a->handler = str[2] == 'm' ? HIST_HANDLER_ONMAX : HIST_HANDLER_ONCHANGE;
		str += a->handler == HIST_HANDLER_ONMAX ? 6 : 9;
		arg = cut(&str, ')');
		if (!str || strlen(arg) >= HIST_NAME_LEN)
			return -EINVAL;
		strlcpy(a->var, arg, sizeof(a->var));
	} else {
		return -EINVAL;
	}
	return parse_action_kind(str, a, herr, bad);
}

/* Linux's print_actions_spec() for one action. */
int hist_action_format(char *buf, size_t size, const struct hist_action *a)
{
	int len;

	if (a->handler == HIST_HANDLER_ONMATCH)
		len = snprintf(buf, size, ":onmatch(%s.%s).%s(", a->system, a->event, a->name);
	else
		len = snprintf(buf, size, ":%s(%s).%s(", a->handler == HIST_HANDLER_ONMAX ?
			       "onmax" : "onchange", a->var, a->name);
	if (a->action == HIST_ACTION_TRACE && a->trace_keyword)
		len += snprintf(buf + len, LEFT(len, size), "%s", a->synth);
	for (int i = 0; i < a->nr_params; i++)
		len += snprintf(buf + len, LEFT(len, size), "%s%s",
				i || (a->action == HIST_ACTION_TRACE && a->trace_keyword) ? "," : "",
				a->params[i]);
	return len + snprintf(buf + len, LEFT(len, size), ")");
}
