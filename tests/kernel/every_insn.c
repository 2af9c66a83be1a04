/*
 * every_insn.c - a probe at every instruction of a function.
 *
 * The optimizer suite and the bench both probe whole functions the way
 * the user did: the decoder walks the function from its kallsyms
 * start and each boundary gets a probe.
 */
#include "kernel.h"
#include "kallsyms.h"
#include "every_insn.h"

unsigned long register_kprobe_every_insn(struct kprobe *kps, unsigned long room,
					 unsigned long fn, kprobe_pre_handler_t pre)
{
	unsigned long size, off, ip, n = 0;
	struct insn insn;

	if (!fn || !kallsyms_lookup(fn, &size, &off))
		return 0;
	for (ip = fn; ip < fn + size && n < room; ip += insn.length) {
		if (insn_decode(&insn, (const void *)ip, INSN_MAX_LEN) <= 0)
			break;
		kps[n].addr = (kprobe_opcode_t *)ip;
		kps[n].pre_handler = pre;
		n += register_kprobe(&kps[n]) == 0;
	}
	return n;
}
