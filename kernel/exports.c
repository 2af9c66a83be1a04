/*
 * exports.c - every kernel symbol a module may use, in one place.
 *
 * Linux writes EXPORT_SYMBOL() next to each function; we gather them
 * here so the list of what modules can call is one short file to read
 * (and other people's files stay untouched).  A module that calls
 * anything not listed fails to load with "unknown symbol NAME".
 */
#include "kernel.h"
#include "export.h"
#include "kprobes.h"
#include "kallsyms.h"
#include <asm/extable.h>
#include "mm.h"
#include "sched.h"
#include "timer.h"
#include "string.h"
#include "vsprintf.h"
#include "module.h"
#include "moduleparam.h"
#include "kunit/test.h"
#include "ktime.h"
#include "random.h"
#include "smp.h"
#include "stacktrace.h"
#include <asm/ptrace.h>
#include <asm/extable.h>
#include "spinlock.h"
#include "mutex.h"
#include "ftrace.h"
#include "fprobe.h"

/* Output */
EXPORT_SYMBOL(printk);
/* Every module function starts with "call __fentry__" (-pg -mfentry), as in Linux. */
EXPORT_SYMBOL(__fentry__);
EXPORT_SYMBOL(register_ftrace_function);
EXPORT_SYMBOL(unregister_ftrace_function);
EXPORT_SYMBOL(ftrace_set_filter);
EXPORT_SYMBOL(ftrace_set_filter_ip);
EXPORT_SYMBOL(register_fprobe);
EXPORT_SYMBOL(register_fprobe_ips);
EXPORT_SYMBOL(unregister_fprobe);
EXPORT_SYMBOL(console_loglevel);
EXPORT_SYMBOL(dump_stack);
EXPORT_SYMBOL(show_regs);
EXPORT_SYMBOL(vprintk);
EXPORT_SYMBOL(snprintf);
EXPORT_SYMBOL(vsnprintf);
EXPORT_SYMBOL(panic);

/* Memory */
EXPORT_SYMBOL(kmalloc);
EXPORT_SYMBOL(kzalloc);
EXPORT_SYMBOL(kfree);
EXPORT_SYMBOL(copy_from_kernel_nofault);

/* Strings (gcc itself may emit calls to memcpy, memset, memmove, memcmp) */
EXPORT_SYMBOL(memcpy);
EXPORT_SYMBOL(memmove);
EXPORT_SYMBOL(memset);
EXPORT_SYMBOL(memcmp);
EXPORT_SYMBOL(strlen);
EXPORT_SYMBOL(strnlen);
EXPORT_SYMBOL(strcmp);
EXPORT_SYMBOL(strncmp);
EXPORT_SYMBOL(strchr);
EXPORT_SYMBOL(strrchr);
EXPORT_SYMBOL(strstr);
EXPORT_SYMBOL(strlcpy);
EXPORT_SYMBOL(strlcat);
EXPORT_SYMBOL(kstrtoul);
EXPORT_SYMBOL(kstrtol);
EXPORT_SYMBOL(simple_strtoul);

/*
 * 64-bit division: gcc calls these helpers on i386, with the kernel's
 * -mregparm=3 convention, so they are the kernel's own (lib/div64.c).
 */
long long __divdi3(long long a, long long b);
unsigned long long __udivdi3(unsigned long long a, unsigned long long b);
long long __moddi3(long long a, long long b);
unsigned long long __umoddi3(unsigned long long a, unsigned long long b);
unsigned long long __udivmoddi4(unsigned long long a, unsigned long long b,
				unsigned long long *rem);
EXPORT_SYMBOL(__divdi3);
EXPORT_SYMBOL(__udivdi3);
EXPORT_SYMBOL(__moddi3);
EXPORT_SYMBOL(__umoddi3);
EXPORT_SYMBOL(__udivmoddi4);

/* Symbols */
EXPORT_SYMBOL(kallsyms_lookup_name);
EXPORT_SYMBOL(kallsyms_lookup);
EXPORT_SYMBOL(sprint_symbol);
EXPORT_SYMBOL(sprint_symbol_no_offset);
EXPORT_SYMBOL(stack_trace_save);
EXPORT_SYMBOL(stack_trace_save_regs);
EXPORT_SYMBOL(stack_trace_print);

/* Time and threads */
EXPORT_SYMBOL(jiffies);
EXPORT_SYMBOL(msleep);
EXPORT_SYMBOL(yield);
EXPORT_SYMBOL(get_current);
EXPORT_SYMBOL(task_name);
EXPORT_SYMBOL(task_pid);
EXPORT_SYMBOL(kthread_create);
EXPORT_SYMBOL(kthread_join);
EXPORT_SYMBOL(kthread_exit);
EXPORT_SYMBOL(preempt_disable);
EXPORT_SYMBOL(preempt_enable);
EXPORT_SYMBOL(preempt_count);
EXPORT_SYMBOL(current_stack_top);
EXPORT_SYMBOL(ktime_get);
EXPORT_SYMBOL(kthread_create_on_cpu);
EXPORT_SYMBOL(kthread_bind);
EXPORT_SYMBOL(wake_up_process);

/* Locks: the inline lock code reads current_task through %fs */
EXPORT_SYMBOL(current_task);
EXPORT_SYMBOL(spin_bug);
EXPORT_SYMBOL(spin_dump_lockup);
EXPORT_SYMBOL(__mutex_init);
EXPORT_SYMBOL(mutex_lock);
EXPORT_SYMBOL(mutex_trylock);
EXPORT_SYMBOL(mutex_unlock);

/* CPUs: smp_processor_id() reads cpu_number through %fs */
EXPORT_SYMBOL(cpu_number);
EXPORT_SYMBOL(nr_online_cpus);
EXPORT_SYMBOL(cpu_online_mask);
EXPORT_SYMBOL(smp_call_function);
EXPORT_SYMBOL(smp_call_function_single);
EXPORT_SYMBOL(on_each_cpu);

/* Random numbers */
EXPORT_SYMBOL(get_random_u32);
EXPORT_SYMBOL(get_random_u64);
EXPORT_SYMBOL(get_random_bytes);

/* kprobes */
EXPORT_SYMBOL(register_kprobe);
EXPORT_SYMBOL(unregister_kprobe);
EXPORT_SYMBOL(register_kprobes);
EXPORT_SYMBOL(unregister_kprobes);
EXPORT_SYMBOL(enable_kprobe);
EXPORT_SYMBOL(disable_kprobe);
EXPORT_SYMBOL(register_jprobe);
EXPORT_SYMBOL(unregister_jprobe);
EXPORT_SYMBOL(register_jprobes);
EXPORT_SYMBOL(unregister_jprobes);
EXPORT_SYMBOL(jprobe_return);
EXPORT_SYMBOL(register_kretprobe);
EXPORT_SYMBOL(unregister_kretprobe);
EXPORT_SYMBOL(register_kretprobes);
EXPORT_SYMBOL(unregister_kretprobes);
EXPORT_SYMBOL(kretprobe_trampoline);
EXPORT_SYMBOL(get_kprobe);
EXPORT_SYMBOL(kprobe_running);
/*
 * get_kprobe_ctlblk(), reset_current_kprobe() read
 * these: this CPU's copies, through %fs and this_cpu_off.
 */
EXPORT_SYMBOL(current_kprobe);
EXPORT_SYMBOL(kprobe_ctlblk);
EXPORT_SYMBOL(this_cpu_off);

/* Modules */
EXPORT_SYMBOL(try_module_get);
EXPORT_SYMBOL(module_put);

/* KUnit test modules (include/kunit/test.h, kernel/kunit.c) */
EXPORT_SYMBOL(__kunit_test_suites_init);
EXPORT_SYMBOL(kunit_fail);
EXPORT_SYMBOL(kunit_log);
EXPORT_SYMBOL(kunit_skip_case);
EXPORT_SYMBOL(kunit_kmalloc);

/* Module parameters: module_param(x, int, 0) names param_ops_int. */
EXPORT_SYMBOL(param_ops_byte);
EXPORT_SYMBOL(param_ops_short);
EXPORT_SYMBOL(param_ops_ushort);
EXPORT_SYMBOL(param_ops_int);
EXPORT_SYMBOL(param_ops_uint);
EXPORT_SYMBOL(param_ops_long);
EXPORT_SYMBOL(param_ops_ulong);
EXPORT_SYMBOL(param_ops_hexint);
EXPORT_SYMBOL(param_ops_bool);
EXPORT_SYMBOL(param_ops_invbool);
EXPORT_SYMBOL(param_ops_charp);
EXPORT_SYMBOL(param_ops_string);
