/*
 * trace_events_hist.c - hist triggers (Linux's
 * kernel/trace/trace_events_hist.c): instead of a record per hit, a
 * table keyed by some of the event's fields, counting hits and summing
 * values, printed on demand from the event's hist file:
 *
 *   echo 'hist:keys=n' > events/kprobes/myfib/trigger
 *   run fib 5
 *   cat events/kprobes/myfib/hist
 *   { n:          3 } hitcount:          2
 *
 * A table's entry also holds variables (ts0=common_timestamp.usecs),
 * which another event's hist trigger reads under the same key
 * ($ts0: a latency between two events), and actions run on a hit:
 * onmatch(sys.event).trace(synth,...) fires a synthetic event
 * (trace_events_synth.c), onmax($v)/onchange($v) keep the largest or
 * last value with .save(fields) or .snapshot() (trace_events_hist_actions.c).
 *
 * Linux's table (tracing_map) is lock-free; ours is an open-addressed
 * array, preallocated with the trigger so a hit never allocates, and a
 * spinlock for the two CPUs that may insert at once.  A full table
 * drops the hit and counts it, as Linux's does.  String keys keep
 * their first HIST_STR_KEY - 1 bytes; a string variable holds the
 * address of its entry's copy of the string (HIST_STR_VAR_LEN bytes).
 *
 *   echo 'hist:name=calls:keys=n' > events/kprobes/a/trigger
 *   echo 'hist:name=calls:keys=n' > events/kprobes/b/trigger
 *
 * count in one table (Linux's named triggers): the second trigger's
 * "table" is the first's, which lives until the last of them goes.
 * keys=stacktrace keys by the calls in progress at the hit.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_events_hist.h"
#include "trace_events_hist_internal.h"
#include "kallsyms.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "div64.h"
#include "ktime.h"
#include "trace_synth.h"
#include "trace_syscalls.h"
#include "nokprobe.h"
#include "stacktrace.h"
#include <asm/ptrace.h>

LIST_HEAD(hist_triggers);

void hist_log_error(struct trace_event_file *file, const char *cmd, enum hist_err err,
		    const char *bad)
{
	static struct trace_probe_type hist_log;
	static char loc[16 + 2 * PROBE_NAME_LEN];
	const char *at = bad && *bad ? strstr(cmd, bad) : NULL;	/* Linux's errpos() */

	snprintf(loc, sizeof(loc), "hist:%s:%s", file->tp->def->group, file->tp->def->event);
	hist_log.subsys = loc;
	tracing_log_err(file->tr, &hist_log, cmd, strlen(cmd), at ? at - cmd : 0, hist_err_msg(err));
}

/* ---- resolving an expression against the event ----------------------------------------- */

/* The event's own fields before the common ones, as Linux's trace_find_event_field(). */
int hist_find_field(const struct filter_field *fields, int n, const char *name)
{
	for (int i = n - 1; i >= 0; i--)
		if (strcmp(fields[i].name, name) == 0)
			return i;
	return -1;
}

/* A variable of h's (no others'), its slot or -1. */
int hist_find_own_var(const struct hist_trigger *h, const char *name)
{
	for (int i = 0; i < h->spec.nr_vars; i++)
		if (strcmp(h->spec.vars[i].name, name) == 0)
			return i;
	return -1;
}

/*
 * The trigger holding variable name, not h (Linux's find_event_var()):
 * on an onmatch() event of h first, else the one trigger of h's trace
 * array that has it.  NULL, logged, when none or more than one has it.
 */
static struct hist_trigger *find_var_owner(struct hist_trigger *h, const char *name,
					   const char *cmd, int *slot)
{
	struct hist_trigger *o, *found = NULL;
	bool matched = false;

	for (int pass = 0; pass < 2 && !found; pass++)
		list_for_each_entry(o, &hist_triggers, list) {
			if (o->table != o || hist_find_own_var(o, name) < 0 || o->file->tr != h->file->tr ||
			    (pass == 0 && !hist_matches_onmatch(h, o->file)) || o == found)
				continue;
			if (found && found->file != o->file) {
				hist_log_error(h->file, cmd, HIST_ERR_VAR_NOT_UNIQUE, name);
				return NULL;
			}
			found = o;
			matched = true;
		}
	if (!matched)
		return NULL;
	*slot = hist_find_own_var(found, name);
	return found;
}

/* A reference to slot of owner, shared by every use of it (Linux's create_var_ref()). */
int hist_add_ref(struct hist_trigger *h, struct hist_trigger *owner, int slot, bool read_once)
{
	for (int r = 0; r < h->nr_refs; r++)
		if (h->refs[r].owner == owner && h->refs[r].slot == slot) {
			h->refs[r].read_once |= read_once;
			return r;
		}
	if (h->nr_refs == HIST_VARS_MAX)
		return -1;
	h->refs[h->nr_refs] = (struct hist_ref){ owner, slot, read_once };
	if (owner != h)
		owner->users++;
	return h->nr_refs++;
}

bool hist_new_str(struct hist_trigger *h, int slot)
{
	if (h->nr_strs == SYNTH_FIELDS_MAX)	/* Linux's n_str limit */
		return false;
	h->str_idx[slot] = h->nr_strs++;
	return true;
}

void hist_set_str(struct hist_trigger *h, struct hist_entry *ent, int slot, const char *src,
		  size_t len)
{
	struct hist_trigger *t = h->table;
	char *room = t->strs + ((ent - t->map) * t->nr_strs + h->str_idx[slot]) * HIST_STR_VAR_LEN;

	if (len > HIST_STR_VAR_LEN - 1)
		len = HIST_STR_VAR_LEN - 1;
	memcpy(room, src, len);
	room[len] = '\0';
	ent->vars[slot] = (uintptr_t)room;
	ent->var_set |= 1U << slot;
}
NOKPROBE_SYMBOL(hist_set_str);

/* $name in an expression: another trigger's variable. */
static int resolve_var_ref(struct hist_trigger *h, struct hist_rexpr *rx, int i,
			   bool read_once, const char *cmd)
{
	const char *name = rx->e->nodes[i].name;
	char field[HIST_NAME_LEN + 1];
	struct hist_trigger *owner;
	int slot = -1;

	owner = find_var_owner(h, name, cmd, &slot);
	if (!owner || hist_add_ref(h, owner, slot, read_once) < 0) {
		/* Linux then tries "$name" as a field, and logs that too */
		snprintf(field, sizeof(field), "$%s", name);
		hist_log_error(h->file, cmd, HIST_ERR_VAR_NOT_FOUND, name);
		hist_log_error(h->file, cmd, HIST_ERR_FIELD_NOT_FOUND, field);
		return -EINVAL;
	}
	rx->n[i] = owner->vars[slot].n[owner->vars[slot].e->root];	/* its type, size, sign */
	rx->n[i].arg = hist_add_ref(h, owner, slot, read_once);
	return 0;
}

static int resolve_atom(struct hist_trigger *h, struct hist_rexpr *rx, int i, bool operand,
			const struct filter_field *fields, int nr_fields, const char *cmd)
{
	const struct hist_node *node = &rx->e->nodes[i];
	struct hist_rnode *rn = &rx->n[i];

	rn->size = sizeof(uint64_t);
	rn->type = "u64";
	rn->usecs = node->atom == HIST_ATOM_TIMESTAMP && h->spec.ts_in_usecs;
	switch (node->atom) {
	case HIST_ATOM_FIELD:
		rn->arg = hist_find_field(fields, nr_fields, node->name);
		/* comm is a filter's field only: Linux 6.1's generic fields have no size */
		if (rn->arg >= 0 && fields[rn->arg].is_string && !fields[rn->arg].size)
			rn->arg = -1;
		if (rn->arg < 0) {
			hist_log_error(h->file, cmd, HIST_ERR_FIELD_NOT_FOUND, node->name);
			return -EINVAL;
		}
		rn->size = fields[rn->arg].size;
		rn->is_signed = fields[rn->arg].is_signed;
		rn->is_string = fields[rn->arg].is_string;
		rn->type = trace_event_field_type(h->file, rn->arg);
		return 0;
	case HIST_ATOM_CPU:
		rn->size = sizeof(int);
		rn->type = "unsigned int";
		return 0;
	case HIST_ATOM_VAR_REF:
		return resolve_var_ref(h, rx, i, operand, cmd);
	case HIST_ATOM_STACKTRACE:
		rn->size = sizeof(unsigned long) * HIST_STACKTRACE_DEPTH;
		rn->type = "unsigned long[]";
		return 0;
	default:
		return 0;		/* common_timestamp, a number */
	}
}

/* Node i and its operands; an operator's size and sign are its first operand's. */
static int resolve_node(struct hist_trigger *h, struct hist_rexpr *rx, int i, bool operand,
			const struct filter_field *fields, int nr_fields, const char *cmd)
{
	const struct hist_node *node = &rx->e->nodes[i];
	struct hist_rnode *rn = &rx->n[i], *a, *b;

	if (node->op == HIST_OP_NONE)
		return resolve_atom(h, rx, i, operand, fields, nr_fields, cmd);
	for (int k = 0; k < 2 && node->operand[k] >= 0; k++)
		if (resolve_node(h, rx, node->operand[k], true, fields, nr_fields, cmd))
			return -EINVAL;
	a = &rx->n[node->operand[0]];
	b = node->operand[1] >= 0 ? &rx->n[node->operand[1]] : a;
	if (a->is_string || b->is_string) {
		hist_log_error(h->file, cmd, HIST_ERR_INVALID_STR_OPERAND,
			       rx->e->nodes[node->operand[a->is_string ? 0 : 1]].name);
		return -EINVAL;
	}
	if (a->usecs != b->usecs) {
		hist_log_error(h->file, cmd, HIST_ERR_TIMESTAMP_MISMATCH, NULL);
		return -EINVAL;
	}
	*rn = (struct hist_rnode){ .type = a->type, .size = a->size, .is_signed = a->is_signed,
				   .usecs = a->usecs };
	return 0;
}

int hist_resolve_expr(struct hist_trigger *h, struct hist_rexpr *rx, const struct hist_expr *e,
		      const struct filter_field *fields, int nr_fields, const char *cmd)
{
	rx->e = e;
	return resolve_node(h, rx, e->root, false, fields, nr_fields, cmd);
}

/* ---- creating -------------------------------------------------------------------------------- */

/* A variable name must be new on the event (Linux's "Variable already defined"). */
static bool var_defined_on(struct trace_event_file *file, const char *name)
{
	struct hist_trigger *o;

	list_for_each_entry(o, &hist_triggers, list)
		if (o->file == file && hist_find_own_var(o, name) >= 0)
			return true;
	return false;
}

/*
 * A variable of common_pid.execname holds the task's name, a char[]
 * (Linux's update_var_execname()): the name its entry keeps.
 */
static void execname_is_a_string(struct hist_rexpr *rx)
{
	struct hist_rnode *rn = &rx->n[rx->e->root];

	if (rx->e->nodes[rx->e->root].op != HIST_OP_NONE ||
	    !(rx->e->nodes[rx->e->root].mods & HIST_MOD_EXECNAME))
		return;
	*rn = (struct hist_rnode){ .arg = rn->arg, .type = "char[]", .size = 0,
				   .is_string = true };
}

/* Values, then variables, then keys, as Linux's create_hist_fields(). */
static int resolve_fields(struct hist_trigger *h, const struct filter_field *fields, int n,
			  const char *cmd)
{
	const struct hist_spec *spec = &h->spec;

	for (int v = 0; v < spec->nr_vals; v++) {
		if (hist_resolve_expr(h, &h->vals[v], &spec->vals[v], fields, n, cmd))
			return -EINVAL;
		if (h->vals[v].n[spec->vals[v].root].is_string) {
			hist_log_error(h->file, cmd, HIST_ERR_FIELD_NOT_FOUND,
				       spec->vals[v].nodes[spec->vals[v].root].name);
			return -EINVAL;
		}
	}
	for (int v = 0; v < spec->nr_vars; v++) {
		if (var_defined_on(h->file, spec->vars[v].name) ||
		    hist_find_own_var(h, spec->vars[v].name) < v) {
			hist_log_error(h->file, cmd, HIST_ERR_DUPLICATE_VAR, spec->vars[v].name);
			return -EINVAL;
		}
		if (hist_resolve_expr(h, &h->vars[v], &spec->vars[v].expr, fields, n, cmd))
			return -EINVAL;
		execname_is_a_string(&h->vars[v]);
		if (h->vars[v].n[spec->vars[v].expr.root].is_string && !hist_new_str(h, v))
			return -EINVAL;
	}
	for (int k = 0; k < spec->nr_keys; k++)
		if (hist_resolve_expr(h, &h->keys[k], &spec->keys[k], fields, n, cmd))
			return -EINVAL;
	return 0;
}

/* This kernel has one trace clock, comparable across CPUs: Linux's "global". */
static int check_clock(struct hist_trigger *h, const char *cmd)
{
	if (h->spec.timestamps && strcmp(h->spec.clock, "global") != 0) {
		hist_log_error(h->file, cmd, HIST_ERR_SET_CLOCK_FAIL, h->spec.clock);
		return -EINVAL;
	}
	return 0;
}

static int create_fields(struct hist_trigger *h, const char *cmd)
{
	static struct filter_field fields[EVENT_FIELDS_MAX];
	int n = trace_event_fields(h->file, fields, EVENT_FIELDS_MAX), ret;

	ret = hist_check_onmatch_events(h, cmd);
	if (!ret)
		ret = resolve_fields(h, fields, n, cmd);
	if (!ret)
		ret = hist_create_actions(h, fields, n, cmd);
	if (!ret)
		ret = check_clock(h, cmd);
	return ret;
}

static bool event_has_arg(const struct trace_event_file *file, const char *name)
{
	const struct probe_event_def *def = file->tp->def;

	for (int i = 0; i < def->nr_args; i++)
		if (!strcmp(def->args[i].name, name))
			return true;
	return false;
}

static void expr_cpu_to_common_cpu(struct hist_expr *e, const struct trace_event_file *file)
{
	for (int i = 0; i < e->nr_nodes; i++) {
		struct hist_node *n = &e->nodes[i];

		if (n->op == HIST_OP_NONE && n->atom == HIST_ATOM_FIELD &&
		    (!strcmp(n->name, "cpu") || !strcmp(n->name, "CPU")) && !event_has_arg(file, n->name)) {
			n->atom = HIST_ATOM_CPU;
			strlcpy(n->name, "common_cpu", sizeof(n->name));
		}
	}
}

/*
 * "cpu" and "CPU", unless the event has a field of that name, are
 * common_cpu and print as it (Linux 6.1's parse_field(): its generic
 * cpu fields have no size, and FILTER_CPU makes them HIST_FIELD_FL_CPU).
 */
static void generic_cpu_is_common_cpu(struct hist_spec *spec, const struct trace_event_file *file)
{
	for (int k = 0; k < spec->nr_keys; k++)
		expr_cpu_to_common_cpu(&spec->keys[k], file);
	for (int v = 0; v < spec->nr_vals; v++)
		expr_cpu_to_common_cpu(&spec->vals[v], file);
	for (int v = 0; v < spec->nr_vars; v++)
		expr_cpu_to_common_cpu(&spec->vars[v].expr, file);
}

/* Same fields of the same C types (Linux's compatible_field()), n of each. */
static bool same_types(const struct hist_rexpr *a, const struct hist_rexpr *b, int n)
{
	for (int i = 0; i < n; i++) {
		const struct hist_rnode *x = &a[i].n[a[i].e->root], *y = &b[i].n[b[i].e->root];

		if (strcmp(x->type ? x->type : "", y->type ? y->type : "") ||
		    x->size != y->size || x->is_signed != y->is_signed)
			return false;
	}
	return true;
}

/*
 * Can h count in t's table (Linux's hist_trigger_match() against the
 * named trigger, its filter aside)?  The same keys, values, variables,
 * sort and actions, written alike, of the same types.
 */
static bool named_compatible(const struct hist_trigger *h, const struct hist_trigger *t)
{
	static char a[HIST_LINE_MAX], b[HIST_LINE_MAX];
	static struct hist_spec same_size;

	same_size = h->spec;		/* size= is the table's */
	same_size.map_bits = t->spec.map_bits;
	hist_spec_format(a, sizeof(a), &same_size);
	hist_spec_format(b, sizeof(b), &t->spec);
	return !strcmp(a, b) && same_types(h->keys, t->keys, h->spec.nr_keys) &&
	       same_types(h->vals, t->vals, h->spec.nr_vals) &&
	       same_types(h->vars, t->vars, h->spec.nr_vars);
}

/* The table of the triggers named name, in any trace array (Linux's find_named_trigger()). */
static struct hist_trigger *find_named_table(const char *name)
{
	struct hist_trigger *o;

	list_for_each_entry(o, &hist_triggers, list)
		if (!strcmp(o->spec.name, name))
			return o->table;
	return NULL;
}

/* A table of its own, or name='s: the first of that name made it (Linux's hist_register_trigger()). */
static int attach_table(struct hist_trigger *h, const char *cmd)
{
	struct hist_trigger *t = h->spec.name[0] ? find_named_table(h->spec.name) : NULL;
	char named[HIST_NAME_LEN + 8];

	if (!t) {
		h->size = 1U << h->spec.map_bits;
		h->map = kzalloc(h->size * sizeof(*h->map));
		if (h->nr_strs)
			h->strs = kzalloc(h->size * h->nr_strs * HIST_STR_VAR_LEN);
		return h->map && (h->strs || !h->nr_strs) ? 0 : -ENOMEM;
	}
	if (!named_compatible(h, t)) {
		snprintf(named, sizeof(named), "name=%s", h->spec.name);
		hist_log_error(h->file, cmd, HIST_ERR_NAMED_MISMATCH, named);
		return -EINVAL;
	}
	h->spec.map_bits = t->spec.map_bits;
	h->table = t;
	t->table_users++;
	return 0;
}

int hist_trigger_create(struct trace_event_file *file, const struct hist_spec *spec,
			const char *filter, const char *cmd, struct hist_trigger **out)
{
	struct hist_trigger *h = kzalloc(sizeof(*h));
	int ret;

	if (!h)
		return -ENOMEM;
	INIT_LIST_HEAD(&h->list);
	h->file = file;
	h->spec = *spec;
	h->nr_slots = spec->nr_vars;
	h->table = h;
	h->table_users = 1;
	memset(h->str_idx, -1, sizeof(h->str_idx));
	spin_lock_init(&h->lock);
	strlcpy(h->filter, filter, sizeof(h->filter));
	h->paused = spec->pause;	/* start paused, as Linux allows */
	generic_cpu_is_common_cpu(&h->spec, file);
	ret = create_fields(h, cmd);
	if (!ret)
		ret = attach_table(h, cmd);
	if (ret) {
		hist_trigger_free(h);
		return ret;
	}
	list_add_tail(&h->list, &hist_triggers);
	*out = h;
	return 0;
}

/* One trigger fewer counts in t's table: the last one frees it. */
static void table_put(struct hist_trigger *t)
{
	if (--t->table_users)
		return;
	kfree(t->strs);
	kfree(t->map);
	kfree(t);
}

void hist_trigger_free(struct hist_trigger *h)
{
	list_del(&h->list);
	for (int r = 0; r < h->nr_refs; r++)
		if (h->refs[r].owner != h)
			h->refs[r].owner->users--;
	h->nr_refs = 0;
	hist_free_actions(h);
	if (h->table != h) {
		table_put(h->table);
		kfree(h);
		return;
	}
	table_put(h);
}

/* As Linux, a trigger of a name= is busy while any reads the variables of its table. */
bool hist_trigger_busy(const struct hist_trigger *h)
{
	return h->users > 0 || h->table->users > 0;
}

bool hist_trigger_matches(const struct hist_trigger *h, const struct hist_spec *spec,
			  const char *filter)
{
	static char a[HIST_LINE_MAX], b[HIST_LINE_MAX];
	static struct hist_spec same_size;

	same_size = *spec;		/* size= and pause are not part of the match */
	same_size.map_bits = h->spec.map_bits;
	generic_cpu_is_common_cpu(&same_size, h->file);
	hist_spec_format(a, sizeof(a), &h->spec);
	hist_spec_format(b, sizeof(b), &same_size);
	return strcmp(a, b) == 0 && strcmp(h->filter, filter) == 0;
}

void hist_trigger_control(struct hist_trigger *h, bool pause, bool cont, bool clear)
{
	unsigned long flags;

	if (pause)
		WRITE_ONCE(h->paused, true);
	if (cont)
		WRITE_ONCE(h->paused, false);
	if (clear) {			/* a name='s table: cleared for every trigger of it */
		struct hist_trigger *t = h->table;

		spin_lock_irqsave(&t->lock, flags);
		memset(t->map, 0, t->size * sizeof(*t->map));
		t->entries = 0;
		t->hits = t->drops = 0;
		h->snap_updated = false;
		spin_unlock_irqrestore(&t->lock, flags);
	}
}

bool hist_trigger_paused(const struct hist_trigger *h)
{
	return READ_ONCE(h->paused);
}

int hist_trigger_print(char *buf, size_t size, const struct hist_trigger *h)
{
	return hist_spec_format(buf, size, &h->spec);
}

/* ---- a hit ------------------------------------------------------------------------------ */

/*
 * A number as Linux's hist_field_<type>() gives it: through unsigned
 * long, so a negative s8/s16/s32 is 32 bits of ones here on i386.
 */
static uint64_t field_value(uint64_t raw, unsigned char size, bool is_signed)
{
	if (size >= 8)
		return raw;
	if (is_signed) {
		int shift = 64 - size * 8;

		return (uint64_t)(unsigned long)(long)((int64_t)(raw << shift) >> shift);
	}
	return raw & ((1ULL << (size * 8)) - 1);
}

/* Linux's ilog2(roundup_pow_of_two(v)): the power of two at or above v. */
static uint64_t log2_up(uint64_t v)
{
	uint64_t n = 0;

	while (n < 63 && (1ULL << n) < v)
		n++;
	return n;
}

static uint64_t apply_modifier(const struct hist_node *node, uint64_t v)
{
	uint64_t rem;

	if (node->mods & HIST_MOD_LOG2)
		return log2_up(v);
	if (node->mods & HIST_MOD_BUCKETS) {
		div64_u64_rem(v, node->buckets, &rem);
		return v - rem;
	}
	return v;
}

/* What a hit's evaluation needs besides the expression. */
struct hist_hit {
	struct trace_event_file *file;
	const struct trace_entry *e;
	const uint64_t *refvals;
	bool usecs;
	struct pt_regs *regs;		/* the hit's: where a stacktrace key starts */
};

static uint64_t atom_value(const struct hist_rexpr *rx, int i, const struct hist_hit *hit)
{
	const struct hist_node *node = &rx->e->nodes[i];
	const struct hist_rnode *rn = &rx->n[i];
	uint32_t rem;

	switch (node->atom) {
	case HIST_ATOM_FIELD:
		return field_value(trace_event_field_num(hit->file, rn->arg, hit->e), rn->size,
				   rn->is_signed);
	case HIST_ATOM_TIMESTAMP:	/* the record's time: Linux's ring-buffer stamp */
		return hit->usecs ? div_u64_rem(hit->e->ts, NSEC_PER_USEC, &rem) : hit->e->ts;
	case HIST_ATOM_CPU:
		return hit->e->cpu;
	case HIST_ATOM_CONST:
		return node->constant;
	default:
		return hit->refvals[rn->arg];
	}
}

static uint64_t eval(const struct hist_rexpr *rx, int i, const struct hist_hit *hit)
{
	const struct hist_node *node = &rx->e->nodes[i];
	uint64_t a, b, rem;

	if (node->op == HIST_OP_NONE)
		return apply_modifier(node, atom_value(rx, i, hit));
	a = eval(rx, node->operand[0], hit);
	if (node->op == HIST_OP_UNARY_MINUS)
		return -a;
	b = eval(rx, node->operand[1], hit);
	switch (node->op) {
	case HIST_OP_PLUS:  return a + b;
	case HIST_OP_MINUS: return a - b;
	case HIST_OP_MULT:  return a * b;
	default:	    return b ? div64_u64_rem(a, b, &rem) : (uint64_t)-1;
	}
}

/*
 * The calls in progress, from the probed instruction out (Linux's
 * stack_trace_save() from the trigger, its own frames skipped).  A
 * uprobe's regs are the process's: the kernel's own calls are saved.
 */
static void hist_save_stack(struct pt_regs *regs, unsigned long *stack)
{
	if (regs && !user_mode(regs))
		stack_trace_save_regs(regs, stack, HIST_STACKTRACE_DEPTH, 0);
	else
		stack_trace_save(stack, HIST_STACKTRACE_DEPTH, 0);
}

static void make_key(const struct hist_trigger *h, const struct hist_hit *hit,
		     struct hist_key *key)
{
	memset(key, 0, sizeof(*key));
	for (int k = 0; k < h->spec.nr_keys; k++) {
		const struct hist_rexpr *rx = &h->keys[k];

		if (rx->e->nodes[rx->e->root].atom == HIST_ATOM_STACKTRACE) {
			hist_save_stack(hit->regs, key->stack);	/* one stack for every such key */
		} else if (rx->n[rx->e->root].is_string) {
			size_t len;
			const char *s = trace_event_field_str(hit->file, rx->n[rx->e->root].arg,
							      hit->e, &len);

			memcpy(key->str[k], s, len < HIST_STR_KEY ? len : HIST_STR_KEY - 1);
		} else {
			key->num[k] = eval(rx, rx->e->root, hit);
		}
	}
}

/*
 * The values of the variables h reads, under this key (Linux's
 * resolve_var_refs()): other triggers' (!self) before the entry is
 * made, its own after.  false when one has no value: the hit is dropped.
 */
static bool resolve_refs(struct hist_trigger *h, const struct hist_key *key,
			 const struct hist_entry *own, uint64_t *refvals)
{
	for (int r = 0; r < h->nr_refs; r++) {
		const struct hist_ref *ref = &h->refs[r];
		uint32_t bit = 1U << ref->slot;
		struct hist_entry *ent;
		bool found;

		if ((ref->owner == h) != (own != NULL))
			continue;
		if (own) {
			if (!(own->var_set & bit))
				return false;
			refvals[r] = own->vars[ref->slot];
			continue;
		}
		spin_lock(&ref->owner->table->lock);
		ent = tracing_map_lookup(ref->owner->table, key);
		found = ent && (ent->var_set & bit);
		if (found) {
			refvals[r] = ent->vars[ref->slot];
			if (ref->read_once)		/* Linux's tracing_map_read_var_once() */
				ent->var_set &= ~bit;
		}
		spin_unlock(&ref->owner->table->lock);
		if (!found)
			return false;
	}
	return true;
}

/* A string variable's value at this hit: a field of the record, or another variable's string. */
static void set_str_var(struct hist_trigger *h, struct hist_entry *ent, int slot,
			const struct hist_rexpr *rx, const struct hist_hit *hit)
{
	const struct hist_rnode *rn = &rx->n[rx->e->root];
	const char *src;
	size_t len;

	if (rx->e->nodes[rx->e->root].mods & HIST_MOD_EXECNAME) {
		src = ent->comm;
		len = strnlen(ent->comm, sizeof(ent->comm));
	} else if (rx->e->nodes[rx->e->root].atom == HIST_ATOM_FIELD) {
		src = trace_event_field_str(hit->file, rn->arg, hit->e, &len);
	} else {
		src = (const char *)(uintptr_t)eval(rx, rx->e->root, hit);
		len = src ? strnlen(src, HIST_STR_VAR_LEN) : 0;
	}
	hist_set_str(h, ent, slot, src, len);
}

/* Sums, variables and field variables of the entry (Linux's hist_trigger_elt_update()). */
static void update_entry(struct hist_trigger *h, struct hist_entry *ent, const struct hist_hit *hit)
{
	for (int v = 0; v < h->spec.nr_vals; v++)
		ent->sums[v] += eval(&h->vals[v], h->vals[v].e->root, hit);
	for (int v = 0; v < h->spec.nr_vars; v++) {
		if (h->str_idx[v] >= 0) {
			set_str_var(h, ent, v, &h->vars[v], hit);
			continue;
		}
		ent->vars[v] = eval(&h->vars[v], h->vars[v].e->root, hit);
		ent->var_set |= 1U << v;
	}
	for (int f = 0; f < h->nr_fvars; f++) {
		const struct hist_field_var *fv = &h->fvars[f];
		const char *str;
		size_t len;

		if (fv->is_string) {
			str = trace_event_field_str(hit->file, fv->field, hit->e, &len);
			hist_set_str(h, ent, fv->slot, str, len);
			continue;
		}
		ent->vars[fv->slot] = field_value(trace_event_field_num(hit->file, fv->field, hit->e),
						  fv->size, fv->is_signed);
		ent->var_set |= 1U << fv->slot;
	}
}

/* The fields a .save() would keep, read now: the record is gone when the action runs. */
static void read_save_fields(const struct hist_trigger *h, const struct hist_hit *hit,
			     struct hist_save *saves)
{
	for (int a = 0; a < h->spec.nr_actions; a++) {
		const struct hist_act *act = &h->acts[a];

		if (act->a->action != HIST_ACTION_SAVE)
			continue;
		for (int i = 0; i < act->nr_params; i++) {
			if (h->str_idx[act->save_slot[i]] >= 0)
				saves[i].str = trace_event_field_str(hit->file, act->save_field[i],
								     hit->e, &saves[i].len);
			else
				saves[i].val = trace_event_field_num(hit->file, act->save_field[i],
								     hit->e);
		}
	}
}

void hist_trigger_update(struct hist_trigger *h, struct trace_event_file *file,
			 const struct trace_entry *e, struct pt_regs *regs)
{
	uint64_t refvals[HIST_VARS_MAX];
	struct hist_save saves[HIST_PARAMS_MAX];
	struct hist_fire fire[HIST_ACTIONS_MAX];
	struct hist_hit hit = { file, e, refvals, h->spec.ts_in_usecs, regs };
	struct hist_trigger *t = h->table;	/* a name='s: shared */
	struct hist_entry *ent;
	struct hist_key key;
	bool snapshot = false;
	int nr_fire = 0;

	if (READ_ONCE(h->paused))
		return;
	make_key(h, &hit, &key);
	if (!resolve_refs(h, &key, NULL, refvals))
		return;
	spin_lock(&t->lock);
	t->hits++;
	ent = tracing_map_insert(t, &key);
	if (!ent) {
		t->drops++;
	} else {
		if (!ent->hitcount)
			strlcpy(ent->comm, e->comm, sizeof(ent->comm));
		ent->hitcount++;
		update_entry(h, ent, &hit);
		read_save_fields(h, &hit, saves);
		if (resolve_refs(h, &key, ent, refvals))
			nr_fire = hist_run_actions(h, ent, refvals, saves, fire, &snapshot);
	}
	spin_unlock(&t->lock);
	for (int i = 0; i < nr_fire; i++)	/* their triggers take their own locks */
		synth_event_trace(fire[i].synth, fire[i].vals, regs);
	if (snapshot)			/* the snapshot of the trigger's trace array */
		tracing_snapshot_instance(h->file->tr);
}
NOKPROBE_SYMBOL(field_value);
NOKPROBE_SYMBOL(log2_up);
NOKPROBE_SYMBOL(apply_modifier);
NOKPROBE_SYMBOL(atom_value);
NOKPROBE_SYMBOL(eval);
NOKPROBE_SYMBOL(hist_save_stack);
NOKPROBE_SYMBOL(make_key);
NOKPROBE_SYMBOL(resolve_refs);
NOKPROBE_SYMBOL(set_str_var);
NOKPROBE_SYMBOL(update_entry);
NOKPROBE_SYMBOL(read_save_fields);
NOKPROBE_SYMBOL(hist_trigger_update);

/* ---- the hist file ------------------------------------------------------------------------ */

/* Linux's hist_trigger_stacktrace_print(): a call a line, indented 9, as %pS prints it. */
static void print_stack(struct seq_buf *s, const unsigned long *stack)
{
	char sym[160];

	seq_buf_puts(s, "stacktrace:\n");
	for (int i = 0; i < HIST_STACKTRACE_DEPTH && stack[i]; i++) {
		trace_sprint_sym(sym, sizeof(sym), stack[i]);
		seq_buf_printf(s, "%9c%s\n", ' ', sym);
	}
}

static void print_key_field(struct seq_buf *s, const struct hist_trigger *h, int k,
			    const struct hist_key *key, const char *comm)
{
	const struct hist_node *node = &h->keys[k].e->nodes[h->keys[k].e->root];
	unsigned long long v = key->num[k];
	unsigned long size, offset;
	char name[HIST_NAME_LEN * 2], sym[160];
	const char *fn;

	hist_expr_name(name, sizeof(name), h->keys[k].e);
	if (node->atom == HIST_ATOM_STACKTRACE) {
		print_stack(s, key->stack);
	} else if (node->mods & HIST_MOD_HEX) {
		seq_buf_printf(s, "%s: %llx", name, v);
	} else if (node->mods & HIST_MOD_SYM) {
		fn = kallsyms_lookup((unsigned long)v, &size, &offset);
		seq_buf_printf(s, "%s: [%llx] %-45s", name, v, fn ? fn : "");
	} else if (node->mods & HIST_MOD_SYM_OFFSET) {
		trace_sprint_sym(sym, sizeof(sym), (unsigned long)v);
		seq_buf_printf(s, "%s: [%llx] %-55s", name, v, sym);
	} else if (node->mods & HIST_MOD_SYSCALL) {
		fn = get_syscall_name((int)v);
		seq_buf_printf(s, "%s: %-30s[%3llu]", name, fn ? fn : "unknown_syscall", v);
	} else if (node->mods & HIST_MOD_EXECNAME) {
		seq_buf_printf(s, "%s: %-16s[%10llu]", name, comm, v);
	} else if (node->mods & HIST_MOD_LOG2) {
		seq_buf_printf(s, "%s: ~ 2^%-2llu", name, v);
	} else if (node->mods & HIST_MOD_BUCKETS) {
		seq_buf_printf(s, "%s: ~ %llu-%llu", name, v, v + node->buckets - 1);
	} else if (h->keys[k].n[h->keys[k].e->root].is_string) {
		seq_buf_printf(s, "%s: %-50s", name, key->str[k]);
	} else {
		seq_buf_printf(s, "%s: %10llu", name, v);
	}
}

void hist_print_key(struct seq_buf *s, const struct hist_trigger *h, const struct hist_key *key,
		    const char *comm)
{
	bool multiline = false;		/* a stack ends in a newline: "}" then starts the line */

	seq_buf_puts(s, "{ ");
	for (int k = 0; k < h->spec.nr_keys; k++) {
		if (k)
			seq_buf_puts(s, ", ");
		print_key_field(s, h, k, key, comm);
		multiline |= h->keys[k].e->nodes[h->keys[k].e->root].atom == HIST_ATOM_STACKTRACE;
	}
	seq_buf_puts(s, multiline ? "}" : " }");
}

/* Linux's hist_trigger_entry_print(): an expression's sum is not printed, as in Linux. */
static void print_entry(struct seq_buf *s, const struct hist_trigger *h,
			const struct hist_entry *ent)
{
	char name[HIST_NAME_LEN * 2];

	hist_print_key(s, h, &ent->key, ent->comm);
	seq_buf_printf(s, " hitcount: %10llu", (unsigned long long)ent->hitcount);
	for (int v = 0; v < h->spec.nr_vals; v++) {
		const struct hist_node *node = &h->spec.vals[v].nodes[h->spec.vals[v].root];

		if (node->op != HIST_OP_NONE)
			continue;
		hist_expr_name(name, sizeof(name), &h->spec.vals[v]);
		seq_buf_printf(s, node->mods & HIST_MOD_HEX ? "  %s: %10llx" : "  %s: %10llu", name,
			       (unsigned long long)ent->sums[v]);
	}
	hist_print_actions(s, h, ent);
	seq_buf_puts(s, "\n");
}

void hist_trigger_show(struct seq_buf *s, struct hist_trigger *h, struct trace_event_file *file,
		       const char *filter, int n)
{
	static char line[HIST_LINE_MAX];
	struct hist_trigger *t = h->table;	/* a name='s: every trigger of it counts there */
	unsigned int *order = kmalloc(t->size * sizeof(*order)), count = 0;

	if (n > 0)
		seq_buf_puts(s, "\n\n");
	hist_trigger_print(line, sizeof(line), h);
	seq_buf_printf(s, "# event histogram\n#\n# trigger info: %s%s%s%s\n#\n\n", line,
		   filter ? " if " : "", filter ? filter : "",
		   h->paused ? " [paused]" : " [active]");
	if (order) {
		count = tracing_map_sort_entries(t, order);
		for (unsigned int i = 0; i < count; i++)
			print_entry(s, h, &t->map[order[i]]);
		kfree(order);
	}
	hist_print_snapshot(s, h);
	seq_buf_printf(s, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   (unsigned long long)t->hits, count, (unsigned long long)t->drops);
}
