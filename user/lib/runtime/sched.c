// SPDX-License-Identifier: GPL-2.0
/* CTA schedulers (see ngemu/sched.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ngemu/runtime/sched.h"

struct ng_sched_shape ng_sched_shape_of(const struct ng_config *cfg)
{
	return (struct ng_sched_shape){
		.ngpus = cfg->gpus,
		.blocks_per_gpu = (uint64_t)cfg->sms * cfg->blocks_per_sm,
		/* MGPUSim counts real CUs: an emulated SM stands for sm_scale */
		.cus_per_gpu = (uint64_t)cfg->sms * cfg->sm_scale,
	};
}

/*
 * MGPUSim's unified multi-GPU launch (driver.go distributeWGToGPUs, v3.0.0
 * to v4.2.0): every CU of the system is owed ceil(nblocks / CUs) work-
 * groups, and GPU g, in the order of the unified device's GPUs, takes its
 * CUs' worth of flattened work-group ids after GPU g-1's. The ranges sum
 * to at least nblocks, so the last GPUs' may start past the grid's end and
 * a small grid runs on the first GPU(s) only (16 blocks on 4 x 64 CUs: all
 * on GPU 0). ngemu's GPUs have equal CU counts, so the ranges are equal.
 */
static unsigned int mgpusim_gpu(uint64_t b, uint64_t nblocks,
				const struct ng_sched_shape *sh)
{
	uint64_t cus = sh->cus_per_gpu ? sh->cus_per_gpu : 1;
	uint64_t total = cus * sh->ngpus;
	uint64_t per_cu = (nblocks + total - 1) / total;

	return (unsigned int)(b / (cus * (per_cu ? per_cu : 1)));
}

unsigned int ng_sched_gpu(enum ng_sched_kind k, uint64_t b, uint64_t nblocks,
			  const struct ng_sched_shape *sh)
{
	unsigned int ngpus = sh->ngpus;
	uint64_t per;

	switch (k) {
	case NG_SCHED_RR:
		return (unsigned int)(b % ngpus);
	case NG_SCHED_CODA:
		return (unsigned int)((b / (sh->blocks_per_gpu ?
					    sh->blocks_per_gpu : 1)) % ngpus);
	case NG_SCHED_MGPUSIM:
		return mgpusim_gpu(b, nblocks, sh);
	case NG_SCHED_BATCH:
	default:
		per = (nblocks + ngpus - 1) / ngpus;
		return (unsigned int)(b / (per ? per : 1));
	}
}

int ng_sched_prepare(struct ng_sched *s, enum ng_sched_kind k, bool steal,
		     uint64_t nblocks, const struct ng_sched_shape *sh,
		     int only_gpu)
{
	unsigned int ngpus = sh->ngpus;
	uint64_t count[NG_MAX_GPUS] = { 0 }, pos[NG_MAX_GPUS], at = 0;

	if (nblocks > s->cap) {
		uint32_t *o = realloc(s->order, nblocks * sizeof(*o));

		if (!o)
			return -ENOMEM;
		s->order = o;
		s->cap = nblocks;
	}
	s->ngpus = ngpus;
	/* a launch pinned to one GPU stays there: nobody else may take it */
	s->steal = steal && only_gpu < 0;
	s->nblocks = nblocks;
	/* counting sort by GPU keeps each GPU's blocks in ascending order */
	for (uint64_t b = 0; b < nblocks; b++)
		count[only_gpu >= 0 ? (unsigned int)only_gpu
				    : ng_sched_gpu(k, b, nblocks, sh)]++;
	for (unsigned int g = 0; g < ngpus; g++) {
		s->q[g].begin = at;
		s->q[g].end = at + count[g];
		atomic_store(&s->q[g].head, at);
		pos[g] = at;
		at += count[g];
	}
	for (uint64_t b = 0; b < nblocks; b++) {
		unsigned int g = only_gpu >= 0 ? (unsigned int)only_gpu
					       : ng_sched_gpu(k, b, nblocks, sh);
		s->order[pos[g]++] = (uint32_t)b;
	}
	return 0;
}

void ng_sched_fini(struct ng_sched *s)
{
	free(s->order);
	memset(s, 0, sizeof(*s));
}

static int64_t take(struct ng_sched_queue *q, const uint32_t *order)
{
	uint64_t i;

	if (atomic_load_explicit(&q->head, memory_order_relaxed) >= q->end)
		return -1;
	i = atomic_fetch_add_explicit(&q->head, 1, memory_order_relaxed);
	return i < q->end ? (int64_t)order[i] : -1;
}

int64_t ng_sched_next(struct ng_sched *s, unsigned int gpu, bool *stolen)
{
	int64_t b = take(&s->q[gpu], s->order);

	*stolen = false;
	while (b < 0 && s->steal) {
		uint64_t best = 0;
		int victim = -1;

		for (unsigned int g = 0; g < s->ngpus; g++) {
			uint64_t h = atomic_load_explicit(&s->q[g].head,
							  memory_order_relaxed);
			uint64_t left = h < s->q[g].end ? s->q[g].end - h : 0;

			if (left > best) {
				best = left;
				victim = (int)g;
			}
		}
		if (victim < 0)
			return -1;
		b = take(&s->q[victim], s->order);
		*stolen = b >= 0;
	}
	return b;
}
