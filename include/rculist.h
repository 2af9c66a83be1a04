/*
 * rculist.h - lists a reader walks without a lock while a writer changes them.
 *
 * Linux's RCU list discipline, for the few lists a kprobe hit reads
 * (the kprobe table, an aggregate's members).  The hit takes no lock: it
 * may run on one CPU while another CPU registers or removes a probe
 * under kprobe_mutex.  Every change here is made so that a reader in
 * the middle of a walk sees either the list before the change or the
 * list after it, never a half-linked node:
 *
 *   - adding: the new node is filled in completely (its next pointer
 *     too) before the one store that makes it reachable - "publish";
 *   - removing: one store makes the node unreachable, but the node keeps
 *     its own next pointer, so a reader already standing on it walks on
 *     to the rest of the list - "unpublish".  The node may be reused or
 *     freed only after a grace period (synchronize_kprobes(),
 *     probes/kprobes_sync.c), when no reader can still stand on it.
 *
 * x86 never reorders a store with an older store, nor a load with an
 * older load, so the order the compiler emits is the order other CPUs
 * see: a compiler barrier is all smp_store_release()/READ_ONCE() need
 * here, as in Linux on x86.
 */
#ifndef RCULIST_H
#define RCULIST_H

#include "kernel.h"
#include "list.h"

/* Make p reachable through *where, after everything written to *p before. */
#define rcu_assign_pointer(where, p) do {	\
	barrier();				\
	WRITE_ONCE((where), (p));		\
} while (0)

/*
 * One load of p, as READ_ONCE(), into a plain (not volatile) local: the
 * list walks keep the pointer in a register instead of spilling a
 * volatile copy to the stack and reading it back on every step.
 */
#define rcu_dereference(p)	({ __typeof__(p) ___p = READ_ONCE(p); ___p; })

static inline void hlist_add_head_rcu(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	rcu_assign_pointer(h->first, n);	/* publish */
	if (first)
		first->pprev = &n->next;
}

/* Unlink n; n->next stays, for a reader standing on n. */
static inline void hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;

	WRITE_ONCE(*n->pprev, next);		/* unpublish */
	if (next)
		next->pprev = n->pprev;
	n->pprev = NULL;
}

/* n takes old's place in one store; old keeps its next pointer. */
static inline void hlist_replace_rcu(struct hlist_node *old, struct hlist_node *n)
{
	n->next = old->next;
	n->pprev = old->pprev;
	rcu_assign_pointer(*n->pprev, n);
	if (n->next)
		n->next->pprev = &n->next;
	old->pprev = NULL;
}

static inline void list_add_tail_rcu(struct list_head *n, struct list_head *head)
{
	struct list_head *prev = head->prev;

	n->next = head;
	n->prev = prev;
	rcu_assign_pointer(prev->next, n);	/* publish */
	head->prev = n;
}

/* Unlink e; e->next stays, for a reader standing on e. */
static inline void list_del_rcu(struct list_head *e)
{
	WRITE_ONCE(e->prev->next, e->next);	/* unpublish */
	e->next->prev = e->prev;
	e->prev = NULL;
}

#define hlist_for_each_entry_rcu(pos, head, member)				     \
	for (pos = hlist_entry_safe(rcu_dereference((head)->first),		     \
				    __typeof__(*(pos)), member);		     \
	     pos;								     \
	     pos = hlist_entry_safe(rcu_dereference((pos)->member.next),	     \
				    __typeof__(*(pos)), member))

#define list_for_each_entry_rcu(pos, head, member)				     \
	for (pos = list_entry(rcu_dereference((head)->next), __typeof__(*pos), member); \
	     &pos->member != (head);						     \
	     pos = list_entry(rcu_dereference(pos->member.next), __typeof__(*pos), member))

#endif
