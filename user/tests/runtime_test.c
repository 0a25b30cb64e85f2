// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's parts one by one: coalescer, CTA schedulers, placement
 * home functions, L2 software coherence at kernel boundaries, atomics and
 * shared memory, 2-D grids.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/runtime/coalesce.h"
#include "ngemu/config.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/sched.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"

/* ---- coalescer ---------------------------------------------------- */

static unsigned int co(const uintptr_t *a, uint32_t active, unsigned int size,
		       struct ng_line_req *out)
{
	return ng_coalesce(a, active, size, 128, out);
}

TEST(coalesce_contiguous)
{
	struct ng_line_req r[NG_MAX_LINE_REQS];
	uintptr_t a[NG_WARP];

	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x10000 + 4 * l;
	ASSERT_EQ(1, co(a, ~0u, 4, r));
	EXPECT_EQ(0x10000, r[0].line);
	EXPECT_EQ(0xffffffffULL, r[0].mask);
	EXPECT_EQ(~0u, r[0].lanes);
	/* 8-byte lanes: two full lines */
	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x10000 + 8 * l;
	ASSERT_EQ(2, co(a, ~0u, 8, r));
	EXPECT_EQ(0xffffffffULL, r[0].mask);
	EXPECT_EQ(0xffffffffULL, r[1].mask);
	EXPECT_EQ(0x0000ffffu, r[0].lanes);
	EXPECT_EQ(0xffff0000u, r[1].lanes);
	/* half a warp active: half a line */
	ASSERT_EQ(1, co(a, 0x0000ffff, 4, r));
}

TEST(coalesce_strided)
{
	struct ng_line_req r[NG_MAX_LINE_REQS];
	uintptr_t a[NG_WARP];

	/* stride of a line: one request per lane, one word each */
	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x20000 + 128 * l + 12;
	ASSERT_EQ(32, co(a, ~0u, 4, r));
	for (int i = 0; i < 32; i++) {
		EXPECT_EQ(0x20000 + 128 * (uintptr_t)i, r[i].line);
		EXPECT_EQ(1ULL << 3, r[i].mask);
		EXPECT_EQ(1u << i, r[i].lanes);
	}
	/* stride 8 B: every other word of two lines */
	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x20000 + 8 * l;
	ASSERT_EQ(2, co(a, ~0u, 4, r));
	EXPECT_EQ(0x55555555ULL, r[0].mask);
	EXPECT_EQ(0x55555555ULL, r[1].mask);
}

TEST(coalesce_scattered)
{
	struct ng_line_req r[NG_MAX_LINE_REQS];
	uintptr_t a[NG_WARP];
	unsigned int n, words = 0;

	/* lanes spread over 4 lines in a scrambled order, some repeated */
	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x30000 + (uintptr_t)((l * 7) % 4) * 128 +
		       (uintptr_t)((l * 5) % 32) * 4;
	n = co(a, ~0u, 4, r);
	ASSERT_EQ(4, n);
	/* first appearance order: lane 0 -> line 0, lane 1 -> line 3, ... */
	EXPECT_EQ(0x30000, r[0].line);
	EXPECT_EQ(0x30000 + 3 * 128, r[1].line);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t lanes = 0;

		for (int l = 0; l < NG_WARP; l++)
			if ((a[l] & ~127UL) == r[i].line) {
				lanes |= 1u << l;
				EXPECT_TRUE(r[i].mask & (1ULL << ((a[l] & 127) / 4)));
			}
		EXPECT_EQ(lanes, r[i].lanes);
		words += (unsigned int)__builtin_popcountll(r[i].mask);
	}
	EXPECT_EQ(32, words);	/* (l*5)%32 hits every word offset once */
	/* duplicates: all lanes on one word */
	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x30044;
	ASSERT_EQ(1, co(a, ~0u, 4, r));
	EXPECT_EQ(1ULL << 17, r[0].mask);
}

TEST(coalesce_misaligned)
{
	struct ng_line_req r[NG_MAX_LINE_REQS], c[NG_MAX_LINE_REQS];
	uintptr_t a[NG_WARP];

	/* a 4-byte access 2 bytes before a line boundary: two lines */
	a[0] = 0x40000 + 126;
	ASSERT_EQ(2, co(a, 1, 4, r));
	EXPECT_EQ(0x40000, r[0].line);
	EXPECT_EQ(1ULL << 31, r[0].mask);
	EXPECT_EQ(0x40080, r[1].line);
	EXPECT_EQ(1ULL, r[1].mask);
	/* a contiguous warp shifted by 4 B: two lines, 31 + 1 words */
	for (int l = 0; l < NG_WARP; l++)
		a[l] = 0x40004 + 4 * l;
	ASSERT_EQ(2, co(a, ~0u, 4, r));
	EXPECT_EQ(0xfffffffeULL, r[0].mask);
	EXPECT_EQ(1ULL, r[1].mask);
	EXPECT_EQ(1u << 31, r[1].lanes);
	/* the contiguous fast path agrees, for many bases and sizes */
	for (unsigned int size = 1; size <= 8; size *= 2)
		for (uintptr_t base = 0x50000; base < 0x50000 + 260; base += 3) {
			unsigned int n, m;

			for (int l = 0; l < NG_WARP; l++)
				a[l] = base + (uintptr_t)l * size;
			n = co(a, ~0u, size, r);
			m = ng_coalesce_contig(base, NG_WARP, size, 128, c);
			ASSERT_EQ(n, m);
			for (unsigned int i = 0; i < n; i++) {
				EXPECT_EQ(r[i].line, c[i].line);
				EXPECT_EQ(r[i].mask, c[i].mask);
				EXPECT_EQ(r[i].lanes, c[i].lanes);
			}
		}
}

/* ---- schedulers --------------------------------------------------- */

TEST(sched_maps)
{
	static const unsigned int rr[10] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1 };
	static const unsigned int batch[10] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3 };
	static const unsigned int coda[10] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 0 };

	const struct ng_sched_shape sh = { .ngpus = 4, .blocks_per_gpu = 2 };
	const struct ng_sched_shape sh1 = { .ngpus = 4, .blocks_per_gpu = 1 };

	for (unsigned int b = 0; b < 10; b++) {
		EXPECT_EQ(rr[b], ng_sched_gpu(NG_SCHED_RR, b, 10, &sh));
		EXPECT_EQ(batch[b], ng_sched_gpu(NG_SCHED_BATCH, b, 10, &sh));
		EXPECT_EQ(coda[b], ng_sched_gpu(NG_SCHED_CODA, b, 10, &sh));
	}
	/* CARVE sec. II, batched CTA scheduling: b / ceil(nblocks / ngpus) */
	for (unsigned int b = 0; b < 1000; b++)
		EXPECT_EQ(b / 250, ng_sched_gpu(NG_SCHED_BATCH, b, 1000, &sh1));
}

TEST(sched_queues_and_stealing)
{
	const struct ng_sched_shape sh = { .ngpus = 4, .blocks_per_gpu = 8 };
	struct ng_sched s = { 0 };
	unsigned char seen[100] = { 0 };
	bool stolen;
	int64_t b;
	int n = 0, nstolen = 0;

	ASSERT_EQ(0, ng_sched_prepare(&s, NG_SCHED_BATCH, false, 100, &sh, -1));
	/* GPU 2 gets 50..74 in order, and nothing else without stealing */
	for (int i = 0; i < 25; i++) {
		b = ng_sched_next(&s, 2, &stolen);
		EXPECT_EQ(50 + i, b);
	}
	EXPECT_EQ(-1, ng_sched_next(&s, 2, &stolen));
	/* with stealing, GPU 3 drains everybody; every block exactly once */
	ASSERT_EQ(0, ng_sched_prepare(&s, NG_SCHED_RR, true, 100, &sh, -1));
	while ((b = ng_sched_next(&s, 3, &stolen)) >= 0) {
		ASSERT_LT(b, 100);
		EXPECT_EQ(0, seen[b]);
		seen[b] = 1;
		EXPECT_EQ(b % 4 != 3, stolen);
		nstolen += stolen;
		n++;
	}
	EXPECT_EQ(100, n);
	EXPECT_EQ(75, nstolen);
	/* only_gpu puts everything on one GPU */
	ASSERT_EQ(0, ng_sched_prepare(&s, NG_SCHED_RR, false, 10, &sh, 1));
	EXPECT_EQ(-1, ng_sched_next(&s, 0, &stolen));
	EXPECT_EQ(0, ng_sched_next(&s, 1, &stolen));
	/* and stealing does not take a pinned launch's blocks elsewhere */
	ASSERT_EQ(0, ng_sched_prepare(&s, NG_SCHED_RR, true, 10, &sh, 1));
	EXPECT_EQ(-1, ng_sched_next(&s, 0, &stolen));
	EXPECT_FALSE(stolen);
	EXPECT_EQ(0, ng_sched_next(&s, 1, &stolen));
	ng_sched_fini(&s);
}

/* ---- placement ---------------------------------------------------- */

static void small_config(struct ng_config *c)
{
	if (ng_config_preset(c, "carve", NULL, 0))
		abort();
	c->gpus = 4;
	c->sms = 1;
	c->page = 4096;
	c->fgp_granularity = 256;
	c->mem_per_gpu = 64 << 20;
	c->deterministic = true;
	/* the NUMA-GPU baseline: no remote data cache */
	c->rdc.size = 0;
	c->rdc.pct = 0;
	/* no L1 in front of the L2 and memory these tests watch */
	c->l1.size = 0;
}

TEST(placement_home)
{
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_buf b;
	struct ng_alloc_opts o = { 0 };
	char err[256];
	uintptr_t p;

	small_config(&cfg);
	cfg.coda_chunk = NG_CODA_CHUNK_UNCAPPED;
	ASSERT_EQ(0, ng_space_init(&sp, &cfg, NULL, 1, err, sizeof(err)));

	o.place = NG_PLACE_FGP;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 64 << 10, &o, err, sizeof(err)));
	p = (uintptr_t)b.ptr;
	for (unsigned int k = 0; k < 64; k++)
		EXPECT_EQ(k % 4, ng_home(&sp, p + k * 256 + 100, 0));
	ng_free(&sp, &b);

	o.place = NG_PLACE_CGP;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 64 << 10, &o, err, sizeof(err)));
	p = (uintptr_t)b.ptr;
	for (unsigned int k = 0; k < 16; k++)
		EXPECT_EQ((((p - (uintptr_t)sp.base) >> 12) + k) % 4,
			  ng_home(&sp, p + k * 4096 + 4000, 0));
	ng_free(&sp, &b);

	/* CODA uncapped: blocks of 1 KiB, 8 blocks per GPU -> 8 KiB chunks */
	o.place = NG_PLACE_CODA;
	o.block_bytes = 1024;
	o.blocks_per_gpu = 8;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 128 << 10, &o, err, sizeof(err)));
	EXPECT_EQ(8192, b.chunk);
	p = (uintptr_t)b.ptr;
	for (unsigned int blk = 0; blk < 128; blk++)
		/* block blk has affinity (blk / 8) % 4: its data is there */
		EXPECT_EQ((blk / 8) % 4, ng_home(&sp, p + blk * 1024, 3));
	ng_free(&sp, &b);

	o.place = NG_PLACE_NODE;
	o.node = 2;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 3 << 20, &o, err, sizeof(err)));
	EXPECT_EQ(2, ng_home(&sp, (uintptr_t)b.ptr + 12345, 0));
	ng_free(&sp, &b);

	o.place = NG_PLACE_HOST;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 8192, &o, err, sizeof(err)));
	EXPECT_EQ(NG_HOME_HOST, ng_home(&sp, (uintptr_t)b.ptr, 1));
	ng_free(&sp, &b);

	/* first touch: the first GPU to touch a page keeps it */
	o.place = NG_PLACE_FIRST_TOUCH;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 4 * 4096, &o, err, sizeof(err)));
	p = (uintptr_t)b.ptr;
	EXPECT_EQ(NG_LOC_NONE, ng_space_peek(&sp, p));
	EXPECT_EQ(3, ng_home(&sp, p + 10, 3));
	EXPECT_EQ(3, ng_home(&sp, p + 20, 1));
	EXPECT_EQ(1, ng_home(&sp, p + 4096, 1));
	EXPECT_EQ(3, ng_space_peek(&sp, p));
	ng_free(&sp, &b);

	ng_space_fini(&sp);

	/*
	 * host-share 12.5: an eighth of the pages in host memory, chosen by
	 * their number, as many from each GPU's CGP pages; the others where
	 * CGP puts them; first touch never claims a host page
	 */
	cfg.host_share = 12.5;
	ASSERT_EQ(0, ng_space_init(&sp, &cfg, NULL, 1, err, sizeof(err)));
	o.place = NG_PLACE_CGP;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 4096 * 4096, &o, err, sizeof(err)));
	p = (uintptr_t)b.ptr;
	{
		unsigned int host[4] = { 0 }, n = 0;

		for (unsigned int k = 0; k < 4096; k++) {
			unsigned int cgp = (((p - (uintptr_t)sp.base) >> 12) + k) % 4;
			unsigned int h = ng_home(&sp, p + k * 4096, 0);

			if (h == NG_HOME_HOST) {
				host[cgp]++;
				n++;
			} else {
				EXPECT_EQ(cgp, h) TH_LOG("page %u", k);
			}
		}
		/* 512 expected; a binomial's spread is 21 */
		EXPECT_GE(n, 448u);
		EXPECT_LE(n, 576u);
		for (unsigned int g = 0; g < 4; g++)
			EXPECT_GE(host[g], 96u);
	}
	ng_free(&sp, &b);
	o.place = NG_PLACE_FIRST_TOUCH;
	ASSERT_EQ(0, ng_malloc(&sp, &b, 256 * 4096, &o, err, sizeof(err)));
	p = (uintptr_t)b.ptr;
	{
		unsigned int n = 0;

		for (unsigned int k = 0; k < 256; k++) {
			bool was = ng_space_peek(&sp, p + k * 4096) == NG_HOME_HOST;
			unsigned int h = ng_home(&sp, p + k * 4096 + 8, k % 4);

			n += was;
			EXPECT_EQ(was ? NG_HOME_HOST : k % 4, h)
				TH_LOG("page %u", k);
		}
		EXPECT_GT(n, 0u);
	}
	ng_free(&sp, &b);

	/* too big for the emulated memory: a clear error */
	EXPECT_EQ(-ENOMEM, ng_malloc(&sp, &b, 1ULL << 30, &o, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "do not fit"));
	ng_space_fini(&sp);
}

/* ---- L2 coherence at kernel boundaries ---------------------------- */

struct coh_args {
	uint32_t *x;
	uint32_t *d[2];		/* per GPU, local: to wait on */
	uint32_t seen[4];	/* what GPU 1 read, per block */
	int phase;
};

/* Let @n dependent local loads pass: the SM's clock moves on. */
static void coh_delay(struct ng_warp *w, uint32_t *d, unsigned int n)
{
	uintptr_t a[NG_WARP] = { (uintptr_t)d };
	uint32_t v[NG_WARP];

	for (unsigned int i = 0; i < n; i++) {
		ng_ld(w, a, 4, v);
		ng_warp_wait(w);
	}
}

static void coh_kernel(struct ng_block *b, void *p)
{
	struct coh_args *c = p;
	struct ng_warp w;
	uintptr_t a[NG_WARP] = { (uintptr_t)c->x };
	uint32_t v[NG_WARP] = { 0 };

	ng_warp_get(b, 0, &w);
	w.nlanes = 1;
	w.active = 1;
	if (b->sm->gpu == 1) {
		/* block 3 reads well after GPU 0's write */
		if (b->id == 3)
			coh_delay(&w, c->d[1], 32);
		ng_ld(&w, a, 4, v);
		c->seen[b->id] = v[0];
	} else if (c->phase == 0 && b->id == 2) {
		/* the write comes after GPU 1's first read */
		coh_delay(&w, c->d[0], 16);
		v[0] = 7;
		ng_st(&w, a, 4, v);
	}
}

TEST(l2_coherence_at_kernel_boundaries)
{
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_buf buf, d0, d1;
	struct ng_alloc_opts o = { .place = NG_PLACE_NODE, .node = 0 };
	struct ng_alloc_opts o1 = { .place = NG_PLACE_NODE, .node = 1 };
	struct coh_args c = { 0 };
	struct ng_launch l = { .fn = coh_kernel, .grid = { 4, 1 },
			       .block = { 32, 1 }, .only_gpu = -1, .args = &c };
	struct ng_counters ctr;
	char err[256];

	small_config(&cfg);
	cfg.gpus = 2;
	cfg.sched = NG_SCHED_RR;	/* blocks 0, 2 on GPU 0; 1, 3 on GPU 1 */
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &buf, 4096, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &d0, 4096, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &d1, 4096, &o1, err, sizeof(err)));
	c.x = buf.ptr;
	c.d[0] = d0.ptr;
	c.d[1] = d1.ptr;
	/*
	 * Kernel k, in modeled time: GPU 1 reads x (0, cached in its L2),
	 * GPU 0 writes 7 at the home, GPU 1 reads again: a hit on its stale
	 * copy, as software coherence allows inside a kernel.
	 */
	ASSERT_EQ(0, ng_launch(sys, &l, NULL));
	EXPECT_EQ(7, *c.x);
	EXPECT_EQ(0, c.seen[1]);
	EXPECT_EQ(0, c.seen[3]);
	ng_system_counters(sys, 1, &ctr);
	EXPECT_EQ(1, ctr.v[NG_CTR_L2_HIT]);
	EXPECT_EQ(1, ctr.v[NG_CTR_L2_MISS]);
	/* kernel k + 1: the boundary invalidated the copy; GPU 1 sees 7 */
	c.phase = 1;
	ASSERT_EQ(0, ng_launch(sys, &l, NULL));
	EXPECT_EQ(7, c.seen[1]);
	EXPECT_EQ(7, c.seen[3]);
	ng_system_counters(sys, 1, &ctr);
	EXPECT_EQ(2, ctr.v[NG_CTR_L2_HIT]);
	EXPECT_EQ(2, ctr.v[NG_CTR_L2_MISS]);
	EXPECT_EQ(2, ctr.v[NG_CTR_L2_INVAL]);
	ng_free(ng_system_space(sys), &d1);
	ng_free(ng_system_space(sys), &d0);
	ng_free(ng_system_space(sys), &buf);
	ng_system_destroy(sys);
}

/* ---- atomics, barrier, shared memory ------------------------------ */

struct hist_args {
	const uint32_t *in;
	uint32_t *hist;		/* 8 bins, atomics */
	uint32_t *sums;		/* per block, through shared memory */
};

static void hist_kernel(struct ng_block *b, void *p)
{
	struct hist_args *h = p;
	uint32_t *sh = b->shared;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint32_t v[NG_WARP], one[NG_WARP];
		uintptr_t a[NG_WARP];

		ng_warp_get(b, wi, &w);
		ng_ld_contig(&w, h->in + b->id * b->nthreads + w.tid0, 4, v);
		for (unsigned int l = 0; l < w.nlanes; l++) {
			a[l] = (uintptr_t)&h->hist[v[l] % 8];
			one[l] = 1;
			sh[w.tid0 + l] = v[l];
		}
		ng_atomic_add_u32(&w, a, one, NULL);
	}
	ng_block_sync(b);
	/* after the barrier, warp 0 sums what every warp left in shared */
	{
		struct ng_warp w;
		uint32_t s = 0, v[NG_WARP];
		uintptr_t a[NG_WARP] = { (uintptr_t)&h->sums[b->id] };

		for (unsigned int t = 0; t < b->nthreads; t++)
			s += sh[t];
		ng_warp_get(b, 0, &w);
		w.nlanes = 1;
		w.active = 1;
		v[0] = s;
		ng_st(&w, a, 4, v);
	}
}

TEST(atomics_and_shared_memory)
{
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_buf bi, bh, bs;
	struct ng_alloc_opts o = { .place = NG_PLACE_FGP };
	struct hist_args h;
	struct ng_launch l = { .fn = hist_kernel, .grid = { 16, 1 },
			       .block = { 16, 8 }, .only_gpu = -1, .args = &h };
	uint32_t want[8] = { 0 };
	struct ng_counters ctr;
	char err[256];

	small_config(&cfg);
	cfg.deterministic = false;	/* real threads race on the atomics */
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &bi, 16 * 128 * 4, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &bh, 64, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &bs, 64, &o, err, sizeof(err)));
	h.in = bi.ptr;
	h.hist = bh.ptr;
	h.sums = bs.ptr;
	for (uint32_t i = 0; i < 16 * 128; i++) {
		((uint32_t *)bi.ptr)[i] = i * 13 + 5;
		want[(i * 13 + 5) % 8]++;
	}
	ASSERT_EQ(0, ng_launch(sys, &l, NULL));
	for (int k = 0; k < 8; k++)
		EXPECT_EQ(want[k], h.hist[k]);
	for (uint32_t blk = 0; blk < 16; blk++) {
		uint32_t s = 0;

		for (uint32_t t = 0; t < 128; t++)
			s += (blk * 128 + t) * 13 + 5;
		EXPECT_EQ(s, h.sums[blk]);
	}
	ng_system_counters(sys, -1, &ctr);
	EXPECT_EQ(16 * 4, ctr.v[NG_CTR_REQ_ATOMIC]);	/* one line per warp */
	EXPECT_EQ(16, ctr.v[NG_CTR_BLOCKS]);
	ng_system_destroy(sys);
}

/* ---- 2-D grids: a transpose ---------------------------------------- */

struct transpose_args {
	const uint32_t *in;	/* h x w */
	uint32_t *out;		/* w x h */
	unsigned int w, h;
};

static void transpose_kernel(struct ng_block *b, void *p)
{
	struct transpose_args *t = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uintptr_t src[NG_WARP], dst[NG_WARP];
		uint32_t v[NG_WARP];

		ng_warp_get(b, wi, &w);
		w.active = 0;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			unsigned int x = ng_lane_x(&w, l), y = ng_lane_y(&w, l);

			if (x >= t->w || y >= t->h)
				continue;
			w.active |= 1u << l;
			src[l] = (uintptr_t)&t->in[y * t->w + x];
			dst[l] = (uintptr_t)&t->out[x * t->h + y];
		}
		if (!w.active)
			continue;
		ng_ld(&w, src, 4, v);
		ng_st(&w, dst, 4, v);
	}
}

TEST(grid_2d_transpose)
{
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_buf bi, bo;
	struct ng_alloc_opts o = { .place = NG_PLACE_FGP };
	struct transpose_args t = { .w = 100, .h = 37 };
	/* 16 x 8 blocks over 100 x 37: partial blocks on both edges */
	struct ng_launch l = { .fn = transpose_kernel, .grid = { 7, 5 },
			       .block = { 16, 8 }, .only_gpu = -1, .args = &t };
	struct ng_counters ctr;
	char err[256];

	small_config(&cfg);
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &bi, 100 * 37 * 4, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &bo, 100 * 37 * 4, &o, err, sizeof(err)));
	t.in = bi.ptr;
	t.out = bo.ptr;
	for (unsigned int i = 0; i < 100 * 37; i++)
		((uint32_t *)bi.ptr)[i] = i;
	ASSERT_EQ(0, ng_launch(sys, &l, NULL));
	for (unsigned int y = 0; y < 37; y++)
		for (unsigned int x = 0; x < 100; x++)
			ASSERT_EQ(y * 100 + x, t.out[x * 37 + y]);
	ng_system_counters(sys, -1, &ctr);
	EXPECT_EQ(100 * 37, ctr.v[NG_CTR_LANES] / 2);
	/* a warp is 2 rows of 16: reads touch 2 lines, writes 16 x 2 */
	EXPECT_GT(ctr.v[NG_CTR_REQ_STORE], 4 * ctr.v[NG_CTR_REQ_LOAD]);
	EXPECT_EQ(35, ctr.v[NG_CTR_BLOCKS]);
	ng_system_destroy(sys);
}

TEST_HARNESS_MAIN
