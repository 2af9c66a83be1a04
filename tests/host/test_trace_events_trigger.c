/*
 * test_trace_events_trigger.c - lib/trace_events_trigger.c: each trigger
 * command with and without a count and an "if" filter, removal with
 * '!', the hist attributes and modifiers, the hist errors Linux logs
 * (with the text they point at), and the line a hist trigger prints;
 * lib/trace_events_hist.c: expressions, variables and actions.
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

static void enable_hist_commands(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("enable_hist:kprobes:myfib", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_ENABLE_HIST);
	KTEST_EXPECT_STREQ(t, spec.target_system, "kprobes");
	KTEST_EXPECT_STREQ(t, spec.target_event, "myfib");
	KTEST_EXPECT_EQ(t, spec.count, -1);
	KTEST_EXPECT_EQ(t, trigger_parse("disable_hist:synthetic:lat:2 if n > 1", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.cmd, TRIGGER_DISABLE_HIST);
	KTEST_EXPECT_STREQ(t, spec.target_event, "lat");
	KTEST_EXPECT_EQ(t, spec.count, 2);
	KTEST_EXPECT_STREQ(t, spec.filter, "n > 1");
	KTEST_EXPECT_EQ(t, trigger_parse("!enable_hist:kprobes:myfib", &spec, &herr), 0);
	KTEST_EXPECT_TRUE(t, spec.remove);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_hist:kprobes", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("enable_hist", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("disable_hist:kprobes:myfib:x", &spec, &herr), -EINVAL);
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
	KTEST_EXPECT_STREQ(t, spec.hist.keys[0].nodes[0].name, "n");
	KTEST_EXPECT_EQ(t, spec.hist.map_bits, HIST_DEFAULT_BITS);
	KTEST_EXPECT_EQ(t, spec.hist.nr_sort, 1);
	KTEST_EXPECT_EQ(t, spec.hist.sort_kind[0], HIST_SORT_HITCOUNT);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:key=n.hex,comm:values=hitcount,x:sort=x.descending,n:size=200:pause if n > 1",
					 &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.hist.nr_keys, 2);
	KTEST_EXPECT_EQ(t, spec.hist.keys[0].nodes[0].mods, HIST_MOD_HEX);
	KTEST_EXPECT_EQ(t, spec.hist.nr_vals, 1);
	KTEST_EXPECT_STREQ(t, spec.hist.vals[0].nodes[0].name, "x");
	KTEST_EXPECT_EQ(t, spec.hist.nr_sort, 2);
	KTEST_EXPECT_EQ(t, spec.hist.sort_kind[0], HIST_SORT_VAL);
	KTEST_EXPECT_EQ(t, spec.hist.sort_kind[1], HIST_SORT_KEY);
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

/* The line of a parsed hist command, as the trigger file shows it. */
static const char *printed(const char *cmd)
{
	static char buf[1024];

	if (trigger_parse(cmd, &spec, &herr))
		return "(refused)";
	hist_spec_format(buf, sizeof(buf), &spec.hist);
	return buf;
}

static void hist_variables_and_expressions(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, printed("hist:keys=common_pid:ts0=common_timestamp.usecs"),
			   "hist:keys=common_pid:vals=hitcount:ts0=common_timestamp.usecs:"
			   "sort=hitcount:size=2048:clock=global");
	KTEST_EXPECT_EQ(t, spec.hist.nr_vars, 1);
	KTEST_EXPECT_STREQ(t, spec.hist.vars[0].name, "ts0");
	KTEST_EXPECT_EQ(t, spec.hist.vars[0].expr.nodes[0].atom, HIST_ATOM_TIMESTAMP);
	KTEST_EXPECT_TRUE(t, spec.hist.timestamps && spec.hist.ts_in_usecs);
	/* a-b-c is (a-b)-c; a+b*c is a+(b*c); numbers fold */
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:x=a-b-c,y=a+b*c:z=2*3+n"),
			   "hist:keys=n:vals=hitcount:x=a-b-c,y=a+b*c,z=6+n:sort=hitcount:size=2048");
	KTEST_EXPECT_EQ(t, spec.hist.nr_vars, 3);
	KTEST_EXPECT_EQ(t, spec.hist.vars[0].expr.nodes[spec.hist.vars[0].expr.root].op, HIST_OP_MINUS);
	{
		const struct hist_expr *e = &spec.hist.vars[0].expr;
		const struct hist_node *left = &e->nodes[e->nodes[e->root].operand[0]];

		KTEST_EXPECT_EQ(t, left->op, HIST_OP_MINUS);	/* (a-b) first */
	}
	KTEST_EXPECT_EQ(t, spec.hist.vars[1].expr.nodes[spec.hist.vars[1].expr.root].op, HIST_OP_PLUS);
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:lat=common_timestamp.usecs-$ts0:vals=$lat"),
			   "hist:keys=n:vals=hitcount,$lat:lat=common_timestamp.usecs-$ts0:"
			   "sort=hitcount:size=2048:clock=global");
	/* $x of a lone field of this trigger is that field, as in Linux */
	KTEST_EXPECT_STREQ(t, printed("hist:keys=$p:p=common_pid,t=common_timestamp.usecs:d=n-$t"),
			   "hist:keys=common_pid:vals=hitcount:p=common_pid,t=common_timestamp.usecs,"
			   "d=n-common_timestamp.usecs:sort=hitcount:size=2048:clock=global");
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:m=-(n)"),
			   "hist:keys=n:vals=hitcount:m=-(n):sort=hitcount:size=2048");
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n.log2,__probe_ip.sym-offset,common_pid.execname"),
			   "hist:keys=n.log2,__probe_ip.sym-offset,common_pid.execname:vals=hitcount:"
			   "sort=hitcount:size=2048");
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n.buckets=10:sort=n"),
			   "hist:keys=n.buckets=10:vals=hitcount:sort=n.buckets=10:size=2048");
	KTEST_EXPECT_EQ(t, spec.hist.keys[0].nodes[0].buckets, 10);
	KTEST_EXPECT_STREQ(t, printed("hist:keys=id.syscall:vals=n"),
			   "hist:keys=id.syscall:vals=hitcount,n:sort=hitcount:size=2048");
	KTEST_EXPECT_EQ(t, spec.hist.keys[0].nodes[0].mods, HIST_MOD_SYSCALL);
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:clock=global:t=common_timestamp"),
			   "hist:keys=n:vals=hitcount:t=common_timestamp:sort=hitcount:size=2048:clock=global");
	KTEST_EXPECT_FALSE(t, spec.hist.ts_in_usecs);
}

static void hist_expression_errors(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=a+b+c+d+e", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_TOO_MANY_SUBEXPR);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=-(a)+b", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=-(a)b", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_UNARY_MINUS_SUBEXPR);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=n/0", &spec, &herr), -EDOM);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_DIVISION_BY_ZERO);
	KTEST_EXPECT_STREQ(t, spec.bad, "0");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=n+1z", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_EXPECT_NUMBER);
	KTEST_EXPECT_STREQ(t, spec.bad, "1z");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=a,y", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_MALFORMED_ASSIGNMENT);
	KTEST_EXPECT_STREQ(t, spec.bad, "y");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n,$x", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_INVALID_REF_KEY);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n.execname", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_BAD_FIELD_MODIFIER);	/* common_pid only */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n.buckets=0", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_BAD_FIELD_MODIFIER);
	KTEST_EXPECT_STREQ(t, spec.bad, "0");		/* Linux's caret: at the number */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:x=", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_EMPTY_ASSIGNMENT);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:sort=", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:v0=a:v1=a:v2=a:v3=a:v4=a:v5=a:v6=a:v7=a:"
					 "v8=a:v9=a:va=a:vb=a:vc=a:vd=a:ve=a:vf=a:vg=a", &spec, &herr),
			-EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_TOO_MANY_VARS);
}

static void hist_actions(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, printed("hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:"
				      "onmatch(kprobes.start).trace(lat_ev,$lat,common_pid)"),
			   "hist:keys=common_pid:vals=hitcount:lat=common_timestamp.usecs-$ts0:"
			   "sort=hitcount:size=2048:clock=global:"
			   "onmatch(kprobes.start).trace(lat_ev,$lat,common_pid)");
	KTEST_EXPECT_EQ(t, spec.hist.nr_actions, 1);
	KTEST_EXPECT_EQ(t, spec.hist.actions[0].handler, HIST_HANDLER_ONMATCH);
	KTEST_EXPECT_EQ(t, spec.hist.actions[0].action, HIST_ACTION_TRACE);
	KTEST_EXPECT_STREQ(t, spec.hist.actions[0].system, "kprobes");
	KTEST_EXPECT_STREQ(t, spec.hist.actions[0].event, "start");
	KTEST_EXPECT_STREQ(t, spec.hist.actions[0].synth, "lat_ev");
	KTEST_EXPECT_EQ(t, spec.hist.actions[0].nr_params, 2);
	/* Linux's older form: the synthetic event is the action */
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:onmatch(kprobes.start).lat_ev($lat, nn)"),
			   "hist:keys=n:vals=hitcount:sort=hitcount:size=2048:"
			   "onmatch(kprobes.start).lat_ev($lat,nn)");
	KTEST_EXPECT_FALSE(t, spec.hist.actions[0].trace_keyword);
	KTEST_EXPECT_STREQ(t, spec.hist.actions[0].synth, "lat_ev");
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:onmax($lat).save(nn,common_pid)"),
			   "hist:keys=n:vals=hitcount:sort=hitcount:size=2048:"
			   "onmax($lat).save(nn,common_pid)");
	KTEST_EXPECT_EQ(t, spec.hist.actions[0].action, HIST_ACTION_SAVE);
	KTEST_EXPECT_STREQ(t, printed("hist:keys=n:onchange($x).snapshot()"),
			   "hist:keys=n:vals=hitcount:sort=hitcount:size=2048:onchange($x).snapshot()");
	/* errors; a param is 2 characters at least, as in Linux */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmax($x).save(n)", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_INVALID_PARAM);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmatch(kprobes.start", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_NO_CLOSING_PAREN);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmatch(start).trace(a,b)", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_SUBSYS_NOT_FOUND);
	KTEST_EXPECT_STREQ(t, spec.bad, "start");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmatch(a.b)", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_ACTION_NOT_FOUND);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmatch(a.b).save(nn)", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_ACTION_MISMATCH);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmax($x).save(nn,x)", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_INVALID_PARAM);
	KTEST_EXPECT_STREQ(t, spec.bad, "x");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onmax($x).snapshot(", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_NO_CLOSING_PAREN);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:onwhat($x).save(nn)", &spec, &herr), -EINVAL);
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
	/* name= first, wherever it was written; stacktrace by its name */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=stacktrace,n:size=256:name=foo", &spec, &herr), 0);
	hist_spec_format(buf, sizeof(buf), &spec.hist);
	KTEST_EXPECT_STREQ(t, buf, "hist:name=foo:keys=stacktrace,n:vals=hitcount:sort=hitcount:size=256");
}

static void hist_names_and_stacktrace_keys(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, trigger_parse("hist:name=foo:keys=n", &spec, &herr), 0);
	KTEST_EXPECT_STREQ(t, spec.hist.name, "foo");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n", &spec, &herr), 0);
	KTEST_EXPECT_STREQ(t, spec.hist.name, "");
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:name="
		"a123456789012345678901234567890123456789012345678901234567890123", &spec, &herr),
		-EINVAL);	/* 64 characters: more than this kernel keeps */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=stacktrace", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.hist.keys[0].nodes[0].atom, HIST_ATOM_STACKTRACE);
	/* a modifier makes it a field's name, which the event will not have (Linux 6.1) */
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=stacktrace.hex", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.hist.keys[0].nodes[0].atom, HIST_ATOM_FIELD);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=n:vals=stacktrace", &spec, &herr), 0);
	KTEST_EXPECT_EQ(t, spec.hist.vals[0].nodes[0].atom, HIST_ATOM_FIELD);
	KTEST_EXPECT_EQ(t, trigger_parse("hist:keys=stacktrace:sort=stacktrace", &spec, &herr), -EINVAL);
	KTEST_EXPECT_EQ(t, herr, HIST_ERR_INVALID_SORT_FIELD);
	KTEST_EXPECT_STREQ(t, spec.bad, "stacktrace");
}

/* A hist trigger's printed line parses again, and prints the same (what `cat trigger` offers to `!`). */
static bool hist_line_reparses(const char *text)
{
	static char a[2048], b[2048];

	hist_spec_format(a, sizeof(a), &spec.hist);
	if (trigger_parse(a, &spec, &herr) != 0) {
		printf("# %s\n#  printed %s: not parsed\n", text, a);
		return false;
	}
	hist_spec_format(b, sizeof(b), &spec.hist);
	if (strcmp(a, b))
		printf("# %s\n#  printed %s\n#  then %s\n", text, a, b);
	return strcmp(a, b) == 0;
}

/* Random commands built from the grammar's pieces: parsed or refused, never a crash. */
static void random_commands_are_safe(struct ktest *t)
{
	static const char *const bits[] = { "hist", "traceon", "traceoff", "snapshot",
		"stacktrace", "enable_event", "disable_event", "kprobes", "myfib", ":", "!", " if ", "keys=", "vals=", "values=", "sort=", "size=",
		"n", ".hex", ".sym", ".descending", ".bogus", ",", "=", "pause", "cont", "clear",
		"0x10", "2048", "99999999999999999999", " ", "\t", "n > 1", "ts0=", "$ts0",
		"common_timestamp", ".usecs", "-", "+", "*", "/", "(", ")", "-(", "onmatch(",
		"onmax(", "onchange(", "kprobes.a", ").trace(", ").save(", ").snapshot()", "lat",
		".log2", ".buckets=", ".sym-offset", "common_pid.execname", "enable_hist:",
		"disable_hist:", "kprobes:", "clock=", ".syscall", "name=", "name=shared:",
		"keys=stacktrace", "stacktrace,", ":keys=n" };
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
		if (ret == 0 && spec.cmd == TRIGGER_HIST)
			KTEST_EXPECT_TRUE(t, hist_line_reparses(text));
	}
	printf("# %d of 20000 random commands parsed\n", parsed);
	KTEST_EXPECT_TRUE(t, parsed > 0);
}

static struct ktest_case cases[] = {
	KTEST_CASE(random_commands_are_safe),
	KTEST_CASE(simple_commands),
	KTEST_CASE(bad_commands),
	KTEST_CASE(enable_event_commands),
	KTEST_CASE(enable_hist_commands),
	KTEST_CASE(hist_attributes),
	KTEST_CASE(hist_errors),
	KTEST_CASE(hist_variables_and_expressions),
	KTEST_CASE(hist_expression_errors),
	KTEST_CASE(hist_actions),
	KTEST_CASE(hist_prints_as_linux),
	KTEST_CASE(hist_names_and_stacktrace_keys),
	KTEST_END,
};

KTEST_HOST_MAIN(cases)
