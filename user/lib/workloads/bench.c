// SPDX-License-Identifier: GPL-2.0
/*
 * What every benchmark run shares (ng_bench_run): room checks, the run,
 * and the statistics derived from its counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ngemu/model/component.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/system.h"
#include "ngemu/util/err.h"
#include "ngemu/workloads/workload.h"

/* MemAvailable: free memory plus what the kernel can reclaim at once. */
static uint64_t machine_free(void)
{
	char line[128];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");
	long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb)
		return kb << 10;
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

/* Remote and host requests the components served without the link. */
static uint64_t off_link(const struct ng_counters *t)
{
	uint64_t n = 0;

	for (unsigned int i = 0; ng_components[i]; i++)
		for (const unsigned int *c = ng_components[i]->off_link;
		     c && *c != NG_CTR_MAX; c++)
			n += t->v[*c];
	return n;
}

static double frac(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* @n copies of @bytes in all over the CPU-GPU link, seconds. */
static double copy_s(const struct ng_config *c, uint64_t bytes, uint64_t n)
{
	return ((double)ng_host_bytes(c, bytes) / c->host_bw +
		(double)n * c->host_latency_ns) * 1e-9;
}

/*
 * Whether split code splits: ScaleGPU's hand-modified programs exist
 * only when the data does not fit in device memory. device-mem (bytes
 * per GPU, or a % of the data, as ScaleGPU's) is the memory the program
 * was split for; when the data (@footprint) fits in the GPUs' memory
 * the program is the plain one. No device-mem: it always splits.
 */
static bool split_splits(const struct ng_config *cfg, uint64_t footprint)
{
	uint64_t mem = cfg->sg.device_mem;

	if (cfg->sg.device_mem_pct > 0)
		mem = (uint64_t)((double)footprint * cfg->sg.device_mem_pct / 100);
	else if (!mem)
		return true;
	return footprint > mem * cfg->gpus;
}

/*
 * The host copies ScaleGPU's baselines add to a run (host-copies): once,
 * the pages the kernels read before they wrote them in and every written
 * page out; per kernel (split code, when it splits), each kernel's pages
 * in and out around it.
 */
static void add_copies(const struct ng_config *cfg, struct ng_system *sys,
		       struct ng_bench_result *r)
{
	uint64_t pg = cfg->page, in, out, n;
	struct ng_copies c;

	if (cfg->host_copies == NG_COPIES_NONE ||
	    ng_pageacc_copies(ng_system_model(sys), &c))
		return;
	if (cfg->host_copies == NG_COPIES_PER_KERNEL &&
	    split_splits(cfg, r->footprint)) {
		r->split = true;
		in = c.split_in_pages * pg;
		out = c.split_out_pages * pg;
		n = c.kernels;
	} else {
		in = c.in_pages * pg;
		out = c.out_pages * pg;
		n = 1;
	}
	r->kernel_s = r->modeled_s;
	r->h2d_bytes = in;
	r->d2h_bytes = out;
	r->h2d_s = copy_s(cfg, in, n);
	r->d2h_s = copy_s(cfg, out, n);
	r->modeled_s += r->h2d_s + r->d2h_s;
}

/*
 * CODA's profiler (its section 4.3): run the workload once with page-
 * access tracking, FGP everywhere, and take each structure's B from the
 * first timed kernel that touched it. The paper takes B from a compiler
 * pass and a profile before the program allocates; a whole first run is
 * that profile. Returns the plan (malloc'd; *n entries) or NULL.
 */
static uint64_t *coda_profile(const struct ng_config *cfg,
			      const struct ng_workload *wl,
			      const struct ng_bench_opts *o, unsigned int *n,
			      char *err, size_t errlen)
{
	struct ng_config pc = *cfg;
	struct ng_bench_opts po = *o;
	struct ng_bench_result *pr = calloc(1, sizeof(*pr));
	struct ng_system *ps = NULL;
	uint64_t *plan = NULL;
	struct ng_space *sp;

	*n = 0;
	pc.page_profile = true;
	pc.placement = NG_PLACE_FGP;
	po.iters = 1;
	po.corrupt = false;
	po.progress = NULL;
	if (!pr || ng_system_create(&ps, &pc, err, errlen))
		goto out;
	if (wl->run(ps, &po, pr, err, errlen))
		goto out;
	sp = ng_system_space(ps);
	plan = calloc(sp->nallocs ? sp->nallocs : 1, sizeof(*plan));
	if (!plan)
		goto out;
	for (unsigned int i = 0; i < sp->nallocs && sp->allocs; i++)
		(void)ng_pageacc_block_bytes(ng_system_model(ps),
					     sp->allocs[i].start,
					     sp->allocs[i].size, &plan[i]);
	*n = sp->nallocs;
out:
	if (ps)
		ng_system_destroy(ps);
	free(pr);
	return plan;
}

int ng_bench_run(struct ng_system *sys, const struct ng_workload *wl,
		 const struct ng_bench_opts *o, struct ng_bench_result *r,
		 char *err, size_t errlen)
{
	const struct ng_config *cfg = ng_system_config(sys);
	struct ng_bench_opts oo = *o;
	uint64_t need, avail;
	const struct ng_counters *t;
	struct ng_space *sp;
	uint64_t base, fb0;
	struct ng_kmod_stats ks0, ks1;
	uint64_t *plan = NULL;
	unsigned int nplan = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!oo.size)
		oo.size = wl->default_size;
	if (!oo.iters)
		oo.iters = wl->default_iters;
	need = oo.size * wl->narrays;
	if (need / wl->narrays != oo.size ||
	    need > cfg->mem_per_gpu * cfg->gpus) {
		ng_seterr(err, errlen,
			  "%s needs %u array%s of %llu MiB, which do not fit in the emulated device memory (%u GPUs x %llu MiB)",
			  wl->name, wl->narrays, wl->narrays == 1 ? "" : "s",
			  (unsigned long long)(oo.size >> 20), cfg->gpus,
			  (unsigned long long)(cfg->mem_per_gpu >> 20));
		return -ENOMEM;
	}
	avail = machine_free();
	/* leave room for the model's own memory and the rest of the system */
	if (avail && need > avail / 10 * 8) {
		ng_seterr(err, errlen,
			  "%s needs %llu MiB, which do not fit in this machine's free memory (%llu MiB)",
			  wl->name, (unsigned long long)(need >> 20),
			  (unsigned long long)(avail >> 20));
		return -ENOMEM;
	}
	snprintf(r->workload, sizeof(r->workload), "%s", wl->name);
	r->size = oo.size;
	r->iters = oo.iters;
	r->ngpus = cfg->gpus;
	r->threads = ng_system_threads(sys) ? ng_system_threads(sys) : 1;
	sp = ng_system_space(sys);
	base = sp->allocated + sp->host_allocated;
	fb0 = sp->fallback;
	sp->peak = base;
	(void)ng_space_kmod_stats(sp, &ks0);
	if (cfg->placement == NG_PLACE_CODA && cfg->coda_b == NG_CODA_B_PROFILE) {
		err[0] = '\0';
		plan = coda_profile(cfg, wl, &oo, &nplan, err, errlen);
		if (!plan)
			return err[0] ? -EINVAL : -ENOMEM;
		ng_space_set_plan(sp, plan, nplan);
		r->ncoda = nplan < NG_CODA_PLAN_SHOWN ? nplan : NG_CODA_PLAN_SHOWN;
	}
	ret = wl->run(sys, &oo, r, err, errlen);
	if (plan) {
		if (r->ncoda > sp->nallocs - sp->plan_base)
			r->ncoda = sp->nallocs - sp->plan_base;
		for (unsigned int i = 0; i < r->ncoda; i++) {
			r->coda[i].b = plan[i];
			r->coda[i].size = sp->allocs[sp->plan_base + i].size;
		}
		ng_space_set_plan(sp, NULL, 0);
		free(plan);
	}
	if (ret)
		return ret;
	if (!ng_space_kmod_stats(sp, &ks1)) {
		uint64_t *a = (uint64_t *)&ks1;
		const uint64_t *b0 = (const uint64_t *)&ks0;

		/* the module's counters of this run: every field is a u64 */
		for (size_t i = 0; i < sizeof(ks1) / sizeof(uint64_t); i++)
			a[i] -= b0[i];
		r->kmod = true;
		r->placement.stats = ks1;
	}
	t = &r->total;
	r->footprint = sp->peak - base;
	r->carve_bytes = sp->carved;
	r->fallback_bytes = sp->fallback - fb0;
	r->repl_bytes = t->v[NG_CTR_REPL_PAGES] << sp->page_shift;
	/*
	 * CARVE's cost is its carve-out, a share of device memory (the
	 * paper's 1.5-12.5%); replication's is the replicas, a growth of the
	 * footprint (the paper's 2.4x on average).
	 */
	r->mem_overhead = r->carve_bytes ?
			  frac(r->carve_bytes, sp->capacity + sp->carved) :
			  frac(r->repl_bytes, r->footprint);
	r->rdc_hit_rate = frac(t->v[NG_CTR_RDC_HIT],
			       t->v[NG_CTR_RDC_HIT] + t->v[NG_CTR_RDC_MISS]);
	{
		/* off the link: what each component says it served so */
		uint64_t cached = off_link(t);
		uint64_t rem = t->v[NG_CTR_REMOTE] + t->v[NG_CTR_HOST];

		r->link_frac = frac(rem > cached ? rem - cached : 0,
				    t->v[NG_CTR_REQ]);
	}
	r->local_frac = frac(t->v[NG_CTR_LOCAL], t->v[NG_CTR_REQ]);
	r->remote_frac = frac(t->v[NG_CTR_REMOTE], t->v[NG_CTR_REQ]);
	r->host_frac = frac(t->v[NG_CTR_HOST], t->v[NG_CTR_REQ]);
	r->l2_hit_rate = frac(t->v[NG_CTR_L2_HIT],
			      t->v[NG_CTR_L2_HIT] + t->v[NG_CTR_L2_MISS]);
	r->link_bytes = t->v[NG_CTR_LINK_TX] + t->v[NG_CTR_LINK_RX];
	r->compute_frac = frac(t->v[NG_CTR_COMPUTE_TICKS], t->v[NG_CTR_SM_TICKS]);
	r->has_sharing = !ng_sharing_profile(ng_system_model(sys), &r->sharing);
	r->has_pageacc = !ng_pageacc_report(ng_system_model(sys), &r->pageacc);
	add_copies(cfg, sys, r);
	r->has_de = !ng_de_report(ng_system_model(sys), &r->de);
	r->remote_latency_ns = frac(t->v[NG_CTR_REMOTE_TICKS],
				    t->v[NG_CTR_REMOTE]) / NG_TICKS_PER_NS;
	r->mem_latency_ns = frac(t->v[NG_CTR_MEM_TICKS],
				 t->v[NG_CTR_LOCAL] + t->v[NG_CTR_REMOTE] +
				 t->v[NG_CTR_HOST]) / NG_TICKS_PER_NS;
	if (r->modeled_s > 0)
		r->modeled_bw = (double)r->bytes / r->modeled_s / 1e9;
	if (r->wall_s > 0) {
		r->wall_bw = (double)r->bytes / r->wall_s / 1e9;
		unsigned int busy = 0;
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		r->req_per_s_per_worker = (double)t->v[NG_CTR_REQ] /
					  r->wall_s / r->threads;
		/* workers of GPUs that ran blocks; no more than there are CPUs */
		for (unsigned int g = 0; g < r->ngpus; g++)
			if (r->gpu[g].v[NG_CTR_BLOCKS])
				busy += r->threads / r->ngpus ? r->threads / r->ngpus : 1;
		if (ncpu > 0 && busy > (unsigned int)ncpu)
			busy = (unsigned int)ncpu;
		if (busy > r->threads)
			busy = r->threads;	/* deterministic: one thread */
		r->req_per_s_per_cpu = (double)t->v[NG_CTR_REQ] / r->wall_s /
				       (busy ? busy : 1);
	}
	if (r->has_native && r->native_wall_s > 0) {
		r->native_bw = (double)r->bytes / r->native_wall_s / 1e9;
		r->ratio = r->native_bw > 0 ? r->wall_bw / r->native_bw : 0;
	}
	if (r->metric && r->expected > 0)
		r->error_pct = (r->measured - r->expected) / r->expected * 100;
	return 0;
}
