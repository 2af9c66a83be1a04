/* hello - the first program: a line on the console, its pid and arguments, exit 0. */
#include "ulib.h"

int main(int argc, char **argv)
{
	int i;

	printf("Hello from user space! I am pid %ld, running in ring 3.\n", getpid());
	for (i = 1; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	return 0;
}
