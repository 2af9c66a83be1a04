/*
 * fuzz_probe_events.c - libFuzzer target for the kprobe_events parser
 * (and its uprobe_events and dynamic_events f: grammars).
 *
 * Each input is one line as a user could write it to tracefs, given to
 * the four parsers: kprobe_events', uprobe_events', the fprobe events'
 * (dynamic_events' f: lines) and the event probes' (e: lines, attached to a fake
 * syscalls.sys_enter_open whose fields read the input's bytes).  Built with
 * clang -fsanitize=fuzzer,address,undefined (make fuzz), so any read past
 * the input, any overflow or UB in lib/probe_events_parse.c and
 * lib/fetch_args.c is a crash.  On top of the sanitizers we check what
 * must hold for every line:
 *
 *   - a rejected line has a known error code and a position inside it;
 *     its error_log text is NUL-terminated and as long as announced;
 *   - an accepted line gives a well-formed definition within every
 *     length limit, whose SYM+offs and @SYM+offs neither wrap past 4 GiB
 *     nor leave SYM; listing it (probe_event_show) takes fewer than
 *     PROBE_LINE_MAX bytes, and parsing the listing gives the same listing;
 *   - its fetch programs run against a fake frame and a fake memory map
 *     (made of the input's own bytes) and their records print cleanly,
 *     into buffers of every small size.
 *
 *   make fuzz FUZZ_TIME=300        run for 5 minutes
 *   make fuzz-check                the short run `make test` uses
 */
#include <stdint.h>
#include <stdlib.h>
#include "errno.h"
#include "string.h"
#include "probe_events.h"

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#define FAKE_MEM 0x1000UL          /* the input bytes, seen as memory */

static const uint8_t *mem;
static size_t mem_len;

#define FAKE_FUNC      0xc0101000UL   /* do_work, FAKE_FUNC_SIZE bytes */
#define FAKE_FUNC_SIZE 0x20UL
#define FAKE_TOP       0xffffff00UL   /* "top": near 4 GiB, size unknown */

static unsigned long fake_lookup(const char *name)
{
	if (!strcmp(name, "do_work"))
		return FAKE_FUNC;
	if (!strcmp(name, "jiffies"))
		return FAKE_MEM;
	if (!strcmp(name, "top"))
		return FAKE_TOP;
	return 0;
}

static unsigned long fake_symbol_size(unsigned long addr)
{
	return addr == FAKE_FUNC ? FAKE_FUNC_SIZE : 0;
}

static long fake_read(void *dst, const void *src, size_t size)
{
	unsigned long addr = (unsigned long)src;

	if (addr < FAKE_MEM || size > mem_len || addr - FAKE_MEM > mem_len - size)
		return -EFAULT;
	memcpy(dst, mem + (addr - FAKE_MEM), size);
	return 0;
}

static const char *fake_comm(void)
{
	return "fuzz";
}

static int fake_sprint_symbol(char *buf, size_t len, unsigned long addr)
{
	const char name[] = "do_work+0x0/0x20";
	size_t n = sizeof(name) - 1;

	if (len) {
		size_t c = n < len - 1 ? n : len - 1;
		memcpy(buf, name, c);
		buf[c] = '\0';
	}
	return (int)n;
}

static const struct probe_parse_ops parse_ops = {
	.lookup_name = fake_lookup, .symbol_size = fake_symbol_size,
};

/* Event probes: one event to attach to, four fields, any filter but "bad". */
static bool fake_event_exists(const char *system, const char *event)
{
	return !strcmp(system, "syscalls") && !strcmp(event, "sys_enter_open");
}

static int fake_event_field(const char *system, const char *event, const char *name)
{
	static const char *const names[] = { "__syscall_nr", "filename", "flags", "mode" };

	for (int i = 0; fake_event_exists(system, event) && i < 4; i++)
		if (!strcmp(names[i], name))
			return 8 + i;
	return -1;
}

static bool fake_filter_ok(const char *system, const char *event, const char *filter)
{
	return strcmp(filter, "bad") != 0;
}

static const struct probe_parse_ops eprobe_ops = {
	.lookup_name = fake_lookup, .event_exists = fake_event_exists,
	.event_field = fake_event_field, .filter_ok = fake_filter_ok,
};

/* A field of the attached record: an address in the input's bytes. */
static unsigned long fake_record_field(const void *ctx, unsigned long field)
{
	return FAKE_MEM + field;
}
/* A uprobe's @+OFFS: the input's bytes are the loaded file. */
static unsigned long fake_file_offset_to_vaddr(const void *ctx, unsigned long offs)
{
	return FAKE_MEM + offs;
}

static const struct fetch_ops fetch_ops = {
	.read_mem = fake_read, .read_user = fake_read, .comm = fake_comm,
	.sprint_symbol = fake_sprint_symbol,
	.file_offset_to_vaddr = fake_file_offset_to_vaddr,
	.event_field = fake_record_field,
};

/* A printer's output fits, is terminated and has the announced length. */
static void check_printed(const char *buf, size_t size, int n)
{
	CHECK(n >= 0);
	if (size)
		CHECK(strlen(buf) == ((size_t)n < size ? (size_t)n : size - 1));
}

/* Which grammar: kprobe_events', uprobe_events', dynamic_events' e: or f: lines. */
enum parser { KPROBE, UPROBE, EPROBE, FPROBE, NR_PARSERS };

static void check_rejected(enum parser kind, const char *line, size_t len,
			   const struct probe_parse_error *err)
{
	static char buf[2 * PROBE_LINE_MAX + 64];
	int n;

	/* An event probe line may be refused with nothing to log (its filter's own log);
	 * any line whose first letter is no kind's command is refused unlogged, as Linux's
	 * -ECANCELED, and so is a uprobe line whose point is no PATH:OFFSET. */
	if (err->code == PROBE_ERR_NONE && (kind == EPROBE || len == 0 || !strchr("pr-", line[0]) ||
					    (kind == FPROBE && line[0] != 'f') || kind == UPROBE))
		return;
	CHECK(err->code > PROBE_ERR_NONE && err->code < PROBE_ERR_COUNT);
	/* "No filter rule after 'if'" is one blank past the line, as Linux's caret */
	CHECK(err->pos >= 0 &&
	      (size_t)err->pos <= len + (err->code == PROBE_ERR_NO_EP_FILTER));
	CHECK(probe_err_msg(err->code)[0]);
	n = probe_err_format(buf, sizeof(buf), line, len, err);
	check_printed(buf, sizeof(buf), n);
	check_printed(buf, 13, probe_err_format(buf, 13, line, len, err));
}

/*
 * The numbers a user gave, added up, are the address used: SYM+offs is
 * inside SYM when its size is known and never wraps past 4 GiB.
 */
static void check_probe_address(const struct probe_event_def *def)
{
	unsigned long base, size;

	if (def->uprobe || def->eprobe || !def->symbol[0])
		return;
	base = fake_lookup(def->symbol);
	size = fake_symbol_size(base);
	CHECK(base && def->addr >= base && def->addr - base == def->offset);
	CHECK(def->addr <= 0xffffffffUL);
	if (size)
		CHECK(def->offset < size);
}

/* @SYM+offs: an immediate address, then a dereference at a signed offset. */
static void check_memory_address(const struct probe_arg *a)
{
	long long sum;

	if (a->comm[0] != '@' || a->nr_ops != 2 || a->ops[0].code != FETCH_OP_IMM)
		return;
	/* (long): the offset as signed, on a 32-bit or a 64-bit host alike. */
	sum = (long long)a->ops[0].param + (long long)(long)a->ops[1].param;
	CHECK(sum >= 0 && sum <= 0xffffffffLL);
}

static void check_def(const struct probe_event_def *def)
{
	check_probe_address(def);
	CHECK(def->nr_args >= 0 && def->nr_args <= PROBE_MAX_ARGS);
	CHECK(strnlen(def->group, PROBE_NAME_LEN) < PROBE_NAME_LEN && def->group[0]);
	CHECK(strnlen(def->event, PROBE_NAME_LEN) < PROBE_NAME_LEN && def->event[0]);
	for (int i = 0; i < def->nr_args; i++) {
		const struct probe_arg *a = &def->args[i];
		CHECK(a->nr_ops >= 1 && a->nr_ops <= PROBE_MAX_OPS);
		CHECK(a->type >= FETCH_TYPE_U8 && a->type <= FETCH_TYPE_SYMSTR);
		CHECK(a->count <= PROBE_ARRAY_MAX);
		CHECK(!a->bitfield || (a->bf_lshift < 64 && a->bf_rshift < 64));
		CHECK(a->name[0] && a->comm[0]);
		CHECK(strnlen(a->name, PROBE_ARG_NAME_MAX + 1) <= PROBE_ARG_NAME_MAX);
		CHECK(strnlen(a->comm, PROBE_ARG_TEXT_MAX + 1) <= PROBE_ARG_TEXT_MAX);
		check_memory_address(a);
	}
}

static int parse(enum parser kind, const char *line, size_t len, struct probe_event_def *def,
		 struct probe_parse_error *err)
{
	if (kind == UPROBE)
		return uprobe_event_parse(line, len, NULL, def, err);
	if (kind == EPROBE)
		return eprobe_event_parse(line, len, &eprobe_ops, def, err);
	if (kind == FPROBE)
		return fprobe_event_parse(line, len, &parse_ops, def, err);
	return probe_event_parse(line, len, &parse_ops, def, err);
}

static enum parser kind_of(const struct probe_event_def *def)
{
	return def->eprobe ? EPROBE : def->uprobe ? UPROBE : def->fprobe ? FPROBE : KPROBE;
}

/* Listing a definition and parsing the listing changes nothing. */
static void check_round_trip(const struct probe_event_def *def)
{
	static struct probe_event_def again;
	static char shown[2 * PROBE_LINE_MAX], reshown[2 * PROBE_LINE_MAX];
	struct probe_parse_error err;
	int n;

	n = probe_event_show(shown, sizeof(shown), def);
	check_printed(shown, sizeof(shown), n);
	/* kprobe_events prints each listing from a PROBE_LINE_MAX buffer. */
	CHECK(n < PROBE_LINE_MAX);
	CHECK(parse(kind_of(def), shown, (size_t)n, &again, &err) == 0);
	probe_event_show(reshown, sizeof(reshown), &again);
	CHECK(!strcmp(shown, reshown));
	check_printed(shown, 7, probe_event_show(shown, 7, def));
}

/* Run every program against a frame made of input bytes and print. */
static void check_fetch(const struct probe_event_def *def, const uint8_t *data,
			size_t size)
{
	static struct {
		struct pt_regs regs;
		unsigned long stack[4];
	} frame;
	/* Every argument an array of the longest strings. */
	static unsigned char rec[PROBE_MAX_ARGS * PROBE_ARRAY_MAX *
				 (sizeof(struct fetch_value) + PROBE_STRING_MAX)];
	static char out[PROBE_MAX_ARGS * PROBE_ARRAY_MAX * (PROBE_STRING_MAX + 64)];
	size_t recsize;
	int n;

	memset(&frame, 0, sizeof(frame));
	memcpy(&frame, data, size < sizeof(frame) ? size : sizeof(frame));
	mem = data;
	mem_len = size;
	recsize = probe_args_record_max(def);
	CHECK(recsize <= sizeof(rec));
	/* A record buffer cut short by the input's length, too. */
	if (size & 1)
		recsize = recsize / 2 + size % 64;
	n = probe_args_fetch(def, &frame.regs, &fetch_ops, rec, recsize);
	if (n < 0) {
		CHECK(n == -ENOSPC);
		return;
	}
	CHECK((size_t)n <= recsize);
	check_printed(out, sizeof(out),
		      probe_args_format(out, sizeof(out), def, rec, (size_t)n,
					fake_sprint_symbol));
	for (size_t s = 0; s < 24; s += 5)
		check_printed(out, s, probe_args_format(s ? out : NULL, s, def, rec,
							(size_t)n, NULL));
	/* A cut record must not be read past its end. */
	check_printed(out, sizeof(out),
		      probe_args_format(out, sizeof(out), def, rec, (size_t)n / 2,
					NULL));
}

/* Each line goes to every parser: kprobe_events', uprobe_events', e:'s, f:'s. */
static void check_line(enum parser kind, const uint8_t *data, size_t size)
{
	static struct probe_event_def def;
	struct probe_parse_error err;
	const char *line = (const char *)data;
	int ret;

	ret = parse(kind, line, size, &def, &err);
	if (ret) {
		CHECK(ret == -EINVAL);
		check_rejected(kind, line, size, &err);
		return;
	}
	CHECK(err.code == PROBE_ERR_NONE);
	if (def.cmd != PROBE_CMD_ADD)
		return;
	CHECK(kind_of(&def) == kind);
	check_def(&def);
	check_round_trip(&def);
	check_fetch(&def, data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int kind = KPROBE; kind < NR_PARSERS; kind++)
		check_line((enum parser)kind, data, size);
	return 0;
}
