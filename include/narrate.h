/*
 * narrate.h - narrated probe hits: the int3 / single-step dance told
 * step by step on the console, for students watching one hit.
 *
 *   echo 1 > /sys/kernel/debug/kprobes/narrate
 *
 * makes the next hit of each probe print what the CPU and kprobes do at
 * every step.  The hit path calls narrate(...) at each step; while no hit
 * is being narrated that costs one test of a global.
 */
#ifndef NARRATE_H
#define NARRATE_H

#include <stdbool.h>
#include "kernel.h"

struct kprobe;

extern bool kprobes_narrate;	/* the debugfs switch */
extern bool kprobe_narrating;	/* the hit in progress is being told */

void kprobes_narrate_set(bool on);
/* At the int3: should this hit of p be narrated?  Sets kprobe_narrating. */
bool kprobe_narrate_begin(struct kprobe *p);
/* After the last step (the iret back into the probed function). */
void kprobe_narrate_end(void);

#define narrate(...) do {						\
	if (kprobe_narrating)						\
		printk("  narrate: " __VA_ARGS__);			\
} while (0)

#endif
