/*
 * tracing_map.c - a hist trigger's table (Linux's
 * kernel/trace/tracing_map.c): one entry per key, found by hashing the
 * key, made on a key's first hit.
 *
 * Linux's map is lock-free, with elements preallocated so a hit never
 * allocates.  Ours keeps the preallocation - the whole table comes with
 * the trigger - and is an open-addressed array probed linearly under
 * the trigger's spinlock (trace_events_hist.c takes it).  A full table
 * refuses new keys, and the hit is counted as dropped, as Linux's is.
 */
#include "kernel.h"
#include "trace_events_hist_internal.h"
#include "string.h"
#include "nokprobe.h"

static unsigned int key_hash(const struct hist_key *key)
{
	const unsigned char *p = (const void *)key;
	uint32_t hash = 2166136261u;		/* FNV-1a */

	for (size_t i = 0; i < sizeof(*key); i++)
		hash = (hash ^ p[i]) * 16777619u;
	return hash;
}

/* The key's slot: its entry, or the free slot where it would go; NULL if full. */
static struct hist_entry *find_slot(struct hist_trigger *h, const struct hist_key *key)
{
	unsigned int mask = h->size - 1, i = key_hash(key) & mask;

	for (unsigned int probes = 0; probes < h->size; probes++, i = (i + 1) & mask) {
		struct hist_entry *ent = &h->map[i];

		if (!ent->used || memcmp(&ent->key, key, sizeof(*key)) == 0)
			return ent;
	}
	return NULL;
}

struct hist_entry *tracing_map_lookup(struct hist_trigger *h, const struct hist_key *key)
{
	struct hist_entry *ent = find_slot(h, key);

	return ent && ent->used ? ent : NULL;
}

/* The key's entry, made if new; NULL when the table is full. */
struct hist_entry *tracing_map_insert(struct hist_trigger *h, const struct hist_key *key)
{
	struct hist_entry *ent = find_slot(h, key);

	if (ent && !ent->used) {
		ent->used = true;
		ent->key = *key;
		h->entries++;
	}
	return ent;
}
NOKPROBE_SYMBOL(key_hash);
NOKPROBE_SYMBOL(find_slot);
NOKPROBE_SYMBOL(tracing_map_lookup);
NOKPROBE_SYMBOL(tracing_map_insert);

/* ---- sorting, for the hist file ----------------------------------------------------- */

static int compare_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * Entries the sort keys find equal, in the order of their keys (Linux
 * leaves that order to its sort(): here it does not change with the
 * table's hashing).
 */
static int compare_keys(const struct hist_trigger *h, const struct hist_key *a,
			const struct hist_key *b)
{
	int c;

	for (int k = 0; k < h->spec.nr_keys; k++) {
		if (h->keys[k].n[h->spec.keys[k].root].is_string)
			c = strcmp(a->str[k], b->str[k]);
		else
			c = compare_u64(a->num[k], b->num[k]);
		if (c)
			return c;
	}
	return memcmp(a->stack, b->stack, sizeof(a->stack));
}

static int compare(const struct hist_trigger *h, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	const struct hist_spec *s = &h->spec;

	for (int i = 0; i < s->nr_sort; i++) {
		int k = s->sort_index[i], c;

		if (s->sort_kind[i] == HIST_SORT_HITCOUNT)
			c = compare_u64(a->hitcount, b->hitcount);
		else if (s->sort_kind[i] == HIST_SORT_VAL)
			c = compare_u64(a->sums[k], b->sums[k]);
		else if (h->keys[k].n[s->keys[k].root].is_string)
			c = strcmp(a->key.str[k], b->key.str[k]);
		else
			c = compare_u64(a->key.num[k], b->key.num[k]);
		if (c)
			return s->sort_descending[i] ? -c : c;
	}
	return compare_keys(h, &a->key, &b->key);
}

/* Insertion sort of the used entries: a read, not a hit, so time is no matter. */
unsigned int tracing_map_sort_entries(const struct hist_trigger *h, unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < h->size; i++) {
		unsigned int j = n;

		if (!h->map[i].used)
			continue;
		for (n++; j > 0 && compare(h, &h->map[order[j - 1]], &h->map[i]) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	return n;
}
