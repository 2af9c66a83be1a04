/*
 * step_design.c (arch/i386) - how a stepped hit ends: an int3 after the
 * copy, or EFLAGS.TF.
 *
 *   kprobes.step=int3    (the default, as Linux 6.1)
 *   kprobes.step=tf      (2005's design, Linux's until the 5.x series)
 *   echo tf > /sys/kernel/debug/kprobes/step
 *
 * Both run the copy of the probed instruction in its slot with IF
 * clear.  With TF the CPU raises #DB after that one instruction, and the
 * #DB handler fixes up and runs the post-handler (core.c, "#DB: the end
 * of a step with TF").  With int3 the copy is followed by an int3 in the
 * slot; the second #BP does that work (core.c, "the second #BP").  Why
 * Linux moved is docs/kprobes.md's "Two ways to end a step".
 *
 * The design is the hit's bottom layer (core.c, kprobe_step_hit_ops()),
 * but it is also decided at registration: stepped with int3, a probe on
 * a branch is emulated whatever the emulate switch says, one on an
 * instruction emulate.c cannot compute is refused, and a boostable one
 * gets a second slot for its boosted copy (arch_prepare_kprobe()).  A
 * probe prepared for one design cannot be hit in the other, and
 * re-preparing registered probes would mean new slots while other CPUs
 * may be stepping the old ones.  So the switch is refused with -EBUSY
 * while any kprobe is registered; with none, no hit can be in progress
 * (unregistering waited for them), and the layer changes at once.
 */
#include "kernel.h"
#include "kprobes.h"
#include "kprobes_stepmode.h"
#include "seq_buf.h"
#include "string.h"
#include "errno.h"

#define STEP_PARAM		"kprobes.step"
#define STEP_WORD_LEN		16

enum kprobe_step_design kprobe_step_design = KPROBE_SS_INT3;

static const char *const step_design_names[NR_KPROBE_SS] = {
	[KPROBE_SS_INT3] = "int3",
	[KPROBE_SS_TF] = "tf",
};

const char *kprobe_step_design_name(enum kprobe_step_design design)
{
	return design < NR_KPROBE_SS ? step_design_names[design] : "?";
}

static int parse_step_design(const char *word, size_t len, enum kprobe_step_design *design)
{
	for (int d = 0; d < NR_KPROBE_SS; d++)
		if (strlen(step_design_names[d]) == len &&
		    memcmp(word, step_design_names[d], len) == 0) {
			*design = d;
			return 0;
		}
	return -EINVAL;
}

/*
 * Under kprobe_mutex: no probe registers meanwhile.  Stepping in place
 * (kprobes.stepmode=inline) owns the step layer while it is on and
 * always ends its steps with TF; leaving it installs this design's
 * layer (stepmode.c).
 */
int kprobe_set_step_design(enum kprobe_step_design design)
{
	int ret = 0;

	if (design >= NR_KPROBE_SS)
		return -EINVAL;
	kprobe_mutex_lock();
	if (design == kprobe_step_design)
		goto out;
	if (kprobes_nr_registered()) {
		ret = -EBUSY;	/* their slots were prepared for the other design */
		goto out;
	}
	WRITE_ONCE(kprobe_step_design, design);
	if (READ_ONCE(kprobe_stepmode) != KPROBE_STEP_INLINE)
		kprobe_set_hit_layer(KPROBE_HIT_STEP, kprobe_step_hit_ops(design));
out:
	kprobe_mutex_unlock();
	return ret;
}

/* kprobes.step=int3 or =tf; a bad word is reported and int3 stays. */
int kprobe_step_design_setup(void)
{
	char word[STEP_WORD_LEN];
	enum kprobe_step_design design;

	if (!cmdline_value(STEP_PARAM, word, sizeof(word)))
		return 0;
	if (parse_step_design(word, strlen(word), &design)) {
		printk("kprobes: %s=%s: want int3 or tf; int3 it is\n", STEP_PARAM, word);
		return -EINVAL;
	}
	return kprobe_set_step_design(design);
}

/* /sys/kernel/debug/kprobes/step: the design, and what a stepped hit takes. */
int kprobe_step_design_show(struct seq_buf *s, void *data)
{
	enum kprobe_step_design design = READ_ONCE(kprobe_step_design);

	seq_buf_printf(s, "%s\n", kprobe_step_design_name(design));
	return 0;
}

/* "int3" or "tf", with or without echo's newline. */
int kprobe_step_design_write(const char *text, size_t len, bool trunc, void *data)
{
	enum kprobe_step_design design;

	if (len && text[len - 1] == '\n')
		len--;
	if (parse_step_design(text, len, &design))
		return -EINVAL;
	return kprobe_set_step_design(design);
}
