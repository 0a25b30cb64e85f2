/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The option parser of every ngemu command (options.c): a table of the
 * options the command knows, matched whole. No abbreviations, unlike
 * getopt_long(): "--sys" is not "--systems", and a command's options sit
 * on one line with the emulated system's (--link-bw 64, --no-l2,
 * --key=value), which the command does not know and which
 * ng_config_from_args() reads later: an argument that is not in the
 * table goes back to the command as not its own, whatever it looks like.
 *
 * An option is --NAME, --NAME VALUE or --NAME=VALUE, and -L or -L VALUE
 * for its letter; with OPTS_GETOPT also getopt's -LVALUE and letters
 * together (-nj), and "--" ends the options.
 */
#ifndef NGEMU_OPTIONS_H
#define NGEMU_OPTIONS_H

#include <stdbool.h>

struct opt {
	const char *name;	/* --NAME; NULL: a letter only */
	char letter;		/* -L; 0: none */
	bool value;		/* takes a value */
	int id;			/* opts_next()'s answer for it, >= 0 */
};

/* getopt's forms as well: -LVALUE, -abc for -a -b -c, "--" ends options */
#define OPTS_GETOPT	0x1

/* What opts_next() returns besides an option's id. */
enum {
	OPTS_END = -1,		/* no argument left */
	OPTS_OTHER = -2,	/* ->arg is not in the table: the command's */
	OPTS_MISSING = -3,	/* option ->arg needs a value and has none */
	OPTS_UNWANTED = -4,	/* option ->arg takes no value but has one */
};

/*
 * A walk over argv[next..argc): set table (ended by { 0 }), flags, argc,
 * argv and next (1 past a command's name), the rest zero.
 */
struct opts {
	const struct opt *table;
	unsigned int flags;
	int argc;
	char **argv;
	int next;		/* the index of the argument after ->arg */
	char *arg;		/* the argument as written */
	char *val;		/* the option's value; NULL for a flag */
	const struct opt *opt;	/* the entry matched, errors included */
	bool operands;		/* after "--" (OPTS_GETOPT) */
	char *letters;		/* the letters of -abc still to return */
};

/* The next option's id, or one of OPTS_* above. */
int opts_next(struct opts *st);

/*
 * Whether the argument OPTS_OTHER returned is an operand (a name, "-",
 * or anything after "--") rather than an option the command lacks.
 */
bool opts_operand(const struct opts *st);

/*
 * The usage error of @code (OPTS_MISSING, OPTS_UNWANTED, an OPTS_OTHER
 * that is an unknown option) for command @cmd: its exit status.
 */
int opts_error(const char *cmd, const struct opts *st, int code);

/* The entry argument @arg names exactly, without a value; NULL if none. */
const struct opt *opts_find(const struct opt *table, const char *arg);

/*
 * Whether -h or --help is anywhere on the line, a value's place
 * included: for a command whose help wins over any error on the line.
 */
bool opts_help(int argc, char **argv);

#endif /* NGEMU_OPTIONS_H */
