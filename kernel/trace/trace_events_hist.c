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
 *   ...
 *
 * Linux's table (tracing_map) is lock-free; ours is an open-addressed
 * array, preallocated with the trigger so a hit never allocates, and a
 * spinlock for the two CPUs that may insert at once.  A full table
 * drops the hit and counts it, as Linux's does.  String keys keep
 * their first HIST_STR_KEY - 1 bytes.
 */
#include "kernel.h"
#include "trace.h"
#include "trace_probe.h"
#include "trace_events.h"
#include "trace_events_hist.h"
#include "spinlock.h"
#include "kallsyms.h"
#include "pseudofs.h"
#include "mm.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "nokprobe.h"

#define HIST_STR_KEY 32

struct hist_key {
	uint64_t num[HIST_KEYS_MAX];
	char str[HIST_KEYS_MAX][HIST_STR_KEY];
};

struct hist_entry {
	bool used;
	struct hist_key key;
	uint64_t hitcount;
	uint64_t sums[HIST_VALS_MAX];
};

/* A sort key: hitcount, a key or a value. */
enum { SORT_HITCOUNT, SORT_KEY, SORT_VAL };

struct hist_trigger {
	struct hist_spec spec;
	int key_field[HIST_KEYS_MAX];	/* index into the event's fields */
	bool key_string[HIST_KEYS_MAX];
	unsigned char key_size[HIST_KEYS_MAX];
	bool key_signed[HIST_KEYS_MAX];
	int val_field[HIST_VALS_MAX];
	unsigned char val_size[HIST_VALS_MAX];
	bool val_signed[HIST_VALS_MAX];
	int sort_kind[HIST_SORT_KEYS_MAX], sort_index[HIST_SORT_KEYS_MAX];
	char filter[FILTER_TEXT_MAX];	/* for hist_trigger_matches() */
	bool paused;
	spinlock_t lock;
	unsigned int size;		/* slots: 1 << map_bits */
	unsigned int entries;
	uint64_t hits, drops;
	struct hist_entry *map;
};

#define EVENT_FIELDS_MAX (16 + PROBE_MAX_ARGS)

void hist_log_error(struct trace_event_file *file, const char *cmd, enum hist_err err,
		    const char *bad)
{
	static struct trace_probe_type hist_log;
	static char loc[16 + 2 * PROBE_NAME_LEN];
	const char *at = bad && *bad ? strstr(cmd, bad) : NULL;

	snprintf(loc, sizeof(loc), "hist:%s:%s", file->tp->def->group, file->tp->def->event);
	hist_log.subsys = loc;
	trace_probe_log_error(&hist_log, cmd, strlen(cmd), at ? at - cmd : 0, hist_err_msg(err));
}

/* ---- creating ------------------------------------------------------------------------------ */

static int find_field(const struct filter_field *fields, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(fields[i].name, name) == 0)
			return i;
	return -1;
}

static int resolve_sort(struct hist_trigger *h)
{
	for (int i = 0; i < h->spec.nr_sort; i++) {
		const char *name = h->spec.sort[i];

		h->sort_kind[i] = SORT_HITCOUNT;
		for (int k = 0; k < h->spec.nr_keys; k++)
			if (strcmp(name, h->spec.keys[k]) == 0) {
				h->sort_kind[i] = SORT_KEY;
				h->sort_index[i] = k;
			}
		for (int v = 0; v < h->spec.nr_vals; v++)
			if (strcmp(name, h->spec.vals[v]) == 0) {
				h->sort_kind[i] = SORT_VAL;
				h->sort_index[i] = v;
			}
	}
	return 0;
}

int hist_trigger_create(struct trace_event_file *file, const struct hist_spec *spec,
			const char *filter, const char *cmd, struct hist_trigger **out)
{
	static struct filter_field fields[EVENT_FIELDS_MAX];
	int n = trace_event_fields(file, fields, EVENT_FIELDS_MAX), f;
	struct hist_trigger *h = kzalloc(sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->spec = *spec;
	strlcpy(h->filter, filter, sizeof(h->filter));
	h->paused = spec->pause;	/* start paused, as Linux allows */
	for (int k = 0; k < spec->nr_keys; k++) {
		f = find_field(fields, n, spec->keys[k]);
		if (f < 0) {
			hist_log_error(file, cmd, HIST_ERR_FIELD_NOT_FOUND, spec->keys[k]);
			kfree(h);
			return -EINVAL;
		}
		h->key_field[k] = f;
		h->key_string[k] = fields[f].is_string;
		h->key_size[k] = fields[f].size;
		h->key_signed[k] = fields[f].is_signed;
	}
	for (int v = 0; v < spec->nr_vals; v++) {
		f = find_field(fields, n, spec->vals[v]);
		if (f < 0 || fields[f].is_string) {
			hist_log_error(file, cmd, HIST_ERR_FIELD_NOT_FOUND, spec->vals[v]);
			kfree(h);
			return -EINVAL;
		}
		h->val_field[v] = f;
		h->val_size[v] = fields[f].size;
		h->val_signed[v] = fields[f].is_signed;
	}
	resolve_sort(h);
	h->size = 1U << spec->map_bits;
	h->map = kzalloc(h->size * sizeof(*h->map));
	if (!h->map) {
		kfree(h);
		return -ENOMEM;
	}
	spin_lock_init(&h->lock);
	*out = h;
	return 0;
}

void hist_trigger_free(struct hist_trigger *h)
{
	kfree(h->map);
	kfree(h);
}

bool hist_trigger_matches(const struct hist_trigger *h, const struct hist_spec *spec,
			  const char *filter)
{
	const struct hist_spec *a = &h->spec;

	if (a->nr_keys != spec->nr_keys || a->nr_vals != spec->nr_vals)
		return false;
	for (int k = 0; k < a->nr_keys; k++)
		if (strcmp(a->keys[k], spec->keys[k]) || a->key_mods[k] != spec->key_mods[k])
			return false;
	for (int v = 0; v < a->nr_vals; v++)
		if (strcmp(a->vals[v], spec->vals[v]))
			return false;
	return strcmp(h->filter, filter) == 0;
}

void hist_trigger_control(struct hist_trigger *h, bool pause, bool cont, bool clear)
{
	unsigned long flags;

	if (pause)
		WRITE_ONCE(h->paused, true);
	if (cont)
		WRITE_ONCE(h->paused, false);
	if (clear) {
		spin_lock_irqsave(&h->lock, flags);
		memset(h->map, 0, h->size * sizeof(*h->map));
		h->entries = 0;
		h->hits = h->drops = 0;
		spin_unlock_irqrestore(&h->lock, flags);
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

/* ---- a hit -------------------------------------------------------------------------------- */

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

static void make_key(struct hist_trigger *h, struct trace_event_file *file,
		     const struct trace_entry *e, struct hist_key *key)
{
	memset(key, 0, sizeof(*key));
	for (int k = 0; k < h->spec.nr_keys; k++) {
		if (h->key_string[k]) {
			size_t len;
			const char *s = trace_event_field_str(file, h->key_field[k], e, &len);

			if (len >= HIST_STR_KEY)
				len = HIST_STR_KEY - 1;
			memcpy(key->str[k], s, len);
		} else {
			key->num[k] = field_value(trace_event_field_num(file, h->key_field[k], e),
						  h->key_size[k], h->key_signed[k]);
		}
	}
}

static unsigned int key_hash(const struct hist_key *key)
{
	const unsigned char *p = (const void *)key;
	uint32_t hash = 2166136261u;		/* FNV-1a */

	for (size_t i = 0; i < sizeof(*key); i++)
		hash = (hash ^ p[i]) * 16777619u;
	return hash;
}

/* The key's entry, made if new; NULL when the table is full. */
static struct hist_entry *find_entry(struct hist_trigger *h, const struct hist_key *key)
{
	unsigned int mask = h->size - 1, i = key_hash(key) & mask;

	for (unsigned int probes = 0; probes < h->size; probes++, i = (i + 1) & mask) {
		struct hist_entry *ent = &h->map[i];

		if (!ent->used) {
			ent->used = true;
			ent->key = *key;
			h->entries++;
			return ent;
		}
		if (memcmp(&ent->key, key, sizeof(*key)) == 0)
			return ent;
	}
	return NULL;
}

void hist_trigger_update(struct hist_trigger *h, struct trace_event_file *file,
			 const struct trace_entry *e)
{
	struct hist_key key;
	struct hist_entry *ent;

	if (READ_ONCE(h->paused))
		return;
	make_key(h, file, e, &key);
	spin_lock(&h->lock);
	h->hits++;
	ent = find_entry(h, &key);
	if (!ent) {
		h->drops++;
	} else {
		ent->hitcount++;
		for (int v = 0; v < h->spec.nr_vals; v++)
			ent->sums[v] += field_value(trace_event_field_num(file, h->val_field[v], e),
						    h->val_size[v], h->val_signed[v]);
	}
	spin_unlock(&h->lock);
}
NOKPROBE_SYMBOL(field_value);
NOKPROBE_SYMBOL(make_key);
NOKPROBE_SYMBOL(key_hash);
NOKPROBE_SYMBOL(find_entry);
NOKPROBE_SYMBOL(hist_trigger_update);

/* ---- printing ------------------------------------------------------------------------------- */

static int compare_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int compare(const struct hist_trigger *h, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	for (int i = 0; i < h->spec.nr_sort; i++) {
		int k = h->sort_index[i], c;

		if (h->sort_kind[i] == SORT_HITCOUNT)
			c = compare_u64(a->hitcount, b->hitcount);
		else if (h->sort_kind[i] == SORT_VAL)
			c = compare_u64(a->sums[k], b->sums[k]);
		else if (h->key_string[k])
			c = strcmp(a->key.str[k], b->key.str[k]);
		else
			c = compare_u64(a->key.num[k], b->key.num[k]);
		if (c)
			return h->spec.sort_descending[i] ? -c : c;
	}
	return 0;
}

/* Insertion sort of the used entries: a read, not a hit, so time is no matter. */
static unsigned int sorted_entries(const struct hist_trigger *h, unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < h->size; i++) {
		unsigned int j = n++;

		if (!h->map[i].used) {
			n--;
			continue;
		}
		for (; j > 0 && compare(h, &h->map[order[j - 1]], &h->map[i]) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	return n;
}

static void print_key(struct seq_buf *s, const struct hist_trigger *h, const struct hist_entry *ent)
{
	seq_buf_puts(s, "{ ");
	for (int k = 0; k < h->spec.nr_keys; k++) {
		const char *name = h->spec.keys[k];
		uint64_t v = ent->key.num[k];
		unsigned long size, offset;
		const char *sym;

		if (k)
			seq_buf_puts(s, ", ");
		if (h->spec.key_mods[k] & HIST_MOD_HEX) {
			seq_buf_printf(s, "%s: %llx", name, (unsigned long long)v);
		} else if (h->spec.key_mods[k] & HIST_MOD_SYM) {
			sym = kallsyms_lookup((unsigned long)v, &size, &offset);
			seq_buf_printf(s, "%s: [%llx] %-45s", name, (unsigned long long)v, sym ? sym : "");
		} else if (h->key_string[k]) {
			seq_buf_printf(s, "%s: %-50s", name, ent->key.str[k]);
		} else {
			seq_buf_printf(s, "%s: %10llu", name, (unsigned long long)v);
		}
	}
	seq_buf_puts(s, " }");
}

void hist_trigger_show(struct seq_buf *s, struct hist_trigger *h, struct trace_event_file *file,
		       const char *filter, int n)
{
	static char line[512];
	unsigned int *order = kmalloc(h->size * sizeof(*order)), count = 0;

	if (n > 0)
		seq_buf_puts(s, "\n\n");
	hist_trigger_print(line, sizeof(line), h);
	seq_buf_printf(s, "# event histogram\n#\n# trigger info: %s%s%s%s\n#\n\n", line,
		   filter ? " if " : "", filter ? filter : "",
		   h->paused ? " [paused]" : " [active]");
	if (order) {
		count = sorted_entries(h, order);
		for (unsigned int i = 0; i < count; i++) {
			const struct hist_entry *ent = &h->map[order[i]];

			print_key(s, h, ent);
			seq_buf_printf(s, " hitcount: %10llu", (unsigned long long)ent->hitcount);
			for (int v = 0; v < h->spec.nr_vals; v++)
				seq_buf_printf(s, "  %s: %10llu", h->spec.vals[v],
					   (unsigned long long)ent->sums[v]);
			seq_buf_puts(s, "\n");
		}
		kfree(order);
	}
	seq_buf_printf(s, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   (unsigned long long)h->hits, count, (unsigned long long)h->drops);
}
