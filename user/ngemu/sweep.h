/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ngemu sweep (cmd_sweep.c): its points and options, shared with the
 * plots it draws (sweep_plot.c).
 */
#ifndef NGEMU_SWEEP_H
#define NGEMU_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "bench.h"

#define SW_MAX_KEYS	8
#define SW_MAX_VALS	32
#define SW_MAX_ARGS	256

struct sw_key {
	char name[48];
	char *val[SW_MAX_VALS];
	unsigned int nval;
};

struct sw_point {
	const char *wl, *sys;
	unsigned int vi[SW_MAX_KEYS];	/* value of each grid key */
	char hash[17];
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
	struct sw_point *pt;
	size_t npt;
	char *owned[SW_MAX_KEYS + 2];	/* copies of the lists, to free */
	unsigned int nowned;
};

/*
 * OUT/plot.dat and OUT/plot.gp (kept for restyling), then gnuplot's
 * plot.svg and plot.png from them.
 */
void ng_sweep_plot(const struct sweep *s);

#endif /* NGEMU_SWEEP_H */
