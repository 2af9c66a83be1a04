/*
 * cat - print files (ramfs or pseudo files): open(), read() and write()
 * from ring 3; with no file, standard input, as Unix's cat (the end of a
 * pipeline).
 */
#include "ulib.h"

static int copy(long fd)
{
	char buf[128];
	long n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		write(STDOUT_FILENO, buf, n);
	return n < 0;
}

static int cat(const char *path)
{
	long fd = open(path, O_RDONLY);
	int ret;

	if (fd < 0) {
		printf("cat: %s: error %ld\n", path, fd);
		return 1;
	}
	ret = copy(fd);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	if (argc < 2)
		return copy(STDIN_FILENO);
	for (i = 1; i < argc; i++)
		ret |= cat(argv[i]);
	return ret;
}
