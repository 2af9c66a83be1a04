/*
 * shell.c - read a line, split it into words, run a command.
 *
 * The shell is what kmain does once the machine is up: it never returns.
 * Lines come from console/console_input.c (COM1 and the keyboard, with
 * line editing); output goes to both consoles through printk.
 *
 * The word splitting is a small subset of sh, enough to write probe
 * definitions exactly as on Linux:
 *
 *   echo 'p:myfib fib n=$arg1' >> /sys/kernel/tracing/kprobe_events
 *
 * Single quotes keep everything literally, double quotes too (there are
 * no variables to expand, so '$' is always literal), and an unquoted
 * `>` or `>>` sends the command's output to a pseudofs file.
 */
#include "kernel.h"
#include "shell.h"
#include "console_input.h"
#include "string.h"
#include "vsprintf.h"
#include "errno.h"
#include "mm.h"
#include "sched.h"
#include "trace.h"
#include "mutex.h"
#include "vsprintf.h"
#include "mount.h"

struct seq_buf *shell_out;
static DEFINE_MUTEX(shell_out_mutex);
static char cwd[PSEUDOFS_PATH_MAX] = "/";

static int cmd_help(int argc, char **argv);

static const struct shell_cmd commands[] = {
	{ "help",    "",             "list the commands", cmd_help },
	{ "ls",      "[PATH]",       "list a directory of the pseudo filesystem", cmd_ls },
	{ "cd",      "[PATH]",       "change the current directory (no PATH: /)", cmd_cd },
	{ "cat",     "FILE...",      "print files, e.g. cat /sys/kernel/tracing/trace", cmd_cat },
	{ "echo",    "TEXT [>|>> FILE]", "print TEXT; > writes it to FILE, >> appends", cmd_echo },
	{ "mkdir",   "DIR...",       "make a directory: a trace instance in /sys/kernel/tracing/instances", cmd_mkdir },
	{ "rmdir",   "DIR...",       "remove a directory made by mkdir (EBUSY while in use)", cmd_rmdir },
	{ "run",     "[-a] NAME [ARGS]", "run a workload to probe (-a: on every CPU; run alone lists them)", cmd_run },
	{ "exec",    "[-b] NAME|PATH [ARGS]", "run a user program in ring 3 and wait (-b: in the background); NAME is the file /bin/NAME, as uprobe_events names it", cmd_exec },
	{ "ps",      "",             "threads and processes: pid, state, CPU, kind, name", cmd_ps },
	{ "kill",    "[-SIG] PID",   "send a user process a signal (SIGKILL)", cmd_kill },
	{ "syms",    "PATTERN",      "look up kernel symbols (* and ? match; or an address)", cmd_syms },
	{ "idt",     "",             "the interrupt descriptor table: every present gate", cmd_idt },
	{ "regs",    "",             "control, segment and descriptor-table registers", cmd_regs },
	{ "meminfo", "",             "free pages, heap and instruction-slot usage", cmd_meminfo },
	{ "cpus",    "[-b]",         "each CPU: APIC id, ticks, IPIs, what it runs; -b: backtraces", cmd_cpus },
	{ "watch",   "[SYM|ADDR ...]", "watchpoint on every CPU: [x|w|rw] [1|2|4 bytes]; alone: list, with hits", cmd_watch },
	{ "unwatch", "N|all",        "remove a watchpoint: its debug register is free again", cmd_unwatch },
	{ "stepmode", "[N]",         "N calls on every CPU, probe stepped in place vs in its slot: hits missed", cmd_stepmode },
	{ "insmod",  "NAME",         "load a boot module (NAME.ko) and run its init", cmd_insmod },
	{ "rmmod",   "NAME",         "run a module's exit and unload it", cmd_rmmod },
	{ "lsmod",   "",             "loaded modules (size, address, users) and boot modules", cmd_lsmod },
	{ "reboot",  "",             "reset the machine: the kernel boots again", cmd_reboot },
	{ "poweroff", "",            "switch the machine off (QEMU exits)", cmd_poweroff },
	{ "exit",    "",             "the same as poweroff", cmd_poweroff },
};

const char *shell_command_name(size_t i)
{
	return i < ARRAY_SIZE(commands) ? commands[i].name : NULL;
}

static int cmd_help(int argc, char **argv)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		char left[32];

		snprintf(left, sizeof(left), "%s %s", commands[i].name, commands[i].usage);
		sh_printf("  %-24s %s\n", left, commands[i].help);
	}
	sh_printf("Keys: Tab completes commands and paths; left/right, Home/End move;\n");
	sh_printf("      Backspace, Delete, Ctrl-U (to the start), Ctrl-W (a word) erase;\n");
	sh_printf("      up/down walk the history; Ctrl-C drops the line, or stops\n");
	sh_printf("      the running workload (run) or program (exec);\n");
	sh_printf("      Ctrl-P is SysRq: list the probes, even while a workload runs.\n");
	sh_printf("QEMU: Ctrl-A X quits, Ctrl-A C toggles its monitor (try \"nmi\" there).\n");
	sh_printf("Boot with crash=MODE to watch a fault on purpose:");
	for (size_t i = 0; crash_mode_name(i); i++)
		sh_printf(" %s", crash_mode_name(i));
	sh_printf("\n");
	return 0;
}

/* ---- output ------------------------------------------------------------------ */

/*
 * Format straight into the command's output, however long the piece
 * (echo of a 4095-character line is one piece): cutting it here would
 * hand tracefs a shorter line than the one typed.  Outside a command
 * (shell_out NULL: a thread of its own printing after the command that
 * started it returned) there is no command output to add to: the text
 * goes to the console as printk's does.
 */
int sh_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	mutex_lock(&shell_out_mutex);
	if (shell_out)
		n = seq_buf_vprintf(shell_out, fmt, ap);
	else
		n = vprintk(fmt, ap);
	mutex_unlock(&shell_out_mutex);
	va_end(ap);
	return n;
}

/* ---- errors in words -------------------------------------------------------- */

/* The shell says what the C library's strerror() would (lib/errno.c). */
const char *shell_strerror(int err)
{
	return errno_meaning(err);
}

/* ---- paths -------------------------------------------------------------------- */

/*
 * Make arg absolute against cwd and tidy it: no "//", ".", "..", or
 * trailing '/'.  "/" stays "/".
 */
int shell_resolve_path(const char *arg, char *out, size_t size)
{
	char tmp[2 * PSEUDOFS_PATH_MAX + 2];
	size_t len = 0;
	char *word, *next;

	if (arg[0] == '/')
		strlcpy(tmp, arg, sizeof(tmp));
	else
		snprintf(tmp, sizeof(tmp), "%s/%s", cwd, arg);
	out[0] = '\0';
	for (word = tmp; *word; word = next) {
		size_t n;

		while (*word == '/')
			word++;
		next = word;
		while (*next && *next != '/')
			next++;
		n = next - word;
		if (n == 0 || (n == 1 && word[0] == '.'))
			continue;
		if (n == 2 && word[0] == '.' && word[1] == '.') {
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--;		/* the '/' before the dropped name */
			out[len] = '\0';
			continue;
		}
		if (len + 1 + n + 1 > size)
			return -EINVAL;
		out[len++] = '/';
		memcpy(out + len, word, n);
		len += n;
		out[len] = '\0';
	}
	if (len == 0)
		strlcpy(out, "/", size);
	return 0;
}

int cmd_cd(int argc, char **argv)
{
	char path[PSEUDOFS_PATH_MAX];
	int ret = shell_resolve_path(argc > 1 ? argv[1] : "/", path, sizeof(path));

	if (ret)
		return ret;
	if (path_lookup_type(path) != 2) {
		sh_printf("cd: %s: %s\n", argv[1],
			  path_lookup_type(path) ? "Not a directory" : shell_strerror(-ENOENT));
		return -ENOENT;
	}
	strlcpy(cwd, path, sizeof(cwd));
	return 0;
}

/* ---- splitting a line into words ------------------------------------------- */

/*
 * Split line into argv, the words copied into out (which needs room for
 * twice the line: one NUL per word).  Quotes group, `#` at the start of
 * a word starts a comment, an unquoted `>` or `>>` is a word of its own,
 * marked in is_redir[].  Returns argc, or a negative errno after
 * printing why.
 */
static int split_words(const char *in, char *out, char **argv, bool *is_redir)
{
	int argc = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t')
			in++;
		if (*in == '\0' || *in == '#')
			break;
		if (argc == SHELL_MAX_ARGS) {
			sh_printf("sh: too many words (at most %d)\n", SHELL_MAX_ARGS);
			return -E2BIG;
		}
		is_redir[argc] = (*in == '>');
		argv[argc++] = out;
		if (*in == '>') {
			*out++ = *in++;
			if (*in == '>')
				*out++ = *in++;
			*out++ = '\0';
			continue;
		}
		while (*in && *in != ' ' && *in != '\t' && *in != '>') {
			char quote = *in;

			if (quote != '\'' && quote != '"') {
				*out++ = *in++;
				continue;
			}
			in++;
			while (*in && *in != quote) {
				if (quote == '"' && *in == '\\' && (in[1] == '"' || in[1] == '\\'))
					in++;
				*out++ = *in++;
			}
			if (*in != quote) {
				sh_printf("sh: unterminated %c quote\n", quote);
				return -EINVAL;
			}
			in++;
		}
		*out++ = '\0';
	}
	return argc;
}

/* ---- running one line ------------------------------------------------------- */

static const struct shell_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* What a redirected command printed, before it goes into the file. */
static char redir_buf[PSEUDOFS_WRITE_MAX];

/* Run argv with its output captured, then write it to the file. */
static int run_redirected(const struct shell_cmd *cmd, int argc, char **argv,
			  const char *file, bool trunc, struct seq_buf *real_out)
{
	char path[PSEUDOFS_PATH_MAX];
	struct seq_buf capture;
	int ret;

	ret = shell_resolve_path(file, path, sizeof(path));
	if (ret == 0 && !pseudofs_lookup(path))
		ret = -ENOENT;	/* no creating files: like a read-only mount */
	if (ret) {
		seq_buf_printf(real_out, "sh: %s: %s\n", file, shell_strerror(ret));
		return ret;
	}
	seq_buf_init(&capture, redir_buf, sizeof(redir_buf));
	shell_out = &capture;
	ret = cmd->fn(argc, argv);
	shell_out = real_out;
	if (ret)
		return ret;
	if (seq_buf_has_overflowed(&capture)) {
		seq_buf_printf(real_out, "sh: %s: write too long\n", file);
		return -E2BIG;
	}
	ret = pseudofs_write(path, capture.buffer, capture.len, trunc);
	if (ret) {
		const char *why = pseudofs_last_error();

		seq_buf_printf(real_out, "sh: %s: write error: %s\n", argv[0], shell_strerror(ret));
		seq_buf_puts(real_out, why);	/* may be long: an error_log entry */
		if (why[0] && why[strlen(why) - 1] != '\n')
			seq_buf_puts(real_out, "\n");
	}
	return ret;
}

/* What printk'd output goes through when a line runs on the console. */
static void console_flush(const char *s, size_t len)
{
	printk_write(s, len);
}

static int exec_words(const char *line, struct seq_buf *out)
{
	static char words[2 * CONSOLE_LINE_MAX];
	static char *argv[SHELL_MAX_ARGS + 1];
	static bool is_redir[SHELL_MAX_ARGS];
	const struct shell_cmd *cmd;
	int argc = split_words(line, words, argv, is_redir);
	const char *file = NULL;
	bool trunc = false;

	if (argc <= 0)
		return argc;
	/* Take "> FILE" / ">> FILE" out of argv, wherever it is. */
	for (int i = 0; i < argc; i++) {
		if (!is_redir[i])
			continue;
		if (i + 1 >= argc || is_redir[i + 1] || file) {
			sh_printf("sh: syntax error near '%s'\n", argv[i]);
			return -EINVAL;
		}
		trunc = argv[i][1] == '\0';
		file = argv[i + 1];
		memmove(&argv[i], &argv[i + 2], (argc - i - 2) * sizeof(argv[0]));
		memmove(&is_redir[i], &is_redir[i + 2], (argc - i - 2) * sizeof(is_redir[0]));
		argc -= 2;
		i--;
	}
	argv[argc] = NULL;
	if (argc == 0) {
		sh_printf("sh: nothing to run before the redirection\n");
		return -EINVAL;
	}
	cmd = find_command(argv[0]);
	if (!cmd) {
		sh_printf("sh: %s: command not found (try help)\n", argv[0]);
		return -ENOENT;
	}
	if (file)
		return run_redirected(cmd, argc, argv, file, trunc, out);
	return cmd->fn(argc, argv);
}

int shell_exec(const char *line, struct seq_buf *out)
{
	static char small[CONSOLE_LINE_MAX];	/* an echoed line fits whole */
	struct seq_buf console;
	struct seq_buf *saved = shell_out;
	int ret;

	if (!out) {
		seq_buf_init(&console, small, sizeof(small));
		console.flush = console_flush;
		out = &console;
	}
	if (strlen(line) >= CONSOLE_LINE_MAX) {
		seq_buf_printf(out, "sh: line too long (at most %d bytes)\n",
			   CONSOLE_LINE_MAX - 1);
		seq_buf_flush(out);
		return -E2BIG;
	}
	shell_out = out;
	ret = exec_words(line, out);
	seq_buf_flush(out);
	shell_out = saved;
	return ret;
}

/* ---- the loop ---------------------------------------------------------------- */

static struct line_editor editor;

void shell_run(void)
{
	/* The boot thread becomes the shell: `trace` shows it as sh-0. */
	strlcpy(current->name, "sh", sizeof(current->name));
	if (tracefs_init())
		printk("shell: could not create the tracefs files\n");
	console_input_init();
	line_editor_init(&editor, SHELL_PROMPT);
	editor.complete = shell_complete;
	printk("\nType 'help' for the commands.  A first probe to try:\n"
	       "  echo 'p:myfib fib n=$arg1' >> /sys/kernel/tracing/kprobe_events\n"
	       "  echo 1 > /sys/kernel/tracing/events/kprobes/myfib/enable\n"
	       "  run fib 5\n"
	       "  cat /sys/kernel/tracing/trace\n"
	       "(docs/tracing.md walks through it.)\n\n");
	for (;;) {
		if (console_readline(&editor) < 0)
			continue;	/* Ctrl-C */
		line_editor_remember(&editor);
		shell_command_begin();
		shell_exec(editor.buf, NULL);
		shell_command_end();
	}
}
