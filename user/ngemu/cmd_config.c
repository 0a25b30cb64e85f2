// SPDX-License-Identifier: GPL-2.0
/* ngemu config: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int ng_cmd_config(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ngemu config: not implemented yet\n");
	return NG_EXIT_FAIL;
}
