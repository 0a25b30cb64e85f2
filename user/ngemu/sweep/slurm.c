// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep on a Slurm cluster (sweep.h). The sweep's arguments are
 * kept in OUT/sweep.args, so that any later process, on any node that
 * shares the folder, plans the same points with the same hashes.
 * `--slurm` makes a folder of its own for the submission, OUT/slurm/SUB,
 * with a copy of the arguments, the hashes of the points without a result
 * (points.txt), the jobs' scripts and logs; it submits one job array
 * whose task I runs `ngemu sweep --task I OUT/slurm/SUB` (the points I,
 * I + N, ... of the list), then one job, after the array whatever its
 * outcome, that runs `ngemu sweep --collect OUT` to gather the results
 * and draw the plots. A resubmission, while an earlier array still runs,
 * changes none of its files; a point's result is written under a name of
 * its own and renamed exactly as in a local run, so that a cluster run, a
 * local run and a mix of both give the same files.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../commands.h"
#include "../interrupt.h"
#include "../out_file.h"
#include "sweep.h"

/* Slurm's default MaxArraySize is 1001: more points share a task. */
#define SW_MAX_TASKS	1000

int sweep_save_args(const struct sweep *s, const char *dir)
{
	char path[PATH_MAX], cwd[PATH_MAX];
	struct out_file o;

	snprintf(path, sizeof(path), "%s/sweep.args", dir);
	if (!getcwd(cwd, sizeof(cwd)) || strchr(cwd, '\n')) {
		fprintf(stderr, "ngemu sweep: %s: the current folder has no name of one line\n",
			path);
		return -1;
	}
	for (int i = 0; i < s->nkeep; i++) {
		if (strchr(s->keep[i], '\n')) {
			fprintf(stderr, "ngemu sweep: %s: an argument has a line break\n",
				path);
			return -1;
		}
	}
	if (out_open(&o, "sweep", path))
		return -1;
	fprintf(o.f, "# ngemu sweep's arguments, read by 'ngemu sweep --collect DIR'\n"
		"cwd %s\n", cwd);
	for (int i = 0; i < s->nkeep; i++)
		fprintf(o.f, "arg %s\n", s->keep[i]);
	return out_commit(&o) ? -1 : 0;
}

static int load_error(const char *dir, const char *what)
{
	fprintf(stderr, "ngemu sweep: %s: %s\n", dir, what);
	return -1;
}

int sweep_load_args(struct sweep *s, const char *dir, bool task)
{
	char abs[PATH_MAX], path[PATH_MAX + 16], *save = NULL;
	size_t len, cap = 4;
	long size;
	FILE *f;
	int n = 0;

	if (!realpath(dir, abs))
		return load_error(dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/sweep.args", abs);
	/* a task's folder is OUT/slurm/SUB: OUT is two up */
	for (int up = 0; task && up < 2; up++) {
		char *slash = strrchr(abs, '/');

		if (!slash || slash == abs)
			return load_error(dir, "not a submission's folder (OUT/slurm/SUB)");
		*slash = '\0';
	}
	f = fopen(path, "r");
	if (!f)
		return load_error(dir, "no sweep.args: not a sweep's folder");
	size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return load_error(dir, "cannot read sweep.args");
	}
	len = strlen(abs) + 1;
	s->argtext = malloc((size_t)size + len + 1);
	if (!s->argtext) {
		fclose(f);
		return load_error(dir, "out of memory");
	}
	size = (long)fread(s->argtext, 1, (size_t)size, f);
	fclose(f);
	s->argtext[size] = '\0';
	/* the folder's absolute name, after the text, for "--out" */
	memcpy(s->argtext + size + 1, abs, len);
	for (long i = 0; i < size; i++)
		cap += s->argtext[i] == '\n';
	s->argv = calloc(cap, sizeof(*s->argv));
	if (!s->argv)
		return load_error(dir, "out of memory");
	s->argv[n++] = "sweep";
	for (char *l = strtok_r(s->argtext, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (l[0] == '#')
			continue;
		if (!strncmp(l, "arg ", 4)) {
			s->argv[n++] = l + 4;
		} else if (strncmp(l, "cwd ", 4)) {
			return load_error(path, "a line is not 'arg' or 'cwd'");
		} else if (chdir(l + 4)) {
			/* a task needs the sweep's own folder, a collect may do without */
			if (task)
				return load_error(l + 4, strerror(errno));
			fprintf(stderr, "ngemu sweep: %s: %s (the sweep's folder): options naming files may not find them\n",
				l + 4, strerror(errno));
		}
	}
	s->argv[n++] = "--out";
	s->argv[n++] = s->argtext + size + 1;
	return n;
}

/* Run sbatch with @argv; its first line (the job id) in @id; its status. */
static int sbatch(char **argv, char *id, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd[2], st;
	pid_t pid;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork_child();
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp("sbatch", argv);
		fprintf(stderr, "ngemu sweep: cannot run sbatch: %s\n", strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	while (got + 1 < len && (n = read(fd[0], id + got, len - 1 - got)) > 0)
		got += (size_t)n;
	close(fd[0]);
	id[got] = '\0';
	id[strcspn(id, ";\n")] = '\0';	/* --parsable: "ID[;CLUSTER]" */
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int write_script(const char *path, const char *exe, const char *args)
{
	struct out_file o;

	if (out_open(&o, "sweep", path))
		return -1;
	o.mode = 0777;
	fprintf(o.f, "#!/bin/sh\n# written by ngemu sweep --slurm\nexec '%s' sweep %s\n",
		exe, args);
	return out_commit(&o);
}

/* The points without a result, and the number of tasks, in points.txt. */
static int write_points(const struct sweep *s, const char *dir, size_t ntask)
{
	char path[PATH_MAX + 64];
	struct out_file o;

	snprintf(path, sizeof(path), "%s/points.txt", dir);
	if (out_open(&o, "sweep", path))
		return -1;
	fprintf(o.f, "tasks %zu\n", ntask);
	for (size_t i = 0; i < s->npt; i++)
		if (s->pt[i].status < 0)
			fprintf(o.f, "%s\n", s->pt[i].hash);
	return out_commit(&o);
}

static int slurm_error(const char *what, const char *why)
{
	fprintf(stderr, "ngemu sweep: --slurm: %s: %s\n", what, why);
	return NG_EXIT_FAIL;
}

/* OUT/slurm/SUB, a folder of this submission's own, in @sub. */
static int make_sub(const char *out, char *sub, size_t len)
{
	snprintf(sub, len, "%s/slurm", out);
	if (mkdir(sub, 0755) && errno != EEXIST)
		return -1;
	snprintf(sub, len, "%s/slurm/%ld-%d", out, (long)time(NULL), (int)getpid());
	return mkdir(sub, 0755);
}

int sweep_slurm(struct sweep *s, size_t todo)
{
	char out[PATH_MAX], exe[PATH_MAX], cwd[PATH_MAX], sub[PATH_MAX + 40];
	char sh[PATH_MAX + 64], cs[PATH_MAX + 64], args[PATH_MAX + 96];
	char arr[32], log[PATH_MAX + 80], clog[PATH_MAX + 80], dep[96];
	char chd[PATH_MAX + 16], id[64], cid[64];
	char *v[SW_MAX_SBATCH + 12];
	size_t ntask = todo < SW_MAX_TASKS ? todo : SW_MAX_TASKS;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int k = 0, rc;

	if (n <= 0 || !realpath(s->out, out) || !getcwd(cwd, sizeof(cwd)))
		return slurm_error(s->out, strerror(errno));
	exe[n] = '\0';
	if (strchr(out, '\'') || strchr(exe, '\''))
		return slurm_error(out, "a name with a quote");
	if (make_sub(out, sub, sizeof(sub)))
		return slurm_error(sub, strerror(errno));
	/* each has said what it could not write */
	if (sweep_save_args(s, sub) || write_points(s, sub, ntask))
		return NG_EXIT_FAIL;
	snprintf(sh, sizeof(sh), "%s/point.sh", sub);
	snprintf(cs, sizeof(cs), "%s/collect.sh", sub);
	snprintf(args, sizeof(args), "--task \"$SLURM_ARRAY_TASK_ID\" '%s'", sub);
	if (write_script(sh, exe, args))
		return NG_EXIT_FAIL;
	snprintf(args, sizeof(args), "--collect '%s'", out);
	if (write_script(cs, exe, args))
		return NG_EXIT_FAIL;

	snprintf(arr, sizeof(arr), "--array=0-%zu", ntask - 1);
	snprintf(log, sizeof(log), "--output=%s/point-%%A_%%a.log", sub);
	snprintf(chd, sizeof(chd), "--chdir=%s", cwd);
	v[k++] = "sbatch";
	v[k++] = "--parsable";
	v[k++] = "--job-name=ngemu-sweep";
	v[k++] = arr;
	v[k++] = log;
	v[k++] = chd;
	for (unsigned int i = 0; i < s->nsbatch; i++)
		v[k++] = s->sbatch[i];
	v[k++] = sh;
	v[k] = NULL;
	rc = sbatch(v, id, sizeof(id));
	if (rc || !id[0])
		return slurm_error("sbatch", "the job array was not submitted");
	fprintf(stderr, "ngemu sweep: %zu points submitted as Slurm job array %s (%zu tasks)\n",
		todo, id, ntask);

	snprintf(dep, sizeof(dep), "--dependency=afterany:%s", id);
	snprintf(clog, sizeof(clog), "--output=%s/collect.log", sub);
	v[2] = "--job-name=ngemu-collect";
	v[3] = dep;
	v[4] = clog;
	k--;
	if (s->wait)
		v[k++] = "--wait";
	v[k++] = cs;
	v[k] = NULL;
	if (s->wait)
		fprintf(stderr, "ngemu sweep: waiting for the jobs to end\n");
	rc = sbatch(v, cid, sizeof(cid));
	if (!cid[0])
		return slurm_error("sbatch", "the collecting job was not submitted");
	printf("ngemu sweep: job %s runs 'ngemu sweep --collect %s' after job %s%s%s\n",
	       cid, out, id, !s->wait ? "" :
	       rc ? ": it failed, see " : ": done", s->wait && rc ? clog + 9 : "");
	return rc ? NG_EXIT_FAIL : NG_EXIT_OK;
}

int sweep_task(struct sweep *s, unsigned long task, const char *sub)
{
	char path[PATH_MAX + 32], line[64];
	unsigned long ntask = 0, k = 0;
	size_t ran = 0, failed = 0;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/points.txt", sub);
	f = fopen(path, "r");
	if (!f || !fgets(line, sizeof(line), f) ||
	    sscanf(line, "tasks %lu", &ntask) != 1 || !ntask || task >= ntask) {
		if (f)
			fclose(f);
		fprintf(stderr, "ngemu sweep: %s: no task %lu\n", path, task);
		return NG_EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), f)) {
		struct sw_point *p = NULL;

		line[strcspn(line, "\n")] = '\0';
		if (k++ % ntask != task)
			continue;
		for (size_t i = 0; i < s->npt && !p; i++)
			if (!strcmp(s->pt[i].hash, line))
				p = &s->pt[i];
		if (!p) {
			fprintf(stderr, "ngemu sweep: point %s is not this ngemu's (another version?)\n",
				line);
			failed++;
			continue;
		}
		if (sweep_has_result(s, p))
			continue;
		ran++;
		rc = sweep_run_point(s, p);
		if (rc == -EINTR) {
			fclose(f);
			fprintf(stderr, "ngemu sweep: task %lu stopped by %s after %zu points run, %zu failed; submit the sweep again to run the rest\n",
				task, interrupted() == SIGINT ? "SIGINT" : "SIGTERM",
				ran - 1, failed);
			return interrupt_status(interrupted());
		}
		if (rc) {
			fprintf(stderr, "ngemu sweep: %s on %s (%s) failed\n", p->wl,
				p->sys, p->hash);
			failed++;
		}
	}
	fclose(f);
	printf("ngemu sweep: task %lu of %lu: %zu points run, %zu failed\n", task,
	       ntask, ran, failed);
	return failed ? NG_EXIT_FAIL : NG_EXIT_OK;
}
