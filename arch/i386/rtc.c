/*
 * rtc.c - the PC's CMOS real-time clock (Motorola MC146818 and its
 * successors; Linux's arch/x86/kernel/rtc.c and mc146818_get_time()).
 *
 * A battery keeps it counting while the machine is off: it is the only
 * wall time a PC has at boot.  Its registers sit behind two ports: write
 * a register's number to the index port, read its value from the data
 * port.  Three things make reading it more than ten inb()s:
 *
 *   - once a second it updates its registers, and a read in the middle
 *     can see 12:59:59 turn into 13:00:00 half way (13:59:00).  Register
 *     A's UIP bit rises 244 us before an update and falls after it:
 *     read while UIP is clear, and if UIP is still clear afterwards no
 *     update came in between (reading takes far less than 244 us);
 *   - the values are BCD (0x59 is 59) unless register B says binary;
 *   - the hour may be 12-hour, with bit 7 for PM, unless register B
 *     says 24-hour; and the year is two digits: the century has a
 *     register of its own (0x32 on the IBM PC/AT, where ACPI's FADT
 *     says it is on every PC since, and where QEMU keeps it).
 */
#include "kernel.h"
#include "rtc.h"
#include "spinlock.h"
#include "errno.h"
#include <asm/io.h>

#define RTC_PORT_INDEX	0x70	/* bit 7 also masks the NMI: left 0, NMIs stay on */
#define RTC_PORT_DATA	0x71

/* The registers (Linux's include/linux/mc146818rtc.h). */
#define RTC_SECONDS		0x00
#define RTC_MINUTES		0x02
#define RTC_HOURS		0x04
#define RTC_DAY_OF_MONTH	0x07
#define RTC_MONTH		0x08
#define RTC_YEAR		0x09
#define RTC_REG_A		0x0a
#define RTC_REG_B		0x0b
#define RTC_CENTURY		0x32	/* the PC/AT's; ACPI FADT's "century" names it */

#define RTC_UIP		0x80	/* register A: an update is in progress or coming */
#define RTC_24H		0x02	/* register B: hours 0-23, else 1-12 and RTC_PM */
#define RTC_DM_BINARY	0x04	/* register B: binary values, else BCD */
#define RTC_PM		0x80	/* the hour's bit 7 in 12-hour mode */

/* An update lasts at most 1984 us after UIP rises 244 us before it; an inb is ~1 us. */
#define RTC_UIP_SPINS	10000
#define RTC_READ_TRIES	10

static DEFINE_SPINLOCK(rtc_lock);	/* the index port: one register at a time */

static unsigned int cmos_read(unsigned int reg)
{
	outb(RTC_PORT_INDEX, reg);
	return inb(RTC_PORT_DATA);
}

/* 0x59 -> 59 (Linux's bcd2bin()). */
static unsigned int rtc_bcd_to_bin(unsigned int v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

static bool rtc_uip_wait(void)
{
	for (int i = 0; i < RTC_UIP_SPINS; i++)
		if (!(cmos_read(RTC_REG_A) & RTC_UIP))
			return true;
	return false;
}

/* The registers as they are, no update between: true, or false if the clock never settles. */
static bool rtc_read_raw(struct rtc_time *raw, unsigned int *century, unsigned int *reg_b)
{
	for (int tries = 0; tries < RTC_READ_TRIES; tries++) {
		if (!rtc_uip_wait())
			return false;
		raw->tm_sec = cmos_read(RTC_SECONDS);
		raw->tm_min = cmos_read(RTC_MINUTES);
		raw->tm_hour = cmos_read(RTC_HOURS);
		raw->tm_mday = cmos_read(RTC_DAY_OF_MONTH);
		raw->tm_mon = cmos_read(RTC_MONTH);
		raw->tm_year = cmos_read(RTC_YEAR);
		*century = cmos_read(RTC_CENTURY);
		*reg_b = cmos_read(RTC_REG_B);
		if (!(cmos_read(RTC_REG_A) & RTC_UIP))
			return true;
	}
	return false;
}

/* 12-hour mode: 12 AM is 0, 12 PM is 12 (the PM bit already taken out). */
static int rtc_hour_24(unsigned int hour, bool pm)
{
	return hour % 12 + (pm ? 12 : 0);
}

int mach_get_cmos_time(struct rtc_time *tm)
{
	unsigned int century, reg_b, year;
	unsigned long flags;
	bool pm, ok;

	spin_lock_irqsave(&rtc_lock, flags);
	ok = rtc_read_raw(tm, &century, &reg_b);
	spin_unlock_irqrestore(&rtc_lock, flags);
	if (!ok)
		return -EBUSY;
	pm = !(reg_b & RTC_24H) && (tm->tm_hour & RTC_PM);
	tm->tm_hour &= ~RTC_PM;
	if (!(reg_b & RTC_DM_BINARY)) {
		tm->tm_sec = rtc_bcd_to_bin(tm->tm_sec);
		tm->tm_min = rtc_bcd_to_bin(tm->tm_min);
		tm->tm_hour = rtc_bcd_to_bin(tm->tm_hour);
		tm->tm_mday = rtc_bcd_to_bin(tm->tm_mday);
		tm->tm_mon = rtc_bcd_to_bin(tm->tm_mon);
		tm->tm_year = rtc_bcd_to_bin(tm->tm_year);
		century = rtc_bcd_to_bin(century);
	}
	if (!(reg_b & RTC_24H))
		tm->tm_hour = rtc_hour_24(tm->tm_hour, pm);
	/* No century register (it reads 0): Linux's guess, 70-99 is the 1900s. */
	year = (unsigned int)tm->tm_year;
	year += century ? century * 100 : year < 70 ? 2000 : 1900;
	tm->tm_year = year - 1900;
	tm->tm_mon -= 1;		/* the RTC counts months from 1 */
	return rtc_valid_tm(tm);
}
