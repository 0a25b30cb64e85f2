/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run a program and capture its exit status, stdout and stderr, for tests
 * of command lines (ngemu here, inside the VM as on the host).
 */
#ifndef NGEMU_TEST_RUN_CMD_H
#define NGEMU_TEST_RUN_CMD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct cmd_result {
	int status;	/* exit code, or 128 + signal */
	char out[65536];
	char err[16384];
};

static inline void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* argv[0] is the program path; returns 0 or -1 if it could not run. */
static inline int run_cmd(struct cmd_result *r, char *const argv[])
{
	FILE *out = tmpfile(), *err = tmpfile();
	int status;
	pid_t pid;

	if (!out || !err)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status)
				      : 128 + WTERMSIG(status);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
	return 0;
}

/*
 * The ngemu under test: $NGEMU, else the build tree's, else the installed
 * one (the VM's initramfs has it in /bin).
 */
static inline const char *ngemu_path(void)
{
	const char *p = getenv("NGEMU");

	if (p && *p)
		return p;
	return access("build/ngemu", X_OK) == 0 ? "build/ngemu" : "/bin/ngemu";
}

#endif /* NGEMU_TEST_RUN_CMD_H */
