/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Columns more than one paper's table has (columns.c), and what their
 * getters share. A paper's own columns live in its folder.
 */
#ifndef NGEMU_PAPERS_COLUMNS_H
#define NGEMU_PAPERS_COLUMNS_H

#include <stdint.h>

#include "ngemu/paper.h"

/* @a / @b, 0 when @b is 0: a ratio to a reference that did not happen. */
static inline double ng_ratio(double a, double b)
{
	return b != 0 ? a / b : 0;
}

/* A counter of @w's totals. */
static inline uint64_t ng_run_ctr(const struct ng_paper_run *w, unsigned int c)
{
	return w->r.total.v[c];
}

/* A getter that reads @expr of run @w (the reference is not needed). */
#define NG_GETTER(type, fn, expr) \
	static type fn(const struct ng_paper_run *w, \
		       const struct ng_paper_run *ref) \
	{ \
		(void)ref; \
		return (expr); \
	}

/* Every table's first columns. */
extern const struct ng_col ng_col_system, ng_col_verified, ng_col_verify,
	ng_col_stale_expected, ng_col_modeled_s;
/* The reference system's name, and its time / this run's. */
extern const struct ng_col ng_col_reference, ng_col_speedup_vs_reference;
/* Where requests went, and the bytes on inter-GPU links. */
extern const struct ng_col ng_col_remote_fraction, ng_col_link_fraction,
	ng_col_link_bytes;

/* The same, in CSV and JSON only: tables too wide for people with them. */
extern const struct ng_col ng_col_remote_fraction_data,
	ng_col_link_fraction_data, ng_col_link_bytes_data;
/* The sharing profile (sharing-profile). */
extern const struct ng_col ng_col_sharing;

/*
 * A paper's own column, inline in its table: name, kind, formats, the
 * getter (".real = fn") and any other field.
 */
#define COL(n, k, f, ...) \
	(&(const struct ng_col){ .name = n, .kind = k, .formats = f, \
				 __VA_ARGS__ })

#define NG_N(a)	((unsigned int)(sizeof(a) / sizeof((a)[0])))

#endif /* NGEMU_PAPERS_COLUMNS_H */
