/* cat - print pseudo files: open(), read() and write() from ring 3. */
#include "ulib.h"

static int cat(const char *path)
{
	char buf[128];
	long fd = open(path, O_RDONLY), n;

	if (fd < 0) {
		printf("cat: %s: error %ld\n", path, fd);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		write(STDOUT_FILENO, buf, n);
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	for (i = 1; i < argc; i++)
		ret |= cat(argv[i]);
	return ret;
}
