/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu sweep (sweep.c): its points and options, shared with the
 * plots it draws (plot.c).
 */
#ifndef NGEMU_SWEEP_H
#define NGEMU_SWEEP_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>

#include "../bench/bench.h"

#define SW_MAX_KEYS	8
#define SW_MAX_VALS	32
#define SW_MAX_ARGS	256
#define SW_MAX_SBATCH	16

struct sw_key {
	char name[48];
	char *val[SW_MAX_VALS];
	unsigned int nval;
};

/* Whether a grid key changes what a point runs (inert.c). */
enum sw_inert {
	SW_LIVE,			/* its values give other configurations */
	SW_SET_BY_SYSTEM,		/* the point's system sets it itself */
	SW_UNREAD,			/* its component is off at every value */
};

struct sw_point {
	const char *wl, *sys;
	unsigned int vi[SW_MAX_KEYS];	/* value of each grid key */
	unsigned char inert[SW_MAX_KEYS];	/* enum sw_inert, each grid key */
	char hash[17];
	char tmp[8];			/* its run's files' own suffix */
	int status;			/* -1 to run, 0 done, > 0 failed */
	double modeled_s;		/* 0: no result */
};

struct sweep {
	const char *out, *preset;
	char *wls[64], *syss[CMP_NSYS_MAX];
	unsigned int nwl, nsys, nkey, jobs;
	struct sw_key key[SW_MAX_KEYS];
	char *pass[SW_MAX_ARGS];	/* other options, to every point */
	int npass;
	char *size_of[64];		/* --size-of's "WL=SIZE" */
	unsigned int nsize_of;
	struct sw_point *pt;
	size_t npt;
	char *owned[SW_MAX_KEYS + 2];	/* copies of the lists, to free */
	unsigned int nowned;
	char *keep[2 * SW_MAX_ARGS];	/* what DIR/sweep.args keeps */
	int nkeep;
	char *argtext, **argv;		/* the arguments read back */
	bool slurm, wait;		/* --slurm, --wait */
	char *sbatch[SW_MAX_SBATCH];	/* --account=A... for sbatch */
	unsigned int nsbatch;
	size_t missing;			/* points without a result, at the end */
};

/*
 * --size-of @val ("WL=SIZE": workload WL runs at --size SIZE, whatever
 * --size says) into @s. 0, or the usage error's status.
 */
int sweep_size_of(struct sweep *s, char *val);

/*
 * ngemu sweep with its arguments (argv[0] "sweep"), as cmd_sweep()
 * runs it; the points without a result at its end added to *@missing
 * (NULL: not counted). The exit status.
 */
int sweep_main(int argc, char **argv, size_t *missing);

/*
 * plan.c: every point of the sweep with its hash (0, or -EINVAL
 * after a message); the arguments of point @p's run after "bench"
 * (NULL-terminated; @bufs holds the grid's options), their count; and
 * whether workload @wl runs at its default size under "--size paper",
 * having none from a paper.
 */
int sweep_plan(struct sweep *s);
int sweep_point_args(const struct sweep *s, const struct sw_point *p,
		     char **v, char bufs[][64]);
bool sweep_paper_default(const struct sweep *s, const char *wl);

/*
 * inert.c: each point's grid keys marked live or inert (p->inert)
 * from the points' configurations @cfg (one per point, as they run),
 * for a key given two values or more; why key @k is inert at point @p,
 * for people ("system baseline sets xfer-gran itself"); every inert key
 * named on stderr with its systems, the exit status (a usage error when
 * a key is inert at every point, 0 otherwise); the grid keys in which
 * points @a and @b differ, as a mask, and a mask's keys as "k1, k2".
 */
void sweep_inert_mark(struct sweep *s, const struct ng_config *cfg);
void sweep_inert_why(const struct sweep *s, const struct sw_point *p,
		     unsigned int k, char *buf, size_t len);
int sweep_inert_report(const struct sweep *s);
unsigned int sweep_differ(const struct sweep *s, const struct sw_point *a,
			  const struct sw_point *b);
const char *sweep_keys_text(const struct sweep *s, unsigned int mask,
			    char *buf, size_t len);

/* OUT/points/HASH@ext of point @p. */
void sweep_path(const struct sweep *s, const struct sw_point *p,
		const char *ext, char *buf, size_t len);

/*
 * Run point @p here, to its end; 0 when it has a result, -1 when not,
 * -EINTR when SIGINT or SIGTERM stopped it (its run ended, its files
 * removed).
 */
int sweep_run_point(const struct sweep *s, struct sw_point *p);

/*
 * Point @p's run in a child (point.c): started (its pid, or -1), its
 * files removed when it was stopped, or ended with wait status @st and
 * its output kept when it is a whole result (true).
 */
pid_t sweep_start(const struct sweep *s, struct sw_point *p);
void sweep_discard(const struct sweep *s, const struct sw_point *p);
bool sweep_finish(const struct sweep *s, struct sw_point *p, int st);

/*
 * Whether text @t (NULL: none) is a point's whole result: one complete
 * JSON document with the fields the results take; and whether point
 * @p's file holds one. A file cut short (a full disk, a killed writer)
 * or empty is no result: the point runs again.
 */
bool sweep_result_ok(const char *t);
bool sweep_has_result(const struct sweep *s, const struct sw_point *p);

/*
 * OUT/results.csv and results.json from the points' files, each written
 * whole or not at all (results.c); 0, or -errno after a message.
 */
int sweep_gather(struct sweep *s);

/*
 * The results and plots of the points that have one, and a line saying
 * so; the exit status: 1 when @failed, a point has no result or an
 * output could not be written.
 */
int sweep_collect(struct sweep *s, size_t ran, size_t failed);

/*
 * slurm.c: the sweep's arguments kept in DIR/sweep.args (0 or -1,
 * errno set) and read back into s->argv with "--out OUT" (their count,
 * or -1 after a message), where OUT is DIR, or for a @task's folder
 * OUT/slurm/SUB two up.
 */
int sweep_save_args(const struct sweep *s, const char *dir);
int sweep_load_args(struct sweep *s, const char *dir, bool task);

/*
 * --slurm: the @todo points without a result submitted as one Slurm job
 * array, and a job that collects them when it has ended; the exit status.
 */
int sweep_slurm(struct sweep *s, size_t todo);

/*
 * --task I SUB: the points of task @task of the job array submitted from
 * folder @sub run; the exit status.
 */
int sweep_task(struct sweep *s, unsigned long task, const char *sub);

/*
 * OUT/plot.dat and OUT/plot.gp (kept for restyling), then gnuplot's
 * plot.svg and plot.png from them; 0, or -errno after a message when
 * the data or the script could not be written (gnuplot missing or
 * failing, or no data to draw, is a message only).
 */
int sweep_plot(const struct sweep *s);

/*
 * gnuplot SCRIPT run in folder DIR (no shell): 0 when it drew; else a
 * message for command @who that says why: no gnuplot, or gnuplot failed.
 */
int run_gnuplot(const char *who, const char *dir, const char *script);

#endif /* NGEMU_SWEEP_H */
