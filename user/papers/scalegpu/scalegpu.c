// SPDX-License-Identifier: GPL-2.0
/*
 * ScaleGPU (CAL 2013): device memory as a cache of host memory, against
 * the whole data in device memory (full), split code and zero-copy
 * (ScaleGPU Fig. 3 and 4):
 *
 *   h2d_s, d2h_s   the host copies in the modeled time (full and split;
 *                  split copies around each kernel only when the data
 *                  exceeds device-mem, as the paper's hand-split codes)
 *   host_bytes     bytes over the CPU-GPU link (headers included)
 *   tag_hit_rate   device memory's tag hit rate of reads and atomics
 *   fetches        rows the tag miss handlers fetched from the host
 *   evicted        rows replaced by a fetch (conflict misses)
 *   held_us        SM time held by a full pending queue or scoreboard
 */
#include <stdio.h>

#include "../columns.h"
#include "report.h"
#include "ngemu/model/model.h"
#include "ngemu/util/format.h"

static const struct ng_paper_system systems[] = {
	{ "full", "the whole data in device memory, copied in before the kernels and out after",
	  "replicate=none rdc-size=0 directory=off device-mem=0 placement=first-touch host-copies=once", NULL, false },
	{ "split", "split code for device-mem: each kernel's data copied in before it and out after it when the data does not fit, else full's copies",
	  "replicate=none rdc-size=0 directory=off placement=first-touch host-copies=per-kernel", NULL, false },
	{ "zero-copy", "the data in host memory, reached over the link through the L2",
	  "replicate=none rdc-size=0 directory=off device-mem=0 placement=host", NULL, false },
	{ "scalegpu", "ScaleGPU: device memory (device-mem) caches host memory",
	  "replicate=none rdc-size=0 directory=off placement=host", NULL, false },
};

/* The preset (one GPU behind PCIe 2.0); --device-mem sets scalegpu's share. */
static const char *const regime[] = {
	"--system", "scalegpu", "--deterministic",
};

NG_GETTER(double, h2d, w->r.h2d_s)
NG_GETTER(double, d2h, w->r.d2h_s)
NG_GETTER(double, kernel, w->r.kernel_s ? w->r.kernel_s : w->r.modeled_s)

/* "100%", "12.5%", "4.0 MiB" or "-": a system's device memory. */
static const char *device_mem(const struct ng_paper_run *w,
			      const struct ng_paper_run *ref, char *buf,
			      size_t len)
{
	(void)ref;
	if (w->cfg.sg.device_mem_pct > 0)
		snprintf(buf, len, "%g%%", w->cfg.sg.device_mem_pct);
	else if (w->cfg.sg.device_mem)
		ng_format_bytes(w->cfg.sg.device_mem, buf, len);
	else
		snprintf(buf, len, "-");
	return buf;
}

NG_GETTER(uint64_t, host_bytes, ng_run_ctr(w, NG_CTR_HOST_BYTES))

static double tag_hit(const struct ng_paper_run *w,
		      const struct ng_paper_run *ref)
{
	uint64_t hits = ng_run_ctr(w, NG_CTR_SG_HIT);

	(void)ref;
	return ng_ratio((double)hits,
			(double)(hits + ng_run_ctr(w, NG_CTR_SG_MISS)));
}

NG_GETTER(uint64_t, fetches, ng_run_ctr(w, NG_CTR_SG_FETCH))
NG_GETTER(uint64_t, evicted, ng_run_ctr(w, NG_CTR_SG_EVICT))
NG_GETTER(double, held,
	  (double)ng_run_ctr(w, NG_CTR_SG_STALL) / NG_TICKS_PER_NS / 1e3)

static const struct ng_col *const cols[] = {
	&ng_col_system, &ng_col_verified, &ng_col_verify,
	&ng_col_stale_expected, &ng_col_modeled_s, &ng_col_reference,
	&ng_col_speedup_vs_reference,
	COL("h2d_s", NG_COL_TIME, NG_COL_ALL, .get.real = h2d),
	COL("kernel_s", NG_COL_TIME, NG_COL_DATA, .get.real = kernel),
	COL("d2h_s", NG_COL_TIME, NG_COL_ALL, .get.real = d2h),
	COL("device_mem", NG_COL_TEXT, NG_COL_ALL, .get.text = device_mem),
	COL("host_bytes", NG_COL_BYTES, NG_COL_ALL, .get.uint = host_bytes),
	COL("tag_hit_rate", NG_COL_FRACTION, NG_COL_ALL, .get.real = tag_hit),
	COL("fetches", NG_COL_UINT, NG_COL_ALL, .get.uint = fetches),
	COL("evicted", NG_COL_UINT, NG_COL_ALL, .get.uint = evicted),
	COL("held_us", NG_COL_REAL, NG_COL_ALL, .digits = 1, .unit = "us",
	    .get.real = held),
	&ng_col_remote_fraction_data, &ng_col_link_fraction_data,
	&ng_col_link_bytes_data,
};

static void describe(const struct ng_config *c, const char *wl)
{
	printf("ngemu bench --compare %s: %u GPU%s, %u B per tag, TMH %u/%u x %u, host link %g GB/s, %g ns each way%s\n",
	       wl, c->gpus, c->gpus == 1 ? "" : "s", c->sg.tag_bytes,
	       c->sg.tmh_queue, c->sg.tmh_scoreboard, c->sg.tmh_units, c->host_bw,
	       c->host_latency_ns, c->deterministic ? ", deterministic" : "");
}

static const char *system_name(const struct ng_config *c)
{
	if (ng_scalegpu_on(&c->sg) && c->placement == NG_PLACE_HOST)
		return "ScaleGPU";
	if (c->placement == NG_PLACE_HOST)
		return "zero-copy (data in host memory)";
	return NULL;
}

const struct ng_paper ng_paper_scalegpu = {
	.name = "scalegpu",
	.title = "ScaleGPU: device memory as a cache of host memory (Table 2's 5 workloads)",
	.preset = "scalegpu",
	.systems = systems,
	.nsystems = NG_N(systems),
	.regime = regime,
	.nregime = NG_N(regime),
	.defaults = "full,split,zero-copy,scalegpu",
	.ref = "full",
	.cols = cols,
	.ncols = NG_N(cols),
	.proportion_key = "l2-size",
	.system_name = system_name,
	.describe = describe,
	.legend = "speedup_vs_reference: full's modeled time / this one's (full: the data in device\n"
		  "memory, copied in once and out once; split: when the data exceeds device_mem,\n"
		  "each kernel's data in and out around it, else full's copies); h2d_s, d2h_s:\n"
		  "those copies' time; device_mem: device memory (scalegpu: caching the host's\n"
		  "data; split: what the code was split for); tag_hit_rate: of reads and atomics;\n"
		  "held_us: SM time a full tag miss handler held",
	.report_human = scalegpu_report_human,
	.report_json = scalegpu_report_json,
};
