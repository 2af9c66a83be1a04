/*
 * rtc.h - a calendar date and time, and seconds since the epoch (Linux's
 * include/linux/rtc.h and mktime64()).
 *
 * The PC's real-time clock (arch/i386/rtc.c) keeps the wall time as a
 * date: year, month, day, hour, minute, second.  A clock that counts
 * (tai in trace_clock) needs it as one number, the seconds since
 * 1970-01-01 00:00:00 UTC: rtc_tm_to_time64() turns one into the other
 * (lib/rtc_lib.c, host-tested).
 */
#ifndef RTC_H
#define RTC_H

#include <stdint.h>
#include <stdbool.h>

/* Linux's struct rtc_time, as struct tm: tm_mon 0-11, tm_year since 1900. */
struct rtc_time {
	int tm_sec;
	int tm_min;
	int tm_hour;
	int tm_mday;
	int tm_mon;
	int tm_year;
};

/* Seconds since the epoch of a Gregorian date (Linux's mktime64(): mon 1-12). */
int64_t mktime64(unsigned int year, unsigned int mon, unsigned int day,
		 unsigned int hour, unsigned int min, unsigned int sec);
int64_t rtc_tm_to_time64(const struct rtc_time *tm);
/* Is tm a date that exists (Linux's rtc_valid_tm(): 0 or -EINVAL)? */
int rtc_valid_tm(const struct rtc_time *tm);

/*
 * The CMOS clock now (arch/i386/rtc.c, Linux's mach_get_cmos_time()):
 * 0, or -EINVAL when what it holds is no date (no RTC, a battery gone).
 */
int mach_get_cmos_time(struct rtc_time *tm);

#endif
