/*
 * probe_events.h - parsing and fetching for Linux-style kprobe_events.
 *
 * A user writes one line per probe into tracefs' kprobe_events file:
 *
 *   p:mygrp/open do_open+4 fd=%ax name=+0(%dx):string
 *   r:open_ret do_open $retval
 *   -:mygrp/open
 *
 * The code behind this header is pure (lib/probe_events_parse.c and
 * lib/fetch_args.c): it builds on the host as well as in the kernel, it
 * never allocates, and it reaches the outside world only through the
 * callbacks below.  That lets the host unit tests and the fuzzer drive it
 * with a fake register frame and fake memory.  The three steps are:
 *
 *   1. probe_event_parse()  one line -> struct probe_event_def, with every
 *      FETCHARG compiled into a tiny program of fetch ops.  On error:
 *      -EINVAL and an error code + byte position for tracefs' error_log.
 *   2. probe_args_fetch()   at a probe hit: run each program against the
 *      trapped pt_regs, reading memory through a fault-safe callback, and
 *      pack the raw values into a record (the trace buffer's payload).
 *   3. probe_args_format()  when `trace` is read: turn a record into
 *      Linux's text, " fd=0x3 name=\"foo\"".
 *
 * docs/kprobe_events_grammar.md is the grammar with an example of every
 * form and every error message.
 */
#ifndef PROBE_EVENTS_H
#define PROBE_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <asm/ptrace.h>

/* ---- limits (Linux's values where Linux has one) -------------------- */
#define PROBE_LINE_MAX         4096  /* one command line, like tracefs' write buffer */
#define PROBE_NAME_LEN           64  /* MAX_EVENT_NAME_LEN: buffer incl. NUL, so <= 63 chars */
#define PROBE_GROUP_DEFAULT    "kprobes"
#define PROBE_GROUP_UPROBES    "uprobes"  /* uprobe_events' default group */
#define PROBE_GROUP_FPROBES    "fprobes"  /* f: events' default group (Linux 6.7+) */
#define PROBE_SYMBOL_LEN        128  /* KSYM_NAME_LEN: buffer incl. NUL */
#define PROBE_MAX_ARGS          128  /* MAX_TRACE_ARGS */
#define PROBE_ARG_NAME_MAX       32  /* MAX_ARG_NAME_LEN (chars) */
#define PROBE_ARG_TEXT_MAX       63  /* MAX_ARGSTR_LEN: one FETCHARG's text (chars) */
#define PROBE_MAX_DEREF           8  /* nesting of +OFFS(...) and @ */
#define PROBE_MAX_OPS  (1 + PROBE_MAX_DEREF)  /* one load, then the dereferences */
#define PROBE_MAX_STACK_NR     1024  /* largest N in $stackN / $argN */
#define PROBE_MAXACTIVE_MAX    4096  /* KRETPROBE_MAXACTIVE_MAX */
#define PROBE_STRING_MAX        256  /* bytes kept of one fetched :string */
#define PROBE_GROUP_EPROBES "eprobes"     /* an event probe's default group */
#define PROBE_EP_FILTER_MAX    1024  /* an event probe's "if" filter (FILTER_TEXT_MAX) */
/* $stackN: word N above the stack pointer.  $argN is a register or
 * one of these words (regs_get_kernel_argument(), asm/ptrace.h). */
#define PROBE_STACK_WORD  sizeof(unsigned long)

/* ---- error codes: one line each, the message tracefs' error_log prints.
 * The wording is Linux's (the ERRORS table of kernel/trace/trace_probe.h,
 * 6.1, and BAD_SYMSTRING of 6.2) where Linux has the error; the last few
 * are ours. */
#define PROBE_ERRORS                                                              \
	E(NONE,             "No error")                                               \
	E(FILE_NOT_FOUND,   "Failed to find the given file")                          \
	E(NO_REGULAR_FILE,  "Not a regular file")                                     \
	E(BAD_REFCNT,       "Invalid reference counter offset")                       \
	E(REFCNT_OPEN_BRACE, "Reference counter brace is not closed")                 \
	E(BAD_REFCNT_SUFFIX, "Reference counter has wrong suffix")                    \
	E(BAD_UPROBE_OFFS,  "Invalid uprobe offset")                                  \
	E(BAD_MAXACT_TYPE,  "Maxactive is only for function exit")                    \
	E(BAD_MAXACT,       "Invalid maxactive number")                               \
	E(MAXACT_TOO_BIG,   "Maxactive is too big")                                   \
	E(BAD_PROBE_ADDR,   "Invalid probed address or symbol")                       \
	/* the same, for a symbol kallsyms does not have: ENOENT, not EINVAL */       \
	E(NO_SUCH_SYMBOL,   "Invalid probed address or symbol")                       \
	E(BAD_RETPROBE,     "Retprobe address must be an function entry")             \
	E(BAD_ADDR_SUFFIX,  "Invalid probed address suffix")                          \
	E(NO_GROUP_NAME,    "Group name is not specified")                            \
	E(GROUP_TOO_LONG,   "Group name is too long")                                 \
	E(BAD_GROUP_NAME,   "Group name must follow the same rules as C identifiers") \
	E(NO_EVENT_NAME,    "Event name is not specified")                            \
	E(EVENT_TOO_LONG,   "Event name is too long")                                 \
	E(BAD_EVENT_NAME,   "Event name must follow the same rules as C identifiers") \
	E(RETVAL_ON_PROBE,  "$retval is not available on probe")                      \
	E(BAD_STACK_NUM,    "Invalid stack number")                                   \
	E(BAD_ARG_NUM,      "Invalid argument number")                                \
	E(BAD_VAR,          "Invalid $-valiable specified")                            \
	E(BAD_REG_NAME,     "Invalid register name")                                  \
	E(BAD_MEM_ADDR,     "Invalid memory address")                                 \
	E(BAD_IMM,          "Invalid immediate value")                                \
	E(IMMSTR_NO_CLOSE,  "String is not closed with '\"'")                         \
	E(FILE_ON_KPROBE,   "File offset is not available with kprobe")               \
	E(BAD_FILE_OFFS,    "Invalid file offset value")                              \
	E(SYM_ON_UPROBE,    "Symbol is not available with uprobe")                    \
	E(TOO_MANY_OPS,     "Dereference is too much nested")                         \
	E(DEREF_NEED_BRACE, "Dereference needs a brace")                              \
	E(BAD_DEREF_OFFS,   "Invalid dereference offset")                             \
	E(DEREF_OPEN_BRACE, "Dereference brace is not closed")                        \
	E(COMM_CANT_DEREF,  "$comm can not be dereferenced")                          \
	E(BAD_FETCH_ARG,    "Invalid fetch argument")                                 \
	E(ARRAY_NO_CLOSE,   "Array is not closed")                                    \
	E(BAD_ARRAY_SUFFIX, "Array has wrong suffix")                                 \
	E(BAD_ARRAY_NUM,    "Invalid array size")                                     \
	E(ARRAY_TOO_BIG,    "Array number is too big")                                \
	E(BAD_TYPE,         "Unknown type is specified")                              \
	E(BAD_STRING,       "String accepts only memory argument")                    \
	E(BAD_SYMSTRING,    "Symbol String doesn't accept data/userdata")             \
	E(BAD_BITFIELD,     "Invalid bitfield")                                       \
	E(NEED_STRING_TYPE, "$comm and immediate-string only accepts string type")    \
	E(ARG_NAME_TOO_LONG, "Argument name is too long")                             \
	E(NO_ARG_NAME,      "Argument name is not specified")                         \
	E(BAD_ARG_NAME,     "Argument name must follow the same rules as C identifiers") \
	E(USED_ARG_NAME,    "This argument name is already used")                     \
	E(ARG_TOO_LONG,     "Argument expression is too long")                        \
	E(NO_ARG_BODY,      "No argument expression")                                 \
	E(TOO_MANY_ARGS,    "Too many arguments are specified")                       \
	E(FAIL_REG_PROBE,   "Failed to register probe event")                         \
	E(DIFF_PROBE_TYPE,  "Probe type is different from existing probe")            \
	E(DIFF_ARG_TYPE,    "Argument type or name is different from existing probe") \
	E(SAME_PROBE,       "There is already the exact same probe event")            \
	E(EVENT_EXIST,      "Given group/event name is already used by another event") \
	E(NO_EVENT_INFO,    "This requires both group and event name to attach")      \
	E(BAD_ATTACH_EVENT, "Attached event does not exist")                          \
	E(BAD_ATTACH_ARG,   "Attached event does not have this field")                \
	E(NO_EP_FILTER,     "No filter rule after 'if'")                              \
	/* ours: Linux fails these with a bare -EINVAL or a pr_warn */               \
	E(BAD_CMD,          "Probe type must be 'p', 'r' or '-'")                     \
	E(NO_PROBE_POINT,   "Probe point is not specified")                           \
	E(LINE_TOO_LONG,    "Line is too long")                                       \
	E(BAD_CHAR,         "Invalid character")                                      \
	E(BAD_FPROBE_CMD,   "Probe type must be 'f' or '-'")

#define E(code, msg) PROBE_ERR_##code,
enum probe_err { PROBE_ERRORS PROBE_ERR_COUNT };
#undef E

/* Where a line went wrong: pos is the byte offset of the bad token in
 * the line as given (probe_err_format() draws the caret from it). */
struct probe_parse_error {
	enum probe_err code;
	int pos;
	int errnum;	/* the errno the write returns; 0: the code's usual one */
};

/* The message for an error code ("Invalid argument" for unknown codes). */
const char *probe_err_msg(enum probe_err code);

/*
 * Linux's error_log body for a failed line, two lines:
 *   "  Command: p:myprobe do_sys_open foo\n"
 *   "                                 ^\n"
 * The command is the line's words joined by single spaces (comments and
 * extra blanks dropped, unprintable bytes shown as '?') and the caret sits
 * under err->pos.  Returns the length it wanted, like snprintf.
 */
int probe_err_format(char *buf, size_t size, const char *line, size_t len,
		     const struct probe_parse_error *err);

/* ---- compiled FETCHARGs ----------------------------------------------- */

/* One step of an argument's fetch program.  `val` is the running value. */
enum fetch_op_code {
	FETCH_OP_REG = 1,    /* val = word at byte offset param in pt_regs */
	FETCH_OP_STACKP,     /* val = kernel_stack_pointer(regs) ($stack, %sp) */
	FETCH_OP_STACK,      /* val = stack word number param ($stackN, $arg4 on) */
	FETCH_OP_IMM,        /* val = param (\IMM, and the address of @ADDR/@SYM) */
	FETCH_OP_COMM,       /* the current task's name ($comm), a string */
	FETCH_OP_IMMSTR,     /* \"text": the string stored in the arg's comm */
	FETCH_OP_DEREF,      /* val = memory at val + param (signed offset) */
	FETCH_OP_UDEREF,     /* the same in user memory (+uOFFS(...)), read_user */
	FETCH_OP_FOFFS,      /* val = where file offset param is loaded (@+OFFS, uprobes) */
	FETCH_OP_TP_ARG,     /* val = field number param of the attached event ($FIELD, eprobes) */
};

struct fetch_op {
	uint8_t code;             /* enum fetch_op_code */
	unsigned long param;      /* see above; offsets wrap like addresses */
};

/* The :TYPE of an argument. */
enum fetch_type {
	FETCH_TYPE_U8 = 1, FETCH_TYPE_U16, FETCH_TYPE_U32, FETCH_TYPE_U64,
	FETCH_TYPE_S8, FETCH_TYPE_S16, FETCH_TYPE_S32, FETCH_TYPE_S64,
	FETCH_TYPE_X8, FETCH_TYPE_X16, FETCH_TYPE_X32, FETCH_TYPE_X64,
	FETCH_TYPE_STRING,
	FETCH_TYPE_SYMBOL,        /* a word printed as sym+0xoff/0xsize */
	FETCH_TYPE_USTRING,       /* a string in user space: read through read_user */
	FETCH_TYPE_CHAR,          /* one byte printed as a character: 'a' */
	FETCH_TYPE_SYMSTR,        /* a word stored as the text "sym+0xoff/0xsize" */
};
#define FETCH_TYPE_DEFAULT FETCH_TYPE_X32   /* "x" + BITS_PER_LONG on i386 */

/* Name of a fetch type as written after ':' ("u8", "string"...). */
const char *fetch_type_name(enum fetch_type type);

#define PROBE_ARRAY_MAX 64   /* MAX_ARRAY_LEN: elements of :TYPE[N] */

/* One parsed FETCHARG: "name=comm:type" compiled into ops[]. */
struct probe_arg {
	char name[PROBE_ARG_NAME_MAX + 1];   /* "arg3" when not given */
	char comm[PROBE_ARG_TEXT_MAX + 1];   /* the text after "name=", as written */
	uint8_t type;                        /* enum fetch_type */
	/* :TYPE[N]: N elements one after another in memory (for
	 * :string[N], N pointers to strings); 0 for one value. */
	uint8_t count;
	/* :bBW@BO/SIZE: shift left by bf_lshift, then right by bf_rshift,
	 * in the container's width (Linux's FETCH_OP_MOD_BF). */
	bool bitfield;
	uint8_t bf_lshift, bf_rshift;
	uint8_t nr_ops;
	/* For :string the last op is DEREF (the string is AT val + param),
	 * COMM or IMMSTR; for :ustring, DEREF. */
	struct fetch_op ops[PROBE_MAX_OPS];
};

/* ---- parsed lines ---------------------------------------------------- */

enum probe_cmd {
	PROBE_CMD_NONE = 0,    /* blank or comment-only line: nothing to do */
	PROBE_CMD_ADD,         /* p..., r... or f... */
	PROBE_CMD_DELETE,      /* -:[GRP/]EVENT */
};

/*
 * Everything one line says.  Big (about 22 KiB with 128 args), so the
 * kernel keeps it on the heap, never on a thread stack.  Filled only by
 * probe_event_parse(); nothing in it points outside itself, and entries
 * of args[] past nr_args are left as they were (never read).
 */
struct probe_event_def {
	enum probe_cmd cmd;
	bool is_return;                 /* 'r', or f's SYM%return */
	int maxactive;                  /* r[MAXACTIVE], f[MAXACTIVE]; 0 = default */
	char group[PROBE_NAME_LEN];     /* "kprobes" by default */
	char event[PROBE_NAME_LEN];     /* "p_do_work_0" style by default */
	bool uprobe;                    /* a uprobe_events line: PATH:OFFSET */
	bool fprobe;                    /* an f: line of dynamic_events: FUNCTION */
	/* "" when a MEMADDR was given; a uprobe's PATH ("/bin/hello") */
	char symbol[PROBE_SYMBOL_LEN];
	unsigned long offset;           /* SYM+offs; a uprobe's file offset */
	/* MEMADDR, or symbol+offset when the parser had a lookup_name
	 * callback (0 otherwise: the kernel resolves symbol itself). */
	unsigned long addr;
	/* uprobe PATH:OFFS(REF_CTR): the file offset of the reference
	 * counter (a u16 the program reads), 0 when none was given. */
	unsigned long ref_ctr_offset;
	/*
	 * An event probe (e:): the event it is attached to, and the
	 * filter after "if" (its words joined by single spaces, "" when
	 * none) that the attached event's record must pass.
	 */
	bool eprobe;
	char ep_system[PROBE_NAME_LEN];
	char ep_event[PROBE_NAME_LEN];
	char ep_filter[PROBE_EP_FILTER_MAX];
	int nr_args;
	struct probe_arg args[PROBE_MAX_ARGS];
};

/* Values one argument stores in a record: its array's N, or 1. */
static inline int probe_arg_slots(const struct probe_arg *arg)
{
	return arg->count ? arg->count : 1;
}

/* What the parser may ask the kernel: both may be NULL (then @SYM is an
 * error and the probe symbol is left unresolved). */
#define PROBE_FILE_NOT_REGULAR 1	/* file_lookup(): it exists, not a regular file */

struct probe_parse_ops {
	/* Address of a symbol, 0 if unknown: kallsyms_lookup_name. */
	unsigned long (*lookup_name)(const char *name);
	/*
	 * Bytes of the symbol that starts at addr, 0 if unknown: kallsyms'
	 * size.  With it, SYM+offs must lie inside SYM - a probe written
	 * on one function never lands in the next one.
	 */
	unsigned long (*symbol_size)(unsigned long addr);
	/*
	 * uprobe_events: what PATH names.  Linux looks the path up
	 * (kern_path()) right after splitting PATH:OFFSET, before the
	 * arguments: 0 for a regular file, PROBE_FILE_NOT_REGULAR for
	 * anything else (a directory), or the lookup's negative errno
	 * (-ENOENT, -ENOTDIR), which the write returns.  NULL leaves it
	 * to the caller.
	 */
	int (*file_lookup)(const char *path);
	/*
	 * Event probes: does SYSTEM.EVENT name an event one may attach to;
	 * the number of its field NAME (as the filters count them), or -1;
	 * is FILTER good for its records (the kernel logs why not).
	 */
	bool (*event_exists)(const char *system, const char *event);
	int (*event_field)(const char *system, const char *event, const char *name);
	bool (*filter_ok)(const char *system, const char *event, const char *filter);
};

/*
 * Parse one kprobe_events line (len bytes, need not be NUL-terminated;
 * a trailing '\n' is fine).  Returns 0 and fills *def (cmd NONE for a
 * blank or comment line), or -EINVAL and fills *err.  Allocates nothing.
 */
int probe_event_parse(const char *line, size_t len,
		      const struct probe_parse_ops *ops,
		      struct probe_event_def *def,
		      struct probe_parse_error *err);

/*
 * The same for one uprobe_events line, Linux's grammar:
 *
 *   p[:[GRP/][EVENT]] PATH:OFFSET [FETCHARGS]     (GRP "uprobes" by default)
 *   r[:[GRP/][EVENT]] PATH:OFFSET [FETCHARGS]
 *   -:[GRP/]EVENT
 *
 * PATH is checked only for its characters (the kernel looks the program
 * up); OFFSET is a file offset.  $argN is refused: a user function's
 * entry cannot be proven from a file offset.  def->uprobe is set.
 */
int uprobe_event_parse(const char *line, size_t len, const struct probe_parse_ops *ops,
		       struct probe_event_def *def, struct probe_parse_error *err);

/*
 * The same for one event probe line written to dynamic_events, Linux's
 * grammar (kernel/trace/trace_eprobe.c):
 *
 *   e[:[GRP/][EVENT]] SYSTEM.EVENT [FETCHARGS] [if FILTER]   (GRP "eprobes")
 *   -:[GRP/]EVENT [SYSTEM.EVENT [FETCHARGS]]
 *
 * SYSTEM/EVENT is taken too; EVENT defaults to the attached event's
 * name.  A FETCHARG's $NAME is the attached event's field NAME
 * (FETCH_OP_TP_ARG), or the task's name for $comm when there is no
 * such field; registers, $stack, $argN and $retval are no field.
 * Errors are Linux's, in Linux's order: the names, the attached event
 * (ops->event_exists), the filter (ops->filter_ok), the arguments.
 * A line with fewer than two words is -EINVAL with err->code NONE, as
 * Linux lets every kind of event decline it.
 */
int eprobe_event_parse(const char *line, size_t len, const struct probe_parse_ops *ops,
		       struct probe_event_def *def, struct probe_parse_error *err);

/*
 * The same for one fprobe event line of dynamic_events, Linux 6.7+'s
 * grammar (Linux 6.1 has no fprobe events):
 *
 *   f[:[GRP/][EVENT]] FUNCTION [FETCHARGS]                 (GRP "fprobes" by default)
 *   f[MAXACTIVE][:[GRP/][EVENT]] FUNCTION%return [FETCHARGS]
 *   -:[GRP/]EVENT
 *
 * FUNCTION is a symbol, no offset; the event is FUNCTION__entry or
 * FUNCTION__exit by default.  $argN at the entry, $retval at the exit,
 * no %REG (fprobe's regs are ftrace's, Linux refuses registers there).
 * def->fprobe is set.
 */
int fprobe_event_parse(const char *line, size_t len, const struct probe_parse_ops *ops,
		       struct probe_event_def *def, struct probe_parse_error *err);

/*
 * The definition as kprobe_events lists it, Linux's format:
 *   "p:kprobes/p_do_work_0 do_work arg1=%ax"
 *   "p:grp/ev do_work+4 ..."     (offset in decimal, omitted when 0)
 *   "r4:grp/ev do_work ..."      (MAXACTIVE after the 'r' when not 0)
 *   "p:grp/ev 0xc0101234 ..."    (a MEMADDR, 8 hex digits)
 *   "p:uprobes/ev /bin/hello:0x00000123 ..."   (a uprobe, as uprobe_events lists it)
 *   "e:eprobes/ev syscalls.sys_enter_open ..."  (an event probe, as dynamic_events lists it)
 *   "f:fprobes/fib__exit fib%return ..."       (an fprobe, as dynamic_events lists it)
 * No trailing newline.  Returns the length it wanted, like snprintf.
 */
int probe_event_show(char *buf, size_t size, const struct probe_event_def *def);

/*
 * Does the line "-:EVENT [PROBE [ARGS...]]" name this probe of the
 * event?  The words after the event must be the probe point and the
 * first "NAME=ARG"s as the listing writes them (Linux's
 * trace_kprobe_match_command_head()); with none, every probe matches.
 */
bool probe_event_match(const struct probe_event_def *def, const char *line, size_t len);

/* ---- fetching at a probe hit ----------------------------------------- */

/* How the fetcher reaches memory and the current task. */
struct fetch_ops {
	/* copy_from_kernel_nofault: 0, or negative when a byte is unreadable. */
	long (*read_mem)(void *dst, const void *src, size_t size);
	/*
	 * The same for a user address (:ustring), Linux's
	 * copy_from_user_nofault: a kernel address is refused.  NULL: every
	 * :ustring fetch faults.
	 */
	long (*read_user)(void *dst, const void *src, size_t size);
	/* The current task's name for $comm; NULL -> "" . */
	const char *(*comm)(void);
	/* :symstr's text for an address ("fib+0x0/0x3b"); NULL -> 0x... */
	int (*sprint_symbol)(char *buf, size_t len, unsigned long addr);
	/* @+OFFS of a uprobe: the address file offset offs is loaded at in
	 * the probed process (ctx: the probed file).  NULL: such a fetch faults. */
	unsigned long (*file_offset_to_vaddr)(const void *ctx, unsigned long offs);
	/*
	 * $FIELD of an event probe: the value of field number field of the
	 * record of the event it is attached to (ctx) - for a string field,
	 * the address of its text, NUL-terminated.  NULL: such a fetch faults.
	 */
	unsigned long (*event_field)(const void *ctx, unsigned long field);
	const void *ctx;
};

/*
 * One fetched argument as stored in a record.  Strings live after the
 * values; str_off counts from the start of the record.
 */
struct fetch_value {
	uint64_t raw;        /* the number, zero-extended from its type's size */
	uint16_t str_off;    /* :string only */
	uint16_t str_len;    /* :string only, bytes without a NUL */
	uint8_t fault;       /* a memory read failed: printed "(fault)" */
};

/*
 * Run one argument's program: fills *val; a string's bytes go to
 * str[0..strsize) (truncated, no NUL) with str_len set and str_off 0.
 * Returns 0, or -EFAULT when a read failed (val->fault is then set).
 */
int fetch_arg_exec(const struct probe_arg *arg, struct pt_regs *regs,
		   const struct fetch_ops *ops, struct fetch_value *val,
		   char *str, size_t strsize);

/*
 * Fetch every argument of def into a record in buf: one struct
 * fetch_value per slot (probe_arg_slots() of each argument, in order;
 * unaligned-safe, copied with memcpy) followed by the string bytes.  Strings are cut short when buf is full.  Returns the
 * record's length in bytes, or -ENOSPC when not even the values fit.
 */
int probe_args_fetch(const struct probe_event_def *def, struct pt_regs *regs,
		     const struct fetch_ops *ops, void *buf, size_t size);

/* struct fetch_values in a record of def: one per slot of each argument. */
size_t probe_args_slots(const struct probe_event_def *def);

/* Bytes a record of def needs at most (values + every string full). */
size_t probe_args_record_max(const struct probe_event_def *def);

/*
 * Format a record as Linux prints it after the probe location:
 *   " fd=0x3 count=12 name=\"foo\" where=do_work+0x4/0x20 bad=(fault)"
 * sprint_symbol (kallsyms' one) prints :symbol values; NULL prints 0x...
 * Returns the length it wanted, like snprintf; a bad record prints
 * "(bad record)" rather than reading past reclen.
 */
int probe_args_format(char *buf, size_t size, const struct probe_event_def *def,
		      const void *rec, size_t reclen,
		      int (*sprint_symbol)(char *buf, size_t len, unsigned long addr));

/* Format one value of the given type (no "name="): the building block. */
int fetch_value_format(char *buf, size_t size, enum fetch_type type,
		       const struct fetch_value *val, const char *str,
		       int (*sprint_symbol)(char *buf, size_t len, unsigned long addr));

#endif
