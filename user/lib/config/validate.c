// SPDX-License-Identifier: GPL-2.0
/*
 * What a configuration must satisfy across its keys, and the numbers it
 * implies (the calibration benchmarks are held against them).
 */
#include <errno.h>

#include "ngemu/config.h"
#include "ngemu/model/component.h"
#include "ngemu/util/err.h"

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int ng_config_validate(const struct ng_config *c, char *err, size_t errlen)
{
	if (!pow2(c->line)) {
		ng_seterr(err, errlen, "line: %u is not a power of two", c->line);
		return -EINVAL;
	}
	if (c->warp_width != 32 && c->warp_width != 64) {
		ng_seterr(err, errlen,
			  "warp-width: %u is neither 32 nor 64 (lanes of a wavefront)",
			  c->warp_width);
		return -EINVAL;
	}
	if (!pow2(c->page) || c->page < c->line) {
		ng_seterr(err, errlen,
			  "page: %llu must be a power of two of at least one line (%u)",
			  (unsigned long long)c->page, c->line);
		return -EINVAL;
	}
	if (!pow2(c->fgp_granularity) || c->fgp_granularity > c->page) {
		ng_seterr(err, errlen,
			  "fgp-granularity: %llu must be a power of two no larger than a page",
			  (unsigned long long)c->fgp_granularity);
		return -EINVAL;
	}
	if (c->l2.size && c->l2.size < (uint64_t)c->line * c->l2.ways) {
		ng_seterr(err, errlen,
			  "l2-size: %llu is smaller than one set (%u ways of %u B)",
			  (unsigned long long)c->l2.size, c->l2.ways, c->line);
		return -EINVAL;
	}
	if (c->placement == NG_PLACE_NODE && c->place_node >= c->gpus) {
		ng_seterr(err, errlen, "placement: node:%u but only %u GPUs",
			  c->place_node, c->gpus);
		return -EINVAL;
	}
	if (c->rdc.size && (c->rdc.size % c->line ||
			    c->rdc.size >= c->mem_per_gpu)) {
		ng_seterr(err, errlen,
			  "rdc-size: %llu must be whole lines (%u B) and less than mem-per-gpu",
			  (unsigned long long)c->rdc.size, c->line);
		return -EINVAL;
	}
	if (ng_rdc_on(&c->rdc) && c->replicate != NG_REPL_NONE) {
		ng_seterr(err, errlen,
			  "rdc-size and replicate are separate systems: with replicate %s, set rdc-size 0 (the carve preset has an RDC)",
			  ng_replicate_name(c->replicate));
		return -EINVAL;
	}
	if (c->mem_per_gpu % c->page) {
		ng_seterr(err, errlen, "mem-per-gpu must be a multiple of page");
		return -EINVAL;
	}
	if (c->l1.size && (c->l1.size % ((uint64_t)c->line * c->l1.ways) ||
			   !pow2(c->l1.size / c->line / c->l1.ways))) {
		ng_seterr(err, errlen,
			  "l1-size: %llu must be a power-of-two number of sets of %u ways of %u B",
			  (unsigned long long)c->l1.size, c->l1.ways, c->line);
		return -EINVAL;
	}
	if (c->dir.kind != NG_DIR_OFF && (c->rdc.size ||
					   c->replicate != NG_REPL_NONE)) {
		ng_seterr(err, errlen,
			  "directory %s keeps the L2 coherent in REC's system, which has no RDC and no replicas: set rdc-size 0 and replicate none (the carve preset has an RDC)",
			  ng_directory_names[c->dir.kind]);
		return -EINVAL;
	}
	if (c->dir.kind >= NG_DIR_LINE && !ng_l2_on(&c->l2)) {
		ng_seterr(err, errlen,
			  "directory %s tracks the L2's remote lines: it needs an L2 (l2-size > 0)",
			  ng_directory_names[c->dir.kind]);
		return -EINVAL;
	}
	for (unsigned int i = 0; ng_components[i]; i++) {
		const struct ng_component *comp = ng_components[i];
		int ret;

		if (!comp->validate || !ng_component_enabled(comp, c))
			continue;
		ret = comp->validate(c, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* An idle system: request leg, home memory, response leg, one line each. */
unsigned int ng_resident_blocks(const struct ng_config *c, unsigned int threads,
				unsigned int shared)
{
	unsigned int n = c->blocks_per_sm;
	unsigned int ww = c->warp_width ? c->warp_width : NG_CONFIG_WARP;
	unsigned int warps = (threads + ww - 1) / ww;

	/* as an occupancy calculator: threads go to an SM a wavefront at a time */
	if (c->threads_per_sm && warps &&
	    c->threads_per_sm / (warps * ww) < n)
		n = c->threads_per_sm / (warps * ww);
	if (c->shared_per_sm && shared && c->shared_per_sm / shared < n)
		n = (unsigned int)(c->shared_per_sm / shared);
	return n ? n : 1;
}

unsigned int ng_config_mlp(const struct ng_config *c)
{
	uint64_t n = (uint64_t)c->mshr_entries * c->sm_scale;

	if (c->mlp)
		return c->mlp;
	return n > 65536 ? 65536 : (unsigned int)n;
}

double ng_config_remote_latency_ns(const struct ng_config *c)
{
	unsigned int bytes = (c->line + c->flit - 1) / c->flit * c->flit;
	/* through a hub, each way crosses two links */
	double hops = c->topology == NG_TOPO_HUB ? 2 : 1;

	/* a remote load looks in the L1 and the L2 first (a miss still costs the lookups) */
	return (c->l1.size ? c->l1.latency_ns : 0) +
	       (c->l2.size ? c->l2.latency_ns : 0) +
	       2 * hops * c->link_latency_ns +
	       c->local_latency_ns + c->line / c->local_bw + bytes / c->link_bw;
}

double ng_config_local_load_latency_ns(const struct ng_config *c)
{
	return (c->l1.size ? c->l1.latency_ns : 0) + c->local_latency_ns +
	       c->line / c->local_bw;
}
