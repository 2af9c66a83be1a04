/*
 * random.c - get_random_u32(): numbers a test can use to vary its input.
 *
 * Linux mixes interrupt timings into a ChaCha-based generator.  This
 * kernel has no entropy worth the name and no secrets to keep, so a
 * xorshift64* generator (Marsaglia; Vigna's multiplier) seeded from the
 * TSC at first use is enough: fast, well spread, different every boot.
 * Not for anything that must be unpredictable.
 */
#include "kernel.h"
#include "random.h"
#include <asm/processor.h>
#include "spinlock.h"
#include "syscalls.h"
#include "uaccess.h"
#include "errno.h"

#define XORSHIFT_MULTIPLIER	0x2545f4914f6cdd1dULL

static uint64_t random_state;
static DEFINE_SPINLOCK(random_lock);

/* A new state from the old; under the lock so two callers never share one. */
static uint64_t next_state(void)
{
	unsigned long flags;
	uint64_t x;

	spin_lock_irqsave(&random_lock, flags);
	x = random_state;

	if (!x)			/* first use (or a zero TSC): seed, never 0 */
		x = rdtsc() | 1;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	random_state = x;
	spin_unlock_irqrestore(&random_lock, flags);
	return x * XORSHIFT_MULTIPLIER;
}

uint32_t get_random_u32(void)
{
	return next_state() >> 32;	/* the high half is the well-mixed one */
}

uint64_t get_random_u64(void)
{
	return ((uint64_t)get_random_u32() << 32) | get_random_u32();
}

void get_random_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		uint32_t v = get_random_u32();

		for (int i = 0; i < 4 && len; i++, len--, v >>= 8)
			*p++ = v;
	}
}

/* getrandom()'s flags (Linux's include/uapi/linux/random.h). */
#define GRND_NONBLOCK	0x0001
#define GRND_RANDOM	0x0002
#define GRND_INSECURE	0x0004
#define GETRANDOM_CHUNK	64	/* bytes made and copied at a time */

/*
 * getrandom(buf, count, flags) (355): count bytes of the generator
 * above.  It is "ready" from the first call, so no flag ever waits;
 * unknown flags, or GRND_INSECURE with GRND_RANDOM, are -EINVAL as on
 * Linux.  glibc's malloc asks for 4 bytes at startup.
 */
asmlinkage long sys_getrandom(char __user *buf, size_t count, unsigned int flags)
{
	unsigned char chunk[GETRANDOM_CHUNK];
	size_t done = 0, n;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	while (done < count) {
		n = count - done < sizeof(chunk) ? count - done : sizeof(chunk);
		get_random_bytes(chunk, n);
		if (copy_to_user(buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return done;
}
