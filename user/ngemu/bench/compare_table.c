// SPDX-License-Identifier: GPL-2.0
/*
 * A paper's comparison table (ngemu/paper.h) for people, as CSV and as
 * JSON: one function, the paper's columns, the same names in all three.
 */
#include <stdio.h>
#include <string.h>

#include <linux/numagpu.h>

#include "bench.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"

#define CELL 48

/* The largest value of column @c over @n rows, for one unit per column. */
static double col_max(const struct ng_col *c, const struct ng_paper *p,
		      const struct ng_paper_run *rows, unsigned int n)
{
	double m = 0;

	for (unsigned int i = 0; i < n; i++) {
		double v = c->get.real(&rows[i], cmp_ref(p, rows, n, &rows[i]));

		m = v > m ? v : m;
	}
	return m;
}

/* Row @w's cell of column @c for people (@max: col_max() for times). */
static const char *human_cell(const struct ng_col *c, const struct ng_paper_run *w,
			      const struct ng_paper_run *ref, double max,
			      char *buf, size_t len)
{
	double v;

	switch (c->kind) {
	case NG_COL_TEXT:
		return c->get.text(w, ref, buf, len);
	case NG_COL_FLAG:
		return c->get.flag(w, ref) ? "yes" : "no";
	case NG_COL_VERIFIED:
		return cmp_verified(w);
	case NG_COL_UINT:
		snprintf(buf, len, "%llu",
			 (unsigned long long)c->get.uint(w, ref));
		return buf;
	case NG_COL_BYTES:
		return ng_format_bytes(c->get.uint(w, ref), buf, len);
	case NG_COL_TIME:
		return ng_format_dur_col(c->get.real(w, ref), max, buf, len);
	case NG_COL_FRACTION:
		snprintf(buf, len, "%.1f%%", 100 * c->get.real(w, ref));
		return buf;
	case NG_COL_REAL:
		v = c->get.real(w, ref);
		if (c->zero_is_none && v == 0)
			return "-";
		snprintf(buf, len, "%.*f%s", (int)c->digits, v,
			 c->unit ? c->unit : "");
		return buf;
	case NG_COL_OBJECT:
		break;
	}
	return "";
}

static bool left_aligned(const struct ng_col *c)
{
	return c->kind == NG_COL_TEXT || c->kind == NG_COL_VERIFIED ||
	       c->kind == NG_COL_FLAG;
}

static void print_human(const struct ng_paper *p,
			const struct ng_paper_run *rows, unsigned int n,
			const char *sweep_key)
{
	unsigned int width[64] = { 0 }, swidth = 0, nc = 0;
	const struct ng_col *cols[64];
	double max[64];
	char buf[CELL];

	for (unsigned int c = 0; c < p->ncols && nc < 64; c++) {
		const struct ng_col *col = p->cols[c];

		if (!(col->formats & NG_COL_HUMAN))
			continue;
		cols[nc] = col;
		max[nc] = col->kind == NG_COL_TIME ? col_max(col, p, rows, n) : 0;
		width[nc] = (unsigned int)strlen(col->name);
		for (unsigned int i = 0; i < n; i++) {
			size_t l = strlen(human_cell(col, &rows[i],
						     cmp_ref(p, rows, n, &rows[i]),
						     max[nc], buf, sizeof(buf)));

			width[nc] = l > width[nc] ? (unsigned int)l : width[nc];
		}
		nc++;
	}
	if (sweep_key) {
		swidth = (unsigned int)strlen(sweep_key);
		for (unsigned int i = 0; i < n; i++)
			if (strlen(rows[i].sweep) > swidth)
				swidth = (unsigned int)strlen(rows[i].sweep);
		printf("%-*s ", (int)swidth, sweep_key);
	}
	for (unsigned int c = 0; c < nc; c++)
		printf(left_aligned(cols[c]) ? "%-*s%s" : "%*s%s", (int)width[c],
		       cols[c]->name, c + 1 < nc ? " " : "\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct ng_paper_run *ref = cmp_ref(p, rows, n, &rows[i]);

		if (sweep_key)
			printf("%-*s ", (int)swidth, rows[i].sweep);
		for (unsigned int c = 0; c < nc; c++)
			printf(left_aligned(cols[c]) ? "%-*s%s" : "%*s%s",
			       (int)width[c],
			       human_cell(cols[c], &rows[i], ref, max[c], buf,
					  sizeof(buf)),
			       c + 1 < nc ? " " : "\n");
	}
}

static void csv_cell(const struct ng_col *c, const struct ng_paper_run *w,
		     const struct ng_paper_run *ref)
{
	char buf[CELL];

	switch (c->kind) {
	case NG_COL_TEXT:
		printf("%s", c->get.text(w, ref, buf, sizeof(buf)));
		break;
	case NG_COL_FLAG:
		printf("%d", c->get.flag(w, ref));
		break;
	case NG_COL_VERIFIED:
		printf("%d", w->r.verified);
		break;
	case NG_COL_UINT:
	case NG_COL_BYTES:
		printf("%llu", (unsigned long long)c->get.uint(w, ref));
		break;
	case NG_COL_TIME:
		printf("%.9g", c->get.real(w, ref));
		break;
	case NG_COL_REAL:
	case NG_COL_FRACTION:
		printf("%.6g", c->get.real(w, ref));
		break;
	case NG_COL_OBJECT:
		break;
	}
}

static void print_csv(const struct ng_paper *p,
		      const struct ng_paper_run *rows, unsigned int n,
		      const char *sweep_key)
{
	printf("workload,%s", sweep_key ? sweep_key : "sweep");
	for (unsigned int c = 0; c < p->ncols; c++)
		if (p->cols[c]->formats & NG_COL_CSV)
			printf(",%s", p->cols[c]->name);
	printf("\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct ng_paper_run *ref = cmp_ref(p, rows, n, &rows[i]);

		printf("%s,%s", rows[i].r.workload, rows[i].sweep);
		for (unsigned int c = 0; c < p->ncols; c++) {
			if (!(p->cols[c]->formats & NG_COL_CSV))
				continue;
			printf(",");
			csv_cell(p->cols[c], &rows[i], ref);
		}
		printf("\n");
	}
}

static void json_cell(struct ng_json *j, const struct ng_col *c,
		      const struct ng_paper_run *w,
		      const struct ng_paper_run *ref)
{
	char buf[CELL];

	switch (c->kind) {
	case NG_COL_TEXT:
		ng_json_kv_string(j, c->name, c->get.text(w, ref, buf, sizeof(buf)));
		break;
	case NG_COL_FLAG:
		ng_json_kv_bool(j, c->name, c->get.flag(w, ref));
		break;
	case NG_COL_VERIFIED:
		ng_json_kv_bool(j, c->name, w->r.verified);
		break;
	case NG_COL_UINT:
	case NG_COL_BYTES:
		ng_json_kv_uint(j, c->name, c->get.uint(w, ref));
		break;
	case NG_COL_TIME:
	case NG_COL_REAL:
	case NG_COL_FRACTION:
		ng_json_kv_double(j, c->name, c->get.real(w, ref));
		break;
	case NG_COL_OBJECT:
		c->get.json(j, c, w);
		break;
	}
}

static void print_json(const struct ng_paper *p, const struct ng_config *cfg,
		       const struct ng_paper_run *rows, unsigned int n,
		       const char *sweep_key)
{
	struct ng_json j;

	ng_json_init(&j, stdout, true);
	ng_json_object_begin(&j);
	ng_json_kv_string(&j, "version", NUMAGPU_VERSION_STRING);
	ng_json_kv_string(&j, "workload", n ? rows[0].r.workload : "");
	ng_json_kv_string(&j, "sweep", sweep_key ? sweep_key : "");
	ng_json_kv_uint(&j, "l2_size", cfg->l2.size);
	ng_json_kv_uint(&j, "rdc_size", cfg->rdc.size);
	ng_json_kv_double(&j, "link_bw_gbs", cfg->link_bw);
	ng_json_kv_string(&j, "topology", ng_topology_names[cfg->topology]);
	ng_json_kv_bool(&j, "l2_local", cfg->l2.local);
	ng_json_kv_uint(&j, "warp_width", cfg->warp_width);
	ng_json_key(&j, "runs");
	ng_json_array_begin(&j);
	for (unsigned int i = 0; i < n; i++) {
		const struct ng_paper_run *ref = cmp_ref(p, rows, n, &rows[i]);

		ng_json_object_begin(&j);
		ng_json_kv_string(&j, "sweep_value", rows[i].sweep);
		for (unsigned int c = 0; c < p->ncols; c++)
			if (p->cols[c]->formats & NG_COL_JSON)
				json_cell(&j, p->cols[c], &rows[i], ref);
		ng_json_key(&j, "counters");
		bench_counters_json(&j, &rows[i].r.total);
		ng_json_object_end(&j);
	}
	ng_json_array_end(&j);
	ng_json_object_end(&j);
	ng_json_finish(&j);
}

void cmp_print(const struct ng_paper *p, const struct ng_config *base,
	       const char *workload, const struct ng_paper_run *rows,
	       unsigned int n, const char *sweep_key, int fmt)
{
	if (fmt == 1) {
		print_json(p, base, rows, n, sweep_key);
		return;
	}
	if (fmt == 2) {
		print_csv(p, rows, n, sweep_key);
		return;
	}
	if (p->describe)
		p->describe(base, workload);
	if (p->legend)
		printf("%s\n\n", p->legend);
	if (n && rows[0].r.has_sharing) {
		printf("sharing profile (CARVE Fig. 4), %s:\n", rows[0].sys->name);
		bench_sharing_human(&rows[0].r.sharing, "  ");
		printf("\n");
	}
	print_human(p, rows, n, sweep_key);
}
