/*
 * rtc_lib.c - a date to seconds since the epoch (Linux's mktime64() of
 * kernel/time/time.c and drivers/rtc/lib.c), host-tested.
 *
 * Gauss's trick, as Linux: count the year from March, so February, the
 * month of the leap day, is the last one.  Then the days before a month
 * are 367*mon/12 (a 30/31 pattern that holds from March to January),
 * and the leap days before a year are year/4 - year/100 + year/400.
 * Only 32-bit divisions by constants: no libgcc call in the kernel.
 */
#include "rtc.h"
#include "errno.h"

#define DAYS_1970_FROM_0 719499UL	/* days from the year 0's March to 1970-01-01 */
#define SECS_PER_DAY	 86400
#define SECS_PER_HOUR	 3600
#define SECS_PER_MIN	 60

int64_t mktime64(unsigned int year, unsigned int mon, unsigned int day,
		 unsigned int hour, unsigned int min, unsigned int sec)
{
	int64_t days;

	if ((int)(mon -= 2) <= 0) {	/* March is 1, ... February is 12 */
		mon += 12;
		year -= 1;
	}
	days = (int64_t)(year / 4 - year / 100 + year / 400 + 367 * mon / 12 + day) +
	       (int64_t)year * 365 - DAYS_1970_FROM_0;
	return ((days * 24 + hour) * 60 + min) * 60 + sec;
}

int64_t rtc_tm_to_time64(const struct rtc_time *tm)
{
	return mktime64(tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
			tm->tm_hour, tm->tm_min, tm->tm_sec);
}

static bool is_leap_year(unsigned int year)
{
	return (!(year % 4) && (year % 100)) || !(year % 400);
}

static int rtc_month_days(unsigned int month, unsigned int year)
{
	static const unsigned char days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return days[month] + (month == 1 && is_leap_year(year));
}

int rtc_valid_tm(const struct rtc_time *tm)
{
	if (tm->tm_year < 70 || tm->tm_mon < 0 || tm->tm_mon > 11 || tm->tm_mday < 1 ||
	    tm->tm_mday > rtc_month_days(tm->tm_mon, tm->tm_year + 1900) ||
	    tm->tm_hour < 0 || tm->tm_hour > 23 || tm->tm_min < 0 || tm->tm_min > 59 ||
	    tm->tm_sec < 0 || tm->tm_sec > 59)
		return -EINVAL;
	return 0;
}
