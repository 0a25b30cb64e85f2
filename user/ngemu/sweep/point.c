// SPDX-License-Identifier: GPL-2.0
/*
 * One point of a sweep run (sweep.h): its `ngemu bench` child, started
 * with its output going to files of its own in OUT/points, and what is
 * kept of them when it ends (a whole result, renamed into place) or is
 * stopped (nothing).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../interrupt.h"
#include "../out_file.h"
#include "sweep.h"

/*
 * Start point @p's run, its output into HASH.json.XXXXXX and its messages
 * into HASH.err.XXXXXX, names of its own (@p->tmp), so that two processes
 * running the same point (a resubmitted job array, another sweep in the
 * same folder) never write one file; the child.
 */
pid_t sweep_start(const struct sweep *s, struct sw_point *p)
{
	char *v[SW_MAX_ARGS + 2 * SW_MAX_KEYS + 12], bufs[SW_MAX_KEYS][64];
	char part[1024];
	pid_t pid;
	int fd;

	v[0] = "ngemu";
	v[1] = "bench";
	sweep_point_args(s, p, v + 2, bufs);
	{
		int n = 2;

		while (v[n])
			n++;
		v[n++] = "--json";
		v[n] = NULL;
	}
	sweep_path(s, p, ".json.XXXXXX", part, sizeof(part));
	fd = mkostemp(part, O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(p->tmp, sizeof(p->tmp), "%s", part + strlen(part) - 6);
	fflush(NULL);
	pid = fork_child();
	if (!pid) {
		int err;

		snprintf(part + strlen(part) - 11, 12, "err.%s", p->tmp);
		err = open(part, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		if (err >= 0)
			dup2(err, 2);
		execv("/proc/self/exe", v);
		_exit(127);
	}
	close(fd);
	if (pid < 0)
		unlink(part);
	return pid;
}

/* The names of point @p's run's files: its result's and its messages'. */
static void tmp_paths(const struct sweep *s, const struct sw_point *p,
		      char *part, char *err, size_t len)
{
	char ext[16];

	snprintf(ext, sizeof(ext), ".json.%s", p->tmp);
	sweep_path(s, p, ext, part, len);
	snprintf(ext, sizeof(ext), ".err.%s", p->tmp);
	sweep_path(s, p, ext, err, len);
}

/* Point @p's run stopped by an interrupt: it leaves no file. */
void sweep_discard(const struct sweep *s, const struct sw_point *p)
{
	char part[1024], err[1024];

	tmp_paths(s, p, part, err, sizeof(part));
	unlink(part);
	unlink(err);
}

/*
 * Point @p's run has ended with wait status @st: keep its result or not.
 * Its output is a result only when whole: a run whose output was cut
 * short (a full disk: it says so and exits 1, as an unverified run does)
 * has none.
 */
bool sweep_finish(const struct sweep *s, struct sw_point *p, int st)
{
	char part[1024], err[1024], path[1024], why[160];
	bool ran = WIFEXITED(st) && WEXITSTATUS(st) <= 1, ok;
	char *t = NULL;
	size_t len = 0;
	FILE *f;
	int e = 0;

	tmp_paths(s, p, part, err, sizeof(part));
	sweep_path(s, p, ".json", path, sizeof(path));
	f = ran ? fopen(part, "r") : NULL;
	if (f) {
		if (getdelim(&t, &len, '\0', f) < 0) {
			free(t);
			t = NULL;
		}
		fclose(f);
	}
	/* 0: verified; 1: ran, not verified: both are results */
	ok = ran && sweep_result_ok(t);
	if (ok)
		e = out_install(part, path);
	if (ok && !e) {
		free(t);
		p->status = 0;
		unlink(err);
		return true;
	}
	free(t);
	p->status = 2;
	unlink(part);
	sweep_path(s, p, ".err", path, sizeof(path));
	if (rename(err, path))
		unlink(err);
	if (e)
		snprintf(why, sizeof(why), "its result could not be kept: %s",
			 strerror(-e));
	else if (ran)
		snprintf(why, sizeof(why), "gave no whole result (exit %d)",
			 WEXITSTATUS(st));
	else if (WIFEXITED(st))
		snprintf(why, sizeof(why), "failed (exit %d)", WEXITSTATUS(st));
	else
		snprintf(why, sizeof(why), "failed (signal %d)", WTERMSIG(st));
	fprintf(stderr, "%sngemu sweep: %s on %s", isatty(2) ? "\r" : "", p->wl,
		p->sys);
	for (unsigned int k = 0; k < s->nkey; k++)
		fprintf(stderr, " %s=%s", s->key[k].name, s->key[k].val[p->vi[k]]);
	fprintf(stderr, " %s: %s\n", why, path);
	return false;
}

int sweep_run_point(const struct sweep *s, struct sw_point *p)
{
	pid_t pid = sweep_start(s, p), got;
	int st;

	if (pid < 0)
		return -1;
	while ((got = wait_child(&st)) >= 0 && got != pid)
		;
	if (got < 0) {
		end_child(pid);
		sweep_discard(s, p);
		return interrupted() ? -EINTR : -1;
	}
	return sweep_finish(s, p, st) ? 0 : -1;
}
