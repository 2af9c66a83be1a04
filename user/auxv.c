/*
 * auxv - print what exec left on the stack past argv and envp: the
 * environment and the auxiliary vector, one "auxv TYPE VALUE" line
 * per pair, as LD_SHOW_AUXV=1 shows them on Linux; the suite "exec"
 * checks them against the ELF file.
 */
#include "ulib.h"

#define AT_NULL		0
#define AT_PLATFORM	15
#define AT_RANDOM	25
#define AT_EXECFN	31

int main(int argc, char **argv)
{
	char **envp = argv + argc + 1;
	unsigned long *aux;
	int i;

	for (i = 0; envp[i]; i++)
		printf("env %s\n", envp[i]);
	for (aux = (unsigned long *)(envp + i + 1); aux[0] != AT_NULL; aux += 2) {
		printf("auxv %lu %#lx\n", aux[0], aux[1]);
		if (aux[0] == AT_EXECFN)
			printf("execfn %s\n", (char *)aux[1]);
		if (aux[0] == AT_PLATFORM)
			printf("platform %s\n", (char *)aux[1]);
		if (aux[0] == AT_RANDOM)
			printf("random %08lx%08lx\n", ((unsigned long *)aux[1])[0],
			       ((unsigned long *)aux[1])[1]);
	}
	printf("sp %#lx\n", (unsigned long)argv - sizeof(long));
	return 0;
}
