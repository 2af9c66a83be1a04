/*
 * trace_events_hist_internal.h - what the three files of hist triggers
 * share: trace_events_hist.c (a trigger's fields and variables resolved
 * against its event, a hit, the hist file), trace_events_hist_actions.c
 * (onmatch/onmax/onchange and their trace/save/snapshot) and
 * tracing_map.c (the table, Linux's kernel/trace/tracing_map.c).
 */
#ifndef TRACE_EVENTS_HIST_INTERNAL_H
#define TRACE_EVENTS_HIST_INTERNAL_H

#include <stdint.h>
#include <stdbool.h>
#include "list.h"
#include "spinlock.h"
#include "sched.h"
#include "probe_events.h"
#include "trace_events_trigger.h"
#include "trace_events_filter.h"

#define HIST_STR_KEY      32	/* bytes of a string key kept, the NUL included */
#define HIST_STR_VAR_LEN  32	/* and of a string variable (Linux: STR_VAR_LEN_MAX, 256) */
#define HIST_LINE_MAX   2048	/* a trigger's line in the trigger file */
/* The fields an event can have: the common ones, a probe's addresses, its arguments. */
#define EVENT_FIELDS_MAX (16 + PROBE_MAX_ARGS)

struct trace_event_file;
struct trace_entry;
struct pt_regs;
struct seq_buf;
struct synth_event;

struct hist_key {
	uint64_t num[HIST_KEYS_MAX];
	char str[HIST_KEYS_MAX][HIST_STR_KEY];
	unsigned long stack[HIST_STACKTRACE_DEPTH];	/* a stacktrace key: 0 ends it */
};

/* One key's entry of the table (Linux's tracing_map_elt). */
struct hist_entry {
	bool used;
	struct hist_key key;
	uint64_t hitcount;
	uint64_t sums[HIST_VALS_MAX];
	uint64_t vars[HIST_VARS_MAX];	/* variables: named, field, tracking */
	uint32_t var_set;		/* bit n: vars[n] holds a value */
	char comm[TASK_NAME_LEN];	/* .execname: the task that made the entry */
};

/* An expression's node once resolved against the event. */
struct hist_rnode {
	int16_t arg;			/* a field's index, a VAR_REF's reference */
	const char *type;		/* its C type, Linux's hist_field->type: "u64", "int" */
	unsigned char size;		/* of its value, in bytes, and its sign */
	bool is_signed, is_string;
	bool usecs;			/* a timestamp in microseconds */
};

struct hist_rexpr {
	const struct hist_expr *e;	/* in the trigger's spec */
	struct hist_rnode n[HIST_EXPR_NODES];
};

/* A variable read by this trigger: another's (under the same key), or its own. */
struct hist_ref {
	struct hist_trigger *owner;
	int slot;
	bool read_once;			/* an expression's operand: used up when read */
};

/* An action as resolved (Linux's struct action_data). */
struct hist_act {
	const struct hist_action *a;	/* in the trigger's spec */
	struct synth_event *synth;	/* .trace(): the event it fires */
	int nr_params;
	int param_ref[HIST_PARAMS_MAX];	/* .trace(): the value of each field */
	int track_ref;			/* onmax($v)/onchange($v): $v */
	int track_slot;			/* the entry's max (or last value) so far */
	int save_slot[HIST_PARAMS_MAX];	/* .save(f): the entry's copy of field f */
	int save_field[HIST_PARAMS_MAX];
};

/* A field copied into a variable at each hit (an action's param naming a field). */
struct hist_field_var {
	int slot, field;
	const char *type;
	unsigned char size;
	bool is_signed;			/* the field's: its value's sign (the variable's type
					 * has none: Linux's create_var() does not copy it) */
	bool is_string;
};

/* A .save()d field as the hit read it: a number, or a string in the record. */
struct hist_save {
	uint64_t val;
	const char *str;
	size_t len;
};

struct hist_trigger {
	struct list_head list;		/* hist_triggers: where $variables are found */
	struct trace_event_file *file;
	struct hist_spec spec;
	struct hist_rexpr keys[HIST_KEYS_MAX], vals[HIST_VALS_MAX], vars[HIST_VARS_MAX];
	int nr_slots;			/* vars[] of an entry in use: the named ones first */
	struct hist_field_var fvars[HIST_VARS_MAX];
	int nr_fvars;
	struct hist_ref refs[HIST_VARS_MAX];
	int nr_refs;
	struct hist_act acts[HIST_ACTIONS_MAX];
	int users;			/* references to our variables from other triggers */
	/*
	 * The trigger whose table this one counts in: itself, or the first
	 * trigger of its name= (Linux's named_data).  The table (map, lock,
	 * hits, drops, entries) is table's; it lives while table_users
	 * (the triggers counting in it) is above 0, past its own removal.
	 */
	struct hist_trigger *table;
	int table_users;
	/*
	 * Variables holding strings (Linux's field_var_str): slot v's
	 * string is string str_idx[v] of its entry, HIST_STR_VAR_LEN bytes
	 * in strs (the table's), and the variable holds its address.
	 */
	int8_t str_idx[HIST_VARS_MAX];	/* -1: a number */
	int nr_strs;
	char *strs;
	char filter[FILTER_TEXT_MAX];	/* for hist_trigger_matches() */
	bool paused;
	spinlock_t lock;
	unsigned int size;		/* slots: 1 << map_bits */
	unsigned int entries;
	uint64_t hits, drops;
	struct hist_entry *map;
	/* onmax().snapshot(): the hit that took the snapshot */
	bool snap_updated;
	uint64_t snap_val;
	struct hist_key snap_key;
	char snap_comm[TASK_NAME_LEN];
};

extern struct list_head hist_triggers;

/* trace_events_hist.c */
/* fields[]'s index of name, the event's own fields first; -1 if none. */
int hist_find_field(const struct filter_field *fields, int n, const char *name);
int hist_find_own_var(const struct hist_trigger *h, const char *name);
int hist_add_ref(struct hist_trigger *h, struct hist_trigger *owner, int slot, bool read_once);
int hist_resolve_expr(struct hist_trigger *h, struct hist_rexpr *rx, const struct hist_expr *e,
		      const struct filter_field *fields, int nr_fields, const char *cmd);
void hist_print_key(struct seq_buf *s, const struct hist_trigger *h, const struct hist_key *key,
		    const char *comm);
/* Make slot a string variable; false when Linux's limit of them is reached. */
bool hist_new_str(struct hist_trigger *h, int slot);
/* Keep len bytes of src as ent's string in slot (a string variable's value: their address). */
void hist_set_str(struct hist_trigger *h, struct hist_entry *ent, int slot, const char *src,
		  size_t len);

/* trace_events_hist_actions.c */
bool hist_matches_onmatch(const struct hist_trigger *h, const struct trace_event_file *file);
int hist_check_onmatch_events(struct hist_trigger *h, const char *cmd);
int hist_create_actions(struct hist_trigger *h, const struct filter_field *fields, int n,
			const char *cmd);
void hist_free_actions(struct hist_trigger *h);
/*
 * Under the lock: act on entry ent (saves: this hit's fields a .save()
 * keeps); fills fire[] with the synthetic events to trace once the lock
 * is dropped, sets *snapshot when one is due.  The number of fire[].
 */
struct hist_fire {
	struct synth_event *synth;
	uint64_t vals[HIST_PARAMS_MAX];
};
int hist_run_actions(struct hist_trigger *h, struct hist_entry *ent, const uint64_t *refvals,
		     const struct hist_save *saves, struct hist_fire *fire, bool *snapshot);
void hist_print_actions(struct seq_buf *s, const struct hist_trigger *h,
			const struct hist_entry *ent);
void hist_print_snapshot(struct seq_buf *s, const struct hist_trigger *h);

/* tracing_map.c */
struct hist_entry *tracing_map_insert(struct hist_trigger *h, const struct hist_key *key);
struct hist_entry *tracing_map_lookup(struct hist_trigger *h, const struct hist_key *key);
/* The used entries' indexes in h->map, sorted by the trigger's sort keys: how many. */
unsigned int tracing_map_sort_entries(const struct hist_trigger *h, unsigned int *order);

#endif
