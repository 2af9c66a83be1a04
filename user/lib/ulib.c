/*
 * ulib.c - printf and sleep for user programs, on top of the system
 * calls.  printf formats into a buffer with the kernel's vsnprintf()
 * and writes it with one write(): one system call per line, so lines
 * from two processes never interleave mid-line.
 */
#include "ulib.h"

#define PRINTF_BUF 256

int printf(const char *fmt, ...)
{
	char buf[PRINTF_BUF];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	return write(STDOUT_FILENO, buf, n);
}

int puts(const char *s)
{
	write(STDOUT_FILENO, s, strlen(s));
	return write(STDOUT_FILENO, "\n", 1);
}

long msleep(unsigned long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	return nanosleep(&ts, NULL);
}

long sleep(unsigned long seconds)
{
	struct timespec ts = { seconds, 0 };

	return nanosleep(&ts, NULL);
}

void *sbrk(long incr)
{
	unsigned long old = brk(0);

	if (incr && brk(old + incr) != old + incr)
		return (void *)-1;	/* refused: the heap is as it was */
	return (void *)old;
}

long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_minflt;
}

#define MAX_ERRNO 4095	/* a result in [-4095, -1] is an error, any other an address */
#define PAGE_SHIFT_USER 12

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long offset)
{
	long r = mmap2(addr, len, prot, flags, fd, offset >> PAGE_SHIFT_USER);

	return (unsigned long)r >= -(unsigned long)MAX_ERRNO ? MAP_FAILED : (void *)r;
}
