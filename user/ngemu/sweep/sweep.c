// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep: workloads x systems x a grid over config keys, each point
 * one independent `ngemu bench --compare W --systems S --json` process,
 * its result kept in OUT/points/HASH.json where HASH is a hash of the
 * point's full configuration (the config as the run resolves it, the
 * workload, the system, the other options) and ngemu's version: a point
 * whose file exists is not run again, so an interrupted sweep resumes
 * where it stopped. A result file is written under another name and
 * renamed when the run has ended and its output is one complete result
 * (a full disk cuts it short), so a killed run leaves no result; a file
 * that is not one (from an older ngemu) runs again. SIGINT and SIGTERM
 * end the runs under way and remove their files (interrupt.h).
 * Then OUT/results.csv and OUT/results.json, a row per point, and a
 * gnuplot script with its data (OUT/plot.gp, plot.dat) and its drawings,
 * plot.svg and plot.png.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../bench/bench.h"
#include "../commands.h"
#include "../interrupt.h"
#include "../options.h"
#include "../out_file.h"
#include "sweep.h"
#include "ngemu/config.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

static void sweep_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu sweep --workloads W1,W2 [--systems S1,S2] [--grid KEY=V1,V2]...\n"
		"                   [--out DIR] [--jobs N] [--system PRESET] [bench options]\n"
		"                   [--slurm [--wait] [--account A] [--partition P]\n"
		"                    [--time T] [--sbatch-option OPT]...]\n"
		"       ngemu sweep --collect DIR\n"
		"\n"
		"Run every workload x system x grid point as its own 'ngemu bench --compare'\n"
		"process, keep each result in DIR/points/HASH.json (HASH: the point's full\n"
		"configuration and ngemu's version) and gather them into DIR/results.csv,\n"
		"DIR/results.json and a gnuplot script with its drawings (DIR/plot.gp,\n"
		"plot.svg, plot.png). A point whose result exists is not run again: a\n"
		"stopped sweep resumes where it was. Other options (--size, --iters,\n"
		"--deterministic, config keys) go to every point.\n"
		"\n"
		"Options:\n"
		"  -w, --workloads LIST  workloads (see 'ngemu bench --list'), required\n"
		"      --systems LIST    compare systems (see 'ngemu bench --help'); default:\n"
		"                        the --system preset's family's reference system\n"
		"  -g, --grid K=V1,V2    a config key and its values (up to %d keys, each\n"
		"                        once); a key that changes nothing a system runs\n"
		"                        (the system sets it itself, or its component is\n"
		"                        off there) is named on stderr and in the results'\n"
		"                        inert column; one inert for every point is refused\n"
		"      --size-of W=SIZE  workload W runs at --size SIZE, whatever --size\n"
		"                        says (repeatable; reproduce --at-proportion)\n"
		"  -o, --out DIR         the output folder (default: sweep)\n"
		"  -j, --jobs N          points run at once on this machine (default 1;\n"
		"                        results do not depend on it)\n"
		"      --system PRESET   the preset every point starts from\n"
		"      --slurm           submit the points without a result as one Slurm\n"
		"                        job array (a task per point, 'ngemu sweep --task I\n"
		"                        DIR/slurm/SUB', SUB the submission's folder), and a\n"
		"                        job that runs --collect after it; DIR must be on a\n"
		"                        filesystem the nodes share\n"
		"      --wait            with --slurm: return when the collecting job ends\n"
		"      --account A, --partition P, --time T\n"
		"                        sbatch's options of those names, to both jobs\n"
		"      --sbatch-option OPT  any other sbatch option (e.g. --qos=low)\n"
		"      --collect DIR     gather DIR's results, tables and plots again\n"
		"                        (from DIR/sweep.args), running nothing\n"
		"  -h, --help            show this help and exit\n"
		"\n"
		"Exit status: 0 every point has a result (or, with --slurm and no --wait,\n"
		"the jobs were submitted), 1 a point failed or has none (a point file cut\n"
		"short is none: it runs again) or an output could not be written, 2 usage\n"
		"error (a grid key given twice, or inert at every point, among them),\n"
		"130/143 stopped by SIGINT/SIGTERM (its runs ended, their files removed:\n"
		"run it again to resume).\n",
		SW_MAX_KEYS);
}

/* Split @s at commas into @v (at most @max); the count. */
static unsigned int split(char *s, char **v, unsigned int max)
{
	unsigned int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, ",", &save); t && n < max;
	     t = strtok_r(NULL, ",", &save))
		v[n++] = t;
	return n;
}

/* A copy of @v that the sweep frees at its end (NULL: out of memory). */
static char *own(struct sweep *s, const char *v)
{
	char *d = s->nowned < SW_MAX_KEYS + 2 ? strdup(v) : NULL;

	if (d)
		s->owned[s->nowned++] = d;
	return d;
}

static void sweep_free(struct sweep *s)
{
	for (unsigned int i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	for (unsigned int i = 0; i < s->nsbatch; i++)
		free(s->sbatch[i]);
	free(s->pt);
	free(s->argv);
	free(s->argtext);
	memset(s, 0, sizeof(*s));
}

/* --grid KEY=V1,V2,...: one more key. 0, or the usage error's status. */
static int parse_grid(struct sweep *s, const char *val)
{
	struct sw_key *k = &s->key[s->nkey];
	const char *eq = strchr(val, '=');

	if (s->nkey == SW_MAX_KEYS)
		return usage_error("sweep", "--grid: at most %d keys",
				   SW_MAX_KEYS);
	if (!eq || eq == val || !eq[1] ||
	    (size_t)(eq - val) >= sizeof(k->name))
		return usage_error("sweep", "--grid: '%s' is not KEY=V1,V2,...", val);
	memcpy(k->name, val, (size_t)(eq - val));
	k->name[eq - val] = '\0';
	if (!ng_config_key(k->name, NULL))
		return usage_error("sweep", "--grid: unknown parameter '%s'",
				   k->name);
	for (unsigned int j = 0; j < s->nkey; j++)
		if (!strcmp(s->key[j].name, k->name))
			return usage_error("sweep", "--grid: key '%s' given twice (give its values once: %s=V1,V2,...)",
					   k->name, k->name);
	if (!own(s, eq + 1))
		return usage_error("sweep", "out of memory");
	k->nval = split(s->owned[s->nowned - 1], k->val, SW_MAX_VALS);
	s->nkey++;
	return 0;
}

/* The --jobs count. 0, or the usage error's status. */
static int parse_jobs(struct sweep *s, const char *val)
{
	char *end;
	unsigned long n = strtoul(val, &end, 10);

	if (!*val || *end || !n || n > 64)
		return usage_error("sweep", "--jobs: '%s' is not a count (1-64)",
				   val);
	s->jobs = (unsigned int)n;
	return 0;
}

/*
 * An option of sbatch's, as sbatch takes it: --NAME=V, or V itself for
 * --sbatch-option. 0, or the usage error's status.
 */
static int parse_sbatch(struct sweep *s, const char *name, const char *val)
{
	bool any = !strcmp(name, "sbatch-option");

	if (s->nsbatch == SW_MAX_SBATCH ||
	    asprintf(&s->sbatch[s->nsbatch], "%s%s%s%s", any ? "" : "--",
		     any ? "" : name, any ? "" : "=", val) < 0)
		return usage_error("sweep", "too many Slurm options");
	s->nsbatch++;
	return 0;
}

/* An option for the points' runs (bench's), kept and passed on. */
static int parse_pass(struct sweep *s, char *a, const char *val)
{
	if (!strcmp(a, "--system") && val)
		s->preset = val;
	if (!strcmp(a, "--compare") || !strcmp(a, "--csv") ||
	    !strcmp(a, "--json") || !strncmp(a, "--sweep", 7) ||
	    !strncmp(a, "--agreement", 11))
		return usage_error("sweep", "'%s' is not a sweep option", a);
	if (s->npass + 1 >= SW_MAX_ARGS)
		return usage_error("sweep", "too many arguments");
	s->pass[s->npass++] = a;
	s->keep[s->nkeep++] = a;
	return 0;
}

enum sweep_opt {
	SO_WORKLOADS, SO_SYSTEMS, SO_GRID, SO_OUT, SO_JOBS, SO_SLURM, SO_WAIT,
	SO_SBATCH, SO_HELP, SO_SIZE_OF,
};

static const struct opt sweep_opts[] = {
	{ .name = "workloads", .letter = 'w', .value = true,
	  .id = SO_WORKLOADS },
	{ .name = "systems", .value = true, .id = SO_SYSTEMS },
	{ .name = "grid", .letter = 'g', .value = true,
	  .id = SO_GRID },
	{ .name = "out", .letter = 'o', .value = true,
	  .id = SO_OUT },
	{ .name = "jobs", .letter = 'j', .value = true,
	  .id = SO_JOBS },
	{ .name = "slurm", .id = SO_SLURM },
	{ .name = "wait", .id = SO_WAIT },
	{ .name = "account", .value = true, .id = SO_SBATCH },
	{ .name = "partition", .value = true, .id = SO_SBATCH },
	{ .name = "time", .value = true, .id = SO_SBATCH },
	{ .name = "sbatch-option", .value = true, .id = SO_SBATCH },
	{ .name = "help", .letter = 'h', .id = SO_HELP },
	{ .name = "size-of", .value = true, .id = SO_SIZE_OF },
	{ 0 }
};

/*
 * @st's value, a comma-separated list, into @v (at most @max), their
 * count in *@n. 0, or the usage error's status.
 */
static int parse_list(struct sweep *s, const struct opts *st, char **v,
		      unsigned int max, unsigned int *n)
{
	if (!own(s, st->val))
		return usage_error("sweep", "out of memory");
	*n = split(s->owned[s->nowned - 1], v, max);
	return 0;
}

/*
 * Option @id of opts_next() (its value in st->val), kept for the sweep's
 * arguments if the sweep's outcome depends on it; an argument not the
 * sweep's passed on to the points' runs. 0, -1 after --help, or the
 * usage error's status.
 */
static int parse_option(struct sweep *s, const struct opts *st, int id)
{
	int ret;

	switch (id) {
	case SO_WORKLOADS:
		ret = parse_list(s, st, s->wls, 64, &s->nwl);
		break;
	case SO_SYSTEMS:
		ret = parse_list(s, st, s->syss, CMP_NSYS_MAX, &s->nsys);
		break;
	case SO_GRID:
		ret = parse_grid(s, st->val);
		break;
	case SO_SIZE_OF:
		ret = sweep_size_of(s, st->val);
		break;
	case SO_OUT:
		s->out = st->val;
		return 0;
	case SO_JOBS:
		return parse_jobs(s, st->val);
	case SO_SLURM:
		s->slurm = true;
		return 0;
	case SO_WAIT:
		s->wait = true;
		return 0;
	case SO_SBATCH:
		return parse_sbatch(s, st->opt->name, st->val);
	case SO_HELP:
		sweep_usage(stdout);
		return -1;
	case OPTS_OTHER:
		return parse_pass(s, st->arg, st->next < st->argc ?
				  st->argv[st->next] : NULL);
	default:
		return opts_error("sweep", st, id);
	}
	if (ret)
		return ret;
	s->keep[s->nkeep++] = st->arg;
	s->keep[s->nkeep++] = st->val;
	return 0;
}

/*
 * The sweep's options in @s. 0, -1 after --help (exit status 0), or the
 * usage error's status.
 */
static int parse(struct sweep *s, int argc, char **argv)
{
	struct opts st = { .table = sweep_opts, .argc = argc, .argv = argv,
			   .next = 1 };
	int id, ret;

	s->out = "sweep";
	s->jobs = 1;
	while ((id = opts_next(&st)) != OPTS_END) {
		ret = parse_option(s, &st, id);
		if (ret)
			return ret;
	}
	if (s->wait && !s->slurm)
		return usage_error("sweep", "--wait goes with --slurm");
	if (s->nsbatch && !s->slurm)
		return usage_error("sweep", "'%s' goes with --slurm", s->sbatch[0]);
	if (!s->nwl)
		return usage_error("sweep", "--workloads: which workloads?");
	for (unsigned int i = 0; i < s->nwl; i++)
		if (!ng_workload_find(s->wls[i]))
			return usage_error("sweep", "unknown workload '%s' (see 'ngemu bench --list')",
					   s->wls[i]);
	for (unsigned int i = 0; i < s->nsys; i++)
		if (!ng_paper_system_find(s->syss[i], strlen(s->syss[i]), NULL))
			return usage_error("sweep", "--systems: unknown system '%s'",
					   s->syss[i]);
	return 0;
}

void sweep_path(const struct sweep *s, const struct sw_point *p,
		 const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/points/%s%s", s->out, p->hash, ext);
}

/* A bar of the points done on a terminal; a line each otherwise. */
static void progress(size_t done, size_t failed, size_t total, double t0)
{
	double now = (double)time(NULL), el = now - t0;
	double left = done ? el / (double)done * (double)(total - done) : 0;
	char bar[31];
	size_t fill = total ? done * 30 / total : 30;

	if (!isatty(2)) {
		fprintf(stderr, "ngemu sweep: %zu/%zu points, %zu failed\n", done,
			total, failed);
		return;
	}
	memset(bar, '#', fill);
	memset(bar + fill, '.', 30 - fill);
	bar[30] = '\0';
	fprintf(stderr, "\r[%s] %zu/%zu points, %zu failed, %.0f s left   ",
		bar, done, total, failed, left);
}

/*
 * Stopped by signal @sig: the runs under way ended and their files
 * removed, a line saying what is done and how to go on; the exit status.
 */
static int stopped(struct sweep *s, const pid_t *pids, const size_t *of,
		   unsigned int running, int sig)
{
	size_t have = 0;

	for (unsigned int r = 0; r < running; r++) {
		end_child(pids[r]);
		sweep_discard(s, &s->pt[of[r]]);
	}
	for (size_t i = 0; i < s->npt; i++)
		have += sweep_has_result(s, &s->pt[i]);
	fprintf(stderr, "%sngemu sweep: stopped by %s: %zu of %zu points have a result in %s/points; run the same command again to run the other %zu\n",
		isatty(2) ? "\n" : "", sig == SIGINT ? "SIGINT" : "SIGTERM",
		have, s->npt, s->out, s->npt - have);
	return interrupt_status(sig);
}

/*
 * The sweep's folder made and its arguments kept there; each point
 * marked done (status 0: a result from before, or the same run as an
 * earlier point's) or to run (-1), the count of those in @todo, and a
 * line for the user. 0, or the exit status.
 */
static int sweep_setup(struct sweep *s, size_t *todo)
{
	char path[1024];
	size_t same = 0;
	unsigned int same_keys = 0;	/* the keys the same runs differ in */
	char keys[SW_MAX_KEYS * 48];

	snprintf(path, sizeof(path), "%s/points", s->out);
	if ((mkdir(s->out, 0755) && errno != EEXIST) ||
	    (mkdir(path, 0755) && errno != EEXIST)) {
		fprintf(stderr, "ngemu sweep: cannot make %s: %s\n", path,
			strerror(errno));
		return NG_EXIT_FAIL;
	}
	if (sweep_save_args(s, s->out))
		return NG_EXIT_FAIL;
	for (size_t i = 0; i < s->npt; i++) {
		sweep_path(s, &s->pt[i], ".json", path, sizeof(path));
		s->pt[i].status = sweep_has_result(s, &s->pt[i]) ? 0 : -1;
		/* a system that ignores a grid key: one run for its values */
		for (size_t k = 0; k < i && s->pt[i].status < 0; k++)
			if (!strcmp(s->pt[k].hash, s->pt[i].hash)) {
				s->pt[i].status = 0;
				same_keys |= sweep_differ(s, &s->pt[k], &s->pt[i]);
				same++;
			}
		if (s->pt[i].status < 0 && !access(path, F_OK))
			fprintf(stderr, "ngemu sweep: %s is not a whole result: it runs again\n",
				path);
		*todo += s->pt[i].status < 0;
	}
	for (unsigned int w = 0; w < s->nwl; w++)
		if (sweep_paper_default(s, s->wls[w]))
			fprintf(stderr, "ngemu sweep: no paper gives a size for %s: it runs at its default size\n",
				s->wls[w]);
	fprintf(stderr, "ngemu sweep: %zu points, %zu to run, %zu kept from before, %zu the same run as another%s%s%s\n",
		s->npt, *todo, s->npt - *todo - same, same,
		same_keys ? " (differing only in " : "",
		sweep_keys_text(s, same_keys, keys, sizeof(keys)),
		same_keys ? ", which changes nothing their system runs)" : "");
	return 0;
}

/*
 * The @todo points to run, --jobs at a time, each in a child; the count
 * of those that failed in @failed. 0, or the exit status when a signal
 * stopped them.
 */
static int sweep_points(struct sweep *s, size_t todo, size_t *failed)
{
	size_t done = 0, next = 0;
	pid_t pids[64] = { 0 };
	size_t of[64];
	unsigned int running = 0;
	double t0 = (double)time(NULL);

	while (done < todo) {
		int st;
		pid_t pid;

		while (running < s->jobs && next < s->npt && !interrupted()) {
			if (s->pt[next].status < 0) {
				pid_t c = sweep_start(s, &s->pt[next]);

				if (c < 0) {
					fprintf(stderr, "ngemu sweep: cannot start %s on %s: %s\n",
						s->pt[next].wl, s->pt[next].sys,
						strerror(errno));
					s->pt[next].status = 1;
					++*failed;
					done++;
				} else {
					pids[running] = c;
					of[running++] = next;
				}
			}
			next++;
		}
		if (interrupted())
			return stopped(s, pids, of, running, interrupted());
		if (!running)
			break;
		pid = wait_child(&st);
		if (pid < 0 && interrupted())
			return stopped(s, pids, of, running, interrupted());
		for (unsigned int r = 0; r < running; r++) {
			if (pids[r] != pid)
				continue;
			*failed += !sweep_finish(s, &s->pt[of[r]], st);
			done++;
			pids[r] = pids[--running];
			of[r] = of[running];
			progress(done, *failed, todo, t0);
			break;
		}
	}
	return 0;
}

static int sweep_run(struct sweep *s, int argc, char **argv)
{
	size_t todo = 0, failed = 0;
	int ret;

	ret = parse(s, argc, argv);
	if (ret)
		return ret < 0 ? NG_EXIT_OK : ret;
	if (sweep_plan(s))
		return NG_EXIT_USAGE;
	ret = sweep_inert_report(s);
	if (ret)
		return ret;
	interrupt_catch();
	ret = sweep_setup(s, &todo);
	if (ret)
		return ret;
	if (s->slurm && todo)
		return sweep_slurm(s, todo);
	ret = sweep_points(s, todo, &failed);
	if (ret)
		return ret;
	if (todo && isatty(2))
		fprintf(stderr, "\n");
	ret = sweep_collect(s, todo, failed);
	if (interrupted())
		return stopped(s, NULL, NULL, 0, interrupted());
	return ret;
}

/*
 * The results and plots of the points that have one; a line for the
 * user. Exit status 1 when a point has none or an output could not be
 * written.
 */
int sweep_collect(struct sweep *s, size_t ran, size_t failed)
{
	char path[1024];
	size_t missing = 0;
	int bad;

	for (size_t i = 0; i < s->npt; i++)
		missing += !sweep_has_result(s, &s->pt[i]);
	bad = sweep_gather(s);
	if (!bad)
		bad = sweep_plot(s);
	snprintf(path, sizeof(path), "%s/results.csv", s->out);
	s->missing = missing;
	printf("ngemu sweep: %zu points (%zu run now, %zu failed, %zu without a result): %s%s\n",
	       s->npt, ran, failed, missing, bad ? "not all written, see above: " : "",
	       path);
	return failed || missing || bad ? NG_EXIT_FAIL : NG_EXIT_OK;
}

/*
 * ngemu sweep --collect DIR and --task I SUB: the sweep that DIR (or the
 * submission's folder SUB, DIR/slurm/SUB) holds in sweep.args planned
 * again, then its results gathered, or the points of task I of the Slurm
 * job array submitted from SUB run.
 */
static int sweep_resume(struct sweep *s, int argc, char **argv)
{
	bool collect = !strcmp(argv[1], "--collect");
	char sub[PATH_MAX];
	unsigned long task = 0;
	char *end;
	int n, ret;

	if (argc != (collect ? 3 : 4))
		return usage_error("sweep", collect ? "--collect DIR takes nothing else" :
				   "--task I SUB takes nothing else");
	if (!collect) {
		task = strtoul(argv[2], &end, 10);
		if (!*argv[2] || *end)
			return usage_error("sweep", "--task: '%s' is not a task index",
					   argv[2]);
	}
	/* its folder's full name: loading moves to the sweep's folder */
	if (!realpath(argv[argc - 1], sub))
		return usage_error("sweep", "%s: %s", argv[argc - 1], strerror(errno));
	n = sweep_load_args(s, sub, !collect);
	if (n < 0)
		return NG_EXIT_USAGE;
	ret = parse(s, n, s->argv);
	if (!ret && sweep_plan(s))
		ret = NG_EXIT_USAGE;
	if (ret)
		return ret < 0 ? NG_EXIT_OK : ret;
	interrupt_catch();
	return collect ? sweep_collect(s, 0, 0) : sweep_task(s, task, sub);
}

int sweep_main(int argc, char **argv, size_t *missing)
{
	struct sweep s = { 0 };
	int ret;

	if (argc > 1 && (!strcmp(argv[1], "--collect") || !strcmp(argv[1], "--task")))
		ret = sweep_resume(&s, argc, argv);
	else
		ret = sweep_run(&s, argc, argv);
	if (missing)
		*missing += s.missing;
	sweep_free(&s);
	return ret;
}

int cmd_sweep(int argc, char **argv)
{
	return sweep_main(argc, argv, NULL);
}
