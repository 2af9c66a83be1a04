/*
 * trace_events_hist_actions.c - what a hist trigger does on a hit
 * besides counting (Linux's handlers and actions in
 * kernel/trace/trace_events_hist.c):
 *
 *   onmatch(kprobes.sort_start).trace(sort_lat,$lat,common_pid)
 *       when the hit's key has a value for every variable read (here
 *       $ts0 of sort_start's trigger, inside $lat), fire the synthetic
 *       event sort_lat with $lat and the hit's common_pid;
 *       .sort_lat($lat,common_pid) is Linux's older spelling
 *   onmax($lat).save(n,common_pid)
 *       per key: when $lat beats the largest so far, keep it and these
 *       fields of the hit ("max:" in the hist file)
 *   onchange($v).save(...), onmax($lat).snapshot(), onmax($lat).trace(...)
 *       the same when $v changes; swap the trace into snapshot; fire.
 *
 * An action's params are variables ($name: this trigger's, else one of
 * another trigger's) or fields of this event, which become hidden
 * variables of the entry, as in Linux.  A field of another event is
 * not taken (Linux makes a hist trigger on that event for it).
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_events_hist.h"
#include "trace_events_hist_internal.h"
#include "trace_synth.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"

bool hist_matches_onmatch(const struct hist_trigger *h, const struct trace_event_file *file)
{
	for (int i = 0; i < h->spec.nr_actions; i++) {
		const struct hist_action *a = &h->spec.actions[i];

		if (a->handler == HIST_HANDLER_ONMATCH && !strcmp(a->system, file->tp->def->group) &&
		    !strcmp(a->event, file->tp->def->event))
			return true;
	}
	return false;
}

/* onmatch(system.event) names an event (Linux checks it first of all). */
int hist_check_onmatch_events(struct hist_trigger *h, const char *cmd)
{
	for (int i = 0; i < h->spec.nr_actions; i++) {
		const struct hist_action *a = &h->spec.actions[i];

		if (a->handler == HIST_HANDLER_ONMATCH && !trace_event_file_find(a->system, a->event)) {
			hist_log_error(h->file, cmd, HIST_ERR_INVALID_SUBSYS_EVENT, a->event);
			return -EINVAL;
		}
	}
	return 0;
}

/* A new variable slot of the entry; -1 when all HIST_VARS_MAX are taken. */
static int new_slot(struct hist_trigger *h)
{
	return h->nr_slots < HIST_VARS_MAX ? h->nr_slots++ : -1;
}

/* ---- .trace(): the params of a synthetic event --------------------------------------- */

/*
 * Can a synthetic event's field take a value of this type (Linux's
 * check_synth_field())?  The same C type, or the same size and sign.
 * A string goes to a string field only: any char[], or a char[N] of
 * its type or size.
 */
static bool type_fits(const char *type, unsigned int size, bool is_signed, bool is_string,
		      const struct synth_field *f)
{
	bool same_type = type && !strcmp(type, f->type);

	if (is_string || f->is_string)
		return is_string && f->is_string && (f->is_dynamic || same_type || size == f->size);
	return same_type || (size == f->size && is_signed == f->is_signed);
}

/*
 * Can f take what reference r reads?  A field made a variable has no
 * sign there (Linux's create_var() sets none), so common_pid fits
 * "int pid" but not "pid_t pid".
 */
static bool ref_fits(const struct hist_trigger *h, int r, const struct synth_field *f)
{
	const struct hist_ref *ref = &h->refs[r];
	const struct hist_trigger *o = ref->owner;
	const struct hist_rnode *rn;

	if (ref->slot < o->spec.nr_vars) {
		rn = &o->vars[ref->slot].n[o->vars[ref->slot].e->root];
		return type_fits(rn->type, rn->size, rn->is_signed, rn->is_string, f);
	}
	for (int i = 0; i < o->nr_fvars; i++)
		if (o->fvars[i].slot == ref->slot)
			return type_fits(o->fvars[i].type, o->fvars[i].size, false,
					 o->fvars[i].is_string, f);
	return false;
}

/* A field of this event as a param: a hidden variable copied at each hit. */
static int field_param(struct hist_trigger *h, const char *name,
		       const struct filter_field *fields, int n, const char *cmd)
{
	int field = hist_find_field(fields, n, name), slot;

	if (field < 0) {
		hist_log_error(h->file, cmd, HIST_ERR_FIELD_VAR_PARSE_FAIL, name);
		return -1;
	}
	for (int f = 0; f < h->nr_fvars; f++)
		if (h->fvars[f].field == field)
			return hist_add_ref(h, h, h->fvars[f].slot, false);
	slot = new_slot(h);
	if (slot < 0 || (fields[field].is_string && !hist_new_str(h, slot))) {
		hist_log_error(h->file, cmd, HIST_ERR_TOO_MANY_FIELD_VARS, name);
		return -1;
	}
	h->fvars[h->nr_fvars++] = (struct hist_field_var){ slot, field,
							   trace_event_field_type(h->file, field),
							   fields[field].size, fields[field].is_signed,
							   fields[field].is_string };
	return hist_add_ref(h, h, slot, false);
}

/* $name as a param: this trigger's variable, else another's (Linux's trace_action_find_var()). */
static int var_param(struct hist_trigger *h, const char *name, const char *cmd)
{
	int slot = hist_find_own_var(h, name), r;
	struct hist_trigger *o;

	if (slot >= 0)
		return hist_add_ref(h, h, slot, false);
	list_for_each_entry(o, &hist_triggers, list)
		if (o->table == o && (slot = hist_find_own_var(o, name)) >= 0 &&
		    (r = hist_add_ref(h, o, slot, false)) >= 0)
			return r;
	hist_log_error(h->file, cmd, HIST_ERR_PARAM_NOT_FOUND, name);
	return -1;
}

static int create_trace(struct hist_trigger *h, struct hist_act *act,
			const struct filter_field *fields, int n, const char *cmd)
{
	const struct hist_action *a = act->a;
	struct synth_event *se = synth_event_find(a->synth);
	int r;

	if (!se) {
		hist_log_error(h->file, cmd, HIST_ERR_SYNTH_EVENT_NOT_FOUND, a->synth);
		return -EINVAL;
	}
	act->synth = se;
	se->ref++;			/* it cannot go while we may fire it */
	for (int i = 0; i < a->nr_params; i++) {
		r = a->params[i][0] == '$' ? var_param(h, a->params[i] + 1, cmd) :
					     field_param(h, a->params[i], fields, n, cmd);
		if (r < 0)
			return -EINVAL;
		if (i >= se->nr_fields || !ref_fits(h, r, &se->fields[i])) {
			hist_log_error(h->file, cmd, HIST_ERR_SYNTH_TYPE_MISMATCH, a->params[i]);
			return -EINVAL;
		}
		act->param_ref[act->nr_params++] = r;
	}
	if (act->nr_params != se->nr_fields) {
		hist_log_error(h->file, cmd, HIST_ERR_SYNTH_COUNT_MISMATCH, a->synth);
		return -EINVAL;
	}
	return 0;
}

/* ---- onmax() / onchange() -------------------------------------------------------------- */

static int create_save(struct hist_trigger *h, struct hist_act *act,
		       const struct filter_field *fields, int n, const char *cmd)
{
	for (int i = 0; i < h->spec.nr_actions; i++)
		if (&h->acts[i] != act && h->acts[i].a && h->acts[i].a->action == HIST_ACTION_SAVE &&
		    h->acts[i].nr_params) {
			hist_log_error(h->file, cmd, HIST_ERR_TOO_MANY_SAVE_ACTIONS, NULL);
			return -EEXIST;
		}
	for (int i = 0; i < act->a->nr_params; i++) {
		int field = hist_find_field(fields, n, act->a->params[i]);

		act->save_slot[i] = new_slot(h);
		if (field < 0 || act->save_slot[i] < 0 ||
		    (fields[field].is_string && !hist_new_str(h, act->save_slot[i]))) {
			hist_log_error(h->file, cmd, HIST_ERR_FIELD_VAR_CREATE_FAIL, act->a->params[i]);
			return -EINVAL;
		}
		act->save_field[i] = field;
		act->nr_params = i + 1;
	}
	return 0;
}

static int create_track(struct hist_trigger *h, struct hist_act *act,
			const struct filter_field *fields, int n, const char *cmd)
{
	const struct hist_action *a = act->a;
	int slot;

	if (a->var[0] != '$') {
		hist_log_error(h->file, cmd, HIST_ERR_ONX_NOT_VAR, a->var);
		return -EINVAL;
	}
	slot = hist_find_own_var(h, a->var + 1);
	if (slot < 0) {
		hist_log_error(h->file, cmd, HIST_ERR_ONX_VAR_NOT_FOUND, a->var + 1);
		return -EINVAL;
	}
	act->track_ref = hist_add_ref(h, h, slot, false);
	act->track_slot = new_slot(h);
	if (act->track_ref < 0 || act->track_slot < 0) {
		hist_log_error(h->file, cmd, HIST_ERR_ONX_VAR_CREATE_FAIL, NULL);
		return -EINVAL;
	}
	if (a->action == HIST_ACTION_SAVE)
		return create_save(h, act, fields, n, cmd);
	if (a->action == HIST_ACTION_SNAPSHOT)
		return tracing_alloc_snapshot_instance(h->file->tr);
	return create_trace(h, act, fields, n, cmd);
}

int hist_create_actions(struct hist_trigger *h, const struct filter_field *fields, int n,
			const char *cmd)
{
	int ret = 0;

	for (int i = 0; i < h->spec.nr_actions && !ret; i++) {
		struct hist_act *act = &h->acts[i];

		act->a = &h->spec.actions[i];
		ret = act->a->handler == HIST_HANDLER_ONMATCH ? create_trace(h, act, fields, n, cmd) :
								create_track(h, act, fields, n, cmd);
	}
	return ret;
}

void hist_free_actions(struct hist_trigger *h)
{
	for (int i = 0; i < h->spec.nr_actions; i++)
		if (h->acts[i].synth)
			h->acts[i].synth->ref--;
}

/* ---- a hit --------------------------------------------------------------------------------- */

/* Does v beat the entry's tracked value (Linux's check_track_val_max/_changed())? */
static bool beats(const struct hist_action *a, uint64_t track, uint64_t v)
{
	return a->handler == HIST_HANDLER_ONMAX ? v > track : v != track;
}

static void fire_trace(const struct hist_act *act, const uint64_t *refvals, struct hist_fire *f)
{
	f->synth = act->synth;
	for (int i = 0; i < act->nr_params; i++)
		f->vals[i] = refvals[act->param_ref[i]];
}

/* A new max (or change) on entry ent: the action's part. */
static int on_track(struct hist_trigger *h, struct hist_act *act, struct hist_entry *ent,
		    uint64_t v, const uint64_t *refvals, const struct hist_save *saves,
		    struct hist_fire *fire, bool *snapshot)
{
	switch (act->a->action) {
	case HIST_ACTION_SAVE:
		for (int i = 0; i < act->nr_params; i++) {
			if (h->str_idx[act->save_slot[i]] >= 0) {
				hist_set_str(h, ent, act->save_slot[i], saves[i].str, saves[i].len);
				continue;
			}
			ent->vars[act->save_slot[i]] = saves[i].val;
			ent->var_set |= 1U << act->save_slot[i];
		}
		return 0;
	case HIST_ACTION_SNAPSHOT:	/* Linux's cond_snapshot_update(): the trigger's own max */
		if (h->snap_updated && !beats(act->a, h->snap_val, v))
			return 0;
		h->snap_val = v;
		h->snap_key = ent->key;
		strlcpy(h->snap_comm, ent->comm, sizeof(h->snap_comm));
		h->snap_updated = *snapshot = true;
		return 0;
	default:
		fire_trace(act, refvals, fire);
		return 1;
	}
}

int hist_run_actions(struct hist_trigger *h, struct hist_entry *ent, const uint64_t *refvals,
		     const struct hist_save *saves, struct hist_fire *fire, bool *snapshot)
{
	int nr_fire = 0;

	for (int i = 0; i < h->spec.nr_actions; i++) {
		struct hist_act *act = &h->acts[i];
		uint64_t v;

		if (act->a->handler == HIST_HANDLER_ONMATCH) {
			fire_trace(act, refvals, &fire[nr_fire++]);
			continue;
		}
		v = refvals[act->track_ref];
		if (!beats(act->a, ent->vars[act->track_slot], v))
			continue;
		ent->vars[act->track_slot] = v;
		nr_fire += on_track(h, act, ent, v, refvals, saves, &fire[nr_fire], snapshot);
	}
	return nr_fire;
}
NOKPROBE_SYMBOL(beats);
NOKPROBE_SYMBOL(fire_trace);
NOKPROBE_SYMBOL(on_track);
NOKPROBE_SYMBOL(hist_run_actions);

/* ---- the hist file ------------------------------------------------------------------------ */

/* After an entry's values: "\n\tmax: N  field: V..." (Linux's track_data_print()). */
void hist_print_actions(struct seq_buf *s, const struct hist_trigger *h,
			const struct hist_entry *ent)
{
	for (int i = 0; i < h->spec.nr_actions; i++) {
		const struct hist_act *act = &h->acts[i];

		if (act->a->handler == HIST_HANDLER_ONMATCH || act->a->action == HIST_ACTION_SNAPSHOT)
			continue;
		seq_buf_printf(s, act->a->handler == HIST_HANDLER_ONMAX ? "\n\tmax: %10llu" :
			       "\n\tchanged: %10llu", (unsigned long long)ent->vars[act->track_slot]);
		for (int p = 0; act->a->action == HIST_ACTION_SAVE && p < act->nr_params; p++) {
			uint64_t v = ent->vars[act->save_slot[p]];

			if (h->str_idx[act->save_slot[p]] >= 0)
				seq_buf_printf(s, "  %s: %-32s", act->a->params[p],
					       v ? (const char *)(uintptr_t)v : "");
			else
				seq_buf_printf(s, "  %s: %10llu", act->a->params[p], (unsigned long long)v);
		}
	}
}

/* Before the totals, once a snapshot was taken (Linux's track_data_snapshot_print()). */
void hist_print_snapshot(struct seq_buf *s, const struct hist_trigger *h)
{
	for (int i = 0; i < h->spec.nr_actions; i++) {
		const struct hist_action *a = &h->spec.actions[i];

		if (a->action != HIST_ACTION_SNAPSHOT || !h->snap_updated)
			continue;
		seq_buf_puts(s, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
		seq_buf_printf(s, "\ttriggering value { %s(%s) }: %10llu",
			       a->handler == HIST_HANDLER_ONMAX ? "onmax" : "onchange", a->var,
			       (unsigned long long)h->snap_val);
		seq_buf_puts(s, "\ttriggered by event with key: ");
		hist_print_key(s, h, &h->snap_key, h->snap_comm);
		seq_buf_puts(s, "\n");
		return;
	}
}
