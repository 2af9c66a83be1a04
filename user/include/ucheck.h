/*
 * ucheck.h - the checks of a user test program: each wrong answer is one
 * "FAIL ..." line on the console (what the kernel's KTAP case reads back)
 * and one more in `failures`, which the program returns as its exit
 * status; check() also prints "ok NAME" for each right one.  A program
 * that runs in modes defines CHECK_PREFIX() before including this, to
 * name its mode and the line in each FAIL.
 */
#ifndef UCHECK_H
#define UCHECK_H

#include "ulib.h"

static int failures;

#ifndef CHECK_PREFIX
#define CHECK_PREFIX()	printf("FAIL ")
#endif

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		CHECK_PREFIX();						\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failures++;						\
	}								\
} while (0)

/* One answer against the one wanted, for the programs that print each: "ok NAME" or a FAIL. */
static inline void check(const char *name, long got, long want)
{
	if (got == want) {
		printf("ok %s\n", name);
	} else {
		printf("FAIL %s: got %ld want %ld\n", name, got, want);
		failures++;
	}
}

#endif
