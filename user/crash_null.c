/* crash_null - read through a NULL pointer: #PF in ring 3, SIGSEGV.  -q: say nothing first. */
#include "ulib.h"

int main(int argc, char **argv)
{
	volatile int *p = NULL;

	if (argc < 2 || strcmp(argv[1], "-q") != 0)
		printf("crash_null: reading *NULL\n");
	return *p;
}
