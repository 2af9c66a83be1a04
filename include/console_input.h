/*
 * console_input.h - reading lines from COM1 and the PS/2 keyboard.
 *
 * Both consoles feed one stream of characters: COM1 by its receive
 * interrupt (IRQ 4), the keyboard through kbd_getc().  A small line
 * editor turns them into command lines: printable characters are echoed,
 * Backspace (BS or DEL) erases, Ctrl-C abandons the line, up/down arrows
 * (ESC [ A / ESC [ B) walk a short history.  Ctrl-P on either console is
 * the SysRq key: it dumps the probe list from the interrupt handler, so
 * it works even while a workload keeps the shell busy.
 */
#ifndef CONSOLE_INPUT_H
#define CONSOLE_INPUT_H

#include <stddef.h>
#include <stdbool.h>

#define CONSOLE_LINE_MAX  512   /* longest command line */
#define HISTORY_SIZE      8     /* lines kept for the up arrow */

/* Control characters the editor understands (what terminals send). */
#define KEY_CTRL_C   0x03
#define KEY_BS       0x08
#define KEY_CTRL_P   0x10       /* SysRq: dump the probe list */
#define KEY_CTRL_R   0x12       /* redraw the line (sent after a SysRq dump) */
#define KEY_ESC      0x1B
#define KEY_DEL      0x7F

/* The editor's state; the shell owns one, tests make their own. */
struct line_editor {
	const char *prompt;
	char buf[CONSOLE_LINE_MAX];
	size_t len;
	int esc_state;			/* 0, 1 after ESC, 2 after ESC [ or ESC O */
	bool last_was_cr;		/* swallow the \n of a \r\n pair */
	char history[HISTORY_SIZE][CONSOLE_LINE_MAX];
	int nr_history;			/* lines stored (<= HISTORY_SIZE) */
	int history_pos;		/* how far back the arrows went: 0 = new line */
};

enum line_result { LINE_MORE, LINE_DONE, LINE_CANCEL };

void line_editor_init(struct line_editor *le, const char *prompt);
/* Feed one character; LINE_DONE: le->buf holds the line (NUL-terminated). */
enum line_result line_editor_key(struct line_editor *le, int c);
/* Put a finished line into the history (blank lines and repeats are not). */
void line_editor_remember(struct line_editor *le);

/* Turn on COM1's receive interrupt and the keyboard's SysRq hook. */
void console_input_init(void);
/* Next character from either console; sleeps (hlt) until one arrives. */
int console_getc(void);
/* Queue a character as if COM1 had received it (tests, interrupt path). */
void console_input_feed(int c);
/*
 * Print the prompt and edit one line into le->buf.  Returns its length,
 * or -EINTR when Ctrl-C abandoned it.
 */
int console_readline(struct line_editor *le);

/* The SysRq action (Ctrl-P): print every registered probe.  Counted so
 * tests can see it ran. */
void sysrq_show_probes(void);
extern unsigned long sysrq_count;

#endif
