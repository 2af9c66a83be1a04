/*
 * syscaller - many system calls and some busy work between them, so
 * the scheduler preempts and moves it between CPUs; getpid() must give
 * the same answer every time.  Exit 0, or 1 on the first wrong answer.
 * argv[1]: how many rounds (default 2000).
 */
#include "ulib.h"

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? simple_strtol(argv[1], NULL, 0) : 2000;
	long me = getpid(), i;
	volatile unsigned long spin;

	for (i = 0; i < rounds; i++) {
		if (getpid() != me)
			return 1;
		for (spin = 0; spin < 2000; spin++)
			;
	}
	return 0;
}
