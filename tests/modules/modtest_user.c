/*
 * modtest_user.c - uses symbols exported by modtest_basic, so it can only
 * be loaded after it, and modtest_basic cannot be removed before it.
 */
#include "module.h"
#include "errno.h"

extern int modtest_value;
int modtest_add(int a, int b);

static int __init user_init(void)
{
	return modtest_add(1, 2) == 3 + modtest_value ? 0 : -EINVAL;
}

static void __exit user_exit(void)
{
}

module_init(user_init);
module_exit(user_exit);
MODULE_LICENSE("GPL");
