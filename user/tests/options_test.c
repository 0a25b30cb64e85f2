// SPDX-License-Identifier: GPL-2.0
/*
 * The commands' option parser (user/ngemu/options.c): options matched
 * whole, never abbreviated; values after '=' or in the next argument;
 * getopt's forms only where asked; a missing value and a flag's value
 * as errors naming the option; every argument not in the table handed
 * back as it was, so that the emulated system's options pass through.
 */
#include <stdio.h>
#include <string.h>

#include "ng_test.h"

#include "../ngemu/options.h"

enum { T_JSON, T_LIST, T_SIZE, T_SYSTEMS, T_OUT, T_WAIT, T_NO_TOUCH };

static const struct opt table[] = {
	{ .name = "json", .letter = 'j', .id = T_JSON },
	{ .name = "list", .id = T_LIST },
	{ .name = "size", .value = true, .id = T_SIZE },
	{ .name = "systems", .value = true, .id = T_SYSTEMS },
	{ .name = "out", .letter = 'o', .value = true, .id = T_OUT },
	{ .name = "wait", .id = T_WAIT },
	{ .name = "no-touch", .letter = 'n', .id = T_NO_TOUCH },
	{ 0 }
};

/*
 * What opts_next() makes of @line (words split at spaces, after a
 * command's name), one word per result: NAME or NAME=VALUE for an
 * option (its letter when it has no name), ?ARG for one not in the
 * table, !ARG for a missing value, ~ARG for a flag's value.
 */
static const char *walk(unsigned int flags, const char *line)
{
	static char out[1024];
	char copy[512], *argv[64] = { "cmd" }, *save = NULL;
	struct opts st = { .table = table, .flags = flags, .next = 1 };
	size_t n = 0;
	int id, argc = 1;

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *w = strtok_r(copy, " ", &save); w && argc < 63;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	st.argc = argc;
	st.argv = argv;
	out[0] = '\0';
	while ((id = opts_next(&st)) != OPTS_END && n < sizeof(out)) {
		const char *sep = n ? " " : "";

		if (id >= 0)
			n += (size_t)snprintf(out + n, sizeof(out) - n,
					      "%s%s%s%s", sep, st.opt->name,
					      st.val ? "=" : "",
					      st.val ? st.val : "");
		else
			n += (size_t)snprintf(out + n, sizeof(out) - n,
					      "%s%c%s", sep,
					      id == OPTS_OTHER ? '?' :
					      id == OPTS_MISSING ? '!' : '~',
					      st.arg);
	}
	return out;
}

TEST(exact_names)
{
	EXPECT_STREQ("json list", walk(0, "--json --list"));
	EXPECT_STREQ("systems=carve-swc,carve-hwc",
		     walk(0, "--systems carve-swc,carve-hwc"));
	EXPECT_STREQ("no-touch", walk(0, "--no-touch"));
}

TEST(no_abbreviation)
{
	/* getopt_long() took each of these for an option of the table */
	EXPECT_STREQ("?--sys ?a", walk(0, "--sys a"));
	EXPECT_STREQ("?--js ?--l ?--no", walk(0, "--js --l --no"));
	EXPECT_STREQ("?--sys=a", walk(0, "--sys=a"));
	/* nor a longer word beginning as one */
	EXPECT_STREQ("?--jsonx ?--sizes ?4M", walk(0, "--jsonx --sizes 4M"));
	EXPECT_STREQ("?--sys ?a", walk(OPTS_GETOPT, "--sys a"));
}

TEST(eq_form)
{
	EXPECT_STREQ("size=4M", walk(0, "--size=4M"));
	EXPECT_STREQ("size=paper/8", walk(0, "--size=paper/8"));
	/* the value is all after the first '=' */
	EXPECT_STREQ("systems=a=b", walk(0, "--systems=a=b"));
	{
		char *argv[] = { "cmd", "--size=", NULL };
		struct opts st = { .table = table, .argc = 2, .argv = argv,
				   .next = 1 };

		EXPECT_EQ(T_SIZE, opts_next(&st));
		EXPECT_STREQ("", st.val);
		EXPECT_EQ(OPTS_END, opts_next(&st));
	}
}

TEST(separate_value)
{
	EXPECT_STREQ("size=4M json", walk(0, "--size 4M --json"));
	/* the next argument whatever it looks like, as getopt took it */
	EXPECT_STREQ("size=--json", walk(0, "--size --json"));
	EXPECT_STREQ("out=-j", walk(0, "-o -j"));
}

TEST(short_forms)
{
	EXPECT_STREQ("json out=dir", walk(0, "-j -o dir"));
	/* joined forms only where asked (getopt's commands) */
	EXPECT_STREQ("?-odir ?-jn ?-j2", walk(0, "-odir -jn -j2"));
	EXPECT_STREQ("out=dir json no-touch", walk(OPTS_GETOPT, "-odir -jn"));
	EXPECT_STREQ("json out=dir", walk(OPTS_GETOPT, "-jodir"));
	EXPECT_STREQ("json out=dir json", walk(OPTS_GETOPT, "-jo dir -j"));
	/* an unknown letter: the argument whole, after the letters before */
	EXPECT_STREQ("json ?-jx", walk(OPTS_GETOPT, "-jx"));
	EXPECT_STREQ("?-x", walk(0, "-x"));
}

TEST(missing_value)
{
	char *argv[] = { "cmd", "--json", "--size", NULL };
	struct opts st = { .table = table, .argc = 3, .argv = argv,
			   .next = 1 };

	EXPECT_EQ(T_JSON, opts_next(&st));
	EXPECT_EQ(OPTS_MISSING, opts_next(&st));
	EXPECT_STREQ("--size", st.arg);
	ASSERT_NE(NULL, st.opt);
	EXPECT_EQ(T_SIZE, st.opt->id);
	EXPECT_EQ(NULL, st.val);
	EXPECT_EQ(OPTS_END, opts_next(&st));
	EXPECT_STREQ("!-o", walk(0, "-o"));
	EXPECT_STREQ("json !-jo", walk(OPTS_GETOPT, "-jo"));
	EXPECT_STREQ("list !--systems", walk(0, "--list --systems"));
}

TEST(flag_with_value)
{
	char *argv[] = { "cmd", "--json=yes", NULL };
	struct opts st = { .table = table, .argc = 2, .argv = argv,
			   .next = 1 };

	EXPECT_EQ(OPTS_UNWANTED, opts_next(&st));
	EXPECT_STREQ("--json=yes", st.arg);
	ASSERT_NE(NULL, st.opt);
	EXPECT_EQ(T_JSON, st.opt->id);
	EXPECT_STREQ("~--list= ~--no-touch=0", walk(0, "--list= --no-touch=0"));
	EXPECT_STREQ("~--wait=1 out=dir", walk(0, "--wait=1 --out=dir"));
}

TEST(others_pass_through)
{
	/* the emulated system's options, one argument at a time */
	EXPECT_STREQ("?--link-bw ?64 json ?--no-l2 ?--rdc-size=2M",
		     walk(0, "--link-bw 64 --json --no-l2 --rdc-size=2M"));
	EXPECT_STREQ("?--system ?carve ?--sys ?x",
		     walk(0, "--system carve --sys x"));
	EXPECT_STREQ("?stream-triad size=1M ?extra",
		     walk(0, "stream-triad --size 1M extra"));
	EXPECT_STREQ("?- ?-- json", walk(0, "- -- --json"));
	EXPECT_STREQ("", walk(0, ""));
}

TEST(operands)
{
	char *argv[] = { "cmd", "--frob", "name", "-", "--", "--json", NULL };
	struct opts st = { .table = table, .flags = OPTS_GETOPT, .argc = 6,
			   .argv = argv, .next = 1 };

	EXPECT_EQ(OPTS_OTHER, opts_next(&st));
	EXPECT_FALSE(opts_operand(&st));
	EXPECT_EQ(OPTS_OTHER, opts_next(&st));
	EXPECT_TRUE(opts_operand(&st));
	EXPECT_EQ(OPTS_OTHER, opts_next(&st));
	EXPECT_TRUE(opts_operand(&st));
	/* "--" ends getopt's options, and is no argument itself */
	EXPECT_EQ(OPTS_OTHER, opts_next(&st));
	EXPECT_STREQ("--json", st.arg);
	EXPECT_TRUE(opts_operand(&st));
	EXPECT_EQ(OPTS_END, opts_next(&st));
	EXPECT_EQ(OPTS_END, opts_next(&st));
}

TEST(find)
{
	EXPECT_EQ(&table[T_SIZE], opts_find(table, "--size"));
	EXPECT_EQ(&table[T_JSON], opts_find(table, "-j"));
	EXPECT_EQ(&table[T_OUT], opts_find(table, "-o"));
	EXPECT_EQ(NULL, opts_find(table, "--size=1M"));
	EXPECT_EQ(NULL, opts_find(table, "--siz"));
	EXPECT_EQ(NULL, opts_find(table, "-jo"));
	EXPECT_EQ(NULL, opts_find(table, "-"));
	EXPECT_EQ(NULL, opts_find(table, "--"));
	EXPECT_EQ(NULL, opts_find(table, "size"));
}

TEST(help_anywhere)
{
	char *a[] = { "cmd", "--size", "-h", NULL };
	char *b[] = { "cmd", "--link-bw", "bad", "--help", NULL };
	char *c[] = { "cmd", "--help=1", "-hj", "--he", NULL };

	EXPECT_TRUE(opts_help(3, a));
	EXPECT_TRUE(opts_help(4, b));
	EXPECT_FALSE(opts_help(4, c));
}

TEST_HARNESS_MAIN
