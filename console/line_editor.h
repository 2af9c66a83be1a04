/*
 * line_editor.h - editing one command line, the way a terminal user
 * expects (a small cousin of readline).
 *
 * Keys: printable characters insert at the cursor; Backspace (BS or DEL)
 * and Delete erase; left/right, Home/End (and Ctrl-A/Ctrl-E) move;
 * Ctrl-U erases to the start of the line, Ctrl-W the word before the
 * cursor; up/down walk the history; Tab completes the word before the
 * cursor (through the complete hook); Ctrl-C abandons the line; Ctrl-R
 * draws it again.
 *
 * Output that arrives while a line is being typed (a probe handler's
 * printk, a SysRq dump) does not land in the middle of it: printk
 * calls line_editor_hide() first, which blanks the line, and the
 * editor draws it back, prompt, text and cursor, once the output is
 * done (line_editor_redraw_if_hidden()).
 */
#ifndef LINE_EDITOR_H
#define LINE_EDITOR_H

#include <stddef.h>
#include <stdbool.h>

/* Longest command line, with its NUL: a page, as Linux's tracefs takes
 * one write of kprobe_events. */
#define CONSOLE_LINE_MAX  4096
#define HISTORY_SIZE      32    /* lines kept for the up arrow */
#define COMPLETIONS_MAX   1024  /* bytes of candidates one Tab may offer */

/* Control characters the editor understands (what terminals send). */
#define KEY_CTRL_A   0x01       /* Home (under QEMU's mon:stdio: Ctrl-A A) */
#define KEY_CTRL_C   0x03
#define KEY_CTRL_E   0x05       /* End */
#define KEY_BS       0x08
#define KEY_TAB      0x09
#define KEY_CTRL_P   0x10       /* SysRq: dump the probe list */
#define KEY_CTRL_R   0x12       /* draw the line again */
#define KEY_CTRL_U   0x15       /* erase to the start of the line */
#define KEY_CTRL_W   0x17       /* erase the word before the cursor */
#define KEY_ESC      0x1B
#define KEY_DEL      0x7F

/*
 * Tab asks this for the words that could replace line[start, end), the
 * word before the cursor.  It writes them into out, each ended by '\n'
 * (a directory ends in '/': no space is added after it), and returns
 * how many it wrote.
 */
typedef int (*line_complete_fn)(const char *line, size_t start, size_t end,
				char *out, size_t size);

/* The editor's state; the shell owns one, tests make their own. */
struct line_editor {
	const char *prompt;
	line_complete_fn complete;	/* NULL: Tab inserts a space */
	char buf[CONSOLE_LINE_MAX];
	size_t len;
	size_t pos;			/* the cursor: 0..len */
	int esc_state;			/* 0, 1 after ESC, 2 after ESC [ or ESC O */
	int esc_param;			/* the number in ESC [ 3 ~ */
	bool last_was_cr;		/* swallow the \n of a \r\n pair */
	bool hidden;			/* printk blanked the line: draw it again */
	size_t dropped;			/* characters typed past a full line */
	char history[HISTORY_SIZE][CONSOLE_LINE_MAX];
	int nr_history;			/* lines stored (<= HISTORY_SIZE) */
	int history_pos;		/* how far back the arrows went: 0 = new line */
};

/* LINE_TOO_LONG: Enter ended a line that lost characters (le->dropped):
 * the caller refuses it rather than run a shorter command. */
enum line_result { LINE_MORE, LINE_DONE, LINE_CANCEL, LINE_TOO_LONG };

void line_editor_init(struct line_editor *le, const char *prompt);
/* An empty line, cursor at 0, history walk reset: before each prompt. */
void line_editor_start(struct line_editor *le);
/* Feed one character; LINE_DONE: le->buf holds the line (NUL-terminated). */
enum line_result line_editor_key(struct line_editor *le, int c);
/* Put a finished line into the history (blank lines and repeats are not). */
void line_editor_remember(struct line_editor *le);

/*
 * The line on screen while it is being typed: attach draws le's prompt
 * and line; from then on printk hides it before other output and the
 * reader draws it back.  attach(NULL) detaches.
 */
void line_editor_attach(struct line_editor *le);
void line_editor_hide(const char *text, size_t len);	/* printk, before text */
void line_editor_redraw_if_hidden(void);

#endif
