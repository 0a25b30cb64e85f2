/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A paper as a plug-in of the ngemu command line: the systems its
 * experiments compare, the regime they run in, the system the others are
 * measured against and the columns of its comparison table. `ngemu bench
 * --compare`, `ngemu sweep`, `ngemu reproduce`, the help texts and the
 * error messages all read the registry; nothing in the command line names
 * a paper. The built-in papers live in user/papers/NAME/, one folder each,
 * listed once in user/papers/registry.c; a program of one's own adds more
 * with ng_papers_add() before ng_main() (ngemu/cli.h):
 *
 *   static const struct ng_paper *const mine[] = { &my_paper, NULL };
 *
 *   int main(int argc, char **argv)
 *   {
 *           ng_papers_add(mine);
 *           return ng_main(argc, argv, NULL);
 *   }
 *
 * A comparison table is a list of columns, each with one name that is the
 * same in every format: the header for people, the CSV header, the JSON
 * key of every run. One function renders it in all three.
 */
#ifndef NGEMU_PAPER_H
#define NGEMU_PAPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ngemu/config.h"
#include "ngemu/util/json.h"
#include "ngemu/workloads/workload.h"

/* A system of a paper's comparison: a named change of the configuration. */
struct ng_paper_system {
	const char *name;		/* unique over all papers */
	const char *desc;		/* one line, for --help and listings */
	/* "key=value ..." applied in order over the configuration */
	const char *set;
	/* what "key=value" cannot say (may be NULL), after @set */
	void (*adjust)(struct ng_config *c);
	/*
	 * no coherence (an upper bound): a workload sharing written data
	 * reads stale values by design, so its verification failing is
	 * reported as expected and does not fail the run
	 */
	bool stale_expected;
};

/* One run of a comparison: a system at one sweep value. */
struct ng_paper_run {
	char sweep[48];			/* the sweep value, "" without one */
	const struct ng_paper_system *sys;
	struct ng_bench_result r;
	double norm;			/* modeled time / the norm system's */
	double vs_ref;			/* the reference's modeled time / this */
	struct ng_config cfg;		/* as it ran */
};

/* How a column's value is read, printed and written. */
enum ng_col_kind {
	NG_COL_TEXT,		/* get.text */
	NG_COL_FLAG,		/* get.flag: JSON true/false, CSV 1/0 */
	NG_COL_VERIFIED,	/* the run's verification (no getter) */
	NG_COL_UINT,		/* get.uint */
	NG_COL_BYTES,		/* get.uint, bytes: "1.5 MiB" for people */
	NG_COL_REAL,		/* get.real: digits and unit for people */
	NG_COL_FRACTION,	/* get.real in 0..1: a percentage for people */
	NG_COL_TIME,		/* get.real in seconds: one unit per column */
	NG_COL_OBJECT,		/* get.json: a JSON object, JSON only */
};

/* The formats a column appears in. */
#define NG_COL_HUMAN	(1u << 0)
#define NG_COL_CSV	(1u << 1)
#define NG_COL_JSON	(1u << 2)
#define NG_COL_ALL	(NG_COL_HUMAN | NG_COL_CSV | NG_COL_JSON)
#define NG_COL_DATA	(NG_COL_CSV | NG_COL_JSON)

/*
 * One column of a comparison table. Getters read run @w and the run of
 * the reference system at the same sweep value, @ref (@w itself when the
 * reference did not run).
 */
struct ng_col {
	const char *name;		/* in every format */
	enum ng_col_kind kind;
	unsigned int formats;		/* NG_COL_* bits */
	unsigned int digits;		/* NG_COL_REAL: after the point */
	const char *unit;		/* NG_COL_REAL: after the number */
	bool zero_is_none;		/* NG_COL_REAL: "-" for people at 0 */
	union {
		const char *(*text)(const struct ng_paper_run *w,
				    const struct ng_paper_run *ref,
				    char *buf, size_t len);
		bool (*flag)(const struct ng_paper_run *w,
			     const struct ng_paper_run *ref);
		uint64_t (*uint)(const struct ng_paper_run *w,
				 const struct ng_paper_run *ref);
		double (*real)(const struct ng_paper_run *w,
			       const struct ng_paper_run *ref);
		/* writes "name": {...}, or nothing when there is none */
		void (*json)(struct ng_json *j, const struct ng_col *col,
			     const struct ng_paper_run *w);
	} get;
};

/*
 * A paper. Every table has the columns "system", "verified" and
 * "modeled_s" (ngemu sweep reads them, and "remote_fraction",
 * "link_fraction", "link_bytes", which every table has too):
 * ng_papers_add() refuses a paper without them.
 */
struct ng_paper {
	const char *name;		/* "carve": reproduce's PAPER */
	const char *title;		/* one line */
	const char *preset;		/* --system that selects the paper */
	const struct ng_paper_system *systems;
	unsigned int nsystems;
	/* the options a comparison starts from; any given overrides them */
	const char *const *regime;
	unsigned int nregime;
	const char *defaults;		/* --systems when none are given */
	const char *reproduce;		/* reproduce's systems (NULL: defaults) */
	const char *ref;		/* the system the others are measured against */
	const char *norm;		/* the system "norm" divides by (NULL: first) */
	const struct ng_col *const *cols;
	unsigned int ncols;
	/*
	 * The size key of the cache the paper's inputs are held against
	 * ("rdc-size"; NULL: none): reproduce's report sets each workload's
	 * size beside the paper's input scaled as the regime scales that
	 * cache from the paper's machine (its preset).
	 */
	const char *proportion_key;
	/* for people, above the table: the machine (one line) */
	void (*describe)(const struct ng_config *c, const char *workload);
	const char *legend;		/* for people: what the columns mean */
	/*
	 * The name of the system @c builds when it is one of the paper's
	 * ("CARVE-HWC"), else NULL: the first paper in the registry's order
	 * to name it does; a system no paper names is "NUMA-GPU".
	 */
	const char *(*system_name)(const struct ng_config *c);
	/*
	 * The paper's parts of every run's report (ngemu bench), whatever
	 * the run's preset: each writes nothing when the run does not use
	 * the paper's mechanisms. Any may be NULL. Its part of the
	 * mechanisms line ("...; "), its lines for people (after the
	 * caches'), its keys in the run's JSON object.
	 */
	void (*report_mechanisms)(FILE *f, const struct ng_config *c);
	void (*report_human)(FILE *f, const struct ng_config *c,
			     const struct ng_bench_result *r);
	void (*report_json)(struct ng_json *j, const struct ng_config *c,
			    const struct ng_bench_result *r);
};

/* At most this many options in a paper's regime. */
#define NG_PAPER_MAX_REGIME	16

/*
 * Add @papers (NULL-terminated; kept by reference) after the built-in
 * ones. Once per process, before ng_main(). Returns 0, or -EINVAL with a
 * message on stderr for a paper whose name or a system's name is taken,
 * whose table lacks a column ngemu sweep reads, or whose reference, norm
 * or default systems it does not hold.
 */
int ng_papers_add(const struct ng_paper *const *papers);

/* The papers in order (built-in first), NULL past the last. */
const struct ng_paper *ng_paper_at(unsigned int i);
const struct ng_paper *ng_paper_find(const char *name);
/* The paper whose preset is @preset, or NULL. */
const struct ng_paper *ng_paper_of_preset(const char *preset);
/* The system named by the @len bytes at @name and its paper, or NULL. */
const struct ng_paper_system *ng_paper_system_find(const char *name,
						   size_t len,
						   const struct ng_paper **paper);

#endif /* NGEMU_PAPER_H */
