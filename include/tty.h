/*
 * tty.h - the console as a process's terminal (kernel/tty.c): Linux's
 * struct termios and struct winsize, the tty ioctls this kernel
 * answers, and the hooks the console below and above it use.
 */
#ifndef TTY_H
#define TTY_H

#include "kernel.h"
#include "linux/compiler.h"

/* Linux i386's ioctl numbers for a terminal (include/uapi/asm-generic/ioctls.h). */
#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403	/* after the output drains: at once here, it never waits */
#define TCSETSF		0x5404	/* ...and the unread input is flushed */
#define TIOCGPGRP	0x540F
#define TIOCSPGRP	0x5410
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414

#define NCCS	19
typedef unsigned int tcflag_t;
typedef unsigned char cc_t;

/* What TCGETS copies out: the kernel's struct termios, 36 bytes on i386. */
struct termios {
	tcflag_t c_iflag;	/* input: ICRNL turns Enter's \r into \n */
	tcflag_t c_oflag;
	tcflag_t c_cflag;
	tcflag_t c_lflag;	/* ICANON: line at a time; ECHO; ISIG: Ctrl-C is SIGINT */
	cc_t c_line;
	cc_t c_cc[NCCS];	/* the special characters: VINTR, VERASE, VEOF ... */
};

struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};

/* The flags and characters the console's line discipline honours (octal, as Linux writes them). */
#define ICRNL	0000400
#define IXON	0002000
#define OPOST	0000001
#define ONLCR	0000004
#define B38400	0000017
#define CS8	0000060
#define CREAD	0000200
#define HUPCL	0002000
#define ISIG	0000001
#define ICANON	0000002
#define ECHO	0000010
#define ECHOE	0000020
#define ECHOK	0000040
#define ECHOCTL	0001000
#define ECHOKE	0004000
#define IEXTEN	0100000

#define VINTR	0
#define VQUIT	1
#define VERASE	2
#define VKILL	3
#define VEOF	4
#define VTIME	5
#define VMIN	6

/* The console's side: where keys come from (console_poll(): a key, or < 0 for none yet). */
void tty_attach_input(int (*poll)(void));
void tty_detach_input(void);
/* The foreground process group: the one Ctrl-C signals (0: none). */
int tty_get_pgrp(void);
/* Is ISIG on: does Ctrl-C send SIGINT, or is it a key the program reads? */
bool tty_isig(void);
void tty_set_pgrp(int pgrp);

/* The console file's read and ioctl (kernel/file.c). */
long tty_read(char __user *buf, size_t count);
long tty_ioctl(unsigned int cmd, unsigned long arg);
/* POLLIN when a read would not wait, POLLOUT always (the console takes every write). */
unsigned int tty_poll(void);

/* poll()'s events (include/uapi/asm-generic/poll.h). */
#define POLLIN		0x0001
#define POLLOUT		0x0004
#define POLLNVAL	0x0020
#define POLLRDNORM	0x0040
#define POLLWRNORM	0x0100

#endif
