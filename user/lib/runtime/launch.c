// SPDX-License-Identifier: GPL-2.0
/* Kernel launches: a grid of blocks, scheduled to GPUs, run on their SMs. */
#include <errno.h>
#include <time.h>

#include "runtime/slot.h"
#include "runtime/wave.h"

double ng_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_block(struct ng_system *sys, struct ng_sm *sm,
		      const struct ng_launch *l, uint64_t id, bool stolen,
		      struct ng_wave *wave)
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
		.checked = sys->cfg.checked,
		.kernel = l->name,
	};

	b.idx.x = (unsigned int)(id % l->grid.x);
	b.idx.y = (unsigned int)(id / l->grid.x);
	b.nthreads = l->block.x * l->block.y;
	b.nwarps = (b.nthreads + NG_WARP - 1) / NG_WARP;
	if (wave)
		ng_wave_init(&b, wave);
	/* the real SM (of those the emulated one stands for) it runs on */
	sm->cu = (unsigned int)(id % sys->cfg.sm_scale);
	sm->block = id;
	l->fn(&b, l->args);
	/* native runs are the comparison, not part of the statistics */
	if (!l->native) {
		sm->ctr.v[NG_CTR_BLOCKS]++;
		sm->ctr.v[NG_CTR_STOLEN] += stolen;
	}
}

static void run_blocks(struct ng_system *sys, struct ng_sm *sm,
		       struct ng_wave *wave)
{
	const struct ng_launch *l = sys->cur;
	bool stolen;
	int64_t b;

	for (;;) {
		/* blocks go to the SM whose clock is earliest */
		if (!l->native && ng_sm_block_due(sm))
			ng_slot_wait_block(sm);
		b = ng_sched_next(&sys->sched, sm->gpu, &stolen);
		if (b < 0)
			break;
		run_block(sys, sm, l, (uint64_t)b, stolen, wave);
	}
}

void ng_run_sm(struct ng_system *sys, struct ng_sm *sm)
{
	/* on the slot's stack: a resident block's own, and only when used */
	if (sys->cfg.warp_width == 64 && !sys->cur->native) {
		struct ng_wave wave[NG_WAVE_PAIRS];

		run_blocks(sys, sm, wave);
	} else {
		run_blocks(sys, sm, NULL);
	}
}

int ng_launch(struct ng_system *sys, const struct ng_launch *l,
	      struct ng_launch_result *res)
{
	struct ng_launch lc = *l;
	struct ng_sched_shape shape = ng_sched_shape_of(&sys->cfg);
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
	if ((uint64_t)lc.block.x * lc.block.y > UINT32_MAX ||
	    lc.shared > sys->cfg.shared_bytes)
		return -EINVAL;
	ret = ng_sched_prepare(&sys->sched, sys->cfg.sched, sys->cfg.steal,
			       nblocks, &shape, lc.only_gpu);
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
	t0 = ng_now_s();
	ng_pool_run(sys, lc.native ? 1 :
		    ng_resident_blocks(&sys->cfg, lc.block.x * lc.block.y,
				       lc.shared));
	if (res) {
		res->wall_s = ng_now_s() - t0;
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
