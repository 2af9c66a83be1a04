/*
 * watch.c - the shell's watchpoints: a wide hardware breakpoint on a
 * symbol or an address (arch/i386/hw_breakpoint.c).
 *
 *   watch jiffies w        every write of the tick counter, on every CPU
 *   watch fib x            every call of fib (an execute breakpoint)
 *   watch 0x1234a0 rw 2    reads and writes of two bytes
 *   watch                  the watchpoints, with their hit counts
 *   unwatch 0 | unwatch all
 *
 * A hit prints the accessing ip (for a write or a read it is the
 * instruction after the access: data breakpoints are traps) and the
 * watched value.  A tick counter changes 100 times a second, so each
 * watchpoint prints at most WATCH_BURST hits per second and says how
 * many it left out.
 */
#include "kernel.h"
#include "shell.h"
#include "hw_breakpoint.h"
#include "kallsyms.h"
#include <asm/ptrace.h>
#include "timer.h"
#include "smp.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "linux/err.h"

#define WATCH_BURST 5		/* hits printed per watchpoint per second */
#define WATCH_NAME_LEN 48

struct watch {
	struct hw_breakpoint *bp;	/* NULL: a free entry */
	char name[WATCH_NAME_LEN];	/* what was typed: jiffies, 0x1234a0 */
	unsigned long window_start;	/* jiffies at this second's first print */
	unsigned int printed;		/* prints in this second */
	unsigned int suppressed;	/* hits not printed since the last print */
};

/* One per slot at most: the four debug registers are the limit anyway. */
static struct watch watches[HBP_NUM];

static unsigned long watched_value(const struct hw_breakpoint *bp)
{
	switch (bp->attr.bp_len) {
	case HW_BREAKPOINT_LEN_1: return *(volatile uint8_t *)bp->attr.bp_addr;
	case HW_BREAKPOINT_LEN_2: return *(volatile uint16_t *)bp->attr.bp_addr;
	default:                  return *(volatile uint32_t *)bp->attr.bp_addr;
	}
}

/* Printk's budget: WATCH_BURST a second, the rest counted (Linux's __ratelimit()). */
static bool watch_ratelimit(struct watch *w)
{
	if (time_after(jiffies, w->window_start + HZ) || !w->window_start) {
		w->window_start = jiffies;
		w->printed = 0;
	}
	if (w->printed >= WATCH_BURST) {
		w->suppressed++;
		return false;
	}
	w->printed++;
	return true;
}

/* The triggered callback: #DB, interrupts off, DR7 off on this CPU.  One printk: one line. */
static void watch_hit(struct hw_breakpoint *bp, struct pt_regs *regs)
{
	struct watch *w = bp->context;
	char more[32] = "";

	if (!watch_ratelimit(w))
		return;
	if (w->suppressed)
		snprintf(more, sizeof(more), " (%u hit%s not shown)", w->suppressed,
			 w->suppressed == 1 ? "" : "s");
	w->suppressed = 0;
	if (bp->attr.bp_type == HW_BREAKPOINT_X)
		printk("watch %d: %s executed at %pS, CPU %d%s\n",
		       (int)(w - watches), w->name, (void *)regs->ip, smp_processor_id(), more);
	else
		printk("watch %d: %s %s by %pS, value %#lx, CPU %d%s\n",
		       (int)(w - watches), w->name,
		       bp->attr.bp_type == HW_BREAKPOINT_W ? "written" : "accessed",
		       (void *)regs->ip, watched_value(bp), smp_processor_id(), more);
}

static int parse_type(const char *s, unsigned int *type)
{
	if (!strcmp(s, "x"))
		*type = HW_BREAKPOINT_X;
	else if (!strcmp(s, "w"))
		*type = HW_BREAKPOINT_W;
	else if (!strcmp(s, "rw"))
		*type = HW_BREAKPOINT_RW;
	else
		return -EINVAL;
	return 0;
}

/* SYMBOL or a number (0x... or decimal). */
static int parse_where(const char *s, unsigned long *addr)
{
	*addr = kallsyms_lookup_name(s);
	if (*addr)
		return 0;
	return kstrtoul(s, 0, addr) ? -ENOENT : 0;
}

static void watch_list(void)
{
	int n, shown = 0;

	for (n = 0; n < HBP_NUM; n++) {
		struct hw_breakpoint *bp = watches[n].bp;

		if (!bp)
			continue;
		if (!shown++)
			sh_printf("N  type len address   slot hits  what\n");
		sh_printf("%-2d %-4s %-3u %08lx DR%d  %-5d %s\n", n,
			  hw_breakpoint_type_name(bp->attr.bp_type), bp->attr.bp_len,
			  bp->attr.bp_addr, bp->slot, atomic_read(&bp->hit_count), watches[n].name);
	}
	if (!shown)
		sh_printf("no watchpoints\n");
}

static void watch_usage(void)
{
	sh_printf("usage: watch SYMBOL|ADDR [x|w|rw] [1|2|4]   (no arguments: list)\n");
}

static struct watch *free_watch(void)
{
	for (int n = 0; n < HBP_NUM; n++)
		if (!watches[n].bp)
			return &watches[n];
	return NULL;
}

/* The arguments, as an attr: type w and length 4 unless told (x: length 1). */
static int parse_watch(int argc, char **argv, struct hw_breakpoint_attr *attr)
{
	unsigned long len;

	if (parse_where(argv[1], &attr->bp_addr)) {
		sh_printf("watch: no symbol or address '%s'\n", argv[1]);
		return -ENOENT;
	}
	attr->bp_type = HW_BREAKPOINT_W;
	if (argc > 2 && parse_type(argv[2], &attr->bp_type)) {
		sh_printf("watch: type '%s': want x, w or rw\n", argv[2]);
		return -EINVAL;
	}
	attr->bp_len = attr->bp_type == HW_BREAKPOINT_X ? HW_BREAKPOINT_LEN_1 : HW_BREAKPOINT_LEN_4;
	if (argc > 3) {
		if (kstrtoul(argv[3], 0, &len)) {
			sh_printf("watch: length '%s': want 1, 2 or 4\n", argv[3]);
			return -EINVAL;
		}
		attr->bp_len = len;
	}
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	struct hw_breakpoint_attr attr;
	struct hw_breakpoint *bp;
	struct watch *w;
	int ret;

	if (argc == 1) {
		watch_list();
		return 0;
	}
	if (argc > 4) {
		watch_usage();
		return -EINVAL;
	}
	ret = parse_watch(argc, argv, &attr);
	if (ret)
		return ret;
	w = free_watch();
	if (!w) {
		sh_printf("watch: all %d debug registers are in use\n", HBP_NUM);
		return -ENOSPC;
	}
	*w = (struct watch){};
	strlcpy(w->name, argv[1], sizeof(w->name));
	bp = register_wide_hw_breakpoint(&attr, watch_hit, w);
	if (IS_ERR(bp)) {
		ret = PTR_ERR(bp);
		sh_printf("watch: %s: %s (a length of 1, 2 or 4 at an address it divides; "
			  "x: length 1 on kernel text the kprobes blacklist allows)\n",
			  argv[1], shell_strerror(ret));
		return ret;
	}
	w->bp = bp;
	sh_printf("watch %d: %s (%08lx) %s, %u byte%s, DR%d on every CPU\n", (int)(w - watches),
		  w->name, attr.bp_addr, hw_breakpoint_type_name(attr.bp_type), attr.bp_len,
		  plural(attr.bp_len), bp->slot);
	return 0;
}

static void unwatch_one(int n)
{
	int hits = atomic_read(&watches[n].bp->hit_count);

	unregister_wide_hw_breakpoint(watches[n].bp);
	watches[n].bp = NULL;
	sh_printf("unwatch %d: %s, %d hit%s\n", n, watches[n].name, hits, plural(hits));
}

int cmd_unwatch(int argc, char **argv)
{
	unsigned long n;

	if (argc != 2) {
		sh_printf("usage: unwatch N|all\n");
		return -EINVAL;
	}
	if (!strcmp(argv[1], "all")) {
		for (n = 0; n < HBP_NUM; n++)
			if (watches[n].bp)
				unwatch_one(n);
		return 0;
	}
	if (kstrtoul(argv[1], 10, &n) || n >= HBP_NUM || !watches[n].bp) {
		sh_printf("unwatch: no watchpoint '%s' (watch lists them)\n", argv[1]);
		return -ENOENT;
	}
	unwatch_one(n);
	return 0;
}
