// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu: the command line of the numagpu emulator, as ng_main() (in
 * libngemu-cli.a, ngemu/cli.h): ngemu's main() (ngemu.c) and a program
 * of one's own with workloads of its own call it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/numagpu.h>

#include "commands.h"
#include "ngemu/cli.h"

static const struct command commands[] = {
	{ "info", "show the emulated GPUs, their nodes, CPUs, memory and distances",
	  cmd_info },
	{ "mem", "create a device buffer, touch it from chosen GPUs, show placement",
	  cmd_mem },
	{ "config", "show or check the emulated system's configuration",
	  cmd_config },
	{ "bench", "run a workload on the emulated GPUs, verified, with statistics",
	  cmd_bench },
	{ "sweep", "workloads x systems x a grid of config keys, resumable, --jobs N",
	  cmd_sweep },
	{ "reproduce", "a paper's experiments, its claims beside ngemu's values",
	  cmd_reproduce },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ngemu%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ngemu%s%s --help' for more information.\n",
		cmd ? " " : "", cmd ? cmd : "");
	return NG_EXIT_USAGE;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu [--help | --version] COMMAND [OPTIONS]\n"
		"\n"
		"Emulate a multi-GPU NUMA system on a CPU NUMA machine: each NUMA node\n"
		"plays one GPU. Uses numagpu.ko through " NUMAGPU_DEVICE_PATH
		" when it is\n"
		"loaded, else runs in user space.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -h, --help     show this help and exit\n"
		"  -V, --version  show the version and exit\n"
		"\n"
		"'ngemu COMMAND --help' describes each command.\n"
		"Exit status: 0 ran and verified, 1 failed or a result lost (a run\n"
		"failed, an output could not be written, standard output included),\n"
		"2 usage error, 3 (reproduce) ran and verified but ngemu differs from\n"
		"the paper, 130/143 (sweep, reproduce) stopped by SIGINT/SIGTERM.\n");
}

int ng_main(int argc, char **argv, const struct ng_workload *const *workloads)
{
	const char *cmd;
	char err[256];

	check_stdout_at_exit();
	if (workloads && ng_workloads_add(workloads, err, sizeof(err))) {
		fprintf(stderr, "ngemu: %s\n", err);
		return NG_EXIT_FAIL;
	}
	if (argc < 2) {
		usage(stderr);
		return NG_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help")) {
		usage(stdout);
		return NG_EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("ngemu %s (numagpu uapi %u.%u)\n",
		       NUMAGPU_VERSION_STRING, NUMAGPU_VERSION_MAJOR,
		       NUMAGPU_VERSION_MINOR);
		return NG_EXIT_OK;
	}
	if (cmd[0] == '-')
		return usage_error(NULL, "unknown option '%s'", cmd);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return usage_error(NULL, "unknown command '%s'", cmd);
}
