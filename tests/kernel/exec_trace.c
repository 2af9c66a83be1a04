/*
 * exec_trace.c - which instructions does a piece of code execute?  The
 * CPU's own answer: single-stepping with EFLAGS.TF.
 *
 * With TF set the CPU raises #DB after every instruction.  A die
 * notifier on DIE_DEBUG marks regs->ip in a bitmap of the kernel's text
 * and claims the trap (NOTIFY_STOP); the flags iret pops still have TF,
 * so the next instruction traps as well.  Interrupt gates clear TF, so
 * the timer's handler is not traced.  TF belongs to the thread: the
 * scheduler gives each thread its own back after a switch, so another
 * thread that runs meanwhile (or an idle task) is not traced, and a
 * thread created while tracing starts with its creator's TF
 * (kernel/sched.c), so it is traced too.
 *
 * This is a debugger's single-step, the same mechanism kprobes uses for
 * one instruction, used here for thousands.  The probe-everything suite
 * (probe_sweep.c) takes it as its oracle: an instruction the unprobed
 * kernel executed must be hit when it carries a probe.
 *
 * Some paths depend on state the probes themselves change: the page
 * allocator splits a different free run once slot pages are taken.  So
 * the same code can be traced several times, in different states
 * (passes), and only instructions executed in every pass count as
 * executed; the others are counted as varying.
 *
 * Only for a quiet test run: no probe may be registered while tracing
 * (kprobes' own single-steps would be taken for ours).
 */
#include "exec_trace.h"
#include <asm/kdebug.h>
#include "mm.h"
#include "errno.h"
#include "string.h"

#define BITS_PER_WORD	(8 * sizeof(unsigned long))

extern char _text[], _etext[];
unsigned long exec_trace_tf_call(unsigned long (*fn)(void));	/* exec_trace_asm.S */

static unsigned long *pass;		/* this pass: one bit per byte of _text.._etext */
static unsigned long *always;		/* executed in every pass so far */
static unsigned long *ever;		/* executed in some pass */
static size_t map_words;
static unsigned int passes;
static bool tracing;

static bool in_text(unsigned long addr)
{
	return addr >= (unsigned long)_text && addr < (unsigned long)_etext;
}

static void mark(unsigned long addr)
{
	unsigned long bit = addr - (unsigned long)_text;

	pass[bit / BITS_PER_WORD] |= 1ul << (bit % BITS_PER_WORD);
}

bool exec_trace_executed(unsigned long addr)
{
	unsigned long bit = addr - (unsigned long)_text;

	if (!passes || !in_text(addr))
		return false;
	return always[bit / BITS_PER_WORD] & (1ul << (bit % BITS_PER_WORD));
}

static unsigned long count_bits(const unsigned long *map)
{
	unsigned long n = 0;

	for (size_t i = 0; i < map_words; i++)
		n += __builtin_popcountl(map[i]);
	return n;
}

unsigned long exec_trace_count(void)
{
	return passes ? count_bits(always) : 0;
}

unsigned long exec_trace_varying(void)
{
	return passes ? count_bits(ever) - count_bits(always) : 0;
}

/*
 * The #DB after one traced instruction.  regs->ip is the *next*
 * instruction (single-step is a trap); it will run, so it is marked
 * now, and the first instruction after the popf that set TF is marked
 * by the first trap.
 */
static int exec_trace_notify(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;

	/*
	 * Not "is TF set in regs->flags": the popf that clears TF still
	 * traps after itself (the CPU looked at TF before running it).
	 */
	if (val != DIE_DEBUG || !tracing)
		return NOTIFY_DONE;
	if (in_text(args->regs->ip))
		mark(args->regs->ip);
	return NOTIFY_STOP;
}

static struct notifier_block exec_trace_nb = {
	.notifier_call = exec_trace_notify,
	.priority = 0,			/* after kprobes': its #DBs are not ours */
};

static int alloc_maps(void)
{
	map_words = ((unsigned long)(_etext - _text) + BITS_PER_WORD - 1) / BITS_PER_WORD;
	pass = kzalloc(map_words * sizeof(*pass));
	always = kzalloc(map_words * sizeof(*always));
	ever = kzalloc(map_words * sizeof(*ever));
	if (pass && always && ever)
		return 0;
	exec_trace_free();
	return -ENOMEM;
}

int exec_trace_begin(void)
{
	if (!pass && alloc_maps())
		return -ENOMEM;
	memset(pass, 0, map_words * sizeof(*pass));
	tracing = true;
	return register_die_notifier(&exec_trace_nb);
}

unsigned long exec_trace_call(unsigned long (*fn)(void))
{
	return exec_trace_tf_call(fn);
}

void exec_trace_end(void)
{
	tracing = false;
	unregister_die_notifier(&exec_trace_nb);
	for (size_t i = 0; i < map_words; i++) {
		always[i] = passes ? always[i] & pass[i] : pass[i];
		ever[i] |= pass[i];
	}
	passes++;
}

void exec_trace_free(void)
{
	kfree(pass);
	kfree(always);
	kfree(ever);
	pass = always = ever = NULL;
	passes = 0;
}
