/*
 * trace_record - what trace-cmd record does with a CPU's buffer, in
 * hex: read per_cpu/cpuN/trace_pipe_raw a page at a time and print each
 * page, for a tool on the host (scripts/trace_raw_decode.py) to decode.
 *
 *   exec trace_record 0        CPU 0's pages until the buffer is empty
 *                              (O_NONBLOCK: EAGAIN ends it, as trace-cmd's
 *                              last flush does)
 *   exec trace_record -w 0     sleep in read() until buffer_percent of the
 *                              buffer is full, then print that one page
 *   exec trace_record -s 0     snapshot_raw instead
 *
 * Each page prints as "page CPU N", then its bytes, 32 a line in hex;
 * the zeroes after the last byte that is not zero are left out.
 */
#include <stdbool.h>
#include "ulib.h"

#define PAGE_BYTES	4096
#define LINE_BYTES	32

static unsigned char page[PAGE_BYTES];

static void print_page(int cpu, int n)
{
	static const char hex[] = "0123456789abcdef";
	char line[LINE_BYTES * 2 + 2];
	int end = PAGE_BYTES;

	while (end > 0 && !page[end - 1])
		end--;
	printf("page CPU %d %d\n", cpu, n);
	for (int off = 0; off < end; off += LINE_BYTES) {
		int k = 0;

		for (int i = off; i < off + LINE_BYTES && i < end; i++) {
			line[k++] = hex[page[i] >> 4];
			line[k++] = hex[page[i] & 0xf];
		}
		line[k++] = '\n';
		write(STDOUT_FILENO, line, k);
	}
}

/* Read one whole page (a read may return less than asked). */
static long read_page(long fd)
{
	long got = 0, n;

	while (got < PAGE_BYTES) {
		n = read(fd, page + got, PAGE_BYTES - got);
		if (n <= 0)
			return got ? got : n;
		got += n;
	}
	return got;
}

int main(int argc, char **argv)
{
	bool wait = false, snapshot = false;
	char path[96];
	long fd, n;
	int cpu, i = 1, pages = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		wait |= strcmp(argv[i], "-w") == 0;
		snapshot |= strcmp(argv[i], "-s") == 0;
	}
	if (i >= argc) {
		printf("usage: trace_record [-w] [-s] CPU\n");
		return 2;
	}
	cpu = argv[i][0] - '0';
	snprintf(path, sizeof(path), "/sys/kernel/tracing/per_cpu/cpu%d/%s", cpu,
		 snapshot ? "snapshot_raw" : "trace_pipe_raw");
	fd = open(path, O_RDONLY | (wait ? 0 : O_NONBLOCK));
	if (fd < 0) {
		printf("trace_record: %s: error %ld\n", path, fd);
		return 1;
	}
	while ((n = read_page(fd)) > 0) {
		print_page(cpu, pages++);
		if (wait)
			break;
	}
	close(fd);
	printf("trace_record: %d pages (%ld)\n", pages, n);
	return 0;
}
