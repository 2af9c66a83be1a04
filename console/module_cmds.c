/*
 * module_cmds.c - the shell's insmod, rmmod and lsmod: words typed at the
 * prompt turned into calls of the module loader (kernel/module.c), and
 * its list printed as Linux's lsmod prints /proc/modules.
 */
#include "kernel.h"
#include "module.h"
#include "multiboot.h"
#include "errno.h"
#include "string.h"
#include "shell.h"

#define INSMOD_ARGS_LEN	256	/* the parameters of one shell insmod, rejoined */

/* insmod NAME [param=value ...]: the words after the name, rejoined. */
int cmd_insmod(int argc, char **argv)
{
	char args[INSMOD_ARGS_LEN] = "";

	if (argc < 2) {
		sh_printf("usage: insmod NAME [param=value ...]   "
			  "(lsmod lists the boot modules)\n");
		return -EINVAL;
	}
	for (int i = 2; i < argc; i++) {
		if (strlcat(args, argv[i], sizeof(args)) >= sizeof(args) ||
		    (i + 1 < argc && strlcat(args, " ", sizeof(args)) >= sizeof(args))) {
			sh_printf("insmod: parameters too long\n");
			return -E2BIG;
		}
	}
	return insmod_params(argv[1], args);
}

int cmd_rmmod(int argc, char **argv)
{
	if (argc != 2) {
		sh_printf("usage: rmmod NAME\n");
		return -EINVAL;
	}
	return rmmod(argv[1]);
}

/* lsmod's "Used by": every module that uses mod's exports. */
static void print_if_user(const struct module *other, void *data)
{
	const struct module *mod = data;

	for (int i = 0; i < other->nr_uses; i++)
		if (other->uses[i] == mod)
			sh_printf(" %s", other->name);
}

static void print_module(const struct module *mod, void *data)
{
	sh_printf("%-20s %7lu  %08lx  %d", mod->name, mod->size,
		  (unsigned long)mod->base, mod->refcnt);
	for_each_module(print_if_user, (void *)mod);
	sh_printf("%s\n", mod->state == MODULE_STATE_LIVE ? "" : " [loading]");
}

/* "dir/NAME.ko args" -> NAME, as insmod takes it. */
static void print_boot_module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *name = base ? base + 1 : path;
	size_t n = 0;

	while (name[n] && name[n] != ' ')
		n++;
	if (n > 3 && strncmp(name + n - 3, ".ko", 3) == 0)
		n -= 3;
	sh_printf(" %.*s", (int)n, name);
}

int cmd_lsmod(int argc, char **argv)
{
	sh_printf("Module                  Size  Address   Used by\n");
	for_each_module(print_module, NULL);
	sh_printf("Boot modules (insmod NAME):");
	for (int i = 0; i < nr_boot_modules; i++)
		print_boot_module_name(boot_modules[i].name);
	sh_printf("%s\n", nr_boot_modules ? "" : " none");
	return 0;
}
