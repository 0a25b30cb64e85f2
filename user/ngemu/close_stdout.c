// SPDX-License-Identifier: GPL-2.0
/*
 * Standard output checked at exit (commands.h). A command's output is
 * buffered: a full disk, /dev/full or a closed pipe (with SIGPIPE
 * ignored, as Python and some job launchers leave it) shows only when
 * the buffer is flushed, often at exit, where nothing would look. An
 * exit handler sees every way out: a return from main() and a call of
 * exit().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

static void close_stdout(void)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout))
		err = errno;
	if (ferror(stdout) && !err)
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return;
	fprintf(stderr, "ngemu: write error on standard output: %s\n",
		strerror(err));
	/* exit() is not to be called again from an exit handler */
	_exit(NG_EXIT_FAIL);
}

void check_stdout_at_exit(void)
{
	atexit(close_stdout);
}
