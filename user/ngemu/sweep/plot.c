// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu sweep's plots (sweep.h): the data and a gnuplot script written
 * next to the results, so that a user can restyle them, then drawn.
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

/* A series of the plot: a system and the values of the keys after the first. */
static bool same_series(const struct sweep *s, const struct sw_point *a,
			const struct sw_point *b)
{
	if (strcmp(a->sys, b->sys))
		return false;
	for (unsigned int k = 1; k < s->nkey; k++)
		if (a->vi[k] != b->vi[k])
			return false;
	return true;
}

static void series_title(const struct sweep *s, const struct sw_point *p,
			 char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s", p->sys);

	for (unsigned int k = 1; k < s->nkey && n > 0 && (size_t)n < len; k++)
		n += snprintf(buf + n, len - (size_t)n, " %s=%s", s->key[k].name,
			      s->key[k].val[p->vi[k]]);
}

/* Without a grid: a block of data per system, bars per workload. */
static void plot_bars(const struct sweep *s, FILE *d, FILE *g)
{
	/* a block per system: workload, speed-up over the first system */
	unsigned int nsys = s->nsys ? s->nsys : 1;

	for (unsigned int y = 0; y < nsys; y++) {
		fprintf(d, "# %s\n", s->nsys ? s->syss[y] : s->pt[0].sys);
		for (unsigned int w = 0; w < s->nwl; w++) {
			const struct sw_point *p = &s->pt[w * nsys + y];
			const struct sw_point *r = &s->pt[w * nsys];

			fprintf(d, "%s\t%g\n", p->wl,
				p->modeled_s > 0 ? r->modeled_s / p->modeled_s : 0);
		}
		fprintf(d, "\n\n");
	}
	fprintf(g, "set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set ylabel 'speed-up over %s'\n"
		"set xlabel 'workload'\n", s->pt[0].sys);
	for (int t = 0; t < 2; t++) {
		fprintf(g, "set terminal %s\nset output '%s'\nplot ",
			t ? "pngcairo size 900,500" : "svg size 900,500",
			t ? "plot.png" : "plot.svg");
		for (unsigned int y = 0; y < nsys; y++)
			fprintf(g, "%s'plot.dat' index %u using 2:xtic(1) title '%s'",
				y ? ", " : "", y,
				s->nsys ? s->syss[y] : s->pt[0].sys);
		fprintf(g, "\n");
	}
}

/* Series @p's data: its points' modeled times over the first grid key. */
static void plot_series_data(const struct sweep *s, const struct sw_point *p,
			     const char *title, FILE *d)
{
	fprintf(d, "# %s: %s\n", p->wl, title);
	for (size_t k = 0; k < s->npt; k++)
		if (!strcmp(s->pt[k].wl, p->wl) &&
		    same_series(s, &s->pt[k], p) &&
		    s->pt[k].modeled_s > 0)
			fprintf(d, "%s\t%g\n",
				s->key[0].val[s->pt[k].vi[0]],
				s->pt[k].modeled_s * 1e6);
	fprintf(d, "\n\n");
}

/*
 * Whether every value of grid key @k is a plain number: an x axis. Names
 * (dir-policy's fifo, lru) or sizes with a suffix (64K) are labels at
 * even steps instead: gnuplot reads no point from a name as x.
 */
static bool key_numeric(const struct sw_key *k)
{
	for (unsigned int i = 0; i < k->nval; i++) {
		char *end;

		(void)strtod(k->val[i], &end);
		if (end == k->val[i] || *end)
			return false;
	}
	return true;
}

/*
 * Workload @w's plot, a line per series, its data blocks from *@idx on
 * (written once, @d NULL the second time).
 */
static void plot_workload(const struct sweep *s, unsigned int w,
			  unsigned int *idx, FILE *d, FILE *g)
{
	char title[256];
	bool first = true;

	fprintf(g, "set title '%s'\nplot ", s->wls[w]);
	for (size_t i = 0; i < s->npt; i++) {
		const struct sw_point *p = &s->pt[i];
		bool seen = false;

		if (strcmp(p->wl, s->wls[w]) || p->vi[0])
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(s->pt[k].wl, p->wl) &&
			       !s->pt[k].vi[0] &&
			       same_series(s, &s->pt[k], p);
		if (seen)
			continue;
		series_title(s, p, title, sizeof(title));
		fprintf(g, "%s'plot.dat' index %u using %s with linespoints title '%s'",
			first ? "" : ", ", (*idx)++,
			key_numeric(&s->key[0]) ? "1:2" : "0:2:xtic(1)", title);
		first = false;
		if (d)
			plot_series_data(s, p, title, d);
	}
	fprintf(g, "\n");
}

/* With a grid: per workload, modeled time over the first key. */
static void plot_lines(const struct sweep *s, FILE *d, FILE *g)
{
	fprintf(g, "set xlabel '%s'\nset ylabel 'modeled time (us)'\n",
		s->key[0].name);
	for (int t = 0; t < 2; t++) {
		unsigned int idx = 0;

		fprintf(g, "set terminal %s\nset output '%s'\n",
			t ? "pngcairo size 900,500" : "svg size 900,500",
			t ? "plot.png" : "plot.svg");
		fprintf(g, "set multiplot layout %u,1\n", s->nwl);
		for (unsigned int w = 0; w < s->nwl; w++)
			plot_workload(s, w, &idx, t ? NULL : d, g);
		fprintf(g, "unset multiplot\n");
	}
}

/*
 * Per workload, modeled time over the first grid key, a line per
 * system (and values of the other keys); without a grid, each system's
 * speed-up over the first, bars per workload.
 */
int sweep_plot(const struct sweep *s)
{
	char path[1024];
	struct out_file od, og;
	bool data = false;
	int err;

	snprintf(path, sizeof(path), "%s/plot.dat", s->out);
	err = out_open(&od, "sweep", path);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/plot.gp", s->out);
	err = out_open(&og, "sweep", path);
	if (err) {
		out_abort(&od);
		return err;
	}
	for (size_t i = 0; i < s->npt; i++)
		data |= s->pt[i].modeled_s > 0;
	fprintf(og.f, "# ngemu sweep's plot: edit and run 'gnuplot plot.gp' here\n"
		"set datafile separator '\t'\n"
		"set key outside right top\n"
		"set grid ytics\n");
	if (!s->nkey)
		plot_bars(s, od.f, og.f);
	else
		plot_lines(s, od.f, og.f);
	err = out_commit_pair(&od, &og);
	if (err)
		return err;
	/* gnuplot fails on an empty plot: say why there is none */
	if (!data)
		fprintf(stderr, "ngemu sweep: no point has a result: nothing to draw (%s/plot.gp not run)\n",
			s->out);
	else
		run_gnuplot("sweep", s->out, "plot.gp");
	return 0;
}

/* The child's exit status when gnuplot is not there to run. */
#define NO_GNUPLOT	127

int run_gnuplot(const char *who, const char *dir, const char *script)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork_child();
	if (!pid) {
		int nul = open("/dev/null", O_WRONLY);

		if (nul >= 0)
			dup2(nul, 2);
		if (chdir(dir))
			_exit(NO_GNUPLOT - 1);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(errno == ENOENT ? NO_GNUPLOT : NO_GNUPLOT - 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		fprintf(stderr, "ngemu %s: cannot run gnuplot: %s\n", who,
			strerror(errno));
		return -1;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == NO_GNUPLOT)
		fprintf(stderr, "ngemu %s: gnuplot is not installed (Debian: gnuplot-nox): %s/%s not drawn\n",
			who, dir, script);
	else
		fprintf(stderr, "ngemu %s: gnuplot failed on %s/%s (run 'gnuplot %s' there to see why)\n",
			who, dir, script, script);
	return -1;
}

