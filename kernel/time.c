/*
 * time.c - what time it is, for a process: gettimeofday (78),
 * clock_gettime (265) and clock_gettime64 (403); and sleeping on a
 * clock: clock_nanosleep (267) and clock_nanosleep_time64 (407), what
 * glibc's nanosleep(), usleep() and sleep() call (Linux's
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
#include "sched.h"
#include "signal.h"
#include "timer.h"

/* Linux's clock ids (include/uapi/linux/time.h). */
#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3
#define CLOCK_MONOTONIC_RAW		4
#define CLOCK_REALTIME_COARSE		5
#define CLOCK_MONOTONIC_COARSE		6
#define CLOCK_BOOTTIME			7

#define TIMER_ABSTIME	0x01	/* clock_nanosleep: the time is a reading of the clock, not a span */
#define NSEC_PER_TICK	(NSEC_PER_SEC / HZ)
#define KTIME_MAX	((ktime_t)INT64_MAX)
#define MAX_TIMEOUT_TICKS	0x7fffffffL	/* one wait; a longer sleep waits again */

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

/* ---- sleeping on a clock ------------------------------------------------------ */

/*
 * Which clocks a sleep may name, as Linux's clockid_to_kclock() and
 * kc->nsleep decide: the raw and coarse clocks have no sleep
 * (-EOPNOTSUPP); the CPU-time clocks are not kept here (-EINVAL, as
 * their clock_gettime), an unknown id is -EINVAL.
 */
static int nsleep_clock_check(int which)
{
	switch (which) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
		return 0;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/* sec.nsec as ktime, saturated at KTIME_MAX as Linux's timespec64_to_ktime(). */
static ktime_t timespec_to_ktime_sat(long long sec, long long nsec)
{
	if (sec >= KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return sec * NSEC_PER_SEC + nsec;
}

/*
 * Wait until clock `which` reads `until`.  The timer counts ticks of
 * the PIT, which is neither clock: a wait may end a tick early (or a
 * wall clock may be read late), so it reads the clock again and waits
 * the rest - a long sleep is many waits, never cut short.  A signal
 * ends it: -EINTR, *left the time still to go.
 */
static long clock_sleep_until(int which, ktime_t until, ktime_t *left)
{
	ktime_t now;
	uint32_t rem;
	uint64_t ticks;

	for (;;) {
		posix_clock_now(which, &now);
		if (now >= until)
			return 0;
		ticks = div_u64_rem((uint64_t)(until - now) + NSEC_PER_TICK - 1, NSEC_PER_TICK, &rem);
		schedule_timeout_interruptible(ticks > MAX_TIMEOUT_TICKS ? MAX_TIMEOUT_TICKS : (long)ticks);
		if (signal_pending(current)) {
			posix_clock_now(which, &now);
			*left = until > now ? until - now : 0;
			return -EINTR;
		}
	}
}

/*
 * Linux's common_nsleep(): a span from now, or (TIMER_ABSTIME) a
 * reading of the clock - a date for CLOCK_REALTIME.  *sec.*nsec is the
 * request in, and for a span cut short by a signal the time left out
 * (an absolute sleep is simply called again).  Both ABIs' calls end
 * here after their copy.
 */
static long do_clock_nanosleep(int which, int flags, long long *sec, long long *nsec)
{
	ktime_t until, now, left;
	uint32_t ns;
	long ret;

	if (*sec < 0 || *nsec < 0 || *nsec >= NSEC_PER_SEC)
		return -EINVAL;		/* Linux's timespec64_valid() */
	until = timespec_to_ktime_sat(*sec, *nsec);
	if (!(flags & TIMER_ABSTIME)) {
		posix_clock_now(which, &now);
		until = until > KTIME_MAX - now ? KTIME_MAX : until + now;
	}
	ret = clock_sleep_until(which, until, &left);
	if (ret == -EINTR) {
		*sec = split_ns(left, &ns);
		*nsec = ns;
	}
	return ret;
}

/* Whether a sleep's end is reported: a span that a signal cut short, and somewhere to write it. */
static bool nsleep_reports_left(long ret, int flags, const void __user *rmtp)
{
	return ret == -EINTR && !(flags & TIMER_ABSTIME) && rmtp;
}

asmlinkage long sys_clock_nanosleep(int which_clock, int flags,
				    const struct __kernel_timespec __user *rqtp,
				    struct __kernel_timespec __user *rmtp)
{
	struct __kernel_timespec ts;
	long ret = nsleep_clock_check(which_clock);

	if (ret)
		return ret;
	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	ret = do_clock_nanosleep(which_clock, flags, &ts.tv_sec, &ts.tv_nsec);
	if (!nsleep_reports_left(ret, flags, rmtp))
		return ret;
	return copy_to_user(rmtp, &ts, sizeof(ts)) ? -EFAULT : ret;
}

/* The 32-bit seconds of 2005's ABI: the same sleep, Linux's clock_nanosleep_time32(). */
asmlinkage long sys_clock_nanosleep32(int which_clock, int flags,
				      const struct old_timespec32 __user *rqtp,
				      struct old_timespec32 __user *rmtp)
{
	struct old_timespec32 ts;
	long long sec, nsec;
	long ret = nsleep_clock_check(which_clock);

	if (ret)
		return ret;
	if (copy_from_user(&ts, rqtp, sizeof(ts)))
		return -EFAULT;
	sec = ts.tv_sec;
	nsec = ts.tv_nsec;
	ret = do_clock_nanosleep(which_clock, flags, &sec, &nsec);
	if (!nsleep_reports_left(ret, flags, rmtp))
		return ret;
	ts = (struct old_timespec32){ .tv_sec = (int)sec, .tv_nsec = (int)nsec };
	return copy_to_user(rmtp, &ts, sizeof(ts)) ? -EFAULT : ret;
}
