/*
 * moduleparam.h - module parameters: "insmod NAME symbol=fib".
 *
 * Linux's way to let the user change a module's variable at load time,
 * before its init runs.  module_param(symbol, charp, 0644) leaves one
 * struct kernel_param (name, how to parse, where to store) in the
 * module's __param section; the loader (kernel/module.c) finds that
 * section, and kernel/params.c matches each "name=value" word of the
 * insmod arguments - and every "MODULE.name=value" word of the kernel
 * command line - against it.  A value that does not parse refuses the
 * load; an unknown name is ignored with a warning, as in Linux.
 *
 * There is no sysfs here, so `perm` (Linux's /sys/module/M/parameters
 * file mode) is kept but not used.
 */
#ifndef MODULEPARAM_H
#define MODULEPARAM_H

#include <stdbool.h>

struct kernel_param;

/* How to parse a value into the variable (and print it back). */
struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

/* module_param_string(): a char array, not a pointer. */
struct kparam_string {
	unsigned int maxlen;
	char *string;
};

struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	unsigned short perm;
	union {
		void *arg;
		const struct kparam_string *str;
	};
};

/* The longest value get() writes (Linux's sysfs page, here a line). */
#define KPARAM_VALUE_LEN	128

/* One ops table per Linux type name: module_param(x, int, 0) uses param_ops_int. */
#define DECLARE_PARAM_OPS(type) extern const struct kernel_param_ops param_ops_##type
DECLARE_PARAM_OPS(byte);
DECLARE_PARAM_OPS(short);
DECLARE_PARAM_OPS(ushort);
DECLARE_PARAM_OPS(int);
DECLARE_PARAM_OPS(uint);
DECLARE_PARAM_OPS(long);
DECLARE_PARAM_OPS(ulong);
DECLARE_PARAM_OPS(hexint);
DECLARE_PARAM_OPS(bool);
DECLARE_PARAM_OPS(invbool);
DECLARE_PARAM_OPS(charp);
DECLARE_PARAM_OPS(string);

/* A compile-time check that the variable has the type's C type. */
#define param_check_type(name, p, type)					\
	static inline __attribute__((unused)) type *__check_##name(void) { return (p); }

#define __module_param_call(pname, pops, parg, pperm)			\
	static const char __param_str_##pname[] = #pname;		\
	static const struct kernel_param __param_##pname		\
	__attribute__((used, section("__param"), aligned(4))) =	\
		{ .name = __param_str_##pname, .ops = pops, .perm = pperm, .arg = parg }

#define module_param_cb(name, ops, arg, perm)				\
	__module_param_call(name, ops, arg, perm)

/* The type names module_param() accepts, mapped to C types for the check. */
#define param_type_byte		unsigned char
#define param_type_short	short
#define param_type_ushort	unsigned short
#define param_type_int		int
#define param_type_uint		unsigned int
#define param_type_long		long
#define param_type_ulong	unsigned long
#define param_type_hexint	unsigned int
#define param_type_bool		bool
#define param_type_invbool	bool
#define param_type_charp	char *

/*
 * A variable `value` set by the parameter `name`.  The type word is
 * pasted at once, before <stdbool.h>'s bool macro could turn it into _Bool.
 */
#define module_param_named(name, value, type, perm)			\
	__module_param_typed(name, value, param_type_##type, &param_ops_##type, perm)

#define module_param(name, type, perm)					\
	__module_param_typed(name, name, param_type_##type, &param_ops_##type, perm)

#define __module_param_typed(name, value, ctype, ops, perm)		\
	param_check_type(name, &(value), ctype)				\
	module_param_cb(name, ops, &(value), perm)

/* A char array of len bytes (the value, NUL included, must fit). */
#define module_param_string(name, string, len, perm)			\
	static const struct kparam_string __param_string_##name =	\
		{ len, string };					\
	__module_param_call(name, &param_ops_string,			\
			    (void *)&__param_string_##name, perm)

/*
 * Parse `args` ("a=1 b=\"x y\" flag"), which is modified in place and
 * must outlive the module if it has charp parameters (they point into
 * it).  0, or the first set() error (-EINVAL for a bad value).
 */
int parse_args(const char *modname, char *args,
	       const struct kernel_param *params, unsigned int num);

#endif
