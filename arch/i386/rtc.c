/*
 * rtc.c - the wall-clock time at boot, from the PC's battery-backed
 * clock (the MC146818 "CMOS" RTC; Linux's arch/x86/kernel/rtc.c and
 * drivers/rtc/rtc-mc146818-lib.c).
 *
 * The PIT and the TSC count time since boot; only the RTC knows the
 * date.  Its registers are read through an index port and a data port.
 * While the chip updates its counters (once a second, for ~2 ms) it
 * sets UIP and the registers may be half old, half new: wait for UIP
 * clear, read, and read again until two readings agree.  The values
 * are BCD unless register B says binary; QEMU's clock is the host's
 * time in UTC.
 */
#include "kernel.h"
#include "spinlock.h"
#include "string.h"
#include <asm/io.h>
#include <asm/rtc.h>

#define RTC_PORT_INDEX	0x70
#define RTC_PORT_DATA	0x71
#define RTC_SECONDS	0x00
#define RTC_MINUTES	0x02
#define RTC_HOURS	0x04
#define RTC_DAY_OF_MONTH 0x07
#define RTC_MONTH	0x08
#define RTC_YEAR	0x09
#define RTC_REG_A	0x0a
#define RTC_UIP		0x80	/* update in progress */
#define RTC_REG_B	0x0b
#define RTC_DM_BINARY	0x04	/* the values are binary, not BCD */
#define RTC_24H		0x02
#define RTC_PM		0x80	/* in the hours register, 12-hour mode */
#define HOURS_PER_HALF_DAY 12
#define RTC_CENTURY_PIVOT 70	/* two-digit years below it are 20xx (Linux's guess) */

static DEFINE_SPINLOCK(rtc_lock);	/* the index port is shared state */

static unsigned int cmos_read(unsigned int reg)
{
	outb(RTC_PORT_INDEX, reg);
	return inb(RTC_PORT_DATA);
}

static unsigned int bcd2bin(unsigned int v)
{
	return (v & 0xf) + (v >> 4) * 10;
}

struct rtc_time_regs {
	unsigned int sec, min, hour, mday, mon, year;
};

static void rtc_read_regs(struct rtc_time_regs *t)
{
	while (cmos_read(RTC_REG_A) & RTC_UIP)
		;
	t->sec = cmos_read(RTC_SECONDS);
	t->min = cmos_read(RTC_MINUTES);
	t->hour = cmos_read(RTC_HOURS);
	t->mday = cmos_read(RTC_DAY_OF_MONTH);
	t->mon = cmos_read(RTC_MONTH);
	t->year = cmos_read(RTC_YEAR);
}

/* Days from 1970-01-01 to year-mon-mday (Linux's mktime64(), Gauss's way). */
static unsigned long long days_since_epoch(unsigned int year, unsigned int mon,
					   unsigned int mday)
{
	if ((int)(mon -= 2) <= 0) {	/* March first: February's leap day comes last */
		mon += 12;
		year -= 1;
	}
	return (unsigned long long)(year / 4 - year / 100 + year / 400 + 367 * mon / 12 + mday) +
	       year * 365ULL - 719499;
}

static unsigned long long rtc_to_seconds(struct rtc_time_regs *t, unsigned int regb)
{
	bool pm = !(regb & RTC_24H) && (t->hour & RTC_PM);

	t->hour &= ~RTC_PM;
	if (!(regb & RTC_DM_BINARY)) {
		t->sec = bcd2bin(t->sec);
		t->min = bcd2bin(t->min);
		t->hour = bcd2bin(t->hour);
		t->mday = bcd2bin(t->mday);
		t->mon = bcd2bin(t->mon);
		t->year = bcd2bin(t->year);
	}
	if (!(regb & RTC_24H))
		t->hour = t->hour % HOURS_PER_HALF_DAY + (pm ? HOURS_PER_HALF_DAY : 0);
	t->year += t->year < RTC_CENTURY_PIVOT ? 2000 : 1900;
	return ((days_since_epoch(t->year, t->mon, t->mday) * 24 + t->hour) * 60 + t->min) * 60 +
	       t->sec;
}

unsigned long long rtc_read_seconds(void)
{
	struct rtc_time_regs a, b;
	unsigned long flags;
	unsigned int regb;

	spin_lock_irqsave(&rtc_lock, flags);
	rtc_read_regs(&b);
	do {
		a = b;
		rtc_read_regs(&b);
	} while (memcmp(&a, &b, sizeof(a)) != 0);
	regb = cmos_read(RTC_REG_B);
	spin_unlock_irqrestore(&rtc_lock, flags);
	return rtc_to_seconds(&a, regb);
}
