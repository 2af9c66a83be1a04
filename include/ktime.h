/*
 * ktime.h - time as Linux's ktime_t: signed 64-bit nanoseconds.
 * ktime_get() (kernel/ktime.c): monotonic, PIT ticks refined by the TSC.
 */
#ifndef KTIME_H
#define KTIME_H

#include <stdint.h>
#include <stdbool.h>

typedef int64_t ktime_t;

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define USEC_PER_MSEC	1000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000LL

ktime_t ktime_get(void);
/* kernel/time.c: nanoseconds since 1970-01-01 UTC, the RTC's date at the first call plus ktime_get()'s since. */
ktime_t ktime_get_real(void);
void ktime_init(void);		/* follow the PIT's ticks (from kmain) */

static inline ktime_t ktime_sub(ktime_t a, ktime_t b) { return a - b; }
static inline ktime_t ktime_add(ktime_t a, ktime_t b) { return a + b; }
static inline ktime_t ns_to_ktime(uint64_t ns) { return (ktime_t)ns; }
static inline int64_t ktime_to_ns(ktime_t kt) { return kt; }
static inline int64_t ktime_to_us(ktime_t kt) { return kt / NSEC_PER_USEC; }
static inline int64_t ktime_to_ms(ktime_t kt) { return kt / NSEC_PER_MSEC; }
static inline uint64_t ktime_get_ns(void) { return ktime_get(); }
static inline int ktime_compare(ktime_t a, ktime_t b) { return a < b ? -1 : a > b; }
static inline bool ktime_before(ktime_t a, ktime_t b) { return a < b; }
static inline bool ktime_after(ktime_t a, ktime_t b) { return a > b; }

#endif
