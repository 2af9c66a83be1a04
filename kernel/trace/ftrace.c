/*
 * ftrace.c - the function tracer's core (Linux's kernel/trace/ftrace.c):
 * the table of call sites, the registered ftrace_ops, and the patching
 * that makes a site a call exactly while some ops wants it.
 *
 * The table.  gcc's -mrecord-mcount lists every "call __fentry__" in the
 * __mcount_loc section (the linker gathers it between __start_mcount_loc
 * and __stop_mcount_loc); a module brings its own section.  Each site
 * becomes a struct dyn_ftrace, sorted by address, so ftrace_location()
 * is a binary search.
 *
 * The patching.  After any change to the ops or their filters,
 * ftrace_replace_code() computes for every site whether some registered
 * ops wants it and rewrites the sites that differ, all in one
 * text_poke_bp batch (three syncs however many sites): a CPU that meets
 * a half-written site takes the batch's int3 and is sent past the site,
 * as if it were the nop.  A site whose first byte is an int3 belongs to
 * a kprobe (kprobes.ftrace=0): it is left alone.
 *
 * This whole file is built without -pg (Makefile, FTRACE_NOTRACE_SRCS):
 * tracing the tracer would recurse.
 */
#include "kernel.h"
#include "glob.h"
#include "string.h"
#include "errno.h"
#include "mm.h"
#include "mutex.h"
#include <asm/percpu.h>
#include "kallsyms.h"
#include "module.h"
#include <asm/text_patching.h>
#include "ftrace.h"
#include "nokprobe.h"

#define FTRACE_FL_ENABLED	0x1	/* the site is "call ftrace_regs_caller" now */

/* One call site (Linux's struct dyn_ftrace). */
struct dyn_ftrace {
	unsigned long ip;
	unsigned long flags;
};

/* The kernel's sites, or one module's. */
struct ftrace_page {
	struct dyn_ftrace *records;	/* sorted by ip */
	int nr;
	struct module *mod;		/* NULL: the kernel's */
	struct ftrace_page *next;
};

extern unsigned long __start_mcount_loc[], __stop_mcount_loc[];

static struct ftrace_page *ftrace_pages;
static struct ftrace_ops *ftrace_ops_list;	/* read by every traced call, no lock */
static DEFINE_MUTEX(ftrace_lock);		/* the writers: ops, filters, pages */
static unsigned long nr_sites, nr_enabled;
static bool ftrace_ready;

/* ---- the table -------------------------------------------------------------------- */

/* Shell sort: the kernel has a few thousand sites, almost in order already. */
static void sort_ips(unsigned long *ips, int n)
{
	for (int gap = n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < n; i++)
			for (int j = i; j >= gap && ips[j - gap] > ips[j]; j -= gap) {
				unsigned long t = ips[j];

				ips[j] = ips[j - gap];
				ips[j - gap] = t;
			}
}

static struct dyn_ftrace *lookup_in_page(struct ftrace_page *pg, unsigned long ip)
{
	int lo = 0, hi = pg->nr - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (pg->records[mid].ip == ip)
			return &pg->records[mid];
		if (pg->records[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

static struct dyn_ftrace *lookup_rec(unsigned long ip)
{
	for (struct ftrace_page *pg = READ_ONCE(ftrace_pages); pg; pg = READ_ONCE(pg->next)) {
		struct dyn_ftrace *rec = lookup_in_page(pg, ip);

		if (rec)
			return rec;
	}
	return NULL;
}

unsigned long ftrace_location(unsigned long ip)
{
	return lookup_rec(ip) ? ip : 0;
}
NOKPROBE_SYMBOL(ftrace_location);

unsigned long ftrace_nr_sites(void)
{
	return READ_ONCE(nr_sites);
}

unsigned long ftrace_nr_enabled(void)
{
	return READ_ONCE(nr_enabled);
}

/*
 * dyn_ftrace_total_info's figures: the groups of records (the kernel's
 * and one per module, Linux's ftrace_number_of_groups) and the pages
 * their records fill (ftrace_number_of_pages).
 */
void ftrace_table_info(unsigned long *pages, unsigned long *groups)
{
	*pages = *groups = 0;
	mutex_lock(&ftrace_lock);
	for (struct ftrace_page *pg = ftrace_pages; pg; pg = pg->next) {
		*pages += (pg->nr * sizeof(*pg->records) + PAGE_SIZE - 1) / PAGE_SIZE;
		(*groups)++;
	}
	mutex_unlock(&ftrace_lock);
}

int ftrace_for_each_site(int (*fn)(unsigned long ip, bool enabled, void *data), void *data)
{
	int ret = 0;

	mutex_lock(&ftrace_lock);
	for (struct ftrace_page *pg = ftrace_pages; pg && !ret; pg = pg->next)
		for (int i = 0; i < pg->nr && !ret; i++)
			ret = fn(pg->records[i].ip, pg->records[i].flags & FTRACE_FL_ENABLED, data);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/*
 * A page from a list of sites: sorted, and only those that really hold
 * gcc's call (a site the list names wrongly is reported and dropped).
 */
static struct ftrace_page *ftrace_page_alloc(const unsigned long *start,
					     const unsigned long *end, struct module *mod)
{
	int n = end - start, kept = 0;
	unsigned long *ips = kmalloc(n * sizeof(*ips) + 1);
	struct ftrace_page *pg = kzalloc(sizeof(*pg));

	if (!ips || !pg || !(pg->records = kmalloc(n * sizeof(*pg->records) + 1))) {
		kfree(ips);
		kfree(pg);
		return NULL;
	}
	memcpy(ips, start, n * sizeof(*ips));
	sort_ips(ips, n);
	for (int i = 0; i < n; i++) {
		if (!ftrace_site_is_fentry_call(ips[i])) {
			pr_warn("ftrace: %pS does not hold a call to __fentry__, skipped\n",
				(void *)ips[i]);
			continue;
		}
		pg->records[kept++] = (struct dyn_ftrace){ .ip = ips[i] };
	}
	kfree(ips);
	pg->nr = kept;
	pg->mod = mod;
	return pg;
}

/*
 * Boot: one CPU runs, interrupts off, nobody else can be in a function:
 * each "call __fentry__" becomes the nop with a plain text_poke().
 */
void ftrace_init(void)
{
	struct ftrace_page *pg = ftrace_page_alloc(__start_mcount_loc, __stop_mcount_loc, NULL);

	if (!pg) {
		pr_warn("ftrace: no memory for the call-site table, tracing disabled\n");
		return;
	}
	for (int i = 0; i < pg->nr; i++)
		text_poke((void *)pg->records[i].ip, ftrace_nop_replace(), MCOUNT_INSN_SIZE);
	ftrace_pages = pg;
	nr_sites = pg->nr;
	ftrace_ready = true;
	pr_info("ftrace: %d call sites, each now a %d-byte nop\n", pg->nr, MCOUNT_INSN_SIZE);
}

/* ---- the hashes (sorted arrays of sites) --------------------------------------------- */

static bool hash_contains(const struct ftrace_hash *hash, unsigned long ip)
{
	int lo = 0, hi = hash->count - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (hash->ips[mid] == ip)
			return true;
		if (hash->ips[mid] < ip)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

static bool hash_empty(const struct ftrace_hash *hash)
{
	return !hash || !hash->count;
}

bool ftrace_ops_test(const struct ftrace_ops *ops, unsigned long ip)
{
	const struct ftrace_hash *filter = READ_ONCE(ops->filter_hash);
	const struct ftrace_hash *skip = READ_ONCE(ops->notrace_hash);

	if (!hash_empty(filter) && !hash_contains(filter, ip))
		return false;
	return hash_empty(skip) || !hash_contains(skip, ip);
}
NOKPROBE_SYMBOL(ftrace_ops_test);

static void free_hash(struct ftrace_hash *hash)
{
	if (hash)
		kfree(hash->ips);
	kfree(hash);
}

/* A copy of old (or an empty set) with room for `more` sites. */
static struct ftrace_hash *dup_hash(const struct ftrace_hash *old, int more)
{
	struct ftrace_hash *h = kzalloc(sizeof(*h));
	int n = old ? old->count : 0;

	if (!h)
		return NULL;
	h->size = n + more;
	h->ips = kmalloc(h->size * sizeof(*h->ips) + 1);
	if (!h->ips) {
		kfree(h);
		return NULL;
	}
	if (n)
		memcpy(h->ips, old->ips, n * sizeof(*h->ips));
	h->count = n;
	return h;
}

static void hash_add(struct ftrace_hash *h, unsigned long ip)
{
	int i;

	if (hash_contains(h, ip) || h->count == h->size)
		return;
	for (i = h->count; i > 0 && h->ips[i - 1] > ip; i--)
		h->ips[i] = h->ips[i - 1];
	h->ips[i] = ip;
	h->count++;
}

static void hash_remove(struct ftrace_hash *h, unsigned long ip)
{
	for (int i = 0; i < h->count; i++)
		if (h->ips[i] == ip) {
			memmove(&h->ips[i], &h->ips[i + 1], (h->count - i - 1) * sizeof(*h->ips));
			h->count--;
			return;
		}
}

/* ---- patching ----------------------------------------------------------------------- */

static bool ops_registered(const struct ftrace_ops *ops)
{
	for (struct ftrace_ops *op = ftrace_ops_list; op; op = op->next)
		if (op == ops)
			return true;
	return false;
}

static bool site_wanted(unsigned long ip)
{
	for (struct ftrace_ops *op = ftrace_ops_list; op; op = op->next)
		if (ftrace_ops_test(op, ip))
			return true;
	return false;
}

/* One site's patch in a batch: the location and its own 5 bytes. */
struct ftrace_patch {
	struct text_poke_loc loc;
	unsigned char insn[MCOUNT_INSN_SIZE];
	struct dyn_ftrace *rec;
};

/* Queue rec's change, if it needs one; returns how many were queued. */
static int queue_site(struct ftrace_patch *p, struct dyn_ftrace *rec)
{
	bool want = site_wanted(rec->ip);
	bool have = rec->flags & FTRACE_FL_ENABLED;

	if (want == have)
		return 0;
	if (*(unsigned char *)rec->ip == INT3_INSN_OPCODE)
		return 0;	/* a kprobe's int3 (the kprobes.ftrace=0 path) */
	if (want)
		ftrace_call_replace(p->insn, rec->ip, (unsigned long)ftrace_regs_caller);
	else
		memcpy(p->insn, ftrace_nop_replace(), MCOUNT_INSN_SIZE);
	p->loc = (struct text_poke_loc){
		.addr = (void *)rec->ip, .opcode = p->insn, .len = MCOUNT_INSN_SIZE,
		/* a CPU that meets the batch's int3 skips the site, as the nop does */
		.handler = (void *)(rec->ip + MCOUNT_INSN_SIZE),
	};
	p->rec = rec;
	return 1;
}

/* The patches' locations side by side, as text_poke_bp's batch wants them. */
static void apply_batch(struct ftrace_patch *p, int n)
{
	struct text_poke_loc *tp = kmalloc(n * sizeof(*tp) + 1);

	if (!tp) {
		pr_warn("ftrace: no memory to patch %d sites\n", n);
		return;
	}
	for (int i = 0; i < n; i++)
		tp[i] = p[i].loc;
	text_poke_bp_batch_begin(tp, n);
	text_poke_bp_batch_finish(tp, n);
	kfree(tp);
	for (int i = 0; i < n; i++) {
		p[i].rec->flags ^= FTRACE_FL_ENABLED;
		nr_enabled += (p[i].rec->flags & FTRACE_FL_ENABLED) ? 1 : -1;
	}
}

/* Every site to what the registered ops want.  ftrace_lock held. */
static int ftrace_replace_code(void)
{
	struct ftrace_patch *p;
	int n = 0;

	p = kmalloc(nr_sites * sizeof(*p) + 1);
	if (!p)
		return -ENOMEM;
	for (struct ftrace_page *pg = ftrace_pages; pg; pg = pg->next)
		for (int i = 0; i < pg->nr; i++)
			n += queue_site(&p[n], &pg->records[i]);
	if (n)
		apply_batch(p, n);
	kfree(p);
	return 0;
}

/* ---- what the trampoline calls --------------------------------------------------------- */

ftrace_func_t ftrace_trace_function = ftrace_ops_list_func;
struct ftrace_ops *function_trace_op;

/* Every CPU past an IPI: none still between reading op and calling func. */
static void set_trace_function(ftrace_func_t func)
{
	WRITE_ONCE(ftrace_trace_function, func);
	text_poke_sync();
}

/*
 * Linux's update_ftrace_function(): with one ops registered, the
 * trampoline calls it straight - no walk, no filter search (only its
 * sites are calls) - or through ftrace_ops_assist_func() for the
 * recursion guard it asked for.  The walk takes over first, so a CPU
 * never pairs the new op with the old func.  ftrace_lock held.
 */
static void update_ftrace_function(void)
{
	struct ftrace_ops *op = ftrace_ops_list;
	ftrace_func_t func = ftrace_ops_list_func;

	if (op && !op->next)
		func = (op->flags & FTRACE_OPS_FL_RECURSION) ? ftrace_ops_assist_func : op->func;
	if (func == ftrace_trace_function && op == function_trace_op)
		return;
	set_trace_function(ftrace_ops_list_func);
	WRITE_ONCE(function_trace_op, op);
	text_poke_sync();
	set_trace_function(func);
}

/* ---- the ops ---------------------------------------------------------------------------- */

int register_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	if (!ftrace_ready)
		return -ENODEV;
	mutex_lock(&ftrace_lock);
	if (ops_registered(ops)) {
		mutex_unlock(&ftrace_lock);
		return -EBUSY;
	}
	ops->flags |= FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_SAVE_REGS;
	ops->next = ftrace_ops_list;
	WRITE_ONCE(ftrace_ops_list, ops);	/* complete before it is visible */
	update_ftrace_function();	/* before its sites call: another ops' func is not its */
	ret = ftrace_replace_code();
	mutex_unlock(&ftrace_lock);
	return ret;
}

int unregister_ftrace_function(struct ftrace_ops *ops)
{
	struct ftrace_ops **pp;

	mutex_lock(&ftrace_lock);
	for (pp = &ftrace_ops_list; *pp && *pp != ops; pp = &(*pp)->next)
		;
	if (!*pp) {
		mutex_unlock(&ftrace_lock);
		return -ENOENT;
	}
	WRITE_ONCE(*pp, ops->next);
	ops->flags &= ~FTRACE_OPS_FL_ENABLED;
	ftrace_replace_code();
	update_ftrace_function();	/* after: its sites no longer call */
	mutex_unlock(&ftrace_lock);
	/*
	 * Callbacks run with interrupts off: once every CPU has taken an IPI,
	 * none can still be inside ops->func (Linux's synchronize_rcu here).
	 */
	text_poke_sync();
	return 0;
}

/*
 * The walk reads op->func at each call, so either callback may run
 * while it changes; update_ftrace_function() then points the
 * trampoline's straight call at the new one, through the walk.
 */
void ftrace_ops_set_func(struct ftrace_ops *ops, ftrace_func_t func)
{
	mutex_lock(&ftrace_lock);
	WRITE_ONCE(ops->func, func);
	if (ops_registered(ops))
		update_ftrace_function();
	mutex_unlock(&ftrace_lock);
}

/*
 * Publish a new hash in place of *slot; once every CPU has passed an IPI
 * nobody reads the old one.  Then the sites follow, if ops is live.
 */
static void swap_hash(struct ftrace_ops *ops, struct ftrace_hash **slot,
		      struct ftrace_hash *new)
{
	struct ftrace_hash *old = *slot;
	bool live = ops_registered(ops);

	if (live)	/* the walk tests the filter: a site on its way out is skipped */
		set_trace_function(ftrace_ops_list_func);
	WRITE_ONCE(*slot, new);
	if (live) {
		ftrace_replace_code();
		update_ftrace_function();
	}
	text_poke_sync();
	free_hash(old);
}

/* Every site whose function's name matches pat, added to (or taken from) h. */
static int match_sites(struct ftrace_hash *h, const char *pat, bool remove)
{
	int found = 0;

	for (struct ftrace_page *pg = ftrace_pages; pg; pg = pg->next)
		for (int i = 0; i < pg->nr; i++) {
			unsigned long size, off;
			const char *name = kallsyms_lookup(pg->records[i].ip, &size, &off);

			if (!name || off || !glob_match(pat, name))
				continue;
			if (remove)
				hash_remove(h, pg->records[i].ip);
			else
				hash_add(h, pg->records[i].ip);
			found++;
		}
	return found;
}

/* One word of a filter: "fib", "crc32_*", "!fib" (take it out). */
static int set_hash_word(struct ftrace_hash *h, const char *word)
{
	bool remove = word[0] == '!';

	return match_sites(h, word + remove, remove) ? 0 : -EINVAL;
}

/*
 * Linux's ftrace_set_regex(): whitespace-separated globs.  Nothing
 * changes unless every word matched.
 */
static int set_regex(struct ftrace_ops *ops, struct ftrace_hash **slot,
		     const char *buf, int len, int reset)
{
	struct ftrace_hash *h;
	char word[KSYM_NAME_LEN];
	int ret = 0, i = 0;

	mutex_lock(&ftrace_lock);
	h = dup_hash(reset ? NULL : *slot, nr_sites);
	while (h && i < len && !ret) {
		int n = 0;

		while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
			i++;
		while (i < len && buf[i] && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n')
			if (n < (int)sizeof(word) - 1)
				word[n++] = buf[i++];
			else
				i++;
		word[n] = '\0';
		if (n)
			ret = set_hash_word(h, word);
	}
	if (!h)
		ret = -ENOMEM;
	if (!ret)
		swap_hash(ops, slot, h);
	else
		free_hash(h);
	mutex_unlock(&ftrace_lock);
	return ret;
}

int ftrace_set_filter(struct ftrace_ops *ops, const char *buf, int len, int reset)
{
	return set_regex(ops, &ops->filter_hash, buf, len, reset);
}

int ftrace_set_notrace(struct ftrace_ops *ops, const char *buf, int len, int reset)
{
	return set_regex(ops, &ops->notrace_hash, buf, len, reset);
}

int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, int remove, int reset)
{
	struct ftrace_hash *h;

	if (!ftrace_location(ip))
		return -ENOENT;
	mutex_lock(&ftrace_lock);
	h = dup_hash(reset ? NULL : ops->filter_hash, 1);
	if (!h) {
		mutex_unlock(&ftrace_lock);
		return -ENOMEM;
	}
	if (remove)
		hash_remove(h, ip);
	else
		hash_add(h, ip);
	swap_hash(ops, &ops->filter_hash, h);
	mutex_unlock(&ftrace_lock);
	return 0;
}

void ftrace_free_filter(struct ftrace_ops *ops)
{
	mutex_lock(&ftrace_lock);
	free_hash(ops->filter_hash);
	free_hash(ops->notrace_hash);
	ops->filter_hash = ops->notrace_hash = NULL;
	mutex_unlock(&ftrace_lock);
}

int ftrace_site_users(unsigned long ip)
{
	int n = 0;

	for (struct ftrace_ops *op = ftrace_ops_list; op; op = op->next)
		n += ftrace_ops_test(op, ip);
	return n;
}

bool ftrace_site_ipmodify(unsigned long ip)
{
	for (struct ftrace_ops *op = ftrace_ops_list; op; op = op->next)
		if ((op->flags & FTRACE_OPS_FL_IPMODIFY) && ftrace_ops_test(op, ip))
			return true;
	return false;
}

/* ---- a traced call ------------------------------------------------------------------ */

DEFINE_PER_CPU(int, ftrace_recursion);
unsigned long ftrace_recursion_missed;

/*
 * Every registered ops whose filter holds ip; inside another callback
 * only those without FTRACE_OPS_FL_RECURSION.  op is not used: the
 * trampoline passes one only when one ops is registered.  Interrupts
 * are off (ftrace_regs_caller): the recursion guard is this CPU's, and
 * unregistering waits for an IPI round to know no CPU is still in a
 * callback.
 */
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock();

	for (op = READ_ONCE(ftrace_ops_list); op; op = READ_ONCE(op->next)) {
		if (bit < 0 && (op->flags & FTRACE_OPS_FL_RECURSION))
			continue;
		if (ftrace_ops_test(op, ip))
			op->func(ip, parent_ip, op, fregs);
	}
	if (bit >= 0)
		ftrace_test_recursion_unlock(bit);
}
NOKPROBE_SYMBOL(ftrace_ops_list_func);

/* Linux's ftrace_ops_assist_func(): the one ops, inside the recursion guard. */
void ftrace_ops_assist_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock();

	if (bit < 0)
		return;
	op->func(ip, parent_ip, op, fregs);
	ftrace_test_recursion_unlock(bit);
}
NOKPROBE_SYMBOL(ftrace_ops_assist_func);

/* ---- modules --------------------------------------------------------------------------- */

/*
 * Before the module runs and while its text is still writable: its
 * sites become nops with plain stores, as ftrace_init() does.
 */
void ftrace_module_init(struct module *mod)
{
	struct ftrace_page *pg;

	if (!ftrace_ready || !mod->num_ftrace_callsites)
		return;
	pg = ftrace_page_alloc(mod->ftrace_callsites,
			       mod->ftrace_callsites + mod->num_ftrace_callsites, mod);
	if (!pg) {
		pr_warn("ftrace: no memory for %s's call sites\n", mod->name);
		return;
	}
	for (int i = 0; i < pg->nr; i++)
		memcpy((void *)pg->records[i].ip, ftrace_nop_replace(), MCOUNT_INSN_SIZE);
	mutex_lock(&ftrace_lock);
	pg->next = ftrace_pages;
	WRITE_ONCE(ftrace_pages, pg);
	nr_sites += pg->nr;
	mutex_unlock(&ftrace_lock);
}

/* The module is coming: the ops whose filters match its sites trace it. */
void ftrace_module_enable(struct module *mod)
{
	if (!ftrace_ready)
		return;
	mutex_lock(&ftrace_lock);
	ftrace_replace_code();
	mutex_unlock(&ftrace_lock);
}

/* The module is going: its sites leave the table (its code is freed next). */
void ftrace_release_mod(struct module *mod)
{
	struct ftrace_page **pp, *pg;

	mutex_lock(&ftrace_lock);
	for (pp = &ftrace_pages; (pg = *pp) && pg->mod != mod; pp = &pg->next)
		;
	if (pg) {
		WRITE_ONCE(*pp, pg->next);
		nr_sites -= pg->nr;
		for (int i = 0; i < pg->nr; i++)
			if (pg->records[i].flags & FTRACE_FL_ENABLED)
				nr_enabled--;
	}
	mutex_unlock(&ftrace_lock);
	if (!pg)
		return;
	text_poke_sync();	/* no lookup still walks the page */
	kfree(pg->records);
	kfree(pg);
}
