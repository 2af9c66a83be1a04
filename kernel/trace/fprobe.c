/*
 * fprobe.c - one callback on many functions (Linux 5.18+'s
 * kernel/trace/fprobe.c; include/fprobe.h tells the story).  Built
 * without -pg, as all of kernel/trace.
 */
#include "kernel.h"
#include "string.h"
#include "errno.h"
#include "mm.h"
#include "smp.h"
#include "fprobe.h"
#include "rethook.h"
#include "nokprobe.h"

struct fprobe_rethook_node {
	struct rethook_node node;
	unsigned long entry_ip;
};

static void fprobe_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct fprobe *fp = container_of(ops, struct fprobe, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct rethook_node *node;

	if (fprobe_disabled(fp))
		return;
	if (fp->entry_handler)
		fp->entry_handler(fp, ip, regs);
	if (!fp->exit_handler)
		return;
	node = rethook_try_get(fp->rethook);
	if (!node) {
		fp->nmissed++;
		return;
	}
	container_of(node, struct fprobe_rethook_node, node)->entry_ip = ip;
	rethook_hook(node, regs, true);
}
NOKPROBE_SYMBOL(fprobe_handler);

static void fprobe_exit_handler(struct rethook_node *node, void *data, struct pt_regs *regs)
{
	struct fprobe *fp = data;
	int bit;

	if (fprobe_disabled(fp))
		return;
	bit = ftrace_test_recursion_trylock();	/* what the handler calls is not probed */
	if (bit < 0) {
		fp->nmissed++;
		return;
	}
	fp->exit_handler(fp, container_of(node, struct fprobe_rethook_node, node)->entry_ip, regs);
	ftrace_test_recursion_unlock(bit);
}
NOKPROBE_SYMBOL(fprobe_exit_handler);

/* The nodes for the calls in flight at once: 2 per function per CPU by default. */
static int fprobe_init_rethook(struct fprobe *fp, int num)
{
	int size = fp->nr_maxactive ? fp->nr_maxactive : num * (int)num_online_cpus() * 2;

	fp->rethook = NULL;
	if (!fp->exit_handler)
		return 0;
	fp->rethook = rethook_alloc(fp, fprobe_exit_handler);
	if (!fp->rethook)
		return -ENOMEM;
	for (int i = 0; i < size; i++) {
		struct fprobe_rethook_node *n = kzalloc(sizeof(*n));

		if (!n) {
			rethook_free(fp->rethook);
			fp->rethook = NULL;
			return -ENOMEM;
		}
		rethook_add_node(fp->rethook, &n->node);
	}
	return 0;
}

/* The functions fp will be on: the filter's, minus the notfilter's. */
static int fprobe_nr_sites(struct fprobe *fp)
{
	const struct ftrace_hash *h = fp->ops.filter_hash;
	int num = 0;

	for (int i = 0; h && i < h->count; i++)
		num += ftrace_ops_test(&fp->ops, h->ips[i]);
	return num;
}

static int fprobe_register_ops(struct fprobe *fp)
{
	int num = fprobe_nr_sites(fp);
	int ret;

	if (!num)
		return -EINVAL;		/* an empty filter would mean every function */
	ret = fprobe_init_rethook(fp, num);
	if (!ret)
		ret = register_ftrace_function(&fp->ops);
	if (ret && fp->rethook) {
		rethook_free(fp->rethook);
		fp->rethook = NULL;
	}
	return ret;
}

static void fprobe_init(struct fprobe *fp)
{
	fp->nmissed = 0;
	fp->ops = (struct ftrace_ops){
		.func = fprobe_handler,
		.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_RECURSION,
	};
}

/*
 * filter: globs of the functions (whitespace-separated, as
 * set_ftrace_filter); notfilter (or NULL): the ones to leave out.
 * -EINVAL if a glob matches no traceable function, or none is left.
 */
int register_fprobe(struct fprobe *fp, const char *filter, const char *notfilter)
{
	int ret;

	if (!fp || !filter)
		return -EINVAL;
	fprobe_init(fp);
	ret = ftrace_set_filter(&fp->ops, filter, strlen(filter), 1);
	if (!ret && notfilter)
		ret = ftrace_set_notrace(&fp->ops, notfilter, strlen(notfilter), 1);
	if (!ret)
		ret = fprobe_register_ops(fp);
	if (ret)
		ftrace_free_filter(&fp->ops);
	return ret;
}

/* The functions by their call sites' addresses. */
int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num)
{
	int ret = 0;

	if (!fp || !addrs || num <= 0)
		return -EINVAL;
	fprobe_init(fp);
	for (int i = 0; i < num && !ret; i++)
		ret = ftrace_set_filter_ip(&fp->ops, addrs[i], 0, 0);
	if (!ret)
		ret = fprobe_register_ops(fp);
	if (ret)
		ftrace_free_filter(&fp->ops);
	return ret;
}

int unregister_fprobe(struct fprobe *fp)
{
	int ret;

	if (!fp || fp->ops.func != fprobe_handler)
		return -EINVAL;
	ret = unregister_ftrace_function(&fp->ops);
	if (ret)
		return ret;
	if (fp->rethook)
		rethook_free(fp->rethook);	/* returns in flight free their own node */
	fp->rethook = NULL;
	ftrace_free_filter(&fp->ops);
	return 0;
}
