/*
 * test_keyboard.c - suite "keyboard": scancode set 1 to ASCII, through
 * the same translator the IRQ 1 handler uses (kbd_handle_scancode).
 */
#include "ktest.h"
#include "keyboard.h"
#include "string.h"
#include "vsprintf.h"

/* Set-1 make codes; the break (release) code is make | 0x80. */
#define SC_1        0x02
#define SC_I        0x17
#define SC_H        0x23
#define SC_A        0x1E
#define SC_ENTER    0x1C
#define SC_BKSP     0x0E
#define SC_LSHIFT   0x2A
#define SC_RSHIFT   0x36
#define SC_CAPS     0x3A
#define SC_EXTENDED 0xE0
#define BREAK(sc)   ((sc) | 0x80)

static void tap(uint8_t sc)
{
	kbd_handle_scancode(sc);
	kbd_handle_scancode(BREAK(sc));
}

static void drain(void)
{
	while (kbd_getc() != -1)
		;
}

static void plain_keys(struct ktest *t)
{
	drain();
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
	tap(SC_H);
	tap(SC_I);
	tap(SC_1);
	tap(SC_ENTER);
	tap(SC_BKSP);
	KTEST_EXPECT_EQ(t, kbd_getc(), 'h');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'i');
	KTEST_EXPECT_EQ(t, kbd_getc(), '1');
	KTEST_EXPECT_EQ(t, kbd_getc(), '\n');
	KTEST_EXPECT_EQ(t, kbd_getc(), '\b');
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
}

static void shift_keys(struct ktest *t)
{
	drain();
	kbd_handle_scancode(SC_LSHIFT);
	tap(SC_H);
	tap(SC_1);
	kbd_handle_scancode(BREAK(SC_LSHIFT));
	tap(SC_H);
	kbd_handle_scancode(SC_RSHIFT);
	tap(SC_I);
	kbd_handle_scancode(BREAK(SC_RSHIFT));
	KTEST_EXPECT_EQ(t, kbd_getc(), 'H');
	KTEST_EXPECT_EQ(t, kbd_getc(), '!');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'h');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'I');
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
}

static void caps_lock_letters_only(struct ktest *t)
{
	drain();
	tap(SC_CAPS);
	tap(SC_A);                        /* A */
	tap(SC_1);                        /* 1: not a letter */
	kbd_handle_scancode(SC_LSHIFT);
	tap(SC_A);                        /* Shift undoes Caps Lock: a */
	kbd_handle_scancode(BREAK(SC_LSHIFT));
	tap(SC_CAPS);                     /* off again */
	tap(SC_A);
	KTEST_EXPECT_EQ(t, kbd_getc(), 'A');
	KTEST_EXPECT_EQ(t, kbd_getc(), '1');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'a');
	KTEST_EXPECT_EQ(t, kbd_getc(), 'a');
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
}

static void extended_keys_type_nothing(struct ktest *t)
{
	drain();
	/* E0 1C is keypad Enter; E0 2A is part of Print Screen. */
	kbd_handle_scancode(SC_EXTENDED);
	kbd_handle_scancode(SC_ENTER);
	kbd_handle_scancode(SC_EXTENDED);
	kbd_handle_scancode(BREAK(SC_ENTER));
	kbd_handle_scancode(SC_EXTENDED);
	kbd_handle_scancode(SC_LSHIFT);   /* must NOT count as Shift */
	tap(SC_H);
	KTEST_EXPECT_EQ(t, kbd_getc(), 'h');
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
}

/* A full queue drops keys, and the reader is told how many, once. */
static void full_buffer_drops_keys(struct ktest *t)
{
	const char *said;
	char want[80];
	int n = 0;

	drain();
	for (int i = 0; i < 1000; i++)
		tap(SC_H);
	ktest_capture_start();
	while (kbd_getc() == 'h')
		n++;
	KTEST_EXPECT_EQ(t, kbd_getc(), -1);
	ktest_capture_stop();
	KTEST_EXPECT_TRUE(t, n > 0 && n < 1000);
	snprintf(want, sizeof(want), "keyboard: input overrun, %d keys dropped", 1000 - n);
	said = strstr(ktest_captured(), want);
	KTEST_ASSERT_TRUE(t, said != NULL);
	KTEST_EXPECT_TRUE(t, strstr(said + strlen(want), "overrun") == NULL);	/* once */
}

static struct ktest_case keyboard_cases[] = {
	KTEST_CASE(plain_keys),
	KTEST_CASE(shift_keys),
	KTEST_CASE(caps_lock_letters_only),
	KTEST_CASE(extended_keys_type_nothing),
	KTEST_CASE(full_buffer_drops_keys),
	KTEST_END
};

static struct ktest_suite keyboard_suite = {
	.name = "keyboard",
	.cases = keyboard_cases,
};
KTEST_SUITE(keyboard_suite);
