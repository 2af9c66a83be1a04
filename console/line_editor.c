/*
 * line_editor.c - one command line: insert, erase, move, recall, complete.
 *
 * The screen is a terminal (or the VGA console, which behaves like one
 * for these few codes): '\b' moves the cursor one column left without
 * erasing, printing a character moves it right, '\r' goes to column 0.
 * Every edit is therefore "print what changed from the cursor to the end
 * of the line, blank what is left over, then back up to the cursor" -
 * no terminal-specific escape sequences are sent, only understood.
 *
 * All output goes through printk with `echoing` set, so that printk's
 * hook (line_editor_hide) can tell the editor's own drawing from other
 * output that must not land in the middle of the line.
 */
#include "kernel.h"
#include "line_editor.h"
#include "printk.h"
#include "string.h"
#include "nokprobe.h"

static struct line_editor *shown;	/* the line on screen, if any */
static int echoing;			/* the editor itself is printing */
static bool output_ended_line;		/* did the last other output end in \n? */

/* ---- drawing -------------------------------------------------------------- */

static void put(const char *s, size_t n)
{
	echoing++;
	printk_write(s, n);
	echoing--;
}

static void put_repeat(char c, size_t n)
{
	char chunk[32];

	memset(chunk, c, sizeof(chunk));
	while (n) {
		size_t k = n < sizeof(chunk) ? n : sizeof(chunk);

		put(chunk, k);
		n -= k;
	}
}

/* Draw buf[pos, len), blank `extra` old columns, put the cursor back. */
static void draw_tail(struct line_editor *le, size_t extra)
{
	put(le->buf + le->pos, le->len - le->pos);
	put_repeat(' ', extra);
	put_repeat('\b', le->len - le->pos + extra);
}

/* The whole line again, on a fresh row: after a list or other output. */
static void redraw(struct line_editor *le)
{
	put(le->prompt, strlen(le->prompt));
	put(le->buf, le->len);
	put_repeat('\b', le->len - le->pos);
}

/* ---- other output while a line is typed ------------------------------------ */

/* Show le's prompt and take the screen line (NULL: give it back). */
void line_editor_attach(struct line_editor *le)
{
	shown = le;
	printk_set_before_write(line_editor_hide);	/* printk hides the line first */
	output_ended_line = true;
	if (le)
		redraw(le);
}

/*
 * printk calls this before writing anything.  The first time, blank the
 * line (prompt included) and leave the cursor in column 0, so the
 * output starts on a clean row; the reader draws the line back later.
 */
void line_editor_hide(const char *text, size_t len)
{
	struct line_editor *le = shown;

	if (!le || echoing)
		return;
	if (len)
		output_ended_line = text[len - 1] == '\n';
	if (le->hidden)
		return;
	le->hidden = true;
	put("\r", 1);
	put_repeat(' ', strlen(le->prompt) + le->len);
	put("\r", 1);
}

void line_editor_redraw_if_hidden(void)
{
	struct line_editor *le = shown;

	if (!le || !le->hidden)
		return;
	le->hidden = false;
	if (!output_ended_line)
		put("\n", 1);
	redraw(le);
}

/* ---- editing ---------------------------------------------------------------- */

void line_editor_init(struct line_editor *le, const char *prompt)
{
	memset(le, 0, sizeof(*le));
	le->prompt = prompt;
}

void line_editor_start(struct line_editor *le)
{
	le->len = le->pos = 0;
	le->buf[0] = '\0';
	le->history_pos = 0;
	le->esc_state = 0;
	le->hidden = false;
	le->dropped = 0;
}

static void insert(struct line_editor *le, const char *s, size_t n)
{
	if (le->len + n >= sizeof(le->buf)) {
		le->dropped += n;	/* full: Enter refuses the line */
		return;
	}
	memmove(le->buf + le->pos + n, le->buf + le->pos, le->len - le->pos);
	memcpy(le->buf + le->pos, s, n);
	le->len += n;
	put(le->buf + le->pos, n);
	le->pos += n;
	draw_tail(le, 0);
}

/* Erase the n characters before the cursor. */
static void erase_before(struct line_editor *le, size_t n)
{
	if (n > le->pos)
		n = le->pos;
	if (!n)
		return;
	memmove(le->buf + le->pos - n, le->buf + le->pos, le->len - le->pos);
	le->pos -= n;
	le->len -= n;
	put_repeat('\b', n);
	draw_tail(le, n);
}

static void erase_at_cursor(struct line_editor *le)
{
	if (le->pos == le->len)
		return;
	memmove(le->buf + le->pos, le->buf + le->pos + 1, le->len - le->pos - 1);
	le->len--;
	draw_tail(le, 1);
}

static void move_to(struct line_editor *le, size_t pos)
{
	if (pos < le->pos)
		put_repeat('\b', le->pos - pos);
	else
		put(le->buf + le->pos, pos - le->pos);
	le->pos = pos;
}

/* Ctrl-W: the spaces before the cursor, then the word before them. */
static size_t word_before_cursor(const struct line_editor *le)
{
	size_t i = le->pos;

	while (i && le->buf[i - 1] == ' ')
		i--;
	while (i && le->buf[i - 1] != ' ')
		i--;
	return le->pos - i;
}

/* Replace the line with history entry `back` (1 = newest; 0 = empty). */
static void recall(struct line_editor *le, int back)
{
	size_t old = le->len;

	if (back < 0 || back > le->nr_history)
		return;
	move_to(le, 0);
	le->history_pos = back;
	le->len = back ? strlcpy(le->buf, le->history[back - 1], sizeof(le->buf)) : 0;
	le->buf[le->len] = '\0';
	le->pos = 0;
	draw_tail(le, old > le->len ? old - le->len : 0);
	move_to(le, le->len);
}

void line_editor_remember(struct line_editor *le)
{
	if (le->len == 0 || (le->nr_history && strcmp(le->history[0], le->buf) == 0))
		return;
	memmove(le->history[1], le->history[0],
		sizeof(le->history[0]) * (HISTORY_SIZE - 1));
	strlcpy(le->history[0], le->buf, sizeof(le->history[0]));
	if (le->nr_history < HISTORY_SIZE)
		le->nr_history++;
}

/* ---- Tab ---------------------------------------------------------------------- */

/* How many leading characters every candidate in the list shares. */
static size_t common_prefix(const char *list, size_t first_len)
{
	size_t common = first_len;

	for (const char *c = list; *c; c = strchr(c, '\n') + 1) {
		size_t i = 0;

		while (i < common && c[i] == list[i] && c[i] != '\n')
			i++;
		common = i;
	}
	return common;
}

/*
 * Several candidates and nothing to add: show them, then the line
 * again.  Paths are shown from their last '/' on, as ls would.
 */
static void list_candidates(struct line_editor *le, char *list, size_t start)
{
	size_t skip = 0;

	for (size_t i = start; i < le->pos; i++)
		if (le->buf[i] == '/')
			skip = i + 1 - start;
	put("\n", 1);
	for (char *c = list; *c; ) {
		char *nl = strchr(c, '\n');

		put(c + skip, nl - c - skip);
		put("  ", 2);
		c = nl + 1;
	}
	put("\n", 1);
	redraw(le);
}

static void complete_word(struct line_editor *le)
{
	static char list[COMPLETIONS_MAX];
	size_t start = le->pos, typed, common;
	int n;

	while (start && le->buf[start - 1] != ' ')
		start--;
	typed = le->pos - start;
	le->buf[le->len] = '\0';
	n = le->complete(le->buf, start, le->pos, list, sizeof(list));
	if (n <= 0)
		return;
	common = common_prefix(list, strchr(list, '\n') - list);
	if (common > typed)
		insert(le, list + typed, common - typed);
	if (n == 1 && common && list[common - 1] != '/')
		insert(le, " ", 1);
	else if (n > 1 && common == typed)
		list_candidates(le, list, start);
}

/* ---- keys ---------------------------------------------------------------------- */

/*
 * ESC [ A/B/C/D are the arrows, ESC [ H/F Home/End (ESC O x in a
 * terminal's "application" mode), ESC [ n ~ the editing keypad:
 * 1 or 7 Home, 4 or 8 End, 3 Delete.
 */
#define VT_HOME_1  1
#define VT_DELETE  3
#define VT_END_4   4
#define VT_HOME_7  7
#define VT_END_8   8

static void escape_key(struct line_editor *le, int c)
{
	if (le->esc_state == 1) {
		le->esc_state = (c == '[' || c == 'O') ? 2 : 0;
		le->esc_param = 0;
		return;
	}
	if (c >= '0' && c <= '9') {
		le->esc_param = le->esc_param * 10 + (c - '0');
		return;
	}
	le->esc_state = 0;
	if (c == '~') {
		if (le->esc_param == VT_HOME_1 || le->esc_param == VT_HOME_7)
			c = 'H';
		else if (le->esc_param == VT_END_4 || le->esc_param == VT_END_8)
			c = 'F';
		else if (le->esc_param == VT_DELETE)
			erase_at_cursor(le);
	}
	switch (c) {
	case 'A': recall(le, le->history_pos + 1); break;
	case 'B': recall(le, le->history_pos - 1); break;
	case 'C': if (le->pos < le->len) move_to(le, le->pos + 1); break;
	case 'D': if (le->pos) move_to(le, le->pos - 1); break;
	case 'H': move_to(le, 0); break;
	case 'F': move_to(le, le->len); break;
	}
}

/* Keys that edit or move; returns false for ones it does not know. */
static bool editing_key(struct line_editor *le, int c)
{
	switch (c) {
	case KEY_BS:
	case KEY_DEL:    erase_before(le, 1); return true;
	case KEY_CTRL_U: erase_before(le, le->pos); return true;
	case KEY_CTRL_W: erase_before(le, word_before_cursor(le)); return true;
	case KEY_CTRL_A: move_to(le, 0); return true;
	case KEY_CTRL_E: move_to(le, le->len); return true;
	case KEY_CTRL_R: put("\n", 1); redraw(le); return true;
	case KEY_ESC:    le->esc_state = 1; return true;
	case KEY_TAB:
		if (le->complete)
			complete_word(le);
		else
			insert(le, " ", 1);
		return true;
	}
	return false;
}

enum line_result line_editor_key(struct line_editor *le, int c)
{
	bool after_cr = le->last_was_cr;
	char ch = c;

	le->last_was_cr = (c == '\r');
	if (le->pos > le->len)		/* the caller emptied buf under us */
		le->pos = le->len;
	if (le->esc_state) {
		escape_key(le, c);
		return LINE_MORE;
	}
	switch (c) {
	case '\n':
		if (after_cr)
			return LINE_MORE;	/* the LF of CR LF */
		/* fall through */
	case '\r':
		le->buf[le->len] = '\0';
		put("\n", 1);
		return le->dropped ? LINE_TOO_LONG : LINE_DONE;
	case KEY_CTRL_C:
		put("^C\n", 3);
		le->len = le->pos = 0;
		le->buf[0] = '\0';
		le->dropped = 0;
		return LINE_CANCEL;
	}
	if (editing_key(le, c))
		return LINE_MORE;
	if (c >= ' ' && c <= '~')
		insert(le, &ch, 1);
	return LINE_MORE;	/* other control bytes are ignored */
}

/* printk calls line_editor_hide: a probe on its path would recurse. */
NOKPROBE_SYMBOL(line_editor_hide);
NOKPROBE_SYMBOL(put);
NOKPROBE_SYMBOL(put_repeat);
