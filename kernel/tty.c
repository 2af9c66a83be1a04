/*
 * tty.c - the console as a terminal for processes (Linux's
 * drivers/tty/tty_io.c, tty_ioctl.c and n_tty.c, cut to one console).
 *
 * A terminal is three things a shell asks about: its settings (struct
 * termios: TCGETS, TCSETS), its size (struct winsize: TIOCGWINSZ), and
 * which process group is in the foreground (TIOCGPGRP, TIOCSPGRP): the
 * group Ctrl-C sends SIGINT to.  Reading it goes through a line
 * discipline: with ICANON (the default) a read returns a whole line,
 * typed with Backspace and Ctrl-U and echoed; without it (an editing
 * shell, busybox's, turns ICANON and ECHO off) every key comes back
 * as it is typed and the program draws the line itself.
 *
 * The keys are the console's: while the kernel's own shell runs, it
 * owns them and a process reads end of file, as before.  With init=,
 * the console hands its input here (tty_attach_input(), from kmain)
 * and the first program reads the keyboard.
 */
#include "kernel.h"
#include "tty.h"
#include "sched.h"
#include "signal.h"
#include "uaccess.h"
#include "string.h"
#include "mutex.h"
#include "errno.h"
#include "timer.h"

#define TTY_LINE_MAX	256	/* a canonical line; Linux's N_TTY_BUF_SIZE is 4096 */
#define CONSOLE_ROWS	25	/* the VGA text screen the serial console mirrors */
#define CONSOLE_COLS	80
#define BACKSPACE	'\b'
#define ERASE_ECHO	"\b \b"
#define CTRL(c)		((c) & 0x1f)
#define INIT_C_CC_DEL	0177

/* Linux's tty_std_termios: what every terminal starts with. */
static struct termios console_termios = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B38400 | CS8 | CREAD | HUPCL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.c_cc = { [VINTR] = CTRL('C'), [VQUIT] = CTRL('\\'), [VERASE] = INIT_C_CC_DEL,
		  [VKILL] = CTRL('U'), [VEOF] = CTRL('D'), [VTIME] = 0, [VMIN] = 1 },
};

static struct winsize console_winsize = { .ws_row = CONSOLE_ROWS, .ws_col = CONSOLE_COLS };

static int (*tty_input)(void);		/* the console's key source, or NULL */
static volatile int tty_pgrp;		/* the foreground process group */
static DEFINE_MUTEX(tty_read_mutex);	/* one reader at a time, and the line below */
static char tty_line[TTY_LINE_MAX];	/* a canonical line typed, not all read yet */
static volatile int tty_peeked = -1;	/* a key poll() took from the console, not read yet */
static size_t tty_line_len, tty_line_off;

void tty_attach_input(int (*poll)(void))
{
	WRITE_ONCE(tty_input, poll);
}

void tty_detach_input(void)
{
	WRITE_ONCE(tty_input, NULL);
}

int tty_get_pgrp(void)
{
	return READ_ONCE(tty_pgrp);
}

bool tty_isig(void)
{
	return READ_ONCE(console_termios.c_lflag) & ISIG;
}

void tty_set_pgrp(int pgrp)
{
	WRITE_ONCE(tty_pgrp, pgrp);
}

/* The key poll() set aside, if any (-1): taken once. */
static int xchg_peeked(void)
{
	int c = READ_ONCE(tty_peeked);

	WRITE_ONCE(tty_peeked, -1);
	return c;
}

/*
 * The next key, waiting a tick at a time as the console's own reader
 * does; -EINTR when a signal (Ctrl-C's SIGINT) came meanwhile, -1 when
 * nonblocking and there is none.
 */
static int tty_getc(bool wait)
{
	int (*poll)(void) = READ_ONCE(tty_input);
	int c = xchg_peeked();

	while (c < 0 && poll && (c = poll()) < 0) {
		if (signal_pending(current))
			return -EINTR;
		if (!wait)
			return -1;
		msleep(1000 / HZ);
	}
	if (c == '\r' && (console_termios.c_iflag & ICRNL))
		c = '\n';
	return c;
}

static void tty_echo(int c)
{
	if (!(console_termios.c_lflag & ECHO))
		return;
	if (c < ' ' && c != '\n' && c != '\t' && (console_termios.c_lflag & ECHOCTL))
		printk("^%c", c + '@');
	else
		printk("%c", c);
}

/* Backspace over the last character echoed (ECHOE), as a terminal shows an erase. */
static void tty_echo_erase(void)
{
	if ((console_termios.c_lflag & (ECHO | ECHOE)) == (ECHO | ECHOE))
		printk("%s", ERASE_ECHO);
}

/* One key of a canonical line: false once the line is complete (Enter, or Ctrl-D). */
static bool tty_canon_key(int c)
{
	const cc_t *cc = console_termios.c_cc;

	if (c == cc[VERASE] || c == BACKSPACE) {
		if (tty_line_len) {
			tty_line_len--;
			tty_echo_erase();
		}
		return true;
	}
	if (c == cc[VKILL]) {
		for (; tty_line_len; tty_line_len--)
			tty_echo_erase();
		return true;
	}
	if (c == cc[VEOF])
		return false;		/* the line as it is; empty: end of file */
	if (tty_line_len < sizeof(tty_line) - 1 || c == '\n') {
		tty_line[tty_line_len++] = c;
		tty_echo(c);
	}
	return c != '\n';
}

/* ICANON: a whole line into tty_line (0 bytes is Ctrl-D on an empty line). */
static long tty_read_line(void)
{
	int c;

	tty_line_len = tty_line_off = 0;
	do {
		c = tty_getc(true);
		if (c < 0)
			return c;
	} while (tty_canon_key(c));
	return tty_line_len;
}

/* Without ICANON: the keys there are, at least VMIN of them (0 or 1 here). */
static long tty_read_raw(char *kbuf, size_t count)
{
	size_t n = 0;
	int c;

	while (n < count) {
		c = tty_getc(n == 0 && console_termios.c_cc[VMIN] > 0);
		if (c == -EINTR && n == 0)
			return -EINTR;
		if (c < 0)
			break;
		kbuf[n++] = c;
		tty_echo(c);
	}
	return n;
}

long tty_read(char __user *buf, size_t count)
{
	char kbuf[TTY_LINE_MAX];
	long n;

	if (!READ_ONCE(tty_input) || !count)
		return 0;	/* the kernel's shell has the keys: end of file */
	mutex_lock(&tty_read_mutex);
	if (!(console_termios.c_lflag & ICANON)) {
		n = tty_read_raw(kbuf, count < sizeof(kbuf) ? count : sizeof(kbuf));
		if (n > 0 && copy_to_user(buf, kbuf, n))
			n = -EFAULT;
	} else {
		n = tty_line_off < tty_line_len ? 0 : tty_read_line();
		if (n >= 0) {
			n = tty_line_len - tty_line_off;
			if ((size_t)n > count)
				n = count;
			if (copy_to_user(buf, tty_line + tty_line_off, n))
				n = -EFAULT;
			else
				tty_line_off += n;
		}
	}
	mutex_unlock(&tty_read_mutex);
	return n;
}

/*
 * Ready to read: a canonical line half read, or a key waiting (taken
 * from the console and set aside for the read).  Called by one reader
 * at a time, as tty_read() is.
 */
unsigned int tty_poll(void)
{
	int (*poll)(void) = READ_ONCE(tty_input);
	unsigned int mask = POLLOUT | POLLWRNORM;

	if (!poll || tty_line_off < tty_line_len || READ_ONCE(tty_peeked) >= 0)
		return mask | POLLIN | POLLRDNORM;	/* no keys: end of file, at once */
	WRITE_ONCE(tty_peeked, poll());
	return READ_ONCE(tty_peeked) >= 0 ? mask | POLLIN | POLLRDNORM : mask;
}

/* Does any process lead or belong to group pgrp? (TIOCSPGRP's -ESRCH otherwise.) */
struct pgrp_search {
	int pgrp;
	bool found;
};

static void match_pgrp_task(struct task_struct *t, void *arg)
{
	struct pgrp_search *s = arg;

	if (t->mm && t->signal.pgid == s->pgrp)
		s->found = true;
}

static long tiocspgrp(int __user *p)
{
	struct pgrp_search s = { 0 };

	if (copy_from_user(&s.pgrp, p, sizeof(s.pgrp)))
		return -EFAULT;
	if (s.pgrp < 0)
		return -EINVAL;
	for_each_task(match_pgrp_task, &s);
	if (!s.found)
		return -ESRCH;
	tty_set_pgrp(s.pgrp);
	return 0;
}

/* TCSETSF: the new settings, and what was typed and not read is dropped. */
static long tty_set_termios(unsigned int cmd, const struct termios __user *p)
{
	struct termios t;

	if (copy_from_user(&t, p, sizeof(t)))
		return -EFAULT;
	mutex_lock(&tty_read_mutex);
	console_termios = t;
	if (cmd == TCSETSF)
		tty_line_len = tty_line_off = 0;
	mutex_unlock(&tty_read_mutex);
	return 0;
}

long tty_ioctl(unsigned int cmd, unsigned long arg)
{
	void __user *p = (void __user *)arg;
	int pgrp;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &console_termios, sizeof(console_termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return tty_set_termios(cmd, p);
	case TIOCGWINSZ:
		return copy_to_user(p, &console_winsize, sizeof(console_winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		return copy_from_user(&console_winsize, p, sizeof(console_winsize)) ? -EFAULT : 0;
	case TIOCGPGRP:
		pgrp = tty_get_pgrp();
		return copy_to_user(p, &pgrp, sizeof(pgrp)) ? -EFAULT : 0;
	case TIOCSPGRP:
		return tiocspgrp(p);
	default:
		return -ENOTTY;	/* a request no terminal here knows (Linux's n_tty answers the same) */
	}
}
