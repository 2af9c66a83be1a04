/* every_insn.h - a probe at every instruction of a function (tests, bench). */
#ifndef EVERY_INSN_H
#define EVERY_INSN_H

#include "kprobes.h"

/*
 * Register kps[0..], up to room of them, one at each instruction
 * boundary of the function at fn, all with the pre-handler pre: what a
 * user probing a whole function through kprobe_events does.  Returns how
 * many were registered (0 if kallsyms does not know fn).
 */
unsigned long register_kprobe_every_insn(struct kprobe *kps, unsigned long room,
					 unsigned long fn, kprobe_pre_handler_t pre);

#endif
