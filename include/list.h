/*
 * list.h - Linux's intrusive lists, the two kinds kprobes needs.
 *
 * "Intrusive" means the links live inside the object (struct kprobe has
 * a struct list_head member), and container_of() gets from the link back
 * to the object.  No allocation is ever needed to put something on a list.
 *
 *   struct list_head   circular, doubly linked, with a head node.
 *   struct hlist_head  a hash bucket: one pointer instead of two, so a
 *                      table of 64 buckets costs 64 words.  Nodes keep a
 *                      pointer to the previous node's next field (pprev)
 *                      so they can unlink themselves without the head.
 */
#ifndef LIST_H
#define LIST_H

#include <stddef.h>
#include "kernel.h"

/* ---- circular doubly linked list ---------------------------------------- */

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_link(struct list_head *n, struct list_head *prev,
			       struct list_head *next)
{
	n->next = next;
	n->prev = prev;
	prev->next = n;
	next->prev = n;
}

/* Insert after head (stack order). */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_link(n, head, head->next);
}

/* Insert before head, i.e. at the end (queue order). */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_link(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = e->prev = NULL;
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* True when head holds exactly one entry. */
static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)

#define list_for_each_entry(pos, head, member)                                 \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);         \
	     &pos->member != (head);                                           \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

/* Safe against removal of pos (n holds the next entry). */
#define list_for_each_entry_safe(pos, n, head, member)                         \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),         \
	     n = list_entry(pos->member.next, __typeof__(*pos), member);       \
	     &pos->member != (head);                                           \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

/* ---- hash-bucket list ----------------------------------------------------- */

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	h->first = NULL;
}

static inline void INIT_HLIST_NODE(struct hlist_node *n)
{
	n->next = NULL;
	n->pprev = NULL;
}

static inline int hlist_unhashed(const struct hlist_node *n)
{
	return !n->pprev;
}

/*
 * Fill in the new node completely, then make it reachable with the one
 * store to h->first: a reader that interrupts us sees either the old
 * bucket or the new one, never a half-linked node.
 */
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	if (first)
		first->pprev = &n->next;
	WRITE_ONCE(h->first, n);
}

static inline void hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;

	WRITE_ONCE(*n->pprev, next);
	if (next)
		next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}

/* Put n where old was (one store makes the swap visible). */
static inline void hlist_replace(struct hlist_node *old, struct hlist_node *n)
{
	n->next = old->next;
	n->pprev = old->pprev;
	if (n->next)
		n->next->pprev = &n->next;
	WRITE_ONCE(*n->pprev, n);
	old->next = NULL;
	old->pprev = NULL;
}

#define hlist_entry(ptr, type, member) container_of(ptr, type, member)

#define hlist_entry_safe(ptr, type, member)                                    \
	({ __typeof__(ptr) ____p = (ptr);                                      \
	   ____p ? hlist_entry(____p, type, member) : NULL; })

#define hlist_for_each_entry(pos, head, member)                                \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); \
	     pos;                                                              \
	     pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))

/* Safe against removal of pos. */
#define hlist_for_each_entry_safe(pos, n, head, member)                        \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member);  \
	     pos && ({ n = pos->member.next; 1; });                            \
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))

#endif
