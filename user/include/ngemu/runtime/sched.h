/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CTA schedulers: which GPU runs each thread block. The map is decided
 * before a launch (a pure function, so tests can check it); at run time
 * each GPU's SMs pull their GPU's blocks in order from its queue, and with
 * stealing an SM whose queue is empty takes the next block of the GPU with
 * the most left.
 *
 *   rr     block b -> GPU b mod n (the single-GPU default, bad for NUMA)
 *   batch  block b -> GPU b / ceil(nblocks / n)  (NUMA-GPU, the default)
 *   coda   block b -> GPU (b / blocks_per_gpu) mod n, blocks_per_gpu =
 *          SMs x resident blocks per SM (CODA affinity)
 *   mgpusim  block b -> GPU b / (cus x ceil(nblocks / (n x cus))), cus =
 *          real SMs (CUs) per GPU: MGPUSim's unified multi-GPU driver,
 *          which fills the GPUs in order, so a grid smaller than the
 *          system's CUs lands on the first GPU(s) only
 */
#ifndef NGEMU_SCHED_H
#define NGEMU_SCHED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ngemu/config.h"

/* What the schedulers need of the system. */
struct ng_sched_shape {
	unsigned int ngpus;
	uint64_t blocks_per_gpu;	/* coda: resident blocks a GPU holds */
	uint64_t cus_per_gpu;		/* mgpusim: real SMs (CUs) a GPU has */
};

/* The shape of @cfg's system. */
struct ng_sched_shape ng_sched_shape_of(const struct ng_config *cfg);

/* GPU of block @b of @nblocks. */
unsigned int ng_sched_gpu(enum ng_sched_kind k, uint64_t b, uint64_t nblocks,
			  const struct ng_sched_shape *sh);

/* One host cache line each: GPUs on different threads take blocks apart. */
struct ng_sched_queue {
	_Alignas(64) _Atomic uint64_t head;	/* next index into the GPU's slice */
	uint64_t begin, end;		/* its slice of order[] */
};

struct ng_sched {
	unsigned int ngpus;
	bool steal;
	uint32_t *order;		/* block ids grouped by GPU */
	uint64_t nblocks, cap;
	struct ng_sched_queue q[NG_MAX_GPUS];
};

/*
 * Prepare the queues of one launch. @only_gpu >= 0 puts every block on
 * that GPU (calibration runs). Returns 0 or -ENOMEM.
 */
int ng_sched_prepare(struct ng_sched *s, enum ng_sched_kind k, bool steal,
		     uint64_t nblocks, const struct ng_sched_shape *sh,
		     int only_gpu);
void ng_sched_fini(struct ng_sched *s);

/* Next block for an SM of @gpu, or -1 when none is left; *stolen says so. */
int64_t ng_sched_next(struct ng_sched *s, unsigned int gpu, bool *stolen);

#endif /* NGEMU_SCHED_H */
