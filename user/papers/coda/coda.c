// SPDX-License-Identifier: GPL-2.0
/*
 * CODA (TACO 2018): placements and the blocks' scheduling (CODA Fig. 9
 * and 10), each against fgp (every page interleaved at fgp-granularity,
 * round-robin blocks):
 *
 *   remote_vs_reference   remote requests over fgp's (Fig. 10)
 *   one_block, one_gpu    pages touched by one block, by one GPU
 *   category              CODA Table 2's, from the page-access profile
 *   page_blocks           the shares of the pages touched by 1, 2, 3-4,
 *                         5-8, 9-16, 17-32, 33-64, >64 blocks (Fig. 5)
 */
#include <stdio.h>

#include "../columns.h"
#include "report.h"
#include "ngemu/model/page_access.h"

static const struct ng_paper_system systems[] = {
	{ "fgp", "FGP only: every page interleaved at fgp-granularity, blocks round-robin",
	  "replicate=none rdc-size=0 directory=off placement=fgp sched=rr", NULL, false },
	{ "cgp", "CGP only: 4 KB pages round-robin over the GPUs, blocks round-robin",
	  "replicate=none rdc-size=0 directory=off placement=cgp sched=rr", NULL, false },
	{ "cgp-ft", "CGP with first-touch allocation: a page on the GPU that touches it first, affinity scheduling",
	  "replicate=none rdc-size=0 directory=off placement=first-touch sched=coda", NULL, false },
	{ "cgp-mig", "CGP with first-touch by migration: a page moves to the first GPU that reaches it remotely, affinity scheduling",
	  "replicate=none rdc-size=0 directory=off placement=cgp sched=coda migrate=first-touch", NULL, false },
	{ "coda", "CODA: chunks placed with their blocks (min(4 KB, B x N)), affinity scheduling",
	  "replicate=none rdc-size=0 directory=off placement=coda sched=coda coda-chunk=cap", NULL, false },
	{ "coda-uncapped", "CODA with chunks of B x N (no 4 KB cap)",
	  "replicate=none rdc-size=0 directory=off placement=coda sched=coda coda-chunk=uncapped", NULL, false },
	{ "fgp-affinity", "FGP only with affinity scheduling (Fig. 15): a block's GPU by its data, as coda's",
	  "replicate=none rdc-size=0 directory=off placement=fgp sched=coda", NULL, false },
	/*
	 * Fig. 14's centralized GPU, all the SMs and memories behind one
	 * crossbar: links that cost nothing, so a request pays only its
	 * home memory's bandwidth and latency, and how evenly the placement
	 * spreads the requests over the memories is what differs
	 */
	{ "central-fgp", "a centralized GPU (Fig. 14): the GPUs' SMs and memories behind a free crossbar, FGP interleave",
	  "replicate=none rdc-size=0 directory=off placement=fgp sched=rr topology=switch link-latency=0 link-bw=1000000", NULL, false },
	{ "central-cgp", "a centralized GPU (Fig. 14) with 4 KB pages round-robin over its memories",
	  "replicate=none rdc-size=0 directory=off placement=cgp sched=rr topology=switch link-latency=0 link-bw=1000000", NULL, false },
};

/* The preset (4 GPUs of 4 SMs, 16 GB/s links), with the page profile. */
static const char *const regime[] = {
	"--system", "coda", "--deterministic", "--page-profile",
};

static double remote_vs_ref(const struct ng_paper_run *w,
			    const struct ng_paper_run *ref)
{
	return ng_ratio((double)ng_run_ctr(w, NG_CTR_REMOTE),
			(double)ng_run_ctr(ref, NG_CTR_REMOTE));
}

NG_GETTER(uint64_t, pages, w->r.pageacc.pages)
NG_GETTER(double, one_block,
	  ng_ratio((double)w->r.pageacc.one_block, (double)w->r.pageacc.pages))
NG_GETTER(double, one_gpu,
	  ng_ratio((double)w->r.pageacc.one_gpu, (double)w->r.pageacc.pages))

static const char *category(const struct ng_paper_run *w,
			    const struct ng_paper_run *ref, char *buf,
			    size_t len)
{
	(void)ref, (void)buf, (void)len;
	return w->r.has_pageacc ?
	       ng_coda_category_name(w->r.pageacc.category) : "-";
}

static const char *page_blocks(const struct ng_paper_run *w,
			       const struct ng_paper_run *ref, char *buf,
			       size_t len)
{
	(void)ref;
	return w->r.has_pageacc ? coda_page_blocks(&w->r.pageacc, buf, len) :
				  "-";
}

static void pages_json(struct ng_json *j, const struct ng_col *col,
		       const struct ng_paper_run *w)
{
	if (!w->r.has_pageacc)
		return;
	ng_json_key(j, col->name);
	coda_pageacc_json(j, &w->r.pageacc);
}

static const struct ng_col *const cols[] = {
	&ng_col_system, &ng_col_verified, &ng_col_verify,
	&ng_col_stale_expected, &ng_col_modeled_s, &ng_col_reference,
	&ng_col_speedup_vs_reference, &ng_col_remote_fraction,
	COL("remote_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = remote_vs_ref),
	&ng_col_link_bytes,
	COL("pages_profiled", NG_COL_UINT, NG_COL_DATA, .get.uint = pages),
	COL("one_block", NG_COL_FRACTION, NG_COL_ALL, .get.real = one_block),
	COL("one_gpu", NG_COL_FRACTION, NG_COL_ALL, .get.real = one_gpu),
	COL("category", NG_COL_TEXT, NG_COL_ALL, .get.text = category),
	COL("page_blocks", NG_COL_TEXT, NG_COL_DATA, .get.text = page_blocks),
	COL("pages", NG_COL_OBJECT, NG_COL_JSON, .get.json = pages_json),
	&ng_col_link_fraction_data,
};

static void describe(const struct ng_config *c, const char *wl)
{
	printf("ngemu bench --compare %s: %u GPUs x %u SMs, FGP %llu B, %g GB/s local, %g GB/s links (%s)%s\n",
	       wl, c->gpus, c->sms, (unsigned long long)c->fgp_granularity,
	       c->local_bw, c->link_bw, ng_topology_names[c->topology],
	       c->deterministic ? ", deterministic" : "");
}

const struct ng_paper ng_paper_coda = {
	.name = "coda",
	.title = "CODA: co-locating computation and data (Table 2's 20 workloads)",
	.preset = "coda",
	.systems = systems,
	.nsystems = NG_N(systems),
	.regime = regime,
	.nregime = NG_N(regime),
	.defaults = "fgp,cgp,cgp-ft,cgp-mig,coda,coda-uncapped",
	.reproduce = "fgp,cgp,cgp-ft,cgp-mig,coda,coda-uncapped,fgp-affinity,central-fgp,central-cgp",
	.ref = "fgp",
	.cols = cols,
	.ncols = NG_N(cols),
	.proportion_key = "l2-size",
	.describe = describe,
	.legend = "speedup_vs_reference: fgp's modeled time / this one's; remote_fraction: requests\n"
		  "homed on another GPU; remote_vs_reference: remote requests over fgp's; one_block,\n"
		  "one_gpu: pages touched by one block, by one GPU; category: CODA Table 2's, from\n"
		  "them; page_blocks (CSV, JSON): shares of the pages touched by 1, 2, 3-4, 5-8,\n"
		  "9-16, 17-32, 33-64, >64 blocks (Fig. 5)",
	.report_human = coda_report_human,
	.report_json = coda_report_json,
};
