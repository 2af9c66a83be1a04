/*
 * insn-decode - run lib/insn.c over a flat binary, one line per
 * instruction, so its lengths can be compared with objdump's
 * (tests/host/check_insn_objdump.py).
 *
 *   build/host/insn-decode FILE [-v]
 *
 * Output: "<hex offset> <length>" or "<hex offset> bad" (then the walk
 * moves on by one byte, as a disassembler does).  With -v the type and
 * attribute bits follow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/insn.h>

static unsigned char *read_file(const char *path, long *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(*size ? *size : 1);
	if (buf && fread(buf, 1, *size, f) != (size_t)*size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct insn insn;
	unsigned char *buf;
	long size, off = 0;
	int len, verbose = argc > 2 && !strcmp(argv[2], "-v");

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [-v]\n", argv[0]);
		return 2;
	}
	buf = read_file(argv[1], &size);
	if (!buf) {
		perror(argv[1]);
		return 1;
	}
	while (off < size) {
		len = insn_decode(&insn, buf + off, (int)(size - off > INSN_MAX_LEN ?
							 INSN_MAX_LEN : size - off));
		if (len < 0) {
			printf("%lx bad\n", off);
			off++;
			continue;
		}
		if (verbose)
			printf("%lx %d %s attr=%#x\n", off, len,
			       insn_type_name(insn.type), (unsigned)insn.attr);
		else
			printf("%lx %d\n", off, len);
		off += len;
	}
	free(buf);
	return 0;
}
