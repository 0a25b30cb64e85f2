/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readers of ngemu reproduce's outputs for its tests: a file whole, a
 * cell of figures.csv, a field of results.csv, a claim of claims.csv,
 * and the count of a run's temporaries left in a folder.
 */
#ifndef NG_TEST_REP_CSV_H
#define NG_TEST_REP_CSV_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *file(const char *dir, const char *name)
{
	char path[256], *t = calloc(1, 1 << 16);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f && t)
		t[fread(t, 1, (1 << 16) - 1, f)] = '\0';
	if (f)
		fclose(f);
	return t;
}

/* Figure @fig's value at @row, @col in figures.csv; -1: none. */
static inline double fig_value(const char *csv, const char *fig, const char *row,
			const char *col)
{
	size_t n = strlen(fig);

	for (const char *l = csv; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char r[64], c[64];
		double v;
		const char *q;

		/* figure,"source",metric,row,column,ngemu,paper,ratio */
		if (strncmp(l, fig, n) || l[n] != ',')
			continue;
		q = strstr(l, "\",");
		if (!q)
			continue;
		if (sscanf(q + 2, "%*[^,],%63[^,],%63[^,],%lf", r, c, &v) == 3 &&
		    !strcmp(r, row) && !strcmp(c, col))
			return v;
	}
	return -1;
}

/* The value of field @k (0-based) of results.csv's row @wl, @sys. */
static inline double result(const char *csv, const char *wl, const char *sys,
		     unsigned int k)
{
	char pat[96];
	const char *l;

	/* hash,workload,system,verified,modeled_s,remote,bytes,link,... */
	snprintf(pat, sizeof(pat), ",%s,%s,", wl, sys);
	l = strstr(csv, pat);
	if (!l)
		return -1;
	while (l > csv && l[-1] != '\n')
		l--;
	for (unsigned int i = 0; i < k && l; i++)
		l = strchr(l, ',') ? strchr(l, ',') + 1 : NULL;
	return l ? strtod(l, NULL) : -1;
}

/* ngemu's value and the workloads used of claim @id in claims.csv. */
static inline double claim_value(const char *csv, const char *id, unsigned int *used)
{
	char pat[64];
	const char *l;
	double v = -1;

	snprintf(pat, sizeof(pat), "\n%s,", id);
	l = strstr(csv, pat);
	/* claim,"source",metric,system,reference,"workloads",paper,ngemu,... */
	for (int q = 0; q < 2 && l; q++)
		l = strstr(l + 1, "\",");
	if (!l)
		return -1;
	/* ",paper,ngemu,ngemu_over_paper,direction,mean,used,left_out */
	sscanf(l + 2, "%*[^,],%lf,%*[^,],%*[^,],%*[^,],%u", &v, used);
	return v;
}

/* Files under the tree nftw() walks whose names hold a run's temporary. */
static int temporaries;

static inline int count_tmp(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	const char *base = path + ftw->base;

	(void)st;
	if (flag == FTW_F && (strstr(base, ".json.") || strstr(base, ".err.")))
		temporaries++;
	return 0;
}

static inline int tmp_files(const char *dir)
{
	temporaries = 0;
	nftw(dir, count_tmp, 16, FTW_PHYS);
	return temporaries;
}

#endif
