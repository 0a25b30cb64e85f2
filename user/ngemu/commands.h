/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu's sub-commands. Each takes argv with argv[0] = its own name and
 * returns the process exit code: 0 success, 1 failure, 2 usage error.
 */
#ifndef NGEMU_COMMANDS_H
#define NGEMU_COMMANDS_H

#define NG_EXIT_OK	0
#define NG_EXIT_FAIL	1
#define NG_EXIT_USAGE	2

struct ng_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int ng_cmd_info(int argc, char **argv);
int ng_cmd_mem(int argc, char **argv);
int ng_cmd_config(int argc, char **argv);
int ng_cmd_bench(int argc, char **argv);
int ng_cmd_sweep(int argc, char **argv);
int ng_cmd_reproduce(int argc, char **argv);

/* Print "ngemu CMD: MESSAGE" and a hint to stderr; returns NG_EXIT_USAGE. */
int ng_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* NGEMU_COMMANDS_H */
