/* crash_null - read through a NULL pointer: #PF in ring 3, SIGSEGV. */
#include "ulib.h"

int main(void)
{
	volatile int *p = NULL;

	printf("crash_null: reading *NULL\n");
	return *p;
}
