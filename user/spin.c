/*
 * spin - stay alive: sleep and print, argv[1] times (default: for
 * ever).  A process to `kill`, and one that keeps running while others
 * crash.
 */
#include "ulib.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? simple_strtol(argv[1], NULL, 0) : -1;
	long i;

	for (i = 0; n < 0 || i < n; i++) {
		if (msleep(50) < 0)
			break;
		if (i % 10 == 0)
			printf("spin[%ld]: %ld\n", getpid(), i);
	}
	printf("spin[%ld]: done\n", getpid());
	return 0;
}
