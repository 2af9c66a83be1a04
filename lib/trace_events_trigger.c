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

/* strtoul(s, 0) over the whole of s[0..len). */
static bool parse_ulong(const char *s, size_t len, unsigned long *val)
{
	char buf[24];

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return kstrtoul(buf, 0, val) == 0;
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

/* One "name[.modifier]" of keys= or vals=. */
static int hist_field(struct trigger_spec *spec, enum hist_err *herr, const char *tok,
		      char *name, unsigned char *mods, bool is_key)
{
	const char *dot = strchr(tok, '.');
	size_t len = dot ? (size_t)(dot - tok) : strlen(tok);

	if (len == 0 || len >= HIST_NAME_LEN)
		return hist_fail(spec, herr, HIST_ERR_FIELD_NOT_FOUND, tok);
	memcpy(name, tok, len);
	name[len] = '\0';
	*mods = 0;
	if (!dot)
		return 0;
	if (strcmp(dot + 1, "hex") == 0)
		*mods = HIST_MOD_HEX;
	else if (strcmp(dot + 1, "sym") == 0 && is_key)
		*mods = HIST_MOD_SYM;
	else
		return hist_fail(spec, herr, HIST_ERR_BAD_FIELD_MODIFIER, dot + 1);
	return 0;
}

/* "a,b,c" into up to max fields. */
static int hist_list(struct trigger_spec *spec, enum hist_err *herr, char *list,
		     char names[][HIST_NAME_LEN], unsigned char *mods, int max, bool is_key)
{
	unsigned char ignored;
	int n = 0, ret;
	char *tok;

	while ((tok = next_token(&list, ',')) != NULL) {
		if (n == max)
			return -EINVAL;		/* Linux: too many fields, no message */
		ret = hist_field(spec, herr, tok, names[n], mods ? &mods[n] : &ignored, is_key);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

static int hist_sort(struct trigger_spec *spec, enum hist_err *herr, char *list)
{
	struct hist_spec *h = &spec->hist;
	char *tok, *dot;

	while ((tok = next_token(&list, ',')) != NULL) {
		if (h->nr_sort == HIST_SORT_KEYS_MAX)
			return hist_fail(spec, herr, HIST_ERR_TOO_MANY_SORT_FIELDS, tok);
		if (!*tok)
			return hist_fail(spec, herr, HIST_ERR_EMPTY_SORT_FIELD, tok);
		dot = strchr(tok, '.');
		if (dot) {
			*dot = '\0';
			if (strcmp(dot + 1, "descending") == 0)
				h->sort_descending[h->nr_sort] = true;
			else if (strcmp(dot + 1, "ascending") != 0)
				return hist_fail(spec, herr, HIST_ERR_INVALID_SORT_MODIFIER, dot + 1);
		}
		if (strlen(tok) >= HIST_NAME_LEN)
			return hist_fail(spec, herr, HIST_ERR_INVALID_SORT_FIELD, tok);
		strlcpy(h->sort[h->nr_sort++], tok, HIST_NAME_LEN);
	}
	return 0;
}

/* size=N: a power of two at least N, 2^7 to 2^HIST_MAX_BITS entries. */
static int hist_size(const char *s, unsigned int *bits)
{
	unsigned long size;
	unsigned int b = 0;

	if (!parse_ulong(s, strlen(s), &size) || size == 0)
		return -EINVAL;
	while ((1UL << b) < size && b < 31)
		b++;
	if (b < HIST_MIN_BITS || b > HIST_MAX_BITS)
		return -EINVAL;
	*bits = b;
	return 0;
}

/* Every sort field must be hitcount, a key or a val. */
static int hist_check_sort(struct trigger_spec *spec, enum hist_err *herr)
{
	struct hist_spec *h = &spec->hist;

	for (int i = 0; i < h->nr_sort; i++) {
		bool found = strcmp(h->sort[i], "hitcount") == 0;

		for (int k = 0; k < h->nr_keys && !found; k++)
			found = strcmp(h->sort[i], h->keys[k]) == 0;
		for (int k = 0; k < h->nr_vals && !found; k++)
			found = strcmp(h->sort[i], h->vals[k]) == 0;
		if (!found)
			return hist_fail(spec, herr, HIST_ERR_INVALID_SORT_FIELD, h->sort[i]);
	}
	return 0;
}

static int hist_attr(struct trigger_spec *spec, enum hist_err *herr, char *tok)
{
	struct hist_spec *h = &spec->hist;
	char *val = strchr(tok, '=');
	int n;

	if (!val) {
		if (strcmp(tok, "pause") == 0)
			h->pause = true;
		else if (strcmp(tok, "cont") == 0 || strcmp(tok, "continue") == 0)
			h->cont = true;
		else if (strcmp(tok, "clear") == 0)
			h->clear = true;
		else
			return -EINVAL;
		return 0;
	}
	*val++ = '\0';
	if (!*val)
		return hist_fail(spec, herr, HIST_ERR_EMPTY_ASSIGNMENT, tok);
	if (strcmp(tok, "key") == 0 || strcmp(tok, "keys") == 0) {
		n = hist_list(spec, herr, val, h->keys, h->key_mods, HIST_KEYS_MAX, true);
		h->nr_keys = n < 0 ? 0 : n;
	} else if (strcmp(tok, "val") == 0 || strcmp(tok, "vals") == 0 ||
		   strcmp(tok, "values") == 0) {
		n = hist_list(spec, herr, val, h->vals, NULL, HIST_VALS_MAX, false);
		h->nr_vals = n < 0 ? 0 : n;
		/* "hitcount" in vals is implicit: take it out */
		for (int k = 0; k < h->nr_vals; k++)
			if (strcmp(h->vals[k], "hitcount") == 0) {
				memmove(h->vals[k], h->vals[k + 1], (h->nr_vals - k - 1) * HIST_NAME_LEN);
				h->nr_vals--;
				k--;
			}
	} else if (strcmp(tok, "sort") == 0) {
		n = hist_sort(spec, herr, val);
	} else if (strcmp(tok, "size") == 0) {
		n = hist_size(val, &h->map_bits);
	} else {
		return -EINVAL;			/* variables and name= are not here */
	}
	return n < 0 ? n : 0;
}

static int parse_hist(char *param, struct trigger_spec *spec, enum hist_err *herr)
{
	struct hist_spec *h = &spec->hist;
	char *tok;
	int ret;

	h->map_bits = HIST_DEFAULT_BITS;
	while ((tok = next_token(&param, ':')) != NULL)
		if (*tok && (ret = hist_attr(spec, herr, tok)) != 0)
			return ret;
	if (h->nr_keys == 0)
		return -EINVAL;
	if (h->nr_sort == 0) {
		strlcpy(h->sort[0], "hitcount", HIST_NAME_LEN);
		h->nr_sort = 1;
	}
	return hist_check_sort(spec, herr);
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
		if (!parse_ulong(p, len, &count))
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
	if (*param) {				/* the count */
		unsigned long count;

		if (!parse_ulong(param, word_len(param, " \t"), &count))
			return -EINVAL;
		spec->count = count;
	}
	return 0;
}

/* "hist:keys=n.hex,comm:vals=hitcount,x:sort=hitcount:size=2048", as Linux prints it. */
int hist_spec_format(char *buf, size_t size, const struct hist_spec *h)
{
	int n = snprintf(buf, size, "hist:keys=");

	for (int i = 0; i < h->nr_keys; i++)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "%s%s%s", i ? "," : "",
			      h->keys[i], h->key_mods[i] & HIST_MOD_HEX ? ".hex" :
			      h->key_mods[i] & HIST_MOD_SYM ? ".sym" : "");
	n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ":vals=hitcount");
	for (int i = 0; i < h->nr_vals; i++)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ",%s", h->vals[i]);
	n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ":sort=");
	for (int i = 0; i < h->nr_sort; i++)
		n += snprintf(buf + n, size > (size_t)n ? size - n : 0, "%s%s%s", i ? "," : "",
			      h->sort[i], h->sort_descending[i] ? ".descending" : "");
	n += snprintf(buf + n, size > (size_t)n ? size - n : 0, ":size=%u", 1U << h->map_bits);
	return n;
}
