/* wc - count the lines, words and bytes of standard input: the reading end of a pipeline. */
#include "ulib.h"

int main(int argc, char **argv)
{
	long lines = 0, words = 0, bytes = 0, n, i;
	int in_word = 0;
	char buf[128];

	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			lines += buf[i] == '\n';
			if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t')
				in_word = 0;
			else if (!in_word && ++words)
				in_word = 1;
		}
		bytes += n;
	}
	if (n < 0) {
		printf("wc: read: error %ld\n", n);
		return 1;
	}
	printf("%ld %ld %ld\n", lines, words, bytes);
	return 0;
}
