// SPDX-License-Identifier: GPL-2.0
/* The emulated system: worker pools, launches, counters. */
#include <errno.h>
#include <numa.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/sched.h"
#include "ngemu/runtime/system.h"
#include "util/util.h"

struct ng_system {
	struct ng_config cfg;
	struct ng_space space;
	struct ng_model model;
	struct ng_sched sched;
	unsigned int nsm;
	struct ng_sm **sms;
	int node[NG_MAX_GPUS];
	unsigned int nnodes;
	/* workers */
	unsigned int nthreads;
	pthread_t *threads;
	pthread_barrier_t start, done;
	const struct ng_launch *cur;
	bool quit;
};

struct worker_arg {
	struct ng_system *sys;
	struct ng_sm *sm;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_block(struct ng_system *sys, struct ng_sm *sm,
		      const struct ng_launch *l, uint64_t id, bool stolen)
{
	struct ng_block b = {
		.sm = sm,
		.space = &sys->space,
		.dim = l->block,
		.grid = l->grid,
		.id = id,
		.shared = sm->shared,
		.shared_bytes = sys->cfg.shared_bytes,
		.modeled = !l->native,
	};

	b.idx.x = (unsigned int)(id % l->grid.x);
	b.idx.y = (unsigned int)(id / l->grid.x);
	b.nthreads = l->block.x * l->block.y;
	b.nwarps = (b.nthreads + NG_WARP - 1) / NG_WARP;
	l->fn(&b, l->args);
	/* native runs are the comparison, not part of the statistics */
	if (!l->native) {
		sm->ctr.v[NG_CTR_BLOCKS]++;
		sm->ctr.v[NG_CTR_STOLEN] += stolen;
	}
}

static void run_sm(struct ng_system *sys, struct ng_sm *sm)
{
	const struct ng_launch *l = sys->cur;
	double t0 = now_s();
	bool stolen;
	int64_t b;

	while ((b = ng_sched_next(&sys->sched, sm->gpu, &stolen)) >= 0)
		run_block(sys, sm, l, (uint64_t)b, stolen);
	sm->busy_s += now_s() - t0;
}

static void *worker(void *p)
{
	struct worker_arg *a = p;
	struct ng_system *sys = a->sys;
	struct ng_sm *sm = a->sm;

	free(a);
	if (numa_available() >= 0)
		numa_run_on_node(sys->node[sm->gpu]);
	for (;;) {
		pthread_barrier_wait(&sys->start);
		if (sys->quit)
			break;
		run_sm(sys, sm);
		pthread_barrier_wait(&sys->done);
	}
	return NULL;
}

/* Nodes with memory, in order: the GPUs' homes. */
static unsigned int probe_nodes(int *nodes)
{
	unsigned int n = 0;

	if (numa_available() >= 0) {
		int max = numa_max_node();

		for (int i = 0; i <= max && n < NG_MAX_GPUS; i++) {
			long long freeb;

			if (numa_node_size64(i, &freeb) > 0)
				nodes[n++] = i;
		}
	}
	if (!n)
		nodes[n++] = 0;
	return n;
}

static void stop_workers(struct ng_system *sys, unsigned int started)
{
	if (!sys->threads)
		return;
	if (started == sys->nthreads) {
		sys->quit = true;
		pthread_barrier_wait(&sys->start);
		for (unsigned int i = 0; i < started; i++)
			pthread_join(sys->threads[i], NULL);
	}
	pthread_barrier_destroy(&sys->start);
	pthread_barrier_destroy(&sys->done);
	free(sys->threads);
	sys->threads = NULL;
}

void ng_system_destroy(struct ng_system *sys)
{
	if (!sys)
		return;
	stop_workers(sys, sys->nthreads);
	for (unsigned int i = 0; i < sys->nsm; i++)
		if (sys->sms && sys->sms[i]) {
			ng_sm_fini(sys->sms[i]);
			free(sys->sms[i]);
		}
	free(sys->sms);
	ng_sched_fini(&sys->sched);
	if (sys->model.res)
		ng_model_fini(&sys->model);
	ng_space_fini(&sys->space);
	free(sys);
}

int ng_system_create(struct ng_system **out, const struct ng_config *cfg,
		     char *err, size_t errlen)
{
	struct ng_system *sys = calloc(1, sizeof(*sys));
	int nodes[NG_MAX_GPUS];
	unsigned int nnodes;
	int ret;

	*out = NULL;
	if (!sys) {
		ng_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sys->cfg = *cfg;
	ret = ng_config_validate(&sys->cfg, err, errlen);
	if (ret)
		goto fail;
	nnodes = probe_nodes(nodes);
	sys->nnodes = nnodes < cfg->gpus ? nnodes : cfg->gpus;
	for (unsigned int g = 0; g < cfg->gpus; g++)
		sys->node[g] = nodes[g % nnodes];
	ret = ng_space_init(&sys->space, &sys->cfg, sys->node, sys->nnodes,
			    err, errlen);
	if (ret)
		goto fail;
	ret = ng_model_init(&sys->model, &sys->cfg, &sys->space, err, errlen);
	if (ret)
		goto fail;
	sys->nsm = cfg->gpus * cfg->sms;
	sys->sms = calloc(sys->nsm, sizeof(*sys->sms));
	if (!sys->sms)
		goto nomem;
	for (unsigned int i = 0; i < sys->nsm; i++) {
		sys->sms[i] = aligned_alloc(64, (sizeof(struct ng_sm) + 63) & ~(size_t)63);
		if (!sys->sms[i] ||
		    ng_sm_init(sys->sms[i], &sys->model, i / cfg->sms,
			       i % cfg->sms, i))
			goto nomem;
	}
	if (!cfg->deterministic) {
		unsigned int started = 0;

		/*
		 * libnuma caches each node's CPU mask on first use, without a
		 * lock: fill the cache here so that workers pinning themselves
		 * concurrently only read it.
		 */
		if (numa_available() >= 0) {
			struct bitmask *bm = numa_allocate_cpumask();

			for (unsigned int g = 0; bm && g < cfg->gpus; g++)
				numa_node_to_cpus(sys->node[g], bm);
			if (bm)
				numa_free_cpumask(bm);
		}

		sys->nthreads = sys->nsm;
		sys->threads = calloc(sys->nthreads, sizeof(*sys->threads));
		if (!sys->threads)
			goto nomem;
		pthread_barrier_init(&sys->start, NULL, sys->nthreads + 1);
		pthread_barrier_init(&sys->done, NULL, sys->nthreads + 1);
		for (; started < sys->nthreads; started++) {
			struct worker_arg *a = malloc(sizeof(*a));

			if (!a)
				break;
			a->sys = sys;
			a->sm = sys->sms[started];
			if (pthread_create(&sys->threads[started], NULL, worker, a)) {
				free(a);
				break;
			}
		}
		if (started < sys->nthreads) {
			/* the started ones wait at a barrier that cannot fill */
			ng_seterr(err, errlen, "cannot start %u worker threads",
				  sys->nthreads);
			for (unsigned int i = 0; i < started; i++)
				pthread_cancel(sys->threads[i]);
			for (unsigned int i = 0; i < started; i++)
				pthread_join(sys->threads[i], NULL);
			stop_workers(sys, 0);
			ret = -EAGAIN;
			goto fail;
		}
	}
	*out = sys;
	return 0;
nomem:
	ng_seterr(err, errlen, "out of memory");
	ret = -ENOMEM;
fail:
	ng_system_destroy(sys);
	return ret;
}

const struct ng_config *ng_system_config(const struct ng_system *sys)
{
	return &sys->cfg;
}

struct ng_space *ng_system_space(struct ng_system *sys)
{
	return &sys->space;
}

int ng_system_node(const struct ng_system *sys, unsigned int gpu)
{
	return gpu < sys->cfg.gpus ? sys->node[gpu] : -1;
}

unsigned int ng_system_nnodes(const struct ng_system *sys)
{
	return sys->nnodes;
}

unsigned int ng_system_threads(const struct ng_system *sys)
{
	return sys->nthreads;
}

void ng_system_counters(const struct ng_system *sys, int gpu,
			struct ng_counters *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < sys->nsm; i++)
		if (gpu < 0 || sys->sms[i]->gpu == (unsigned int)gpu)
			ng_counters_add(out, &sys->sms[i]->ctr);
	ng_counters_derive(out, sys->cfg.line);
}

void ng_system_reset_counters(struct ng_system *sys)
{
	for (unsigned int i = 0; i < sys->nsm; i++) {
		memset(&sys->sms[i]->ctr, 0, sizeof(sys->sms[i]->ctr));
		sys->sms[i]->busy_s = 0;
	}
}

int ng_launch(struct ng_system *sys, const struct ng_launch *l,
	      struct ng_launch_result *res)
{
	struct ng_launch lc = *l;
	uint64_t nblocks, req0 = 0, req1 = 0;
	double t0;
	int ret;

	if (!lc.grid.y)
		lc.grid.y = 1;
	if (!lc.block.y)
		lc.block.y = 1;
	if (!lc.grid.x || !lc.block.x || !lc.fn)
		return -EINVAL;
	if (lc.only_gpu >= (int)sys->cfg.gpus)
		return -EINVAL;
	nblocks = (uint64_t)lc.grid.x * lc.grid.y;
	if (nblocks > UINT32_MAX)
		return -E2BIG;
	ret = ng_sched_prepare(&sys->sched, sys->cfg.sched, sys->cfg.steal,
			       nblocks, sys->cfg.gpus,
			       (uint64_t)sys->cfg.sms * sys->cfg.blocks_per_sm,
			       lc.only_gpu);
	if (ret)
		return ret;
	for (unsigned int i = 0; i < sys->nsm; i++)
		req0 += sys->sms[i]->ctr.v[NG_CTR_LOCAL] +
			sys->sms[i]->ctr.v[NG_CTR_REMOTE] +
			sys->sms[i]->ctr.v[NG_CTR_HOST];
	if (!lc.native) {
		/* kmod --prefetch: pages to their homes before the kernel */
		ng_space_prefetch(&sys->space);
		ng_model_kernel_begin(&sys->model, sys->sms, sys->nsm);
	}
	sys->cur = &lc;
	t0 = now_s();
	if (sys->nthreads) {
		pthread_barrier_wait(&sys->start);
		pthread_barrier_wait(&sys->done);
	} else {
		/* deterministic: SMs take turns, one block each, in id order */
		bool any = true;

		while (any) {
			any = false;
			for (unsigned int i = 0; i < sys->nsm; i++) {
				struct ng_sm *sm = sys->sms[i];
				bool stolen;
				int64_t b = ng_sched_next(&sys->sched, sm->gpu,
							  &stolen);

				if (b < 0)
					continue;
				any = true;
				run_block(sys, sm, &lc, (uint64_t)b, stolen);
			}
		}
	}
	if (res) {
		res->wall_s = now_s() - t0;
		res->modeled = 0;
	}
	if (!lc.native) {
		ng_ticks t = ng_model_kernel_end(&sys->model, sys->sms, sys->nsm);

		if (res)
			res->modeled = t;
	}
	for (unsigned int i = 0; i < sys->nsm; i++)
		req1 += sys->sms[i]->ctr.v[NG_CTR_LOCAL] +
			sys->sms[i]->ctr.v[NG_CTR_REMOTE] +
			sys->sms[i]->ctr.v[NG_CTR_HOST];
	if (res)
		res->requests = req1 - req0;
	sys->cur = NULL;
	return 0;
}
