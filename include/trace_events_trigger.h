/*
 * trace_events_trigger.h - the commands written to an event's trigger
 * file (Linux's kernel/trace/trace_events_trigger.c and, for hist,
 * trace_events_hist.c), parsed by lib/trace_events_trigger.c into a
 * struct trigger_spec the kernel then checks against the event's fields:
 *
 *   traceon[:COUNT] [if FILTER]      tracing_on = 1 when the event fires
 *   traceoff[:COUNT] [if FILTER]     tracing_on = 0
 *   stacktrace[:COUNT] [if FILTER]   a <stack trace> record
 *   snapshot[:COUNT] [if FILTER]     swap the buffer into snapshot
 *   enable_event:SYSTEM:EVENT[:COUNT] [if FILTER]    records of that event on
 *   disable_event:SYSTEM:EVENT[:COUNT] [if FILTER]   ... and off (soft mode)
 *   enable_hist:SYSTEM:EVENT[:COUNT] [if FILTER]    continue EVENT's hist triggers
 *   disable_hist:SYSTEM:EVENT[:COUNT] [if FILTER]   pause them
 *   hist:[name=NAME:]keys=F[.hex|.sym][,F...][:vals=F[,F...]][:sort=F[.descending][,F]]
 *       [:size=N][:pause][:continue][:clear] [:VAR=EXPR[,VAR=EXPR...]]
 *       [:clock=global] [:onmatch(SYSTEM.EVENT).trace(SYNTH,PARAMS)]
 *       [:onmax($VAR).save(FIELDS)|.snapshot()] [if FILTER]
 *   !COMMAND...                      remove that trigger
 *
 * A hist expression (lib/trace_events_hist.c): fields, common_timestamp,
 * common_cpu, numbers, $variables, joined by + - * / (3 at most), or
 * -(EXPR).  A key may also be "stacktrace": the calls in progress.
 */
#ifndef TRACE_EVENTS_TRIGGER_H
#define TRACE_EVENTS_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "trace_events_filter.h"

/* In the order Linux registers them (the order of "# Available triggers:"). */
enum trigger_cmd { TRIGGER_TRACEON, TRIGGER_TRACEOFF, TRIGGER_SNAPSHOT,
		   TRIGGER_STACKTRACE, TRIGGER_ENABLE_EVENT, TRIGGER_DISABLE_EVENT,
		   TRIGGER_ENABLE_HIST, TRIGGER_DISABLE_HIST,
		   TRIGGER_HIST, TRIGGER_NR };

const char *trigger_cmd_name(enum trigger_cmd cmd);

#define HIST_KEYS_MAX       3	/* TRACING_MAP_KEYS_MAX */
#define HIST_VALS_MAX       3	/* ours: values summed besides hitcount */
#define HIST_VARS_MAX      16	/* TRACING_MAP_VARS_MAX: variables, the hidden ones too */
#define HIST_SORT_KEYS_MAX  2	/* TRACING_MAP_SORT_KEYS_MAX */
#define HIST_ACTIONS_MAX    8	/* Linux's */
#define HIST_PARAMS_MAX    16	/* ours (Linux: SYNTH_FIELDS_MAX, 64): an action's params */
#define HIST_SUBEXPR_MAX    3	/* Linux's "Too many subexpressions (3 max)" */
/* An expression's nodes: each subexpression adds an operator and an operand. */
#define HIST_EXPR_NODES    (2 * HIST_SUBEXPR_MAX + 1)
#define HIST_NAME_LEN      64
#define HIST_CLOCK_LEN     16
#define HIST_DEFAULT_BITS  11	/* TRACING_MAP_BITS_DEFAULT: 2048 entries */
#define HIST_MIN_BITS       7	/* TRACING_MAP_BITS_MIN */
#define HIST_MAX_BITS      15	/* ours (Linux: 17): the table is preallocated */
#define HIST_STACKTRACE_DEPTH 16	/* Linux's: the calls a stacktrace key keeps */

/* enable_event's SYSTEM and EVENT: MAX_EVENT_NAME_LEN, the NUL included. */
#define TRIGGER_EVENT_NAME_LEN 64

/* A field's modifier (Linux's HIST_FIELD_FL_*): how a key prints, or what a value is. */
#define HIST_MOD_HEX         0x01
#define HIST_MOD_SYM         0x02
#define HIST_MOD_SYM_OFFSET  0x04
#define HIST_MOD_EXECNAME    0x08	/* common_pid only: the task's name */
#define HIST_MOD_LOG2        0x10
#define HIST_MOD_BUCKETS     0x20	/* .buckets=N */
#define HIST_MOD_USECS       0x40	/* common_timestamp in microseconds */
#define HIST_MOD_SYSCALL     0x80	/* a system call's number, shown as its name */

/*
 * One operand or operator of an expression (Linux's struct hist_field,
 * before it meets an event): keys, values and variables are each one.
 *   "n.hex"                         a field and its modifier
 *   "common_timestamp.usecs-$ts0"   MINUS(TIMESTAMP, VAR_REF ts0)
 */
enum hist_atom { HIST_ATOM_FIELD, HIST_ATOM_TIMESTAMP, HIST_ATOM_CPU, HIST_ATOM_CONST,
		 HIST_ATOM_VAR_REF, HIST_ATOM_STACKTRACE };
enum hist_op { HIST_OP_NONE, HIST_OP_PLUS, HIST_OP_MINUS, HIST_OP_UNARY_MINUS, HIST_OP_DIV,
	       HIST_OP_MULT };

struct hist_node {
	uint8_t op;			/* enum hist_op; HIST_OP_NONE: an atom */
	uint8_t atom;			/* enum hist_atom */
	uint8_t mods;			/* HIST_MOD_* */
	int8_t operand[2];		/* an operator's operands: node indexes */
	unsigned long buckets;		/* .buckets=N */
	uint64_t constant;		/* HIST_ATOM_CONST */
	char name[HIST_NAME_LEN];	/* the field, or the variable without its '$' */
};

struct hist_expr {
	int nr_nodes, root;
	struct hist_node nodes[HIST_EXPR_NODES];
};

struct hist_var_def {
	char name[HIST_NAME_LEN];
	struct hist_expr expr;
};

enum hist_sort_kind { HIST_SORT_HITCOUNT, HIST_SORT_VAL, HIST_SORT_KEY };

/* onmatch(system.event), onmax($var), onchange($var)... */
enum hist_handler { HIST_HANDLER_ONMATCH = 1, HIST_HANDLER_ONMAX, HIST_HANDLER_ONCHANGE };
/* ...then .trace(synth,params) or .synth(params), .save(fields), .snapshot() */
enum hist_action_kind { HIST_ACTION_SAVE = 1, HIST_ACTION_TRACE, HIST_ACTION_SNAPSHOT };

struct hist_action {
	uint8_t handler, action;
	bool trace_keyword;		/* .trace(synth, ...), not Linux's older .synth(...) */
	char system[HIST_NAME_LEN];	/* onmatch(system.event) */
	char event[HIST_NAME_LEN];
	char var[HIST_NAME_LEN];	/* onmax(var)/onchange(var) as written: "$lat" */
	char name[HIST_NAME_LEN];	/* the action as written: "save", "trace", a synthetic event */
	char synth[HIST_NAME_LEN];	/* the synthetic event .trace() or .synth() names */
	int nr_params;
	char params[HIST_PARAMS_MAX][HIST_NAME_LEN];
};

struct hist_spec {
	char name[HIST_NAME_LEN];	/* name=NAME: a table shared by every trigger of that name */
	int nr_keys, nr_vals, nr_vars, nr_sort, nr_actions;
	struct hist_expr keys[HIST_KEYS_MAX];
	struct hist_expr vals[HIST_VALS_MAX];
	struct hist_var_def vars[HIST_VARS_MAX];	/* name=expr, in the order written */
	uint8_t sort_kind[HIST_SORT_KEYS_MAX];	/* HIST_SORT_*: hitcount, a val or a key */
	uint8_t sort_index[HIST_SORT_KEYS_MAX];	/* which val or key */
	bool sort_descending[HIST_SORT_KEYS_MAX];
	struct hist_action actions[HIST_ACTIONS_MAX];
	char clock[HIST_CLOCK_LEN];	/* clock=, "global" by default */
	bool timestamps;		/* common_timestamp is used: ":clock=" is printed */
	bool ts_in_usecs;		/* some common_timestamp.usecs: every one is in usecs */
	unsigned int map_bits;
	bool pause, cont, clear;
};

struct trigger_spec {
	enum trigger_cmd cmd;
	bool remove;			/* "!cmd" */
	long count;			/* -1: unlimited */
	char filter[FILTER_TEXT_MAX];	/* after "if", "" when none */
	struct hist_spec hist;
	/* enable_event / disable_event: the event they switch */
	char system[TRIGGER_EVENT_NAME_LEN];
	char event[TRIGGER_EVENT_NAME_LEN];
	/* enable_hist / disable_hist: the event whose hist triggers it acts on */
	char target_system[HIST_NAME_LEN];
	char target_event[HIST_NAME_LEN];
	/* hist only: where a problem lies, for error_log */
	const char *bad;		/* the text found bad, inside the command */
};

/*
 * Parse one trigger command (no trailing newline).  0, or -EINVAL.
 * For hist, *herr is set to the Linux hist error (HIST_ERR_*) and
 * spec->bad to where it lies, when Linux logs one.
 */
#define HIST_ERRORS                                                            \
	E(NONE,                 "No error")                                    \
	E(DUPLICATE_VAR,        "Variable already defined")                    \
	E(VAR_NOT_UNIQUE,       "Variable name not unique, need to use fully qualified name (subsys.event.var) for variable") \
	E(TOO_MANY_VARS,        "Too many variables defined")                  \
	E(MALFORMED_ASSIGNMENT, "Malformed assignment")                        \
	E(NAMED_MISMATCH,       "Named hist trigger doesn't match existing named trigger (includes variables)") \
	E(TRIGGER_EEXIST,       "Hist trigger already exists")                 \
	E(TRIGGER_ENOENT_CLEAR, "Can't clear or continue a nonexistent hist trigger") \
	E(SET_CLOCK_FAIL,       "Couldn't set trace_clock")                    \
	E(BAD_FIELD_MODIFIER,   "Invalid field modifier")                      \
	E(TOO_MANY_SUBEXPR,     "Too many subexpressions (3 max)")             \
	E(TIMESTAMP_MISMATCH,   "Timestamp units in expression don't match")   \
	E(TOO_MANY_FIELD_VARS,  "Too many field variables defined")            \
	E(EVENT_FILE_NOT_FOUND, "Event file not found")                        \
	E(SYNTH_EVENT_NOT_FOUND, "Couldn't find synthetic event")              \
	E(SYNTH_TYPE_MISMATCH,  "Param type doesn't match synthetic event field type") \
	E(SYNTH_COUNT_MISMATCH, "Param count doesn't match synthetic event field count") \
	E(FIELD_VAR_PARSE_FAIL, "Couldn't parse field variable")               \
	E(ONX_NOT_VAR,          "For onmax(x) or onchange(x), x must be a variable") \
	E(ONX_VAR_NOT_FOUND,    "Couldn't find onmax or onchange variable")    \
	E(ONX_VAR_CREATE_FAIL,  "Couldn't create onmax or onchange variable")  \
	E(FIELD_VAR_CREATE_FAIL, "Couldn't create field variable")             \
	E(TOO_MANY_PARAMS,      "Too many action params")                      \
	E(PARAM_NOT_FOUND,      "Couldn't find param")                         \
	E(INVALID_PARAM,        "Invalid action param")                        \
	E(ACTION_NOT_FOUND,     "No action found")                             \
	E(NO_SAVE_PARAMS,       "No params found for save()")                  \
	E(TOO_MANY_SAVE_ACTIONS, "Can't have more than one save() action per hist") \
	E(ACTION_MISMATCH,      "Handler doesn't support action")              \
	E(NO_CLOSING_PAREN,     "No closing paren found")                      \
	E(SUBSYS_NOT_FOUND,     "Missing subsystem")                           \
	E(INVALID_SUBSYS_EVENT, "Invalid subsystem or event name")             \
	E(INVALID_REF_KEY,      "Using variable references in keys not supported") \
	E(VAR_NOT_FOUND,        "Couldn't find variable")                      \
	E(FIELD_NOT_FOUND,      "Couldn't find field")                         \
	E(EMPTY_ASSIGNMENT,     "Empty assignment")                            \
	E(INVALID_SORT_MODIFIER, "Invalid sort modifier")                      \
	E(EMPTY_SORT_FIELD,     "Empty sort field")                            \
	E(TOO_MANY_SORT_FIELDS, "Too many sort fields (Max = 2)")              \
	E(INVALID_SORT_FIELD,   "Sort field must be a key or a val")           \
	E(INVALID_STR_OPERAND,  "String type can not be an operand in expression") \
	E(EXPECT_NUMBER,        "Expecting numeric literal")                   \
	E(UNARY_MINUS_SUBEXPR,  "Unary minus not supported in sub-expressions") \
	E(DIVISION_BY_ZERO,     "Division by zero")

#define E(code, msg) HIST_ERR_##code,
enum hist_err { HIST_ERRORS HIST_ERR_COUNT };
#undef E

const char *hist_err_msg(enum hist_err code);

int trigger_parse(const char *text, struct trigger_spec *spec, enum hist_err *herr);

/* The line the trigger file shows for a hist trigger, without " if" or state. */
int hist_spec_format(char *buf, size_t size, const struct hist_spec *h);

/* ---- lib/trace_events_hist.c: expressions and actions ---------------------------- */

/*
 * Parse one expression (Linux's parse_expr()): 0, or -EINVAL with *herr
 * and *bad (the text at fault, inside str) set where Linux logs one.
 * str is changed (".sym-offset" must have become ".symXoffset").
 */
int hist_expr_parse(char *str, struct hist_expr *e, enum hist_err *herr, const char **bad);
/* The key "stacktrace" (Linux's HIST_FIELD_FL_STACKTRACE): the calls in progress at a hit. */
void hist_expr_stacktrace(struct hist_expr *e);
/* The expression as Linux prints it: "common_timestamp.usecs-$ts0". */
int hist_expr_format(char *buf, size_t size, const struct hist_expr *e);
/* Its name as Linux's hist_field_name() gives it (sort= compares it): "n", "common_timestamp". */
int hist_expr_name(char *buf, size_t size, const struct hist_expr *e);
/* Does e (or one of its operands) reference a variable? */
bool hist_expr_has_var_ref(const struct hist_expr *e);
/* Parse "onmatch(...)...", "onmax(...)..." or "onchange(...)..." into *a. */
int hist_action_parse(char *str, struct hist_action *a, enum hist_err *herr, const char **bad);
/* ":onmatch(sys.ev).trace(synth,$lat,pid)", as Linux prints an action. */
int hist_action_format(char *buf, size_t size, const struct hist_action *a);

#endif
