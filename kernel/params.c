/*
 * params.c - module parameters: parse "name=value" words into variables.
 *
 * Linux's kernel/params.c in small: parse_args() splits the argument
 * string into words (a value may be "quoted" to hold spaces), finds the
 * struct kernel_param of each name and calls its ops->set().  The ops
 * tables are the types module_param() knows: the integer types, bool
 * and invbool, charp (a pointer into the argument string) and string
 * (a copy into the module's own array).  include/moduleparam.h says
 * how a module declares them.
 */
#include "kernel.h"
#include "moduleparam.h"
#include "errno.h"
#include "string.h"
#include "vsprintf.h"

/* ---- integers ------------------------------------------------------------ */

/*
 * Every integer type parses through long or unsigned long (32 bits on
 * i386) and is refused if the value does not fit the variable.
 */
static int parse_signed(const char *val, long min, long max, long *res)
{
	if (!val || kstrtol(val, 0, res) || *res < min || *res > max)
		return -EINVAL;
	return 0;
}

static int parse_unsigned(const char *val, unsigned long max, unsigned long *res)
{
	if (!val || val[0] == '-' || kstrtoul(val, 0, res) || *res > max)
		return -EINVAL;
	return 0;
}

#define STANDARD_PARAM_SIGNED(name, type, min, max)			\
	static int param_set_##name(const char *val, const struct kernel_param *kp) \
	{								\
		long v;							\
		int ret = parse_signed(val, min, max, &v);		\
		if (!ret)						\
			*(type *)kp->arg = v;				\
		return ret;						\
	}								\
	static int param_get_##name(char *buf, const struct kernel_param *kp) \
	{								\
		return snprintf(buf, KPARAM_VALUE_LEN, "%ld", (long)*(type *)kp->arg); \
	}								\
	const struct kernel_param_ops param_ops_##name = {		\
		.set = param_set_##name, .get = param_get_##name,	\
	}

#define STANDARD_PARAM_UNSIGNED(name, type, max, fmt)			\
	static int param_set_##name(const char *val, const struct kernel_param *kp) \
	{								\
		unsigned long v;					\
		int ret = parse_unsigned(val, max, &v);			\
		if (!ret)						\
			*(type *)kp->arg = v;				\
		return ret;						\
	}								\
	static int param_get_##name(char *buf, const struct kernel_param *kp) \
	{								\
		return snprintf(buf, KPARAM_VALUE_LEN, fmt,		\
				(unsigned long)*(type *)kp->arg);	\
	}								\
	const struct kernel_param_ops param_ops_##name = {		\
		.set = param_set_##name, .get = param_get_##name,	\
	}

STANDARD_PARAM_SIGNED(short, short, -32768, 32767);
STANDARD_PARAM_SIGNED(int, int, (long)INT32_MIN, (long)INT32_MAX);
STANDARD_PARAM_SIGNED(long, long, (long)INT32_MIN, (long)INT32_MAX);
STANDARD_PARAM_UNSIGNED(byte, unsigned char, 0xff, "%lu");
STANDARD_PARAM_UNSIGNED(ushort, unsigned short, 0xffff, "%lu");
STANDARD_PARAM_UNSIGNED(uint, unsigned int, UINT32_MAX, "%lu");
STANDARD_PARAM_UNSIGNED(ulong, unsigned long, UINT32_MAX, "%lu");
STANDARD_PARAM_UNSIGNED(hexint, unsigned int, UINT32_MAX, "%#lx");

/* ---- bool ------------------------------------------------------------------ */

/* Linux's kstrtobool: y/Y/1/on and n/N/0/off; a bare "flag" means true. */
static int parse_bool(const char *val, bool *res)
{
	if (!val) {
		*res = true;
		return 0;
	}
	if (!strcmp(val, "y") || !strcmp(val, "Y") || !strcmp(val, "1") ||
	    !strcmp(val, "on"))
		*res = true;
	else if (!strcmp(val, "n") || !strcmp(val, "N") || !strcmp(val, "0") ||
		 !strcmp(val, "off"))
		*res = false;
	else
		return -EINVAL;
	return 0;
}

static int param_set_bool(const char *val, const struct kernel_param *kp)
{
	return parse_bool(val, kp->arg);
}

static int param_get_bool(char *buf, const struct kernel_param *kp)
{
	return snprintf(buf, KPARAM_VALUE_LEN, "%c", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = {
	.set = param_set_bool, .get = param_get_bool,
};

static int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = parse_bool(val, &v);

	if (!ret)
		*(bool *)kp->arg = !v;
	return ret;
}

static int param_get_invbool(char *buf, const struct kernel_param *kp)
{
	return snprintf(buf, KPARAM_VALUE_LEN, "%c", *(bool *)kp->arg ? 'N' : 'Y');
}

const struct kernel_param_ops param_ops_invbool = {
	.set = param_set_invbool, .get = param_get_invbool,
};

/* ---- strings --------------------------------------------------------------- */

/* charp: the variable points into the argument string, which the module keeps. */
static int param_set_charp(const char *val, const struct kernel_param *kp)
{
	if (!val)
		return -EINVAL;
	*(const char **)kp->arg = val;
	return 0;
}

static int param_get_charp(char *buf, const struct kernel_param *kp)
{
	const char *s = *(const char **)kp->arg;

	return snprintf(buf, KPARAM_VALUE_LEN, "%s", s ? s : "(null)");
}

const struct kernel_param_ops param_ops_charp = {
	.set = param_set_charp, .get = param_get_charp,
};

/* string: copied into the module's array; too long is an error, as Linux's. */
static int param_set_copystring(const char *val, const struct kernel_param *kp)
{
	const struct kparam_string *kps = kp->str;

	if (!val || strlen(val) + 1 > kps->maxlen) {
		printk(KERN_ERR "%s: string doesn't fit in %u chars.\n", kp->name,
		       kps->maxlen - 1);
		return -ENOSPC;
	}
	strlcpy(kps->string, val, kps->maxlen);
	return 0;
}

static int param_get_string(char *buf, const struct kernel_param *kp)
{
	return snprintf(buf, KPARAM_VALUE_LEN, "%s", kp->str->string);
}

const struct kernel_param_ops param_ops_string = {
	.set = param_set_copystring, .get = param_get_string,
};

/* ---- the argument string ---------------------------------------------------- */

/*
 * Cut the next word off *args: "name", "name=value" or name="a b".
 * Returns the name (NULL at the end); *val is the value or NULL.
 */
static char *next_arg(char **args, char **val)
{
	char *s = *args, *name;
	bool quoted = false;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	name = s;
	*val = NULL;
	for (; *s && (quoted || *s != ' '); s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (*s == '=' && !*val)
			*val = s + 1;
	}
	if (*s)
		*s++ = '\0';
	*args = s;
	if (*val) {
		(*val)[-1] = '\0';
		if (**val == '"') {		/* strip the quotes */
			size_t n = strlen(*val);

			(*val)++;
			if (n >= 2 && (*val)[n - 2] == '"')
				(*val)[n - 2] = '\0';
		}
	}
	return name;
}

static const struct kernel_param *find_param(const char *name,
					     const struct kernel_param *params,
					     unsigned int num)
{
	for (unsigned int i = 0; i < num; i++)
		if (strcmp(params[i].name, name) == 0)
			return &params[i];
	return NULL;
}

int parse_args(const char *modname, char *args,
	       const struct kernel_param *params, unsigned int num)
{
	char *name, *val;
	const struct kernel_param *kp;
	int ret;

	while ((name = next_arg(&args, &val))) {
		kp = find_param(name, params, num);
		if (!kp) {
			pr_warn("%s: unknown parameter '%s' ignored\n", modname, name);
			continue;
		}
		ret = kp->ops->set(val, kp);
		if (ret) {
			pr_err("%s: '%s' invalid for parameter '%s'\n", modname,
			       val ? val : "", name);
			return ret;
		}
	}
	return 0;
}
