// SPDX-License-Identifier: GPL-2.0
/*
 * The user backend (the embedded default, no module needed): buffers are
 * anonymous memory in the space's one region, and their pages go to the
 * home GPU's NUMA node with mbind() (a first-touch page when it is
 * touched, FGP buffers interleaved over the GPUs' nodes, host buffers on
 * a node of their own or over the GPUs' nodes). Placement is
 * best effort and only matters on a machine with several nodes: the
 * model's numbers do not depend on it.
 */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <string.h>
#include <sys/mman.h>

#include "backend/backend.h"
#include "ngemu/util/err.h"

/* Put the real pages of [addr, addr+len) on @gpu's node. */
static void user_place(struct ng_space *s, void *addr, uint64_t len,
		       unsigned int gpu)
{
	unsigned long mask;
	int node;

	if (s->nnodes < 2 || gpu >= NG_MAX_GPUS)
		return;
	node = s->node_of_gpu[gpu];
	if (node < 0 || node >= (int)(8 * sizeof(mask)))
		return;
	mask = 1UL << node;
	(void)mbind(addr, len, MPOL_BIND, &mask, 8 * sizeof(mask),
		    MPOL_MF_MOVE);
}

/* The GPUs' nodes, as a mask. */
static unsigned long gpu_nodes(const struct ng_space *s)
{
	unsigned long mask = 0;

	for (unsigned int g = 0; g < s->ngpus; g++)
		if (s->node_of_gpu[g] >= 0 &&
		    s->node_of_gpu[g] < (int)(8 * sizeof(mask)))
			mask |= 1UL << s->node_of_gpu[g];
	return mask;
}

/*
 * Host memory (placement host, ScaleGPU's backing store) gets a node of
 * its own when the machine has one more node with memory than the GPUs
 * use; else its pages interleave over the GPUs' nodes, their shared host
 * region.
 */
static void user_place_host(struct ng_space *s, void *addr, uint64_t len)
{
	unsigned long mask = gpu_nodes(s);

	if (s->nnodes < 2 || !mask)
		return;
	if (s->host_node >= 0) {
		mask = 1UL << s->host_node;
		(void)mbind(addr, len, MPOL_BIND, &mask, 8 * sizeof(mask),
			    MPOL_MF_MOVE);
		return;
	}
	(void)mbind(addr, len, MPOL_INTERLEAVE, &mask, 8 * sizeof(mask),
		    MPOL_MF_MOVE);
}

static int user_init(struct ng_space *s, const struct ng_config *cfg,
		     char *err, size_t errlen)
{
	unsigned long used = gpu_nodes(s);

	s->host_node = -1;
	if (s->nnodes > s->ngpus && numa_available() >= 0)
		for (int n = 0; n <= numa_max_node() &&
				n < (int)(8 * sizeof(used)); n++)
			if (!(used >> n & 1) && numa_node_size64(n, NULL) > 0) {
				s->host_node = n;
				break;
			}
	(void)cfg;
	(void)err;
	(void)errlen;
	return 0;
}

static int user_map(struct ng_space *s, struct ng_buf *b, void *at, char *err,
		    size_t errlen)
{
	uint64_t page = 1ULL << s->page_shift;
	uint64_t pg0 = (uint64_t)((uint8_t *)at - s->base) >> s->page_shift;
	void *p;

	p = mmap(at, b->span, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		ng_seterr(err, errlen, "cannot map %llu bytes: %s",
			  (unsigned long long)b->span, strerror(errno));
		return -ENOMEM;
	}
	/* ask for huge pages; not fatal where THP is off */
	(void)madvise(p, b->span, MADV_HUGEPAGE);
	if (s->nnodes < 2)
		return 0;
	for (uint64_t i = 0; i < b->span / page; i++) {
		unsigned int e = atomic_load_explicit(&s->loc[pg0 + i],
						      memory_order_relaxed);

		if (e < NG_MAX_GPUS)
			user_place(s, (uint8_t *)p + i * page, page, e);
	}
	if (b->place == NG_PLACE_HOST)
		user_place_host(s, p, b->span);
	if (b->place == NG_PLACE_FGP && numa_available() >= 0) {
		struct bitmask *bm = numa_allocate_nodemask();

		for (unsigned int g = 0; g < s->ngpus; g++)
			numa_bitmask_setbit(bm, (unsigned int)s->node_of_gpu[g]);
		numa_interleave_memory(p, b->span, bm);
		numa_free_nodemask(bm);
	}
	return 0;
}

static void user_touch(struct ng_space *s, uint64_t off, uint64_t len,
		       unsigned int gpu)
{
	user_place(s, s->base + off, len, gpu);
}

const struct ng_backend_ops ng_backend_user = {
	.name = "user",
	.kind = NG_MEM_USER,
	.init = user_init,
	.map = user_map,
	.touch = user_touch,
	.place = user_place,
};
