/*
 * shell.h - the kernel's command line on COM1 and the keyboard/VGA.
 *
 * One line is split into words the way sh does (single and double
 * quotes group, `>` and `>>` redirect the output into a pseudofs file),
 * then the first word picks a command from the table in console/shell.c.
 * Commands print through sh_printf(), so a test can run a line with
 * shell_exec() and read what it printed.
 */
#ifndef SHELL_H
#define SHELL_H

#include "kernel.h"
#include "pseudofs.h"

#define SHELL_PROMPT   "kprobes# "
#define SHELL_MAX_ARGS 64

struct shell_cmd {
	const char *name;
	const char *usage;	/* the arguments, "" when none */
	const char *help;	/* one line */
	int (*fn)(int argc, char **argv);	/* 0 or a negative errno */
};

/* Read lines and run them, forever (kmain's idle path). */
void shell_run(void) __noreturn;
/* init=PATH: run PATH as the first program, the console its terminal, until it ends. */
void console_run_init(const char *path);

/*
 * Run one command line.  What it prints goes to out (NULL: the
 * consoles).  Returns 0, or the failing command's negative errno
 * (-EINVAL for a line that does not parse, -ENOENT for no such command).
 */
int shell_exec(const char *line, struct seq_buf *out);

/*
 * Where the running command prints.  sh_printf() formats one piece and
 * adds it under a mutex: the threads of `run -a` print at the same time.
 */
extern struct seq_buf *shell_out;
int sh_printf(const char *fmt, ...) __printf(1, 2);

/* "/sys/kernel/tracing" + "trace" -> an absolute, tidy path in out. */
int shell_resolve_path(const char *arg, char *out, size_t size);

/* The i-th command's name; NULL past the last (for Tab completion). */
const char *shell_command_name(size_t i);
/* Tab in the shell: a line_complete_fn (see line_editor.h). */
int shell_complete(const char *line, size_t start, size_t end, char *out, size_t size);

/* "1 tick", "2 ticks": the s of a count's unit. */
#define plural(n) ((n) == 1 ? "" : "s")

/* Words for an errno: "No such file or directory"... */
const char *shell_strerror(int err);

/* The commands, each in the file that knows its subject. */
int cmd_ls(int argc, char **argv);
int cmd_cd(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_mkdir(int argc, char **argv);
int cmd_rmdir(int argc, char **argv);
int cmd_echo(int argc, char **argv);
int cmd_syms(int argc, char **argv);
int cmd_idt(int argc, char **argv);
int cmd_regs(int argc, char **argv);
int cmd_meminfo(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_exec(int argc, char **argv);	/* console/shell_process.c */
/*
 * Ctrl-C while a console line runs: kill the process `exec` waits for,
 * or else tell the command (shell_interrupted()); false when no line
 * runs (the line editor takes the key).
 */
bool shell_interrupt_foreground(void);
/* Around each console line: Ctrl-C is the command's while it runs. */
void shell_command_begin(void);
void shell_command_end(void);
/* Ctrl-C came while this command ran: a long loop stops (-EINTR). */
bool shell_interrupted(void);
int shell_foreground_pid(void);		/* that process, 0 when exec waits for none */
int cmd_kill(int argc, char **argv);
int cmd_cpus(int argc, char **argv);
int cmd_reboot(int argc, char **argv);
int cmd_poweroff(int argc, char **argv);
int cmd_run(int argc, char **argv);	/* console/run.c */
int cmd_stepmode(int argc, char **argv);	/* console/stepmode_demo.c */
int cmd_watch(int argc, char **argv);		/* console/watch.c */
int cmd_unwatch(int argc, char **argv);
int cmd_insmod(int argc, char **argv);	/* console/module_cmds.c */
int cmd_rmmod(int argc, char **argv);
int cmd_lsmod(int argc, char **argv);

/* The workloads `run` knows (console/run.c), made of kernel/workloads.c. */
struct workload {
	const char *name;
	const char *usage;
	const char *help;	/* what it does and which functions to probe */
	int (*run)(int argc, char **argv);
};
extern const struct workload workloads[];
extern const int nr_workloads;

/* The crash demos (console/crash.c): crash=WHAT on the command line. */
const char *crash_mode_name(size_t i);	/* the i-th mode; NULL past the last */
int crash_stack_hog(void *arg);		/* a thread body that overflows its stack */

#endif
