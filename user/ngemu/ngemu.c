// SPDX-License-Identifier: GPL-2.0
/* The ngemu program: the command line (main.c) with the built-in workloads. */
#include "ngemu/cli.h"

int main(int argc, char **argv)
{
	return ng_main(argc, argv, NULL);
}
