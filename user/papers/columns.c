// SPDX-License-Identifier: GPL-2.0
/* Columns more than one paper's comparison table has (columns.h). */
#include "columns.h"
#include "../ngemu/bench/bench.h"

const struct ng_col ng_col_verified = {
	.name = "verified", .kind = NG_COL_VERIFIED, .formats = NG_COL_ALL,
};

static const char *system_name(const struct ng_paper_run *w,
			       const struct ng_paper_run *ref, char *buf,
			       size_t len)
{
	(void)ref, (void)buf, (void)len;
	return w->sys->name;
}

const struct ng_col ng_col_system = {
	.name = "system", .kind = NG_COL_TEXT, .formats = NG_COL_ALL,
	.get.text = system_name,
};

/* what was checked, or what failed: a sentence, not a table cell */
static const char *verify_text(const struct ng_paper_run *w,
			       const struct ng_paper_run *ref, char *buf,
			       size_t len)
{
	(void)ref, (void)buf, (void)len;
	return w->r.verify;
}

const struct ng_col ng_col_verify = {
	.name = "verify", .kind = NG_COL_TEXT, .formats = NG_COL_JSON,
	.get.text = verify_text,
};

NG_GETTER(bool, stale_expected, w->sys->stale_expected)

const struct ng_col ng_col_stale_expected = {
	.name = "stale_expected", .kind = NG_COL_FLAG, .formats = NG_COL_JSON,
	.get.flag = stale_expected,
};

NG_GETTER(double, modeled_s, w->r.modeled_s)

const struct ng_col ng_col_modeled_s = {
	.name = "modeled_s", .kind = NG_COL_TIME, .formats = NG_COL_ALL,
	.get.real = modeled_s,
};

static const char *reference(const struct ng_paper_run *w,
			     const struct ng_paper_run *ref, char *buf,
			     size_t len)
{
	(void)w, (void)buf, (void)len;
	return ref->sys->name;
}

const struct ng_col ng_col_reference = {
	.name = "reference", .kind = NG_COL_TEXT, .formats = NG_COL_DATA,
	.get.text = reference,
};

NG_GETTER(double, vs_ref, w->vs_ref)

const struct ng_col ng_col_speedup_vs_reference = {
	.name = "speedup_vs_reference", .kind = NG_COL_REAL,
	.formats = NG_COL_ALL, .digits = 3, .get.real = vs_ref,
};

NG_GETTER(double, remote_fraction, w->r.remote_frac)

const struct ng_col ng_col_remote_fraction = {
	.name = "remote_fraction", .kind = NG_COL_FRACTION,
	.formats = NG_COL_ALL, .get.real = remote_fraction,
};

NG_GETTER(double, link_fraction, w->r.link_frac)

const struct ng_col ng_col_link_fraction = {
	.name = "link_fraction", .kind = NG_COL_FRACTION,
	.formats = NG_COL_ALL, .get.real = link_fraction,
};

NG_GETTER(uint64_t, link_bytes, w->r.link_bytes)

const struct ng_col ng_col_link_bytes = {
	.name = "link_bytes", .kind = NG_COL_BYTES, .formats = NG_COL_ALL,
	.get.uint = link_bytes,
};

static void sharing(struct ng_json *j, const struct ng_col *col,
		    const struct ng_paper_run *w)
{
	if (!w->r.has_sharing)
		return;
	ng_json_key(j, col->name);
	bench_sharing_json(j, &w->r.sharing);
}

const struct ng_col ng_col_sharing = {
	.name = "sharing", .kind = NG_COL_OBJECT, .formats = NG_COL_JSON,
	.get.json = sharing,
};

const struct ng_col ng_col_remote_fraction_data = {
	.name = "remote_fraction", .kind = NG_COL_FRACTION,
	.formats = NG_COL_DATA, .get.real = remote_fraction,
};

const struct ng_col ng_col_link_fraction_data = {
	.name = "link_fraction", .kind = NG_COL_FRACTION,
	.formats = NG_COL_DATA, .get.real = link_fraction,
};

const struct ng_col ng_col_link_bytes_data = {
	.name = "link_bytes", .kind = NG_COL_BYTES, .formats = NG_COL_DATA,
	.get.uint = link_bytes,
};
