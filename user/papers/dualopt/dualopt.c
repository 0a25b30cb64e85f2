// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt: locality-dependent remote access optimizations, each alone and
 * picked per GPU by the decision engine, against the baseline (line
 * transfers cached in the L1s, no RDMA cache), with the quantities of
 * DualOpt's Figures 13-17:
 *
 *   link_bytes          bytes over inter-GPU links (Fig. 14)
 *   packets             inter-GPU packets: requests and data (a CoDec
 *                       packet is one)
 *   remote_latency_ns   remote requests' issue to completion
 *   mem_latency_ns      every request's, local ones too: Fig. 15's "average
 *                       latency of the memory requests" (it plots the
 *                       baseline's / this one's)
 *   rdma_hit_rate       the RDMA cache's (Fig. 17)
 *   l2_hit_rate         the memory-side L2s', every request (Fig. 17)
 *   packet_fill         CoDec transactions per packet
 *   class               the decision engine's class (dualopt only), and
 *                       what it read on GPU 0: remote_ratio,
 *                       utilization, l1_hit_rate
 */
#include <stdio.h>

#include "../columns.h"
#include "report.h"
#include "ngemu/model/dualopt.h"
#include "ngemu/util/format.h"

/* a transfer unit of the line: the MSHRs merge any load of a line in flight */
static void whole_lines(struct ng_config *c)
{
	c->xfer_gran = c->line;
}

static const struct ng_paper_system systems[] = {
	{ "baseline", "DualOpt's baseline: remote lines cross the link whole, cached in the L1s; a 2 MB L2",
	  "replicate=none rdc-size=0 directory=off remote-opt=off msl2-size=2M", NULL, false },
	{ "page-migration", "the baseline with a page moved to the first GPU that reaches it remotely",
	  "replicate=none rdc-size=0 directory=off remote-opt=off migrate=first-touch msl2-size=2M", NULL, false },
	{ "bypass", "remote loads past the L1 (Fig. 16's cache bypass alone): whole lines, each response alone",
	  "replicate=none rdc-size=0 directory=off remote-opt=coalesce codec-pack=0 msl2-size=2M", whole_lines, false },
	{ "fine", "remote loads past the L1, fine-grained, each response alone (no CoDec)",
	  "replicate=none rdc-size=0 directory=off remote-opt=coalesce codec-pack=0 msl2-size=2M", NULL, false },
	{ "coalesce", "remote access coalescing forced on: fine-grained loads, CoDec packets",
	  "replicate=none rdc-size=0 directory=off remote-opt=coalesce msl2-size=2M", NULL, false },
	{ "rdma-cache", "remote data caching forced on: the RDMA cache",
	  "replicate=none rdc-size=0 directory=off remote-opt=rdma-cache", NULL, false },
	{ "dualopt", "DualOpt: the decision engine picks one per GPU",
	  "replicate=none rdc-size=0 directory=off remote-opt=auto", NULL, false },
};

/*
 * The regime (Documentation/dualopt.rst): the preset as the paper has it;
 * its footprints are MGPUSim's default problem sizes, of our order.
 */
static const char *const regime[] = {
	"--system", "dualopt", "--mem-per-gpu", "256M", "--deterministic",
};

static uint64_t packets(const struct ng_paper_run *w)
{
	return ng_run_ctr(w, NG_CTR_XACT_REQ) + ng_run_ctr(w, NG_CTR_XACT_DATA);
}

static double bytes_vs_ref(const struct ng_paper_run *w,
			   const struct ng_paper_run *ref)
{
	return ng_ratio((double)w->r.link_bytes, (double)ref->r.link_bytes);
}

NG_GETTER(uint64_t, packets_col, packets(w))

static double packets_vs_ref(const struct ng_paper_run *w,
			     const struct ng_paper_run *ref)
{
	return ng_ratio((double)packets(w), (double)packets(ref));
}

NG_GETTER(double, latency, w->r.remote_latency_ns)
NG_GETTER(double, mem_latency, w->r.mem_latency_ns)

static double latency_vs_ref(const struct ng_paper_run *w,
			     const struct ng_paper_run *ref)
{
	return ng_ratio(w->r.remote_latency_ns, ref->r.remote_latency_ns);
}

static double hit_rate(const struct ng_paper_run *w, unsigned int hit,
		       unsigned int miss)
{
	return ng_ratio((double)ng_run_ctr(w, hit),
			(double)(ng_run_ctr(w, hit) + ng_run_ctr(w, miss)));
}

NG_GETTER(double, rdma_hit, hit_rate(w, NG_CTR_RDMA_HIT, NG_CTR_RDMA_MISS))
NG_GETTER(double, l2_hit, hit_rate(w, NG_CTR_MSL2_HIT, NG_CTR_MSL2_MISS))
NG_GETTER(double, fill,
	  ng_ratio((double)ng_run_ctr(w, NG_CTR_CODEC_XACTS), (double)ng_run_ctr(w, NG_CTR_CODEC_PKTS)))

static const char *class_of(const struct ng_paper_run *w,
			    const struct ng_paper_run *ref, char *buf,
			    size_t len)
{
	(void)ref, (void)buf, (void)len;
	return w->r.has_de ? ng_class_name(w->r.de.cls) : "-";
}

NG_GETTER(double, remote_ratio, w->r.de.gpu[0].v.remote_ratio)
NG_GETTER(double, utilization, w->r.de.gpu[0].v.utilization)
NG_GETTER(double, l1_hit, w->r.de.gpu[0].v.hit_rate)

static const struct ng_col *const cols[] = {
	&ng_col_system, &ng_col_verified, &ng_col_verify,
	&ng_col_stale_expected, &ng_col_modeled_s, &ng_col_reference,
	&ng_col_speedup_vs_reference, &ng_col_link_bytes,
	COL("link_bytes_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = bytes_vs_ref),
	COL("packets", NG_COL_UINT, NG_COL_DATA, .get.uint = packets_col),
	COL("packets_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = packets_vs_ref),
	COL("remote_latency_ns", NG_COL_REAL, NG_COL_ALL, .unit = "ns",
	    .get.real = latency),
	COL("latency_vs_reference", NG_COL_REAL, NG_COL_ALL, .digits = 3,
	    .get.real = latency_vs_ref),
	COL("mem_latency_ns", NG_COL_REAL, NG_COL_DATA, .unit = "ns",
	    .get.real = mem_latency),
	COL("rdma_hit_rate", NG_COL_FRACTION, NG_COL_ALL, .get.real = rdma_hit),
	COL("l2_hit_rate", NG_COL_FRACTION, NG_COL_ALL, .get.real = l2_hit),
	COL("packet_fill", NG_COL_REAL, NG_COL_ALL, .digits = 2,
	    .get.real = fill),
	COL("class", NG_COL_TEXT, NG_COL_ALL, .get.text = class_of),
	COL("remote_ratio", NG_COL_REAL, NG_COL_DATA, .digits = 3,
	    .get.real = remote_ratio),
	COL("utilization", NG_COL_REAL, NG_COL_DATA, .digits = 3,
	    .get.real = utilization),
	COL("l1_hit_rate", NG_COL_FRACTION, NG_COL_DATA, .get.real = l1_hit),
	&ng_col_remote_fraction_data, &ng_col_link_fraction_data,
};

static void describe(const struct ng_config *c, const char *wl)
{
	char b1[32], b2[32];

	printf("ngemu bench --compare %s: %u GPUs, L1 %s/CU, RDMA cache %s/GPU, link %g GB/s in %u B flits (%s)%s\n",
	       wl, c->gpus, ng_format_bytes(c->l1.size, b1, sizeof(b1)),
	       ng_format_bytes(c->rdma.size, b2, sizeof(b2)), c->link_bw,
	       c->flit, ng_topology_names[c->topology],
	       c->deterministic ? ", deterministic" : "");
}

static const char *system_name(const struct ng_config *c)
{
	if (c->remote_opt == NG_RO_COALESCE && !c->codec.pack)
		return c->xfer_gran >= c->line ?
		       "DualOpt, L1 bypass (whole lines)" :
		       "DualOpt, fine-grained access (no CoDec)";
	if (c->remote_opt != NG_RO_OFF)
		return c->remote_opt == NG_RO_AUTO ? "DualOpt" :
		       c->remote_opt == NG_RO_COALESCE ?
		       "DualOpt, remote access coalescing" :
		       "DualOpt, remote data caching";
	if (c->mig.mode != NG_MIGRATE_OFF)
		return "page migration on first remote touch";
	return NULL;
}

const struct ng_paper ng_paper_dualopt = {
	.name = "dualopt",
	.title = "DualOpt: locality-dependent remote access optimizations (Table 2's 13 workloads)",
	.preset = "dualopt",
	.systems = systems,
	.nsystems = NG_N(systems),
	.regime = regime,
	.nregime = NG_N(regime),
	.defaults = "baseline,page-migration,coalesce,rdma-cache,dualopt",
	.reproduce = "baseline,page-migration,bypass,fine,coalesce,rdma-cache,dualopt",
	.ref = "baseline",
	.cols = cols,
	.ncols = NG_N(cols),
	.proportion_key = "rdma-size",
	.system_name = system_name,
	.describe = describe,
	.legend = "speedup_vs_reference: the baseline's modeled time / this one's; _vs_reference:\n"
		  "this one's over the baseline's (traffic and latency DualOpt reports as the\n"
		  "baseline's / this one's); packets: inter-GPU requests and data transfers;\n"
		  "remote_latency_ns: remote loads, issue to completion; l2_hit_rate: the memory-\n"
		  "side L2s'; packet_fill: CoDec transactions per packet; class: the decision\n"
		  "engine's",
	.report_mechanisms = dualopt_report_mechanisms,
	.report_human = dualopt_report_human,
	.report_json = dualopt_report_json,
};
