/* test_errno.c - errno_name() and errno_meaning() from lib/errno.c. */
#include "ktest_host.h"
#include "errno.h"

static void known_codes_either_sign(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, errno_name(EINVAL), "EINVAL");
	KTEST_EXPECT_STREQ(t, errno_name(-EINVAL), "EINVAL");
	KTEST_EXPECT_STREQ(t, errno_name(-EPERM), "EPERM");
	KTEST_EXPECT_STREQ(t, errno_name(-ENOMEM), "ENOMEM");
	KTEST_EXPECT_STREQ(t, errno_name(-EFAULT), "EFAULT");
	KTEST_EXPECT_STREQ(t, errno_name(-EPIPE), "EPIPE");
	KTEST_EXPECT_STREQ(t, errno_name(-ENOTDIR), "ENOTDIR");
	KTEST_EXPECT_STREQ(t, errno_meaning(ESPIPE), "Illegal seek");
	KTEST_EXPECT_STREQ(t, errno_name(-EBUSY), "EBUSY");
	KTEST_EXPECT_STREQ(t, errno_name(-EEXIST), "EEXIST");
	KTEST_EXPECT_STREQ(t, errno_name(-ENOENT), "ENOENT");
	KTEST_EXPECT_STREQ(t, errno_name(-E2BIG), "E2BIG");
	KTEST_EXPECT_STREQ(t, errno_name(-ERANGE), "ERANGE");
	KTEST_EXPECT_STREQ(t, errno_name(-ENOSYS), "ENOSYS");
	KTEST_EXPECT_STREQ(t, errno_name(EILSEQ), "EILSEQ");   /* the last one */
}

static void unknown_codes_fall_back(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, errno_name(0), "errno 0");
	KTEST_EXPECT_STREQ(t, errno_name(99), "errno 99");
	KTEST_EXPECT_STREQ(t, errno_name(-15), "errno -15");   /* gap in the table */
	KTEST_EXPECT_STREQ(t, errno_name(-85), "errno -85");   /* just past it */
	KTEST_EXPECT_STREQ(t, errno_name(-2147483647 - 1), "errno -2147483648");
}

/* The C library's strerror() words, for either sign. */
static void meanings(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, errno_meaning(-EINVAL), "Invalid argument");
	KTEST_EXPECT_STREQ(t, errno_meaning(EINVAL), "Invalid argument");
	KTEST_EXPECT_STREQ(t, errno_meaning(-ENOEXEC), "Exec format error");
	KTEST_EXPECT_STREQ(t, errno_meaning(-ENOENT), "No such file or directory");
	KTEST_EXPECT_STREQ(t, errno_meaning(-EBUSY), "Device or resource busy");
	KTEST_EXPECT_STREQ(t, errno_meaning(-EILSEQ),
			   "Invalid or incomplete multibyte or wide character");
}

/* Every number that has a name has a meaning, and the other way round. */
static void names_and_meanings_agree(struct ktest *t)
{
	for (int e = 0; e < 200; e++) {
		bool named = strncmp(errno_name(-e), "errno ", 6) != 0;
		bool meant = strncmp(errno_meaning(-e), "Unknown error ", 14) != 0;

		KTEST_EXPECT_EQ(t, named, meant);
	}
	KTEST_EXPECT_STREQ(t, errno_meaning(-15), "Unknown error -15");
	KTEST_EXPECT_STREQ(t, errno_meaning(99), "Unknown error 99");
	KTEST_EXPECT_STREQ(t, errno_meaning(-2147483647 - 1), "Unknown error -2147483648");
}

static struct ktest_case cases[] = {
	KTEST_CASE(known_codes_either_sign),
	KTEST_CASE(unknown_codes_fall_back),
	KTEST_CASE(meanings),
	KTEST_CASE(names_and_meanings_agree),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
