/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu's sub-commands. Each takes argv with argv[0] = its own name and
 * returns the process exit code: 0 success (ran and verified), 1 failure
 * (a run failed or a result was lost), 2 usage error, 3 (reproduce) ran
 * and verified but ngemu differs from the paper, 128 + the signal
 * (130, 143) when SIGINT or SIGTERM stopped a sweep or reproduce.
 */
#ifndef NGEMU_COMMANDS_H
#define NGEMU_COMMANDS_H

#define NG_EXIT_OK	0
#define NG_EXIT_FAIL	1
#define NG_EXIT_USAGE	2
#define NG_EXIT_DIFFERS	3

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int cmd_info(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);

/*
 * At exit, standard output flushed and closed: a write error (a full
 * disk, a closed pipe) is "ngemu: write error on standard output:
 * REASON" and exit status 1 (close_stdout.c). Called once, by main().
 */
void check_stdout_at_exit(void);

/* Print "ngemu CMD: MESSAGE" and a hint to stderr; returns NG_EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* NGEMU_COMMANDS_H */
