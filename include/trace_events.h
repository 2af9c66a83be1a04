/*
 * trace_events.h - an event's directory under /sys/kernel/tracing/events
 * (Linux's kernel/trace/trace_events.c): the files a kprobe or uprobe
 * event gets when it is defined, and its group's.
 *
 *   events/GROUP/enable          every event of the group on or off
 *   events/GROUP/EVENT/enable    this event on or off
 */
#ifndef TRACE_EVENTS_H
#define TRACE_EVENTS_H

#include <stdbool.h>

struct trace_probe;

/*
 * Create the event's directory, and its group's if it is the group's
 * first event: 0, or a negative errno with nothing created (-EEXIST:
 * the group belongs to the other kind of probe event).  tp is not yet
 * on its type's list.
 */
int trace_event_dir_add(struct trace_probe *tp);
/* Remove the event's directory, and the group's if tp was its last
 * event: called once tp is off its type's list, before it is freed. */
void trace_event_dir_remove(struct trace_probe *tp);

#endif
