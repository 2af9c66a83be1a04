/*
 * module.c - load and unload modules: insmod, rmmod, lsmod.
 *
 * load_module() is the whole story of insmod, one step per line; the
 * ELF work is in lib/module_elf.c.  Safety rules the loader keeps:
 *
 *   - A bad file never faults the kernel and leaks nothing: the whole
 *     file is checked (elf_check_module) before the first allocation,
 *     and every later error path goes through free_module(), which
 *     undoes everything.
 *   - Module code is read-only once relocated, like the kernel's; later
 *     changes (kprobes' int3s) go through text_poke().
 *   - rmmod never frees memory something still points at: a module in
 *     use (refcount, a dependent module, a probe hit running its
 *     handler, a thread executing its code) is refused with -EBUSY, and
 *     probes the module registered and forgot to unregister are
 *     unregistered here, with a warning, before the memory goes; other
 *     owners' probes on its code are disarmed and marked [GONE].
 *
 * Locking: modules are loaded and unloaded from one thread at a time
 * (the shell, the tests, boot), with preemption disabled while the
 * module list changes; kallsyms readers run in any context and only
 * walk the list, which is changed with interrupts off.
 */
#include "kernel.h"
#include "module.h"
#include "ftrace.h"
#include "kprobes.h"
#include "kprobes_internal.h"
#include "kallsyms.h"
#include "multiboot.h"
#include "mm.h"
#include "sched.h"
#include <asm/irqflags.h>
#include "smp.h"
#include "spinlock.h"
#include "errno.h"
#include "string.h"
#include "vsprintf.h"
#include "nokprobe.h"
#include "trace.h"
#include "vermagic.h"

#define MODULE_FREE_POISON	0xcc	/* int3 */

static LIST_HEAD(modules);
static unsigned int module_count;
static char last_error[192];

/* ---- errors ------------------------------------------------------------ */

/* Print "name: message" and keep it for module_last_error(); return err. */
static int __printf(3, 4) module_error(const char *name, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(last_error, sizeof(last_error), "%s: ", name);
	va_start(ap, fmt);
	vsnprintf(last_error + n, sizeof(last_error) - n, fmt, ap);
	va_end(ap);
	printk("module %s\n", last_error);
	return err;
}

/* A step of lib/module_elf.c failed: its message says why. */
static int module_elf_error(const struct load_info *info, int err)
{
	return module_error(info->name, err, "%s", info->error);
}

/* ---- the ABI the module was built for: its vermagic ------------------------ */

#define VERMAGIC_TAG	"vermagic="

/* Is section s named name?  Bounded: the name table comes from the file. */
static bool section_named(const struct load_info *info, const Elf32_Shdr *s,
			  const char *name)
{
	size_t len = strlen(name) + 1;

	return s->sh_name < info->secstrings_size &&
	       info->secstrings_size - s->sh_name >= len &&
	       memcmp(info->secstrings + s->sh_name, name, len) == 0;
}

/*
 * The value of the "vermagic=" string in the file's .modinfo, or NULL;
 * its length in *len (the strings are NUL-separated, the last one
 * perhaps not terminated).  Read from the file, before anything of the
 * module is laid out or linked, as Linux's check_modinfo() does.
 */
static const char *module_vermagic(const struct load_info *info, size_t *len)
{
	size_t tag = strlen(VERMAGIC_TAG);

	for (unsigned int i = 1; i < info->shnum; i++) {
		const Elf32_Shdr *s = &info->sechdrs[i];
		const char *p, *end;

		if (!section_named(info, s, ".modinfo") || s->sh_type == SHT_NOBITS ||
		    !elf_in_file(info, s->sh_offset, s->sh_size))
			continue;
		p = (const char *)info->image + s->sh_offset;
		for (end = p + s->sh_size; p < end; p += *len + 1) {
			*len = strnlen(p, end - p);
			if (*len >= tag && !strncmp(p, VERMAGIC_TAG, tag)) {
				*len -= tag;
				return p + tag;
			}
		}
	}
	return NULL;
}

/*
 * Refuse a module built for another ABI: above all one compiled without
 * -mregparm=3, which would read every argument the kernel passes it in
 * registers from the stack instead (include/vermagic.h).
 */
static int check_vermagic(const struct load_info *info)
{
	size_t len;
	const char *magic = module_vermagic(info, &len);

	if (!magic)
		return module_error(info->name, -ENOEXEC, "no version magic: not built "
				    "with this kernel's headers and flags (docs/modules.md)");
	if (len != strlen(VERMAGIC_STRING) || strncmp(magic, VERMAGIC_STRING, len))
		return module_error(info->name, -ENOEXEC, "version magic '%.*s' should be "
				    "'%s': built for another calling convention or CPU",
				    (int)len, magic, VERMAGIC_STRING);
	return 0;
}

const char *module_last_error(void)
{
	return last_error;
}

/* ---- the list ------------------------------------------------------------- */

struct module *find_module(const char *name)
{
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		if (strcmp(mod->name, name) == 0)
			return mod;
	return NULL;
}

unsigned int nr_modules(void)
{
	return module_count;
}

static bool within(unsigned long addr, const void *start, unsigned long size)
{
	return addr - (unsigned long)start < size;
}
NOKPROBE_SYMBOL(within);

/* Called from kallsyms and kernel_text_address(), even inside a probe hit. */
struct module *__module_address(unsigned long addr)
{
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		if (within(addr, mod->base, mod->npages * PAGE_SIZE))
			return mod;
	return NULL;
}
NOKPROBE_SYMBOL(__module_address);

bool is_module_text_address(unsigned long addr)
{
	struct module *mod = __module_address(addr);

	return mod && within(addr, mod->base, mod->text_size);
}
NOKPROBE_SYMBOL(is_module_text_address);

/*
 * Changes to the list take module_list_lock.  Lookups by address
 * (__module_address(), from backtraces and probe handlers, in any
 * context) walk it without the lock: a module is linked only once it
 * is complete, and freed only after it is unlinked.
 */
static DEFINE_SPINLOCK(module_list_lock);

static void list_add_module(struct module *mod)
{
	unsigned long flags;

	spin_lock_irqsave(&module_list_lock, flags);
	list_add_tail(&mod->list, &modules);
	module_count++;
	spin_unlock_irqrestore(&module_list_lock, flags);
}

static void list_del_module(struct module *mod)
{
	unsigned long flags;

	spin_lock_irqsave(&module_list_lock, flags);
	list_del(&mod->list);
	module_count--;
	spin_unlock_irqrestore(&module_list_lock, flags);
}

/* ---- reference counts ------------------------------------------------------ */

bool try_module_get(struct module *mod)
{
	if (!mod)
		return true;		/* the kernel itself never goes away */
	if (mod->state == MODULE_STATE_GOING)
		return false;
	mod->refcnt++;
	return true;
}

void module_put(struct module *mod)
{
	if (mod && mod->refcnt > 0)
		mod->refcnt--;
}

/* Remember that mod uses dep's exports: dep cannot go before mod. */
static int add_module_usage(struct module *mod, struct module *dep)
{
	for (int i = 0; i < mod->nr_uses; i++)
		if (mod->uses[i] == dep)
			return 0;
	if (mod->nr_uses == MAX_MODULE_DEPS)
		return -ENOMEM;
	mod->uses[mod->nr_uses++] = dep;
	dep->refcnt++;
	return 0;
}

/* ---- symbols: exports for linking, names for kallsyms ---------------------- */

static const struct kernel_symbol *find_ksym(const struct kernel_symbol *start,
					     const struct kernel_symbol *stop,
					     const char *name)
{
	for (const struct kernel_symbol *ks = start; ks < stop; ks++)
		if (strcmp(ks->name, name) == 0)
			return ks;
	return NULL;
}

/* The kernel's exports first, then those of live modules (elf_resolve_fn). */
static uint32_t resolve_symbol(void *ctx, const char *name, int *err)
{
	struct module *mod = ctx;
	const struct kernel_symbol *ks;
	struct module *other;

	if (strcmp(name, "__this_module") == 0)	/* THIS_MODULE */
		return (uint32_t)(unsigned long)mod;
	ks = find_ksym(__start_ksymtab, __stop_ksymtab, name);
	if (ks)
		return ks->value;
	list_for_each_entry(other, &modules, list) {
		if (other == mod || other->state != MODULE_STATE_LIVE)
			continue;
		ks = find_ksym(other->ksyms, other->ksyms + other->nksyms, name);
		if (ks) {
			*err = add_module_usage(mod, other);
			return ks->value;
		}
	}
	*err = -ENOENT;
	return 0;
}

unsigned long module_symbol_address(const struct module *mod, const char *name)
{
	for (unsigned int i = 0; i < mod->nsyms; i++)
		if (strcmp(mod->syms[i].name, name) == 0)
			return mod->syms[i].addr;
	return 0;
}

const char *module_address_lookup(unsigned long addr, unsigned long *size,
				  unsigned long *offset, const char **modname)
{
	struct module *mod = __module_address(addr);

	if (!mod)
		return NULL;
	for (unsigned int i = 0; i < mod->nsyms; i++) {
		const struct module_symbol *s = &mod->syms[i];

		if (within(addr, (void *)s->addr, s->size)) {
			if (size)
				*size = s->size;
			if (offset)
				*offset = addr - s->addr;
			if (modname)
				*modname = mod->name;
			return s->name;
		}
	}
	return NULL;
}
NOKPROBE_SYMBOL(module_address_lookup);

/*
 * "MOD:SYM" names SYM of module MOD only, Linux's form (kprobe_events'
 * [MOD:]SYM): the same name may be in several modules.
 */
unsigned long module_kallsyms_lookup_name(const char *name)
{
	const char *colon = strchr(name, ':');
	struct module *mod;
	unsigned long addr;

	if (colon) {
		list_for_each_entry(mod, &modules, list)
			if (strlen(mod->name) == (size_t)(colon - name) &&
			    strncmp(mod->name, name, colon - name) == 0)
				return module_symbol_address(mod, colon + 1);
		return 0;
	}
	list_for_each_entry(mod, &modules, list) {
		addr = module_symbol_address(mod, name);
		if (addr)
			return addr;
	}
	return 0;
}

int module_kallsyms_on_each_symbol(int (*fn)(void *data, const char *name,
					     unsigned long addr,
					     unsigned long size),
				   void *data)
{
	struct module *mod;
	int ret;

	list_for_each_entry(mod, &modules, list) {
		for (unsigned int i = 0; i < mod->nsyms; i++) {
			ret = fn(data, mod->syms[i].name, mod->syms[i].addr,
				 mod->syms[i].size);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ---- module memory ---------------------------------------------------------- */

static void set_pages_writable(void *start, unsigned long size, bool writable)
{
	for (unsigned long a = (unsigned long)start;
	     a < (unsigned long)start + size; a += PAGE_SIZE) {
		unsigned long *pte = lookup_pte(a);

		if (writable)
			*pte |= PTE_WRITE;
		else
			*pte &= ~PTE_WRITE;
	}
	flush_tlb_kernel_range((unsigned long)start, (unsigned long)start + size);
}

/* Undo everything load_module() did; safe at any stage of it. */
void free_module(struct module *mod)
{
	for (int i = 0; i < mod->nr_uses; i++)
		module_put(mod->uses[i]);
	ftrace_release_mod(mod);	/* its sites leave ftrace's table before its text goes */
	if (mod->base) {
		/* The page allocator zeroes pages it hands out: give them back writable. */
		set_pages_writable(mod->base, mod->ro_size, true);
		/*
		 * Poisoned with int3s: a CPU that still ran the module's code
		 * (a hit rmmod failed to wait for) traps on an int3 nobody
		 * owns and oopses, instead of running whatever comes next.
		 */
		memset(mod->base, MODULE_FREE_POISON, mod->npages * PAGE_SIZE);
		free_pages(mod->base, mod->npages);
	}
	kfree(mod->syms);
	kfree(mod->symnames);
	kfree(mod->args);
	kfree(mod);
}

/* ---- probes a module leaves behind ------------------------------------------- */

/* Is this probe mod's: its struct or a handler lives in the module? */
static bool probe_owned_by_module(const struct kprobe *p, const struct module *mod)
{
	const unsigned long size = mod->npages * PAGE_SIZE;

	/* A jprobe's or kretprobe's own handlers hang off the wrapper. */
	if (p->pre_handler == setjmp_pre_handler &&
	    within((unsigned long)container_of(p, struct jprobe, kp)->entry,
		   mod->base, size))
		return true;
	if (kprobe_is_kretprobe(p)) {
		const struct kretprobe *rp = container_of(p, struct kretprobe, kp);

		if (within((unsigned long)rp->handler, mod->base, size) ||
		    within((unsigned long)rp->entry_handler, mod->base, size))
			return true;
	}
	return within((unsigned long)p, mod->base, size) ||
	       within((unsigned long)p->pre_handler, mod->base, size) ||
	       within((unsigned long)p->post_handler, mod->base, size) ||
	       within((unsigned long)p->fault_handler, mod->base, size) ||
	       within((unsigned long)p->break_handler, mod->base, size);
}

/* Does this probe point into mod: its struct, a handler, or the probed code? */
static bool probe_uses_module(const struct kprobe *p, const struct module *mod)
{
	return probe_owned_by_module(p, mod) ||
	       within((unsigned long)p->addr, mod->base, mod->npages * PAGE_SIZE);
}

struct probe_search {
	const struct module *mod;
	struct kprobe *found;
};

static int match_module_probe(struct kprobe *p, void *data)
{
	struct probe_search *ps = data;

	if (!probe_uses_module(p, ps->mod))
		return 0;
	ps->found = p;
	return 1;
}

/* Unregister p the way its owner should have (a kprobe, jprobe or kretprobe). */
static void unregister_any_kprobe(struct kprobe *p)
{
	if (kprobe_is_kretprobe(p))
		unregister_kretprobe(container_of(p, struct kretprobe, kp));
	else if (p->pre_handler == setjmp_pre_handler)
		unregister_jprobe(container_of(p, struct jprobe, kp));
	else
		unregister_kprobe(p);
}

/*
 * So that no int3 is left pointing at freed handlers, no probe in the
 * hash table lives in freed memory, and no int3 sits in freed text.  A
 * probe the module owns and forgot is unregistered, with a warning.  A
 * probe someone else owns on the module's code is killed instead, as
 * Linux does: its byte goes back now, while the text still exists, and
 * it stays registered, listed [GONE], until its owner unregisters it.
 * One at a time: the iterator holds the registration lock, and
 * unregistering takes it too.
 */
static void unregister_forgotten_probes(struct module *mod)
{
	struct probe_search ps = { .mod = mod };
	char sym[96];

	for (;;) {
		ps.found = NULL;
		kprobes_for_each(match_module_probe, &ps);
		if (!ps.found)
			break;
		sprint_symbol(sym, sizeof(sym), (unsigned long)ps.found->addr);
		if (!probe_owned_by_module(ps.found, mod)) {
			printk("module %s: kprobe at %s is gone with the module\n",
			       mod->name, sym);
			kill_kprobe(ps.found);
			continue;
		}
		printk("module %s: WARNING: kprobe at %s was not unregistered; "
		       "unregistering it\n", mod->name, sym);
		unregister_any_kprobe(ps.found);
	}
}

/* ---- in use? -------------------------------------------------------------------- */

struct stack_search {
	const struct module *mod;
	struct task_struct *found;
};

/*
 * A thread that sleeps with module code on its stack (it runs a module
 * function, or was called back from one) would return into freed
 * memory.  Scan each other thread's live stack for words pointing into
 * the module's text; conservative, so stale words can only make rmmod
 * refuse, never unload too early.
 */
static void scan_task_stack(struct task_struct *t, void *arg)
{
	struct stack_search *ss = arg;

	/*
	 * A thread running on another CPU has no saved stack to scan: its
	 * t->esp is where it last switched, and the words above it are its
	 * live frames mixed with stale ones.  module_busy() asks
	 * kprobes_text_busy() about those threads instead (exact, with the
	 * other CPUs stopped for the look).
	 */
	if (t == current || t->state == TASK_DEAD || READ_ONCE(t->on_cpu) || ss->found)
		return;
	for (unsigned long *w = (unsigned long *)t->esp;
	     (unsigned long)w < task_stack_top(t); w++) {
		if (within(*w, ss->mod->base, ss->mod->text_size)) {
			ss->found = t;
			return;
		}
	}
}

/* The thread calling rmmod: only the real call chain counts. */
static bool current_runs_module(const struct module *mod)
{
	unsigned long trace[32];
	int n = save_stack_trace_bp((unsigned long)__builtin_frame_address(0),
				    trace, ARRAY_SIZE(trace));

	for (int i = 0; i < n; i++)
		if (within(trace[i], mod->base, mod->text_size))
			return true;
	return false;
}

static int module_busy(struct module *mod)
{
	struct stack_search ss = { .mod = mod };
	struct kprobe *running = kprobe_running();

	if (mod->state != MODULE_STATE_LIVE)
		return -EBUSY;
	if (mod->refcnt)
		return printk("rmmod %s: in use (%d users)\n", mod->name,
			      mod->refcnt), -EBUSY;
	if (!mod->exit)
		return printk("rmmod %s: no module_exit(), cannot be unloaded\n",
			      mod->name), -EBUSY;
	if ((running && probe_uses_module(running, mod)) || current_runs_module(mod))
		return printk("rmmod %s: its code is running\n", mod->name), -EBUSY;
	for_each_task(scan_task_stack, &ss);
	if (ss.found)
		return printk("rmmod %s: thread %s is running its code\n",
			      mod->name, task_name(ss.found)), -EBUSY;
	if (irqs_disabled() && num_online_cpus() > 1)	/* the look below needs the others' IPIs */
		return printk("rmmod %s: cannot look at the other CPUs with interrupts off\n",
			      mod->name), -EBUSY;
	if (kprobes_text_busy((unsigned long)mod->base,
			      (unsigned long)mod->base + mod->text_size))
		return printk("rmmod %s: a running thread is in its code\n",
			      mod->name), -EBUSY;
	return 0;
}

/* ---- load ------------------------------------------------------------------------- */

/* The module's functions and variables, copied out for kallsyms. */
static int module_kallsyms(struct load_info *info, struct module *mod)
{
	unsigned int n;
	size_t names = elf_kallsyms_size(info, &n);

	if (n == 0)
		return 0;
	mod->syms = kmalloc(n * sizeof(*mod->syms));
	mod->symnames = kmalloc(names);
	if (!mod->syms || !mod->symnames)
		return module_error(info->name, -ENOMEM, "out of memory");
	elf_kallsyms_fill(info, mod->syms, mod->symnames);
	mod->nsyms = n;
	return 0;
}

/* lib/module_elf.c reads __ksymtab entries as two 32-bit words. */
_Static_assert(sizeof(struct kernel_symbol) == MODULE_KSYM_ENTRY_SIZE,
	       "__ksymtab entry layout");

/* After relocation: what the module exports, its init and exit. */
static int find_module_entry_points(struct load_info *info, struct module *mod)
{
	uint32_t off, count;
	int ret = elf_check_exports(info, &off, &count);

	if (ret)
		return module_elf_error(info, ret);
	mod->ksyms = count ? (const void *)((char *)mod->base + off) : NULL;
	mod->nksyms = count;
	mod->init = (void *)info->symval[info->init_sym];
	mod->exit = info->exit_sym ? (void *)info->symval[info->exit_sym] : NULL;
	return 0;
}

/* Is [addr, addr + len) inside mod's memory? */
static bool module_contains(const struct module *mod, unsigned long addr,
			    unsigned long len)
{
	return within(addr, mod->base, mod->size) && len <= mod->size &&
	       addr - (unsigned long)mod->base <= mod->size - len;
}

/* A NUL-terminated string inside mod's memory? */
static bool module_string(const struct module *mod, unsigned long addr)
{
	if (!module_contains(mod, addr, 1))
		return false;
	return strnlen((const char *)addr, (unsigned long)mod->base + mod->size - addr) <
	       (unsigned long)mod->base + mod->size - addr;
}

/* The kernel's parsers module_param() may name (include/moduleparam.h). */
static const struct kernel_param_ops *const kernel_param_ops[] = {
	&param_ops_byte, &param_ops_short, &param_ops_ushort, &param_ops_int,
	&param_ops_uint, &param_ops_long, &param_ops_ulong, &param_ops_hexint,
	&param_ops_bool, &param_ops_invbool, &param_ops_charp, &param_ops_string,
};

static bool known_param_ops(const struct module *mod, const struct kernel_param_ops *ops)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(kernel_param_ops); i++)
		if (ops == kernel_param_ops[i])
			return true;
	/* module_param_cb() with the module's own ops. */
	return module_contains(mod, (unsigned long)ops, sizeof(*ops));
}

/*
 * The __param section: one struct kernel_param per module_param().  The
 * kernel will call ops->set() with arg, so every pointer is checked to
 * lead where module_param() would have put it.
 */
static int find_module_params(struct load_info *info, struct module *mod)
{
	uint32_t off, size;
	const struct kernel_param *kp;

	if (!elf_find_section(info, "__param", &off, &size))
		return 0;
	if (size % sizeof(*kp))
		return module_error(info->name, -ENOEXEC, "__param: sh_size %u is not "
				    "a whole number of entries", size);
	kp = (const void *)((char *)mod->base + off);
	for (unsigned int i = 0; i < size / sizeof(*kp); i++) {
		if (!module_string(mod, (unsigned long)kp[i].name) ||
		    !module_contains(mod, (unsigned long)kp[i].arg, 1) ||
		    !known_param_ops(mod, kp[i].ops))
			return module_error(info->name, -ENOEXEC, "__param entry %u: "
					    "name, ops or variable outside the module", i);
	}
	mod->kp = kp;
	mod->num_kp = size / sizeof(*kp);
	return 0;
}

/*
 * Its "call __fentry__" sites, gcc's __mcount_loc (relocated: addresses).
 * ftrace reads and rewrites 5 bytes at each: every one must lie whole
 * in the module's text.
 */
static int find_module_ftrace_callsites(struct load_info *info, struct module *mod)
{
	unsigned long text = (unsigned long)mod->base, *sites;
	uint32_t off, size;

	if (!elf_find_section(info, "__mcount_loc", &off, &size))
		return 0;
	if (size % sizeof(unsigned long))
		return module_error(info->name, -ENOEXEC, "__mcount_loc: %u bytes, "
				    "not a whole number of addresses", size);
	sites = (void *)((char *)mod->base + off);
	for (unsigned int i = 0; i < size / sizeof(unsigned long); i++)
		if (sites[i] < text || sites[i] + MCOUNT_INSN_SIZE > text + mod->text_size)
			return module_error(info->name, -ENOEXEC, "__mcount_loc entry %u "
					    "(%#lx) is not in its text", i, sites[i]);
	mod->ftrace_callsites = sites;
	mod->num_ftrace_callsites = size / sizeof(unsigned long);
	return 0;
}

/*
 * NOKPROBE_SYMBOL() in a module leaves addresses in _kprobe_blacklist;
 * __kprobes functions go to .kprobes.text.  Linux adds both to the
 * kprobes blacklist when the module comes, before its init can register
 * a probe, and takes them off when it goes.
 */
static int find_module_kprobe_blacklist(struct load_info *info, struct module *mod)
{
	uint32_t off, size;

	if (elf_find_section(info, "_kprobe_blacklist", &off, &size)) {
		if (size % sizeof(unsigned long))
			return module_error(info->name, -ENOEXEC, "_kprobe_blacklist: "
					    "sh_size %u is not a whole number of entries", size);
		mod->kprobe_blacklist = (void *)((char *)mod->base + off);
		mod->num_kprobe_blacklist = size / sizeof(unsigned long);
		for (unsigned int i = 0; i < mod->num_kprobe_blacklist; i++)
			if (!within(mod->kprobe_blacklist[i], mod->base, mod->text_size))
				return module_error(info->name, -ENOEXEC, "_kprobe_blacklist "
						    "entry %u: %#lx is not in the module's code",
						    i, mod->kprobe_blacklist[i]);
	}
	if (elf_find_section(info, ".kprobes.text", &off, &size)) {
		mod->kprobes_text_start = (unsigned long)mod->base + off;
		mod->kprobes_text_size = size;
	}
	return 0;
}

/* The file is checked: give it memory, copy, link.  Nothing runs yet. */
static int link_module(struct load_info *info, struct module *mod)
{
	int ret;

	info->secoff = kzalloc(info->shnum * sizeof(*info->secoff));
	info->symval = kzalloc(info->nsyms * sizeof(*info->symval));
	if (!info->secoff || !info->symval)
		return module_error(info->name, -ENOMEM, "out of memory");
	elf_layout(info);
	mod->npages = ALIGN_UP(info->size, PAGE_SIZE) / PAGE_SIZE;
	mod->base = alloc_pages(mod->npages);
	if (!mod->base)
		return module_error(info->name, -ENOMEM, "no memory for %u pages",
				    mod->npages);
	mod->text_size = info->text_size;
	mod->ro_size = info->ro_size;
	mod->size = info->size;
	elf_place_sections(info, mod->base, (uint32_t)(unsigned long)mod->base);

	ret = elf_resolve_symbols(info, resolve_symbol, mod);
	if (ret)
		return module_elf_error(info, ret);
	elf_apply_relocations(info);
	ret = module_kallsyms(info, mod);
	if (!ret)
		ret = find_module_entry_points(info, mod);
	if (!ret)
		ret = find_module_params(info, mod);
	if (!ret)
		ret = find_module_kprobe_blacklist(info, mod);
	if (!ret)
		ret = find_module_ftrace_callsites(info, mod);
	return ret;
}

static int add_module_kprobe_blacklist(struct module *mod)
{
	int ret = 0;

	for (unsigned int i = 0; i < mod->num_kprobe_blacklist && !ret; i++)
		ret = kprobe_add_ksym_blacklist(mod->kprobe_blacklist[i]);
	if (!ret && mod->kprobes_text_size)
		ret = kprobe_add_area_blacklist(mod->kprobes_text_start,
						mod->kprobes_text_start +
						mod->kprobes_text_size);
	return ret;
}

static void remove_module_kprobe_blacklist(struct module *mod)
{
	kprobe_remove_area_blacklist((unsigned long)mod->base,
				     (unsigned long)mod->base + mod->text_size);
}

/* Init failed or exit ran: nothing of the module may stay reachable. */
static void remove_module(struct module *mod)
{
	mod->state = MODULE_STATE_GOING;
	unregister_forgotten_probes(mod);
	remove_module_kprobe_blacklist(mod);
	list_del_module(mod);
	free_module(mod);
}

/*
 * The module's "name=value" words: first those of the kernel command
 * line written "MODULE.name=value" (as modprobe reads /proc/cmdline),
 * then `args`, so insmod's own words win.  Kept in mod->args: charp
 * parameters point into it.
 */
static int module_args(struct module *mod, const char *args)
{
	size_t len = (args ? strlen(args) : 0) + 1;
	char key[MODULE_NAME_LEN + KPARAM_VALUE_LEN], val[KPARAM_VALUE_LEN];

	for (unsigned int i = 0; i < mod->num_kp; i++) {
		snprintf(key, sizeof(key), "%s.%s", mod->name, mod->kp[i].name);
		if (cmdline_value(key, val, sizeof(val)))
			len += strlen(mod->kp[i].name) + strlen(val) + 2;
	}
	mod->args = kzalloc(len);
	if (!mod->args)
		return -ENOMEM;
	for (unsigned int i = 0; i < mod->num_kp; i++) {
		snprintf(key, sizeof(key), "%s.%s", mod->name, mod->kp[i].name);
		if (!cmdline_value(key, val, sizeof(val)))
			continue;
		strlcat(mod->args, mod->kp[i].name, len);
		strlcat(mod->args, "=", len);
		strlcat(mod->args, val, len);
		strlcat(mod->args, " ", len);
	}
	if (args)
		strlcat(mod->args, args, len);
	return parse_args(mod->name, mod->args, mod->kp, mod->num_kp);
}

/* Parameters set, blacklist entries added: what must happen before init. */
static int prepare_coming_module(struct module *mod, const char *args)
{
	int ret = module_args(mod, args);

	if (ret)
		return module_error(mod->name, ret, "bad parameters: %s (%s)",
				    errno_name(ret), errno_meaning(ret));
	ret = add_module_kprobe_blacklist(mod);
	if (ret)
		return module_error(mod->name, ret, "no memory for its kprobe blacklist");
	return 0;
}

/*
 * Everything up to running init: a module in memory, linked, its code
 * read-only, not on the list yet.  On error nothing is left behind.
 */
int layout_and_link(const void *image, size_t len, const char *name,
		    struct module **out)
{
	struct load_info info = { .name = name, .image = image, .len = len };
	struct module *mod;
	int ret;

	last_error[0] = '\0';
	if (strlen(name) >= MODULE_NAME_LEN || !name[0])
		return module_error(name, -EINVAL, "bad module name");
	if (find_module(name))
		return module_error(name, -EEXIST, "already loaded");
	ret = elf_check_module(&info);
	if (ret)
		return module_elf_error(&info, ret);
	ret = check_vermagic(&info);
	if (ret)
		return ret;
	mod = kzalloc(sizeof(*mod));
	if (!mod)
		return module_error(name, -ENOMEM, "out of memory");
	strlcpy(mod->name, name, sizeof(mod->name));

	ret = link_module(&info, mod);
	kfree(info.secoff);
	kfree(info.symval);
	if (ret) {
		free_module(mod);
		return ret;
	}
	ftrace_module_init(mod);	/* its sites nops while the text is writable */
	/* Code and constants are final: from now on only text_poke() writes them. */
	set_pages_writable(mod->base, mod->ro_size, false);
	*out = mod;
	return 0;
}

int load_module_params(const void *image, size_t len, const char *name,
		       const char *args, struct module **out)
{
	struct module *mod;
	int ret;

	ret = layout_and_link(image, len, name, &mod);
	if (ret)
		return ret;
	mod->state = MODULE_STATE_COMING;
	list_add_module(mod);
	ret = prepare_coming_module(mod, args);
	if (ret) {
		remove_module(mod);
		return ret;
	}
	/* Events left [GONE] by an earlier unload of it probe it again. */
	trace_kprobe_module_coming(mod);
	ftrace_module_enable(mod);
	ret = mod->init();
	if (ret) {
		module_error(name, ret, "init failed: %s (%s), unloading",
			     errno_name(ret), errno_meaning(ret));
		remove_module(mod);
		return ret;
	}
	mod->state = MODULE_STATE_LIVE;
	if (out)
		*out = mod;
	return 0;
}

int load_module(const void *image, size_t len, const char *name,
		struct module **out)
{
	return load_module_params(image, len, name, NULL, out);
}

int unload_module(struct module *mod)
{
	int ret;

	/*
	 * The kprobe optimizer may be in the middle of a batch on another
	 * CPU, the module's probed code on its stack: let it finish first.
	 * Not from a probe handler or atomic code, which may not sleep
	 * (module_busy() refuses those anyway).
	 */
	if (!preempt_count() && !irqs_disabled() && !kprobe_running())
		wait_for_kprobe_optimizer();
	ret = module_busy(mod);

	if (ret)
		return ret;
	mod->state = MODULE_STATE_GOING;
	mod->exit();
	remove_module(mod);
	return 0;
}

/* ---- the user's commands --------------------------------------------------------- */

/* "dir/name.ko args" -> does it name `name`? */
static bool boot_module_is(const char *path, const char *name)
{
	const char *base = path, *end;
	size_t n = strlen(name);

	for (const char *p = path; *p && *p != ' '; p++)
		if (*p == '/')
			base = p + 1;
	for (end = base; *end && *end != ' '; end++)
		;
	if ((size_t)(end - base) == n + 3 && strncmp(end - 3, ".ko", 3) == 0)
		end -= 3;
	return (size_t)(end - base) == n && strncmp(base, name, n) == 0;
}

const void *find_boot_module(const char *name, size_t *len)
{
	for (int i = 0; i < nr_boot_modules; i++) {
		if (boot_module_is(boot_modules[i].name, name)) {
			*len = boot_modules[i].end - boot_modules[i].start;
			return (const void *)boot_modules[i].start;
		}
	}
	return NULL;
}

int insmod(const char *name)
{
	return insmod_params(name, NULL);
}

int insmod_params(const char *name, const char *args)
{
	struct module *mod;
	const void *image;
	size_t len;
	int ret;

	image = find_boot_module(name, &len);
	if (!image) {
		printk("insmod: no boot module called %s (lsmod lists them)\n",
		       name);
		return -ENOENT;
	}
	ret = load_module_params(image, len, name, args, &mod);
	if (ret)
		printk("insmod %s: failed: %s (%s)\n", name, errno_name(ret),
		       errno_meaning(ret));
	else
		printk("insmod %s: loaded at %p, %lu bytes\n", name, mod->base,
		       mod->size);
	return ret;
}

int rmmod(const char *name)
{
	struct module *mod = find_module(name);
	int ret;

	if (!mod) {
		printk("rmmod: %s is not loaded\n", name);
		return -ENOENT;
	}
	ret = unload_module(mod);
	if (ret)
		printk("rmmod %s: failed: %s (%s)\n", name, errno_name(ret),
		       errno_meaning(ret));
	else
		printk("rmmod %s: unloaded\n", name);
	return ret;
}

/*
 * Each loaded module in load order, for a reader such as the shell's
 * lsmod (Linux's /proc/modules walks the same list).  Process context:
 * a module cannot come or go during the walk (the loader runs there too).
 */
void for_each_module(void (*fn)(const struct module *mod, void *data), void *data)
{
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		fn(mod, data);
}

/* insmod=a,b,c on the kernel command line. */
void load_boot_modules(void)
{
	char list[128], name[MODULE_NAME_LEN];
	const char *p;

	if (!cmdline_value("insmod", list, sizeof(list)))
		return;
	for (p = list; *p;) {
		size_t n = 0;

		while (p[n] && p[n] != ',')
			n++;
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			insmod(name);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}
