// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-check's module with an overridden weak function: kcweak_pick is __weak here and
 * defined again in kcweak-strong.c, so the linked module keeps this body without a symbol, and
 * its __mcount_loc entry, which ftrace would list under another name (x86: as
 * __ftrace_invalid_address___N) unless mcountkit prune zeroes it. Writing the parameter poke
 * runs kcweak_use, so the module's functions can be traced.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "kcweak.h"

/* First in the text, so that kallsyms names the weak body after it where nothing marks it invalid. */
noinline int kcweak_use(int x)
{
	return kcweak_pick(x) * 2;
}

int __weak kcweak_pick(int x)
{
	return x + 7;
}

static int kcweak_poke(const char *val, const struct kernel_param *kp)
{
	return kcweak_use((int)strlen(val)) < 0 ? -EINVAL : 0;
}

static const struct kernel_param_ops kcweak_poke_ops = {
	.set = kcweak_poke,
};
module_param_cb(poke, &kcweak_poke_ops, NULL, 0200);

static int __init kcweak_init(void)
{
	return 0;
}

static void __exit kcweak_exit(void)
{
}

module_init(kcweak_init);
module_exit(kcweak_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kernel-check: a module with an overridden weak function");
