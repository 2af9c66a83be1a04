/* ud2 - the defined invalid opcode: #UD in ring 3, SIGILL. */
#include "ulib.h"

int main(void)
{
	printf("ud2: an invalid opcode\n");
	__asm__ __volatile__("ud2");
	return 0;
}
