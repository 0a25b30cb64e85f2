// SPDX-License-Identifier: GPL-2.0
/* The commands' option parser (options.h). */
#include <string.h>

#include "commands.h"
#include "options.h"

static bool table_end(const struct opt *o)
{
	return !o->name && !o->letter;
}

static const struct opt *by_name(const struct opt *t, const char *s,
				 size_t n)
{
	for (; !table_end(t); t++)
		if (t->name && strlen(t->name) == n && !strncmp(t->name, s, n))
			return t;
	return NULL;
}

static const struct opt *by_letter(const struct opt *t, char c)
{
	for (; !table_end(t); t++)
		if (t->letter && t->letter == c)
			return t;
	return NULL;
}

/* Option @o, its value (if it takes one) the next argument. */
static int take_value(struct opts *st, const struct opt *o)
{
	st->opt = o;
	if (!o->value)
		return o->id;
	if (st->next >= st->argc)
		return OPTS_MISSING;
	st->val = st->argv[st->next++];
	return o->id;
}

static int long_option(struct opts *st)
{
	char *name = st->arg + 2, *eq = strchr(name, '=');
	const struct opt *o;

	o = by_name(st->table, name, eq ? (size_t)(eq - name) : strlen(name));
	if (!o)
		return OPTS_OTHER;
	if (!eq)
		return take_value(st, o);
	st->opt = o;
	if (!o->value)
		return OPTS_UNWANTED;
	st->val = eq + 1;
	return o->id;
}

/* The next of getopt's letters together: -abc, -oVALUE. */
static int next_letter(struct opts *st)
{
	const struct opt *o = by_letter(st->table, *st->letters);

	if (!o) {
		/* the argument whole, as getopt's users named it */
		st->letters = NULL;
		return OPTS_OTHER;
	}
	st->letters++;
	st->opt = o;
	if (!o->value)
		return o->id;
	if (*st->letters) {
		st->val = st->letters;
		st->letters = NULL;
		return o->id;
	}
	st->letters = NULL;
	return take_value(st, o);
}

int opts_next(struct opts *st)
{
	const struct opt *o;
	char *a;

	st->val = NULL;
	st->opt = NULL;
	if (st->letters && *st->letters)
		return next_letter(st);
	st->letters = NULL;
	if (st->next >= st->argc)
		return OPTS_END;
	a = st->arg = st->argv[st->next++];
	if (st->operands || a[0] != '-' || !a[1])
		return OPTS_OTHER;
	if (a[1] == '-') {
		if (!a[2] && (st->flags & OPTS_GETOPT)) {
			st->operands = true;
			return opts_next(st);
		}
		return long_option(st);
	}
	if (st->flags & OPTS_GETOPT) {
		st->letters = a + 1;
		return next_letter(st);
	}
	o = a[2] ? NULL : by_letter(st->table, a[1]);
	return o ? take_value(st, o) : OPTS_OTHER;
}

bool opts_operand(const struct opts *st)
{
	return st->operands || st->arg[0] != '-' || !st->arg[1];
}

int opts_error(const char *cmd, const struct opts *st, int code)
{
	if (code == OPTS_MISSING)
		return usage_error(cmd, "option '%s' needs a value", st->arg);
	if (code == OPTS_UNWANTED && st->opt && st->opt->name)
		return usage_error(cmd, "option '--%s' takes no value (%s)",
				   st->opt->name, st->arg);
	return usage_error(cmd, "unknown option '%s'", st->arg);
}

const struct opt *opts_find(const struct opt *table, const char *arg)
{
	if (arg[0] != '-')
		return NULL;
	if (arg[1] == '-')
		return strchr(arg, '=') ? NULL :
		       by_name(table, arg + 2, strlen(arg + 2));
	return arg[1] && !arg[2] ? by_letter(table, arg[1]) : NULL;
}

bool opts_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}
