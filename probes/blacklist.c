/*
 * blacklist.c - the functions nobody may probe.
 *
 * An int3 in the code that handles int3 would trap again before kprobes
 * knows a hit is in progress, and again, and again: the stack overflows.
 * So the trap path (entry stubs, do_trap, notify_die), kprobes' own hit
 * path, preempt_disable/enable and the exception-fixup code are listed
 * with NOKPROBE_SYMBOL(fn), which drops fn's address into the
 * _kprobe_blacklist section.  init_kprobes() turns each address into an
 * address range using the symbol sizes kallsyms knows, and
 * register_kprobe() refuses any address inside one (-EINVAL).
 *
 * Code that merely *runs inside* a handler (printk, a function the
 * handler calls) is safe without this: a hit there is a reentry, which
 * kprobe_handler() steps without handlers and counts in nmissed.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include "nokprobe.h"
#include "errno.h"
#include "mm.h"

struct kprobe_blacklist_entry {
	struct list_head list;
	unsigned long start_addr;
	unsigned long end_addr;		/* one past the last byte */
};

static LIST_HEAD(kprobe_blacklist);

int kprobe_add_area_blacklist(unsigned long start, unsigned long end)
{
	struct kprobe_blacklist_entry *ent = kzalloc(sizeof(*ent));

	if (!ent)
		return -ENOMEM;
	ent->start_addr = start;
	ent->end_addr = end;
	list_add_tail(&ent->list, &kprobe_blacklist);
	return 0;
}

/* Take off every range inside [start, end): a module's, when it goes. */
void kprobe_remove_area_blacklist(unsigned long start, unsigned long end)
{
	struct kprobe_blacklist_entry *ent, *next;

	list_for_each_entry_safe(ent, next, &kprobe_blacklist, list) {
		if (ent->start_addr >= start && ent->end_addr <= end) {
			list_del(&ent->list);
			kfree(ent);
		}
	}
}

/* One NOKPROBE_SYMBOL(fn) entry: the whole of fn, as kallsyms sizes it. */
int kprobe_add_ksym_blacklist(unsigned long entry)
{
	unsigned long size = 0, offset = 0;

	if (!kallsyms_lookup(entry, &size, &offset) || offset != 0) {
		printk("kprobes: blacklist entry %#lx is not a function start\n", entry);
		size = 0;
	}
	/* A symbol without a size still blocks its first instruction. */
	return kprobe_add_area_blacklist(entry, entry + (size ? size : 1));
}

int populate_kprobe_blacklist(void)
{
	unsigned long *entry;
	int ret;

	for (entry = __start_kprobe_blacklist; entry < __stop_kprobe_blacklist; entry++) {
		ret = kprobe_add_ksym_blacklist(*entry);
		if (ret)
			return ret;
	}
	return arch_populate_kprobe_blacklist();
}

bool within_kprobe_blacklist(unsigned long addr)
{
	struct kprobe_blacklist_entry *ent;

	list_for_each_entry(ent, &kprobe_blacklist, list)
		if (addr >= ent->start_addr && addr < ent->end_addr)
			return true;
	return false;
}

int kprobe_blacklist_for_each(int (*fn)(void *data, unsigned long start,
					unsigned long end), void *data)
{
	struct kprobe_blacklist_entry *ent;
	int ret;

	list_for_each_entry(ent, &kprobe_blacklist, list) {
		ret = fn(data, ent->start_addr, ent->end_addr);
		if (ret)
			return ret;
	}
	return 0;
}
