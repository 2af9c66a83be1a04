/*
 * test_rtc_lib.c - host unit tests for lib/rtc_lib.c: a date to seconds
 * since the epoch (Linux's mktime64()), with the host's timegm() as the
 * reference for every day from 1970 to 2199, and rtc_valid_tm()'s
 * refusals.
 */
#define _DEFAULT_SOURCE		/* timegm() */
#include <time.h>
#include "ktest_host.h"
#include "rtc.h"
#include "errno.h"

static void epoch_and_known_dates(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, mktime64(1970, 1, 1, 0, 0, 0), 0);
	KTEST_EXPECT_EQ(t, mktime64(2000, 3, 1, 0, 0, 0), 951868800);	/* after a leap day of a 400th year */
	KTEST_EXPECT_EQ(t, mktime64(2024, 2, 29, 12, 34, 56), 1709210096);
	KTEST_EXPECT_EQ(t, mktime64(2099, 12, 31, 23, 59, 59), 4102444799LL);	/* past 32 bits */
}

/* Every day's noon and last second, against the host's calendar. */
static void every_day_matches_timegm(struct ktest *t)
{
	int bad = 0;

	for (time_t day = 0; day < (time_t)(2200 - 1970) * 365; day++) {
		time_t when = day * 86400 + 86399;
		struct tm tm;
		struct rtc_time rt;

		gmtime_r(&when, &tm);
		rt = (struct rtc_time){ tm.tm_sec, tm.tm_min, tm.tm_hour, tm.tm_mday, tm.tm_mon,
					tm.tm_year };
		if (rtc_tm_to_time64(&rt) != (int64_t)timegm(&tm) || rtc_valid_tm(&rt) != 0)
			bad++;
	}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static void invalid_dates_refused(struct ktest *t)
{
	struct rtc_time feb29_2023 = { 0, 0, 0, 29, 1, 123 };
	struct rtc_time feb29_2100 = { 0, 0, 0, 29, 1, 200 };	/* a century, not a 400th year */
	struct rtc_time feb29_2000 = { 0, 0, 0, 29, 1, 100 };
	struct rtc_time hour24 = { 0, 0, 24, 1, 0, 100 };
	struct rtc_time month12 = { 0, 0, 0, 1, 12, 100 };
	struct rtc_time day0 = { 0, 0, 0, 0, 0, 100 };
	struct rtc_time before_1970 = { 0, 0, 0, 1, 0, 69 };

	KTEST_EXPECT_EQ(t, rtc_valid_tm(&feb29_2023), -EINVAL);
	KTEST_EXPECT_EQ(t, rtc_valid_tm(&feb29_2100), -EINVAL);
	KTEST_EXPECT_EQ(t, rtc_valid_tm(&feb29_2000), 0);
	KTEST_EXPECT_EQ(t, rtc_valid_tm(&hour24), -EINVAL);
	KTEST_EXPECT_EQ(t, rtc_valid_tm(&month12), -EINVAL);
	KTEST_EXPECT_EQ(t, rtc_valid_tm(&day0), -EINVAL);
	KTEST_EXPECT_EQ(t, rtc_valid_tm(&before_1970), -EINVAL);
}

static struct ktest_case cases[] = {
	KTEST_CASE(epoch_and_known_dates),
	KTEST_CASE(every_day_matches_timegm),
	KTEST_CASE(invalid_dates_refused),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
