/*
 * time.c - what time it is, for a process: gettimeofday (78),
 * clock_gettime (265) and clock_gettime64 (403) (Linux's
 * kernel/time/time.c and posix-timers.c).
 *
 * Two clocks underneath.  ktime_get() counts nanoseconds since boot
 * (the PIT's ticks refined by the TSC, kernel/ktime.c): CLOCK_MONOTONIC
 * and its relatives.  The wall clock is the RTC's date at the first
 * call, minus the monotonic time then, plus the monotonic time now:
 * it never steps, because nothing here sets the time (no settimeofday,
 * no NTP).  clock_gettime is the 32-bit seconds of 2005's ABI, which
 * end in 2038; clock_gettime64 is Linux 5.1's answer, what glibc 2.34
 * and later call first.
 */
#include "kernel.h"
#include "syscalls.h"
#include "uaccess.h"
#include "ktime.h"
#include "div64.h"
#include "spinlock.h"
#include "errno.h"
#include "rtc.h"

/* Linux's clock ids (include/uapi/linux/time.h). */
#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3
#define CLOCK_MONOTONIC_RAW		4
#define CLOCK_REALTIME_COARSE		5
#define CLOCK_MONOTONIC_COARSE		6
#define CLOCK_BOOTTIME			7

struct timeval {
	long tv_sec;
	long tv_usec;
};

struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

struct old_timespec32 {
	int tv_sec;
	int tv_nsec;
};

struct __kernel_timespec {
	long long tv_sec;
	long long tv_nsec;
};

static DEFINE_SPINLOCK(wall_lock);
static bool wall_known;
static ktime_t wall_at_boot;	/* ns since the epoch when ktime_get() was 0 */

ktime_t ktime_get_real(void)
{
	unsigned long flags;

	spin_lock_irqsave(&wall_lock, flags);
	if (!wall_known) {
		struct rtc_time tm;
		ktime_t now = 0;	/* no RTC (a battery gone): the clock starts at 1970 */

		if (mach_get_cmos_time(&tm) == 0)
			now = (ktime_t)rtc_tm_to_time64(&tm) * NSEC_PER_SEC;
		wall_at_boot = now - ktime_get();
		wall_known = true;
	}
	spin_unlock_irqrestore(&wall_lock, flags);
	return wall_at_boot + ktime_get();
}

/*
 * A clock id's time now; -EINVAL for one this kernel does not keep:
 * the CPU-time clocks need per-task accounting there is none of.
 */
static int posix_clock_now(int which, ktime_t *now)
{
	switch (which) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		*now = ktime_get_real();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:	/* no suspend here: boot time is monotonic time */
		*now = ktime_get();
		return 0;
	default:
		return -EINVAL;
	}
}

/* Whole seconds and the nanoseconds left of ns (ns >= 0). */
static unsigned long long split_ns(ktime_t ns, uint32_t *rem_ns)
{
	return div_u64_rem((uint64_t)ns, NSEC_PER_SEC, rem_ns);
}

asmlinkage long sys_gettimeofday(struct timeval __user *tv, struct timezone __user *tz)
{
	struct timezone zone = { 0, 0 };	/* UTC: Linux's sys_tz until someone sets it */
	struct timeval v;
	uint32_t ns;

	if (tv) {
		v.tv_sec = split_ns(ktime_get_real(), &ns);
		v.tv_usec = ns / NSEC_PER_USEC;
		if (copy_to_user(tv, &v, sizeof(v)))
			return -EFAULT;
	}
	if (tz && copy_to_user(tz, &zone, sizeof(zone)))
		return -EFAULT;
	return 0;
}

asmlinkage long sys_clock_gettime(int which_clock, struct __kernel_timespec __user *tp)
{
	struct __kernel_timespec ts;
	ktime_t now;
	uint32_t ns;
	int ret = posix_clock_now(which_clock, &now);

	if (ret)
		return ret;
	ts.tv_sec = split_ns(now, &ns);
	ts.tv_nsec = ns;
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

asmlinkage long sys_clock_gettime32(int which_clock, struct old_timespec32 __user *tp)
{
	struct old_timespec32 ts;
	ktime_t now;
	uint32_t ns;
	int ret = posix_clock_now(which_clock, &now);

	if (ret)
		return ret;
	ts.tv_sec = split_ns(now, &ns);
	ts.tv_nsec = ns;
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}
