/*
 * rtc.h - the battery-backed clock's date and time (arch/i386/rtc.c).
 */
#ifndef ASM_RTC_H
#define ASM_RTC_H

/* Seconds since 1970-01-01 00:00 UTC, now, from the CMOS RTC. */
unsigned long long rtc_read_seconds(void);

#endif
