/* div0 - divide by zero: #DE in ring 3, SIGFPE. */
#include "ulib.h"

int main(void)
{
	unsigned int q = 1, r = 0, d = 0;

	printf("div0: 1 / 0\n");
	__asm__ __volatile__("divl %2" : "+a"(q), "+d"(r) : "r"(d));
	return q;
}
