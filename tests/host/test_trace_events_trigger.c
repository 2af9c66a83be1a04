/*
 * test_trace_events_trigger.c - lib/trace_events_trigger.c: each trigger
 * command with and without a count and an "if" filter, removal with
 * '!', the hist attributes and modifiers, the hist errors Linux logs
 * (with the text they point at), and the line a hist trigger prints.
 */
#include "ktest_host.h"
#include "errno.h"
#include "trace_events_trigger.h"
#include "vsprintf.h"

static struct trigger_spec spec;
static enum hist_err herr;

static void simple_commands(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("traceon", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_TRACEON);
	KTEST_EXPECT_EQ(t, spec.count, -1);
	KTEST_EXPECT_STREQ(t, spec.filter, "");
	KTEST_EXPECT_EQ(t, trigger_parse("traceoff:3\n", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_TRACEOFF);
	KTEST_EXPECT_EQ(t, spec.count, 3);
	KTEST_EXPECT_EQ(t, trigger_parse("stacktrace:0x10 if n > 3", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_STACKTRACE);
	KTEST_EXPECT_EQ(t, spec.count, 16);
	KTEST_EXPECT_STREQ(t, spec.filter, "n > 3");
	KTEST_EXPECT_EQ(t, trigger_parse("snapshot if comm == \"sh\"", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_SNAPSHOT);
	KTEST_EXPECT_STREQ(t, spec.filter, "comm == \"sh\"");
	KTEST_EXPECT_EQ(t, trigger_parse("!traceon", &spec, &herr), 0);
	KTEST_EXPECT_TRUE(t, spec.remove);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_TRACEON);
}

static void bad_commands(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("traceonx", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("traceon:abc", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("traceon if ", &spec, &herr), -EINVAL);	/* "if" and no filter */
}

/* Linux's event_enable_trigger_parse(): SYSTEM:EVENT required, then an optional count. */
static void enable_event_commands(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:kprobes:myfib", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_ENABLE_EVENT);
	KTEST_EXPECT_STREQ(t, spec.system, "kprobes");
	KTEST_EXPECT_STREQ(t, spec.event, "myfib");
	KTEST_EXPECT_EQ(t, spec.count, -1);
	KTEST_EXPECT_EQ(t, trigger_parse("disable_event:grp:ev:3 if n > 1\n", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_DISABLE_EVENT);
	KTEST_EXPECT_STREQ(t, spec.system, "grp");
	KTEST_EXPECT_STREQ(t, spec.event, "ev");
	KTEST_EXPECT_EQ(t, spec.count, 3);
	KTEST_EXPECT_STREQ(t, spec.filter, "n > 1");
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:g:e:0x10  if n == 2", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.count, 16);
	KTEST_EXPECT_EQ(t, trigger_parse("!enable_event:g:e", &spec, &herr), 0);
	KTEST_EXPECT_TRUE(t, spec.remove);
	KTEST_EXPECT_STREQ(t, spec.event, "e");
	KTEST_EXPECT_EQ(t, trigger_parse("!disable_event:g:e:0", &spec, &herr), 0);
	KTEST_EXPECT_TRUE(t, spec.remove);
	KTEST_EXPECT_EQ(t, spec.count, 0);
	/* refused: no parameter, no event, an empty piece, a bad count, junk */
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:kprobes", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:kprobes:", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event::myfib", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:kprobes:myfib:", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:kprobes:myfib:x", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:kprobes:myfib junk", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("disable_event:g:e if ", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_event:g:"
		"a123456789012345678901234567890123456789012345678901234567890123", &spec, &herr),
		-EINVAL);	/* 64 characters: longer than an event name may be */
}

static void hist_attributes(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_HIST);
	KTEST_EXPECT_EQ(t, spec.hist.nr_keys, 1);
	KTEST_EXPECT_STREQ(t, spec.hist.keys[0], "n");
	KTEST_EXPECT_EQ(t, spec.hist.map_bits, HIST_DEFAULT_BITS);
	KTEST_EXPECT_STREQ(t, spec.hist.sort[0], "hitcount");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:key=n.hex,comm:values=hitcount,x:sort=x.descending,n:size=200:pause if n > 1",
					 &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.hist.nr_keys, 2);
	KTEST_EXPECT_EQ(t, spec.hist.key_mods[0], HIST_MOD_HEX);
	KTEST_EXPECT_EQ(t, spec.hist.nr_vals, 1);
	KTEST_EXPECT_STREQ(t, spec.hist.vals[0], "x");
	KTEST_EXPECT_EQ(t, spec.hist.nr_sort, 2);
	KTEST_EXPECT_TRUE(t, spec.hist.sort_descending[0]);
	KTEST_EXPECT_EQ(t, spec.hist.map_bits, 8);		/* 200 -> 256 */
	KTEST_EXPECT_TRUE(t, spec.hist.pause);
	KTEST_EXPECT_STREQ(t, spec.filter, "n > 1");
}

static void hist_errors(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("hist:vals=x", &spec, &herr), -EINVAL);	/* no keys */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n.bogus", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_BAD_FIELD_MODIFIER);
	KTEST_EXPECT_STREQ(t, spec.bad, "bogus");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:sort=n,hitcount,n", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_TOO_MANY_SORT_FIELDS);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:sort=n.up", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_INVALID_SORT_MODIFIER);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:sort=x", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_INVALID_SORT_FIELD);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_EMPTY_ASSIGNMENT);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:size=1000000", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:size=2", &spec, &herr), -EINVAL);
}

static void hist_prints_as_linux(struct ktest *t)
{
	char buf[256];

	trigger_parse("hist:keys=n.hex,comm:vals=x:sort=x.descending", &spec, &herr);
	hist_spec_format(buf, sizeof(buf), &spec.hist);
	KTEST_EXPECT_STREQ(t, buf, "hist:keys=n.hex,comm:vals=hitcount,x:sort=x.descending:size=2048");
	trigger_parse("hist:keys=n", &spec, &herr);
	hist_spec_format(buf, sizeof(buf), &spec.hist);
	KTEST_EXPECT_STREQ(t, buf, "hist:keys=n:vals=hitcount:sort=hitcount:size=2048");
}

/* Random commands built from the grammar's pieces: parsed or refused, never a crash. */
static void random_commands_are_safe(struct ktest *t)
{
	static const char *const bits[] = { "hist", "traceon", "traceoff", "snapshot",
		"stacktrace", "enable_event", "disable_event", "kprobes", "myfib", ":", "!", " if ", "keys=", "vals=", "values=", "sort=", "size=",
		"n", ".hex", ".sym", ".descending", ".bogus", ",", "=", "pause", "cont", "clear",
		"0x10", "2048", "99999999999999999999", " ", "\t", "n > 1" };
	char text[512];
	uint32_t seed = 4242;
	int parsed = 0;

	for (int i = 0; i < 20000; i++) {
		size_t len = 0;
		int ret;

		for (int w = seed % 10; w >= 0; w--) {
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			len += snprintf(text + len, sizeof(text) - len, "%s",
					bits[seed % (sizeof(bits) / sizeof(bits[0]))]);
		}
		ret = trigger_parse(text, &spec, &herr);
		KTEST_EXPECT_TRUE(t, ret == 0 || ret == -EINVAL);
		parsed += ret == 0;
	}
	printf("# %d of 20000 random commands parsed\n", parsed);
	KTEST_EXPECT_TRUE(t, parsed > 0);
}

static struct ktest_case cases[] = {
	KTEST_CASE(random_commands_are_safe),
	KTEST_CASE(simple_commands),
	KTEST_CASE(bad_commands),
	KTEST_CASE(enable_event_commands),
	KTEST_CASE(hist_attributes),
	KTEST_CASE(hist_errors),
	KTEST_CASE(hist_prints_as_linux),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
