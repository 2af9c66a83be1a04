/*
 * trace_probe.h - what kprobe events (kernel/trace/trace_kprobe.c) and
 * uprobe events (kernel/trace/trace_uprobe.c) share, as Linux's
 * kernel/trace/trace_probe.c: the record, the error log, the line loop,
 * the enable files' words and the group enable file.
 */
#ifndef TRACE_PROBE_H
#define TRACE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "ptrace.h"
#include "probe_events.h"

struct seq_buf;
struct trace_entry;

typedef int (*trace_show_fn)(struct seq_buf *s, void *data);
typedef int (*trace_write_fn)(const char *text, size_t len, bool trunc, void *data);

/* The id a new event's records carry (one count for both kinds). */
unsigned int trace_probe_next_id(void);
/* One record of the current task: its name and pid, time, CPU, arguments. */
void trace_probe_record(unsigned int id, const struct probe_event_def *def,
			const struct fetch_ops *fops, struct pt_regs *regs,
			unsigned long ip, unsigned long ret_ip);
/* error_log: "[ts] SUBSYS: error: MSG", the command, a caret under pos. */
void trace_probe_log_error(const char *subsys, const char *line, size_t len, int pos,
			   const char *msg);
/* Byte offset of word nr (from 0) of line: where a caret goes. */
int trace_probe_word_pos(const char *line, size_t len, int nr);
/* Run each line of a write; the first failure stops. */
int trace_probe_write_lines(const char *text, size_t len,
			    int (*run_command)(const char *line, size_t len));
/* "0\n" or "1\n", as echo writes to an enable file. */
int trace_parse_bool(const char *text, size_t len, bool *on);
/* events/GROUP/enable: made by the group's first event, removed after its last. */
int trace_probe_group_get(const char *group, trace_show_fn show, trace_write_fn write);
void trace_probe_group_put(const char *group);

/* kernel/trace/trace_uprobe.c */
int trace_uprobe_init(void);
/* Print a uprobe event's record after its "comm-pid [cpu] ... ts: " head; false if not one. */
bool trace_uprobe_print(struct seq_buf *s, const struct trace_entry *e);
/* The %pS-style printer kprobe events use for :symbol arguments. */
int trace_sprint_sym(char *buf, size_t len, unsigned long addr);

#endif
