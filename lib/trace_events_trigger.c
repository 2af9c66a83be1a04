/*
 * trace_events_trigger.c - the text of an event trigger (Linux's
 * trigger_process_regex(), event_trigger_parse() and, for hist,
 * parse_hist_trigger_attrs(), written again for this kernel):
 *
 *   "traceoff:3 if n > 5"  ->  cmd TRACEOFF, count 3, filter "n > 5"
 *   "enable_event:kprobes:myfib:2"  ->  cmd ENABLE_EVENT, kprobes, myfib, count 2
 *   "hist:keys=n.hex:vals=x:sort=x.descending:size=256"
 *
 * Only the syntax is checked here; whether the fields exist is the
 * kernel's question (kernel/trace/trace_events_trigger.c), and so is
 * the filter, compiled by lib/trace_events_filter.c.
 */
#include "trace_events_trigger.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"

static const char *const cmd_names[TRIGGER_NR] = {
	[TRIGGER_TRACEON] = "traceon", [TRIGGER_TRACEOFF] = "traceoff",
	[TRIGGER_SNAPSHOT] = "snapshot", [TRIGGER_STACKTRACE] = "stacktrace",
	[TRIGGER_ENABLE_EVENT] = "enable_event", [TRIGGER_DISABLE_EVENT] = "disable_event",
	[TRIGGER_ENABLE_HIST] = "enable_hist", [TRIGGER_DISABLE_HIST] = "disable_hist",
	[TRIGGER_HIST] = "hist",
};

const char *trigger_cmd_name(enum trigger_cmd cmd)
{
	return cmd < TRIGGER_NR ? cmd_names[cmd] : "?";
}

#define E(code, msg) msg,
static const char *const hist_err_text[] = { HIST_ERRORS };
#undef E

const char *hist_err_msg(enum hist_err code)
{
	return code < HIST_ERR_COUNT ? hist_err_text[code] : "Error";
}

#define LEFT(n, size) ((size_t)(n) < (size) ? (size) - (n) : 0)

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* Cut *s at the next delim: the piece before it, *s after it (NULL at the end). */
static char *next_token(char **s, char delim)
{
	char *start = *s, *p = start;

	if (!start)
		return NULL;
	while (*p && *p != delim)
		p++;
	if (*p) {
		*p = '\0';
		*s = p + 1;
	} else {
		*s = NULL;
	}
	return start;
}

/* Characters before the first of stops (or the end). */
static size_t word_len(const char *p, const char *stops)
{
	size_t n = 0;

	while (p[n] && !strchr(stops, p[n]))
		n++;
	return n;
}

/*
 * Split "PARAM if FILTER": Linux looks for an "if" with a blank on
 * each side; the filter is what follows it.
 */
static int split_filter(char *param, struct trigger_spec *spec)
{
	char *p = param;
	size_t len;

	for (; (p = strstr(p, "if")) != NULL; p++) {
		if (p == param || !is_space(p[-1]) || !is_space(p[2]))
			continue;
		p[-1] = '\0';
		p += 2;
		while (is_space(*p))
			p++;
		len = strlen(p);
		while (len && is_space(p[len - 1]))
			len--;
		if (len == 0 || len >= sizeof(spec->filter))
			return -EINVAL;
		memcpy(spec->filter, p, len);
		spec->filter[len] = '\0';
		return 0;
	}
	return 0;
}

/* ---- hist ----------------------------------------------------------------- */

static int hist_fail(struct trigger_spec *spec, enum hist_err *herr, enum hist_err code,
		     const char *where)
{
	*herr = code;
	spec->bad = where;
	return -EINVAL;
}

/* The attributes' texts, kept until every one is read (Linux's hist_trigger_attrs). */
struct hist_attrs {
	char *keys, *vals, *sort;
	char *assignments[HIST_VARS_MAX];
	int nr_assignments;
	char *actions[HIST_ACTIONS_MAX];
	int nr_actions;
};

/* size=N: a power of two at least N, 2^7 to 2^HIST_MAX_BITS entries. */
static int hist_size(const char *s, unsigned int *bits)
{
	unsigned long size;
	unsigned int b = 0;

	if (kstrtoul(s, 0, &size) || size == 0)
		return -EINVAL;
	while ((1UL << b) < size && b < 31)
		b++;
	if (b < HIST_MIN_BITS || b > HIST_MAX_BITS)
		return -EINVAL;
	*bits = b;
	return 0;
}

/* "name=value" (Linux's parse_assignment()). */
static int hist_assignment(struct trigger_spec *spec, enum hist_err *herr, char *tok,
			   struct hist_attrs *a)
{
	struct hist_spec *h = &spec->hist;
	char *val = strchr(tok, '=') + 1;

	if (!strncmp(tok, "key=", 4) || !strncmp(tok, "keys=", 5))
		a->keys = val;
	else if (!strncmp(tok, "val=", 4) || !strncmp(tok, "vals=", 5) || !strncmp(tok, "values=", 7))
		a->vals = val;
	else if (!strncmp(tok, "sort=", 5))
		a->sort = val;
	else if (!strncmp(tok, "name=", 5))
		return strlcpy(h->name, val, sizeof(h->name)) < sizeof(h->name) ? 0 : -EINVAL;
	else if (!strncmp(tok, "clock=", 6))
		strlcpy(h->clock, val, sizeof(h->clock));
	else if (!strncmp(tok, "size=", 5))
		return hist_size(val, &h->map_bits);
	else if (a->nr_assignments == HIST_VARS_MAX)
		return hist_fail(spec, herr, HIST_ERR_TOO_MANY_VARS, tok);
	else
		a->assignments[a->nr_assignments++] = tok;
	return 0;
}

static int hist_attr(struct trigger_spec *spec, enum hist_err *herr, char *tok,
		     struct hist_attrs *a)
{
	struct hist_spec *h = &spec->hist;
	char *eq = strchr(tok, '=');

	if (eq) {
		if (!eq[1])
			return hist_fail(spec, herr, HIST_ERR_EMPTY_ASSIGNMENT, tok);
		return hist_assignment(spec, herr, tok, a);
	}
	if (strcmp(tok, "pause") == 0)
		h->pause = true;
	else if (strcmp(tok, "cont") == 0 || strcmp(tok, "continue") == 0)
		h->cont = true;
	else if (strcmp(tok, "clear") == 0)
		h->clear = true;
	else if (a->nr_actions < HIST_ACTIONS_MAX && (!strncmp(tok, "onmatch(", 8) ||
		 !strncmp(tok, "onmax(", 6) || !strncmp(tok, "onchange(", 9)))
		a->actions[a->nr_actions++] = tok;
	else
		return -EINVAL;
	return 0;
}

/*
 * $x, when x is this trigger's variable of a lone field (x=pid,
 * x=common_timestamp.usecs), is that field (Linux's local_field_var_ref()).
 */
static void substitute_local_refs(const struct hist_spec *h, struct hist_expr *e)
{
	for (int i = 0; i < e->nr_nodes; i++) {
		struct hist_node *n = &e->nodes[i];

		if (n->op != HIST_OP_NONE || n->atom != HIST_ATOM_VAR_REF)
			continue;
		for (int v = 0; v < h->nr_vars; v++) {
			const struct hist_node *def = &h->vars[v].expr.nodes[h->vars[v].expr.root];

			if (strcmp(h->vars[v].name, n->name) == 0 && def->op == HIST_OP_NONE &&
			    def->atom != HIST_ATOM_VAR_REF && def->atom != HIST_ATOM_CONST) {
				*n = *def;
				break;
			}
		}
	}
}

/* "a=EXPR,b=EXPR" of every assignment, in order (Linux's parse_var_defs()). */
static int hist_vars(struct trigger_spec *spec, enum hist_err *herr, struct hist_attrs *a)
{
	struct hist_spec *h = &spec->hist;
	char *list, *def, *name;
	int ret;

	for (int i = 0; i < a->nr_assignments; i++) {
		list = a->assignments[i];
		while ((def = next_token(&list, ',')) != NULL) {
			name = def;
			def = strchr(def, '=');
			if (!def)
				return hist_fail(spec, herr, HIST_ERR_MALFORMED_ASSIGNMENT, name);
			*def++ = '\0';
			if (h->nr_vars == HIST_VARS_MAX)
				return hist_fail(spec, herr, HIST_ERR_TOO_MANY_VARS, name);
			if (strlen(name) >= HIST_NAME_LEN)
				return hist_fail(spec, herr, HIST_ERR_MALFORMED_ASSIGNMENT, name);
			strlcpy(h->vars[h->nr_vars].name, name, HIST_NAME_LEN);
			ret = hist_expr_parse(def, &h->vars[h->nr_vars].expr, herr, &spec->bad);
			if (ret)
				return ret;
			h->nr_vars++;
		}
	}
	for (int v = 0; v < h->nr_vars; v++)
		substitute_local_refs(h, &h->vars[v].expr);
	return 0;
}

/* "a,b,c" of keys= or vals= into up to max expressions. */
static int hist_list(struct trigger_spec *spec, enum hist_err *herr, char *list,
		     struct hist_expr *exprs, int max, bool is_key)
{
	int n = 0, ret;
	char *tok;

	while ((tok = next_token(&list, ',')) != NULL) {
		if (!is_key && strcmp(tok, "hitcount") == 0)
			continue;		/* always there: Linux skips it */
		if (n == max)
			return -EINVAL;		/* Linux: too many fields, no message */
		if (is_key && strcmp(tok, "stacktrace") == 0) {	/* the word alone: no modifier */
			hist_expr_stacktrace(&exprs[n++]);
			continue;
		}
		ret = hist_expr_parse(tok, &exprs[n], herr, &spec->bad);
		if (ret)
			return ret;
		substitute_local_refs(&spec->hist, &exprs[n]);
		if (is_key && hist_expr_has_var_ref(&exprs[n]))
			return hist_fail(spec, herr, HIST_ERR_INVALID_REF_KEY, tok);
		n++;
	}
	return n;
}

/* One sort field: hitcount, or the first val, then key, of that name. */
static bool hist_find_sort(struct hist_spec *h, const char *name, int i)
{
	char buf[HIST_NAME_LEN * 2];

	h->sort_kind[i] = HIST_SORT_HITCOUNT;
	if (strcmp(name, "hitcount") == 0)
		return true;
	for (int v = 0; v < h->nr_vals; v++) {
		hist_expr_name(buf, sizeof(buf), &h->vals[v]);
		if (strcmp(buf, name) == 0) {
			h->sort_kind[i] = HIST_SORT_VAL;
			h->sort_index[i] = v;
			return true;
		}
	}
	for (int k = 0; k < h->nr_keys; k++) {
		hist_expr_name(buf, sizeof(buf), &h->keys[k]);
		if (strcmp(buf, name) == 0) {
			h->sort_kind[i] = HIST_SORT_KEY;
			h->sort_index[i] = k;
			return true;
		}
	}
	return false;
}

/* Linux's create_sort_keys(): its carets are at "sort=" or the field. */
static int hist_sort(struct trigger_spec *spec, enum hist_err *herr, char *list)
{
	struct hist_spec *h = &spec->hist;
	char *tok, *dot;

	h->nr_sort = 1;				/* hitcount, ascending */
	if (!list)
		return 0;
	for (int i = 0; i < HIST_SORT_KEYS_MAX; i++) {
		tok = next_token(&list, ',');
		if (!tok)
			break;
		if (!*tok)
			return hist_fail(spec, herr, HIST_ERR_EMPTY_SORT_FIELD, "sort=");
		if (i == HIST_SORT_KEYS_MAX - 1 && list)
			return hist_fail(spec, herr, HIST_ERR_TOO_MANY_SORT_FIELDS, "sort=");
		dot = strchr(tok, '.');
		if (dot)
			*dot++ = '\0';
		if (!*tok)
			return hist_fail(spec, herr, HIST_ERR_EMPTY_SORT_FIELD, "sort=");
		if (!hist_find_sort(h, tok, i))
			return hist_fail(spec, herr, HIST_ERR_INVALID_SORT_FIELD, tok);
		h->sort_descending[i] = dot && strcmp(dot, "descending") == 0;
		if (dot && !h->sort_descending[i] && strcmp(dot, "ascending") != 0)
			return hist_fail(spec, herr, HIST_ERR_INVALID_SORT_MODIFIER, dot);
		h->nr_sort = i + 1;
	}
	return 0;
}

static bool expr_uses(const struct hist_expr *e, enum hist_atom atom, unsigned int mods)
{
	for (int i = 0; i < e->nr_nodes; i++)
		if (e->nodes[i].op == HIST_OP_NONE && e->nodes[i].atom == atom &&
		    (e->nodes[i].mods & mods) == mods)
			return true;
	return false;
}

/* common_timestamp anywhere: the trigger prints its clock; .usecs once: all in usecs. */
static void hist_timestamps(struct hist_spec *h)
{
	const struct hist_expr *all[HIST_KEYS_MAX + HIST_VALS_MAX + HIST_VARS_MAX];
	int n = 0;

	for (int i = 0; i < h->nr_keys; i++)
		all[n++] = &h->keys[i];
	for (int i = 0; i < h->nr_vals; i++)
		all[n++] = &h->vals[i];
	for (int i = 0; i < h->nr_vars; i++)
		all[n++] = &h->vars[i].expr;
	for (int i = 0; i < n; i++) {
		h->timestamps |= expr_uses(all[i], HIST_ATOM_TIMESTAMP, 0);
		h->ts_in_usecs |= expr_uses(all[i], HIST_ATOM_TIMESTAMP, HIST_MOD_USECS);
	}
}

/* ".sym-offset" has a '-' an expression would split at: Linux renames it first. */
static void rename_sym_offset(char *param)
{
	for (char *p = param; (p = strstr(p, ".sym-offset")) != NULL; p += 11)
		p[4] = 'X';
}

/* In Linux's order: attributes, actions, variables, values, keys, sort. */
static int parse_hist(char *param, struct trigger_spec *spec, enum hist_err *herr)
{
	static struct hist_attrs a;
	struct hist_spec *h = &spec->hist;
	char *tok;
	int ret, n;

	memset(&a, 0, sizeof(a));
	h->map_bits = HIST_DEFAULT_BITS;
	strlcpy(h->clock, "global", sizeof(h->clock));
	rename_sym_offset(param);
	while ((tok = next_token(&param, ':')) != NULL)
		if (*tok && (ret = hist_attr(spec, herr, tok, &a)) != 0)
			return ret;
	if (!a.keys)
		return -EINVAL;
	for (int i = 0; i < a.nr_actions; i++)
		if (hist_action_parse(a.actions[i], &h->actions[h->nr_actions++], herr, &spec->bad))
			return -EINVAL;
	ret = hist_vars(spec, herr, &a);
	if (ret)
		return ret;
	n = a.vals ? hist_list(spec, herr, a.vals, h->vals, HIST_VALS_MAX, false) : 0;
	if (n < 0)
		return n;
	h->nr_vals = n;
	n = hist_list(spec, herr, a.keys, h->keys, HIST_KEYS_MAX, true);
	if (n <= 0)
		return -EINVAL;
	h->nr_keys = n;
	hist_timestamps(h);
	return hist_sort(spec, herr, a.sort);
}

/* enable_hist:SYSTEM:EVENT[:COUNT]: *param is left at the count (NULL: none). */
static int parse_target(char **param, struct trigger_spec *spec)
{
	char *system = next_token(param, ':'), *event = next_token(param, ':');

	if (!system || !event || !*system || !*event ||
	    strlen(system) >= HIST_NAME_LEN || strlen(event) >= HIST_NAME_LEN)
		return -EINVAL;
	strlcpy(spec->target_system, system, HIST_NAME_LEN);
	strlcpy(spec->target_event, event, HIST_NAME_LEN);
	return 0;
}

/* ---- enable_event, disable_event ------------------------------------------------ */

/* Copy *p up to the next ':' or blank into buf, and step over it; false if empty or too long. */
static bool event_name_piece(const char **p, char *buf, size_t size)
{
	size_t len = word_len(*p, ": \t");

	if (len == 0 || len >= size)
		return false;
	memcpy(buf, *p, len);
	buf[len] = '\0';
	*p += len;
	return true;
}

static bool only_blanks(const char *p)
{
	while (is_space(*p))
		p++;
	return *p == '\0';
}

/*
 * "SYSTEM:EVENT[:COUNT]" (Linux's event_enable_trigger_parse()): the
 * system and the event are required, the count is not.  Whether the
 * event exists is the kernel's question.
 */
static int parse_enable_event(const char *p, struct trigger_spec *spec)
{
	unsigned long count;
	size_t len;

	if (!event_name_piece(&p, spec->system, sizeof(spec->system)) || *p++ != ':')
		return -EINVAL;
	if (!event_name_piece(&p, spec->event, sizeof(spec->event)))
		return -EINVAL;
	if (*p == ':') {
		len = word_len(++p, " \t");
		if (kstrntoul(p, len, 0, &count))
			return -EINVAL;
		spec->count = count;
		p += len;
	}
	return only_blanks(p) ? 0 : -EINVAL;	/* nothing else but "if FILTER" */
}

/* ---- a command -------------------------------------------------------------- */

static int find_cmd(const char *name, size_t len)
{
	for (int c = 0; c < TRIGGER_NR; c++)
		if (strlen(cmd_names[c]) == len && strncmp(cmd_names[c], name, len) == 0)
			return c;
	return -1;
}

int trigger_parse(const char *text, struct trigger_spec *spec, enum hist_err *herr)
{
	static char buf[FILTER_TEXT_MAX + 512];
	char *p = buf, *param;
	size_t len;
	int cmd;

	memset(spec, 0, sizeof(*spec));
	spec->count = -1;
	*herr = HIST_ERR_NONE;
	while (is_space(*text))
		text++;
	len = strlen(text);
	while (len && is_space(text[len - 1]))
		len--;
	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (*p == '!') {
		spec->remove = true;
		p++;
	}
	len = word_len(p, ": \t");
	cmd = find_cmd(p, len);
	if (cmd < 0)
		return -EINVAL;
	spec->cmd = cmd;
	param = p + len;
	if (*param == ':')
		param++;
	if (split_filter(param, spec))
		return -EINVAL;
	while (is_space(*param))
		param++;
	if (cmd == TRIGGER_HIST)
		return parse_hist(param, spec, herr);
	if (cmd == TRIGGER_ENABLE_EVENT || cmd == TRIGGER_DISABLE_EVENT)
		return parse_enable_event(param, spec);
	if ((cmd == TRIGGER_ENABLE_HIST || cmd == TRIGGER_DISABLE_HIST) &&
	    parse_target(&param, spec))
		return -EINVAL;
	if (param && *param) {			/* the count */
		unsigned long count;

		if (kstrntoul(param, word_len(param, " \t"), 0, &count))
			return -EINVAL;
		spec->count = count;
	}
	return 0;
}

static int format_list(char *buf, size_t size, const struct hist_expr *e, int n, char sep0)
{
	int len = 0;

	for (int i = 0; i < n; i++) {
		if (i || sep0)
			len += snprintf(buf + len, LEFT(len, size), "%c", i ? ',' : sep0);
		len += hist_expr_format(buf + len, LEFT(len, size), &e[i]);
	}
	return len;
}

/* One sort key as Linux's event_hist_trigger_print() shows it. */
static int format_sort(char *buf, size_t size, const struct hist_spec *h, int i)
{
	int len;

	if (h->sort_kind[i] == HIST_SORT_HITCOUNT)
		len = snprintf(buf, size, "hitcount");
	else
		len = hist_expr_format(buf, size, h->sort_kind[i] == HIST_SORT_KEY ?
				       &h->keys[h->sort_index[i]] : &h->vals[h->sort_index[i]]);
	if (h->sort_descending[i])
		len += snprintf(buf + len, LEFT(len, size), ".descending");
	return len;
}

/*
 * "hist:keys=n.hex,comm:vals=hitcount,x:ts0=common_timestamp.usecs:sort=hitcount:
 *  size=2048:clock=global:onmatch(kprobes.a).trace(lat,$lat)", as Linux prints it.
 */
int hist_spec_format(char *buf, size_t size, const struct hist_spec *h)
{
	int n = snprintf(buf, size, h->name[0] ? "hist:name=%s:keys=" : "hist:keys=", h->name);

	n += format_list(buf + n, LEFT(n, size), h->keys, h->nr_keys, 0);
	n += snprintf(buf + n, LEFT(n, size), ":vals=hitcount");
	n += format_list(buf + n, LEFT(n, size), h->vals, h->nr_vals, ',');
	for (int i = 0; i < h->nr_vars; i++) {
		n += snprintf(buf + n, LEFT(n, size), "%c%s=", i ? ',' : ':', h->vars[i].name);
		n += hist_expr_format(buf + n, LEFT(n, size), &h->vars[i].expr);
	}
	n += snprintf(buf + n, LEFT(n, size), ":sort=");
	for (int i = 0; i < h->nr_sort; i++) {
		n += snprintf(buf + n, LEFT(n, size), i ? "," : "");
		n += format_sort(buf + n, LEFT(n, size), h, i);
	}
	n += snprintf(buf + n, LEFT(n, size), ":size=%u", 1U << h->map_bits);
	if (h->timestamps)
		n += snprintf(buf + n, LEFT(n, size), ":clock=%s", h->clock);
	for (int i = 0; i < h->nr_actions; i++)
		n += hist_action_format(buf + n, LEFT(n, size), &h->actions[i]);
	return n;
}
