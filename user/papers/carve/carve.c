// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE (MICRO 2018) and the NUMA-GPU baseline: a remote data cache carved
 * out of each GPU's memory, kept coherent by software (an epoch flush per
 * kernel) or by hardware (GPU-VI with the IMST), against NUMA-GPU with and
 * without read-only replication and an ideal system where every access is
 * local (CARVE Figures 8, 9, 11, 13; Table V, Fig. 14).
 */
#include <stdio.h>

#include "../columns.h"
#include "report.h"
#include "ngemu/util/counters.h"
#include "ngemu/util/format.h"

static const struct ng_paper_system systems[] = {
	{ "numa-gpu", "NUMA-GPU: L2 caching of remote lines only",
	  "replicate=none rdc-size=0 directory=off", NULL, false },
	{ "repl-ro", "NUMA-GPU + replication of read-only shared pages",
	  "replicate=ro rdc-size=0 directory=off", NULL, false },
	{ "carve-none", "CARVE, no coherence (upper bound; stale data expected)",
	  "replicate=none coherence=none directory=off", NULL, true },
	{ "carve-swc", "CARVE, software coherence (epoch flush per kernel)",
	  "replicate=none coherence=swc directory=off", NULL, false },
	{ "carve-hwc", "CARVE, GPU-VI hardware coherence with IMST",
	  "replicate=none coherence=hwc directory=off", NULL, false },
	{ "ideal", "every access local, zero coherence cost (replicate all)",
	  "replicate=all rdc-size=0 directory=off", NULL, false },
	{ "page-mig", "NUMA-GPU + page migration: a page moves to the first GPU that reaches it remotely",
	  "replicate=none rdc-size=0 directory=off migrate=first-touch", NULL, false },
};

/*
 * The scaled regime (Documentation/carve.rst): the paper's 8 MB L2 and
 * 2 GB RDC of 32 GB shrink with its GB footprints to our MB ones, keeping
 * shared read set > L2 and <= RDC, and the carve-out at 6.25% of memory.
 */
static const char *const regime[] = {
	"--page", "64K", "--l2-size", "256K", "--rdc-size", "4M",
	"--mem-per-gpu", "64M", "--deterministic", "--sharing-profile",
};

NG_GETTER(double, norm, w->norm)
NG_GETTER(double, vs_ref, w->vs_ref)
NG_GETTER(double, rdc_hit_rate, w->r.rdc_hit_rate)
NG_GETTER(uint64_t, rdc_hits, ng_run_ctr(w, NG_CTR_RDC_HIT))
NG_GETTER(uint64_t, rdc_lookups,
	  ng_run_ctr(w, NG_CTR_RDC_HIT) + ng_run_ctr(w, NG_CTR_RDC_MISS))
NG_GETTER(double, compute_fraction, w->r.compute_frac)
NG_GETTER(uint64_t, inv_msgs, ng_run_ctr(w, NG_CTR_INV_MSGS))
NG_GETTER(uint64_t, inv_bytes, ng_run_ctr(w, NG_CTR_INV_BYTES))
NG_GETTER(double, mem_overhead, w->r.mem_overhead)
NG_GETTER(uint64_t, carve_bytes, w->r.carve_bytes)
NG_GETTER(uint64_t, repl_bytes, w->r.repl_bytes)
NG_GETTER(uint64_t, footprint, w->r.footprint)
NG_GETTER(uint64_t, fallback_bytes, w->r.fallback_bytes)

static const struct ng_col *const cols[] = {
	&ng_col_system, &ng_col_verified, &ng_col_verify,
	&ng_col_stale_expected, &ng_col_modeled_s,
	COL("time_over_ideal", NG_COL_REAL, NG_COL_ALL, .get.real = norm,
	    .digits = 3),
	COL("speedup_over_numa_gpu", NG_COL_REAL, NG_COL_ALL, .get.real = vs_ref,
	    .digits = 2, .zero_is_none = true),
	&ng_col_remote_fraction, &ng_col_link_fraction,
	COL("rdc_hit_rate", NG_COL_FRACTION, NG_COL_ALL, .get.real = rdc_hit_rate),
	COL("rdc_hits", NG_COL_UINT, NG_COL_DATA, .get.uint = rdc_hits),
	COL("rdc_lookups", NG_COL_UINT, NG_COL_DATA, .get.uint = rdc_lookups),
	COL("compute_fraction", NG_COL_FRACTION, NG_COL_DATA,
	    .get.real = compute_fraction),
	&ng_col_sharing, &ng_col_link_bytes,
	COL("inv_msgs", NG_COL_UINT, NG_COL_ALL, .get.uint = inv_msgs),
	COL("inv_bytes", NG_COL_UINT, NG_COL_DATA, .get.uint = inv_bytes),
	COL("mem_overhead", NG_COL_FRACTION, NG_COL_ALL, .get.real = mem_overhead),
	COL("carve_bytes", NG_COL_UINT, NG_COL_DATA, .get.uint = carve_bytes),
	COL("repl_bytes", NG_COL_UINT, NG_COL_DATA, .get.uint = repl_bytes),
	COL("footprint", NG_COL_UINT, NG_COL_DATA, .get.uint = footprint),
	COL("fallback_bytes", NG_COL_BYTES, NG_COL_ALL, .get.uint = fallback_bytes),
};

static void describe(const struct ng_config *c, const char *wl)
{
	char b1[32], b2[32];

	printf("ngemu bench --compare %s: %u GPUs, L2 %s/GPU, RDC %s/GPU, link %g GB/s (%s)%s\n",
	       wl, c->gpus, ng_format_bytes(c->l2.size, b1, sizeof(b1)),
	       ng_format_bytes(c->rdc.size, b2, sizeof(b2)), c->link_bw,
	       ng_topology_names[c->topology],
	       c->deterministic ? ", deterministic" : "");
}

static const char *system_name(const struct ng_config *c)
{
	if (ng_rdc_on(&c->rdc))
		return c->rdc.coherence == NG_COH_HWC ? "CARVE-HWC" :
		       c->rdc.coherence == NG_COH_SWC ? "CARVE-SWC" :
						    "CARVE without coherence";
	if (c->replicate == NG_REPL_RO)
		return "NUMA-GPU with read-only page replication";
	if (c->replicate == NG_REPL_ALL)
		return "the ideal (every page replicated)";
	return NULL;
}

const struct ng_paper ng_paper_carve = {
	.name = "carve",
	.title = "CARVE: remote data caches in local memory, with coherence",
	.preset = "carve",
	.systems = systems,
	.nsystems = NG_N(systems),
	.regime = regime,
	.nregime = NG_N(regime),
	.defaults = "numa-gpu,repl-ro,carve-swc,carve-hwc,carve-none,ideal",
	.reproduce = "numa-gpu,repl-ro,carve-swc,carve-hwc,carve-none,ideal,page-mig",
	.ref = "numa-gpu",
	.norm = "ideal",
	.cols = cols,
	.ncols = NG_N(cols),
	.proportion_key = "rdc-size",
	.system_name = system_name,
	.describe = describe,
	.legend = "time_over_ideal: modeled time over the ideal's; speedup_over_numa_gpu: numa-gpu's\n"
		  "modeled time / this one's; remote_fraction: requests homed on another GPU;\n"
		  "link_fraction: requests served over a link (not by L2, RDC or a replica);\n"
		  "mem_overhead: carve-out share of device memory (CARVE) or replica growth of\n"
		  "the footprint (repl-ro)",
	.report_human = carve_report_human,
};
