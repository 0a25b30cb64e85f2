// SPDX-License-Identifier: GPL-2.0
/*
 * REC (JSA 2025): the L2's coherence directory organized four ways, each
 * against the per-line directory (dir), with the quantities of REC's
 * Figures 11-17:
 *
 *   l2_misses               L2 misses without cold ones (Fig. 13)
 *   inv_evict_hits          eviction-initiated invalidations that found
 *                           the line in the sharer's L2 (the paper's
 *                           unnecessary ones, Fig. 14)
 *   evict_share_of_hits     their share of all invalidations that hit
 *                           (Fig. 5)
 *   transactions            inter-GPU requests, data and invalidations
 *                           (Fig. 14)
 *   addresses_per_eviction  lines an entry held when evicted (Fig. 12)
 *   l2_latency_ns           a request's mean time from reaching the L2
 *                           to its response (Fig. 16's "L2 cache lookup
 *                           latency": MGPUSim's average of an L2)
 *   entry_bits              bits per entry (Table 1)
 */
#include <stdio.h>
#include <string.h>

#include "../columns.h"
#include "ngemu/model/dir.h"
#include "ngemu/model/model.h"
#include "ngemu/util/format.h"

static void twice_the_entries(struct ng_config *c)
{
	c->dir.entries *= 2;
}

/* sec. 4.2: "The baseline coherence directory uses a FIFO replacement policy" */
static const struct ng_paper_system systems[] = {
	{ "dir", "REC's baseline: a per-line directory at each home, FIFO replacement",
	  "replicate=none rdc-size=0 directory=dir dir-policy=fifo", NULL, false },
	{ "dir-2x", "the per-line directory with twice the entries, FIFO replacement",
	  "replicate=none rdc-size=0 directory=dir dir-policy=fifo",
	  twice_the_entries, false },
	{ "hmg", "HMG: one entry per 4 lines, one sharer field",
	  "replicate=none rdc-size=0 directory=hmg", NULL, false },
	{ "rec", "REC: range-coalesced entries (rec-range)",
	  "replicate=none rdc-size=0 directory=rec", NULL, false },
	{ "l2-swc", "the L2 drops remote lines at kernel boundaries (no directory)",
	  "replicate=none rdc-size=0 directory=off", NULL, false },
};

/*
 * The regime (Documentation/rec.rst): the rec preset with its caches and
 * directory at 1/8 of REC Table 2 (L2 2 MB -> 256 KB, 8K entries -> 1K,
 * L1 16 KB -> 2 KB per CU), for footprints about 1/8 of Table 3's.
 */
static const char *const regime[] = {
	"--system", "rec", "--l2-size", "256K", "--dir-entries", "1024",
	"--l1-size", "2K", "--mem-per-gpu", "64M", "--deterministic",
};

static uint64_t cold(const struct ng_paper_run *w)
{
	return ng_run_ctr(w, NG_CTR_L2_COLD);
}

static uint64_t misses(const struct ng_paper_run *w)
{
	return ng_run_ctr(w, NG_CTR_L2_MISS) - cold(w);
}

static uint64_t transactions(const struct ng_paper_run *w)
{
	return ng_run_ctr(w, NG_CTR_XACT_REQ) + ng_run_ctr(w, NG_CTR_XACT_DATA) +
	       ng_run_ctr(w, NG_CTR_DIR_INV_WRITE) +
	       ng_run_ctr(w, NG_CTR_DIR_INV_EVICT);
}

static double latency_ns(const struct ng_paper_run *w)
{
	return ng_ratio((double)ng_run_ctr(w, NG_CTR_L2_REQ_TICKS),
			(double)ng_run_ctr(w, NG_CTR_L2_REQS)) / NG_TICKS_PER_NS;
}

NG_GETTER(uint64_t, inv_write, ng_run_ctr(w, NG_CTR_DIR_INV_WRITE))
NG_GETTER(uint64_t, inv_evict, ng_run_ctr(w, NG_CTR_DIR_INV_EVICT))
NG_GETTER(uint64_t, inv_write_hits, ng_run_ctr(w, NG_CTR_DIR_INV_WRITE_HIT))
NG_GETTER(uint64_t, inv_evict_hits, ng_run_ctr(w, NG_CTR_DIR_INV_EVICT_HIT))
NG_GETTER(uint64_t, dir_evictions, ng_run_ctr(w, NG_CTR_DIR_EVICT))

NG_GETTER(uint64_t, l2_misses, misses(w))
NG_GETTER(uint64_t, l2_cold_misses, cold(w))

static double l2_misses_vs_ref(const struct ng_paper_run *w,
			       const struct ng_paper_run *ref)
{
	return ng_ratio((double)misses(w), (double)misses(ref));
}

static double unnecessary_vs_ref(const struct ng_paper_run *w,
				 const struct ng_paper_run *ref)
{
	return ng_ratio((double)ng_run_ctr(w, NG_CTR_DIR_INV_EVICT_HIT),
			(double)ng_run_ctr(ref, NG_CTR_DIR_INV_EVICT_HIT));
}

static double evict_share(const struct ng_paper_run *w,
			  const struct ng_paper_run *ref)
{
	uint64_t e = ng_run_ctr(w, NG_CTR_DIR_INV_EVICT_HIT);

	(void)ref;
	return ng_ratio((double)e,
			(double)(e + ng_run_ctr(w, NG_CTR_DIR_INV_WRITE_HIT)));
}

NG_GETTER(uint64_t, xacts, transactions(w))

static double xacts_vs_ref(const struct ng_paper_run *w,
			   const struct ng_paper_run *ref)
{
	return ng_ratio((double)transactions(w), (double)transactions(ref));
}

NG_GETTER(double, addresses,
	  ng_ratio((double)ng_run_ctr(w, NG_CTR_DIR_EVICT_LINES), (double)ng_run_ctr(w, NG_CTR_DIR_EVICT)))
NG_GETTER(double, l2_latency, latency_ns(w))

static double l2_latency_vs_ref(const struct ng_paper_run *w,
				const struct ng_paper_run *ref)
{
	return ng_ratio(latency_ns(w), latency_ns(ref));
}

/* The directory's geometry (Table 1), all zero without a directory. */
static struct ng_dir_geom geometry(const struct ng_paper_run *w)
{
	struct ng_dir_geom g = { 0 };

	if (!ng_dir_enabled(&w->cfg) || ng_dir_geometry(&w->cfg, &g, NULL, 0))
		memset(&g, 0, sizeof(g));
	return g;
}

NG_GETTER(double, entry_bits, geometry(w).bits)
NG_GETTER(uint64_t, storage, geometry(w).storage_bits / 8)

static const struct ng_col *const cols[] = {
	&ng_col_system, &ng_col_verified, &ng_col_verify,
	&ng_col_stale_expected, &ng_col_modeled_s, &ng_col_reference,
	&ng_col_speedup_vs_reference,
	COL("l2_misses", NG_COL_UINT, NG_COL_DATA, .get.uint = l2_misses),
	COL("l2_cold_misses", NG_COL_UINT, NG_COL_DATA,
	    .get.uint = l2_cold_misses),
	COL("l2_misses_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = l2_misses_vs_ref),
	COL("inv_write", NG_COL_UINT, NG_COL_DATA, .get.uint = inv_write),
	COL("inv_evict", NG_COL_UINT, NG_COL_DATA, .get.uint = inv_evict),
	COL("inv_write_hits", NG_COL_UINT, NG_COL_DATA,
	    .get.uint = inv_write_hits),
	COL("inv_evict_hits", NG_COL_UINT, NG_COL_DATA,
	    .get.uint = inv_evict_hits),
	COL("unnecessary_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = unnecessary_vs_ref),
	COL("evict_share_of_hits", NG_COL_FRACTION, NG_COL_ALL,
	    .get.real = evict_share),
	COL("transactions", NG_COL_UINT, NG_COL_DATA, .get.uint = xacts),
	COL("transactions_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = xacts_vs_ref),
	COL("dir_evictions", NG_COL_UINT, NG_COL_DATA,
	    .get.uint = dir_evictions),
	COL("addresses_per_eviction", NG_COL_REAL, NG_COL_ALL, .digits = 2,
	    .get.real = addresses),
	COL("l2_latency_ns", NG_COL_REAL, NG_COL_ALL, .digits = 1,
	    .get.real = l2_latency),
	COL("l2_latency_vs_reference", NG_COL_REAL, NG_COL_DATA, .digits = 3,
	    .get.real = l2_latency_vs_ref),
	COL("entry_bits", NG_COL_REAL, NG_COL_ALL, .zero_is_none = true,
	    .get.real = entry_bits),
	COL("dir_storage_bytes", NG_COL_BYTES, NG_COL_ALL, .get.uint = storage),
	&ng_col_remote_fraction_data, &ng_col_link_fraction_data,
	&ng_col_link_bytes_data,
};

static void describe(const struct ng_config *c, const char *wl)
{
	char b1[32], b2[32];

	printf("ngemu bench --compare %s: %u GPUs, L1 %s/CU, L2 %s/GPU, %u directory entries (%u-way, %s), link %g GB/s (%s)%s\n",
	       wl, c->gpus, ng_format_bytes(c->l1.size, b1, sizeof(b1)),
	       ng_format_bytes(c->l2.size, b2, sizeof(b2)), c->dir.entries,
	       c->dir.ways, ng_dir_policy_names[c->dir.policy], c->link_bw,
	       ng_topology_names[c->topology],
	       c->deterministic ? ", deterministic" : "");
}

static const char *system_name(const struct ng_config *c)
{
	if (ng_dir_enabled(c))
		return c->dir.kind == NG_DIR_REC ? "REC" :
		       c->dir.kind == NG_DIR_HMG ? "HMG" :
						    "directory-coherent L2";
	if (ng_l2_on(&c->l2) && c->dir.kind == NG_DIR_NONE)
		return "L2 without coherence";
	return NULL;
}

const struct ng_paper ng_paper_rec = {
	.name = "rec",
	.title = "REC: range-coalesced coherence directory (Table 3's workloads)",
	.preset = "rec",
	.systems = systems,
	.nsystems = NG_N(systems),
	.regime = regime,
	.nregime = NG_N(regime),
	.defaults = "dir,dir-2x,hmg,rec",
	.ref = "dir",
	.cols = cols,
	.ncols = NG_N(cols),
	.proportion_key = "l2-size",
	.system_name = system_name,
	.describe = describe,
	.legend = "speedup_vs_reference: dir's modeled time / this one's; l2_misses: without cold\n"
		  "misses; inv_evict_hits: eviction-initiated invalidations that hit a sharer's L2\n"
		  "(unnecessary); evict_share_of_hits: their share of the invalidations that hit;\n"
		  "transactions: inter-GPU requests + data + invalidations; _vs_reference: over\n"
		  "dir's; addresses_per_eviction: lines an evicted entry held; l2_latency_ns: a\n"
		  "request's mean time from reaching the L2 to its response (Fig. 16); entry_bits:\n"
		  "per entry (REC Table 1)",
};
