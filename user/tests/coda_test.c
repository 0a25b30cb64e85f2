// SPDX-License-Identifier: GPL-2.0
/*
 * CODA's measurements request by request: the bytes per block (B) the
 * page-access profile derives from row-wise, column-wise and irregular
 * access, the categories of CODA Table 2 on synthetic access maps and
 * the pages by how many blocks touched them (CODA Fig. 5);
 * its placement: the chunk rule with and without the cap, a profile's
 * plan, page groups that switch mode only when free, and the dual-mode
 * address decode agreeing with the location table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/model/model.h"
#include "ngemu/model/page_access.h"
#include "ngemu/runtime/space.h"

#define LINE	64

FIXTURE(coda) {
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_model m;
	struct ng_sm sm[4];
	struct ng_sm *sms[4];
	struct ng_buf buf;
	bool up;
};

FIXTURE_SETUP(coda)
{
	struct ng_alloc_opts o = { .place = NG_PLACE_FGP };
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&self->cfg, "coda", NULL, 0));
	self->cfg.mem_per_gpu = 16 << 20;
	self->cfg.deterministic = true;
	self->cfg.backend = NG_MEM_USER;
	self->cfg.page_profile = true;
	self->cfg.l2.size = 0;
	ASSERT_EQ(0, ng_config_validate(&self->cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_space_init(&self->sp, &self->cfg, NULL, 1, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_model_init(&self->m, &self->cfg, &self->sp, err,
				   sizeof(err))) TH_LOG("%s", err);
	for (unsigned int g = 0; g < 4; g++) {
		ASSERT_EQ(0, ng_sm_init(&self->sm[g], &self->m, g, 0, g));
		self->sms[g] = &self->sm[g];
	}
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->buf, 256 << 10, &o, err,
			       sizeof(err)));
	self->up = true;
	ng_model_reset_counters(&self->m);
	ng_model_kernel_begin(&self->m, self->sms, 4);
}

FIXTURE_TEARDOWN(coda)
{
	if (!self->up)
		return;
	for (unsigned int g = 0; g < 4; g++)
		ng_sm_fini(&self->sm[g]);
	ng_free(&self->sp, &self->buf);
	ng_model_fini(&self->m);
	ng_space_fini(&self->sp);
}

/* Block @blk on GPU @gpu touches line @li of the buffer. */
static void touch(FIXTURE_DATA(coda) *self, unsigned int gpu, uint64_t blk,
		  uint64_t li)
{
	struct ng_sm *sm = &self->sm[gpu];
	struct ng_req r = { .line = (uintptr_t)self->buf.ptr + li * LINE,
			    .mask = 1, .op = NG_OP_LOAD, .gpu = gpu };

	sm->block = blk;
	r.home = ng_home(&self->sp, r.line, gpu);
	ng_model_access(sm, &r);
}

static uint64_t b_of(FIXTURE_DATA(coda) *self)
{
	uint64_t b = 1;

	if (ng_pageacc_block_bytes(&self->m, (uintptr_t)self->buf.ptr,
				   self->buf.size, &b))
		return (uint64_t)-1;
	return b;
}

TEST_F(coda, row_wise_access_gives_bytes_per_block)
{
	/* block b reads lines [16 b, 16 b + 16): 1 KiB each, in order */
	for (uint64_t b = 0; b < 64; b++)
		for (uint64_t l = 0; l < 16; l++)
			touch(self, (unsigned int)(b / 16), b, 16 * b + l);
	EXPECT_EQ(1024, b_of(self));
	/* a later kernel's other pattern does not change the first's */
	ng_model_kernel_end(&self->m, self->sms, 4);
	ng_model_kernel_begin(&self->m, self->sms, 4);
	for (uint64_t l = 0; l < 1024; l++)
		touch(self, 0, l % 7, l);
	EXPECT_EQ(1024, b_of(self));
}

TEST_F(coda, column_wise_access_stays_fgp)
{
	/* block b reads word b of each of 64 rows: every line is shared */
	for (uint64_t b = 0; b < 16; b++)
		for (uint64_t row = 0; row < 64; row++)
			touch(self, (unsigned int)(b % 4), b, row);
	EXPECT_EQ(0, b_of(self));
}

TEST_F(coda, irregular_access_stays_fgp)
{
	uint64_t x = 12345;

	/* each block's lines scattered over the structure */
	for (uint64_t b = 0; b < 64; b++)
		for (unsigned int k = 0; k < 16; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			touch(self, (unsigned int)(b % 4), b, (x >> 33) % 4096);
		}
	EXPECT_EQ(0, b_of(self));
}

TEST_F(coda, untouched_structure_has_no_b)
{
	EXPECT_EQ(0, b_of(self));
}

TEST(category_thresholds)
{
	EXPECT_EQ(NG_CODA_BLOCK_EXCLUSIVE, ng_coda_classify(100, 91, 91));
	EXPECT_EQ(NG_CODA_CORE_EXCLUSIVE, ng_coda_classify(100, 90, 91));
	EXPECT_EQ(NG_CODA_BLOCK_MAJORITY, ng_coda_classify(100, 61, 90));
	EXPECT_EQ(NG_CODA_CORE_MAJORITY, ng_coda_classify(100, 60, 61));
	EXPECT_EQ(NG_CODA_SHARING, ng_coda_classify(100, 60, 60));
	EXPECT_EQ(NG_CODA_SHARING, ng_coda_classify(0, 0, 0));
	EXPECT_STREQ("core-majority", ng_coda_category_name(NG_CODA_CORE_MAJORITY));
}

/*
 * Pages of 4 KiB = 64 lines: a page read by one block, by blocks of one
 * GPU, or by several GPUs, in the proportions of each category.
 */
static void pages(FIXTURE_DATA(coda) *self, unsigned int one_block,
		  unsigned int one_gpu, unsigned int shared)
{
	uint64_t pg = 0;

	for (unsigned int i = 0; i < one_block; i++, pg++)
		touch(self, 0, pg, pg * 64);
	for (unsigned int i = 0; i < one_gpu; i++, pg++) {
		touch(self, 1, 1000 + pg, pg * 64);
		touch(self, 1, 2000 + pg, pg * 64 + 1);
	}
	for (unsigned int i = 0; i < shared; i++, pg++) {
		touch(self, 2, 3000 + pg, pg * 64);
		touch(self, 3, 4000 + pg, pg * 64 + 1);
	}
}

static enum ng_coda_category category(FIXTURE_DATA(coda) *self,
				      struct ng_pageacc *p)
{
	if (ng_pageacc_report(&self->m, p))
		return NG_CODA_NCATEGORY;
	return p->category;
}

TEST_F(coda, block_exclusive_map)
{
	struct ng_pageacc p;

	pages(self, 19, 1, 0);
	EXPECT_EQ(NG_CODA_BLOCK_EXCLUSIVE, category(self, &p));
	EXPECT_EQ(20, p.pages);
	EXPECT_EQ(19, p.one_block);
	EXPECT_EQ(20, p.one_gpu);
}

TEST_F(coda, core_exclusive_map)
{
	struct ng_pageacc p;

	pages(self, 5, 15, 0);
	EXPECT_EQ(NG_CODA_CORE_EXCLUSIVE, category(self, &p));
}

TEST_F(coda, block_majority_map)
{
	struct ng_pageacc p;

	pages(self, 13, 3, 4);
	EXPECT_EQ(NG_CODA_BLOCK_MAJORITY, category(self, &p));
}

TEST_F(coda, core_majority_map)
{
	struct ng_pageacc p;

	pages(self, 4, 10, 6);
	EXPECT_EQ(NG_CODA_CORE_MAJORITY, category(self, &p));
}

TEST_F(coda, sharing_map)
{
	struct ng_pageacc p;

	pages(self, 4, 4, 12);
	EXPECT_EQ(NG_CODA_SHARING, category(self, &p));
	EXPECT_EQ(8, p.one_gpu);
}

TEST(block_buckets)
{
	static const unsigned int want[] = {
		0, 0, 1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 7, 7, 7,
	};
	static const uint64_t blocks[] = {
		0, 1, 2, 3, 4, 5, 8, 9, 32, 17, 33, 64, 65, 1000, 1ULL << 40,
	};

	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		unsigned int got = ng_pageacc_bucket(blocks[i]);

		EXPECT_EQ(want[i], got) TH_LOG("%llu blocks",
					       (unsigned long long)blocks[i]);
	}
	EXPECT_STREQ("3-4", ng_pageacc_bucket_name(2));
	EXPECT_STREQ(">64", ng_pageacc_bucket_name(7));
}

/*
 * Page k < 63 (of 4 KiB, 64 lines) read by k + 1 distinct blocks, page 63
 * by 100, each block twice, from GPUs in turn, in two kernels: a block's
 * id in both counts once.
 */
TEST_F(coda, pages_by_blocks_touching_them)
{
	static const uint64_t want[NG_PAGEACC_NBUCKET] = {
		1, 1, 2, 4, 8, 16, 31, 1,
	};
	struct ng_pageacc p;

	for (unsigned int kern = 0; kern < 2; kern++) {
		for (uint64_t pg = 0; pg < 64; pg++)
			for (uint64_t b = 0; b < (pg < 63 ? pg + 1 : 100); b++) {
				touch(self, (unsigned int)(b % 4), 7 * b,
				      pg * 64 + b % 64);
				touch(self, (unsigned int)(b % 4), 7 * b,
				      pg * 64 + (b + 1) % 64);
			}
		ng_model_kernel_end(&self->m, self->sms, 4);
		ng_model_kernel_begin(&self->m, self->sms, 4);
	}
	ASSERT_EQ(0, ng_pageacc_report(&self->m, &p));
	EXPECT_EQ(64, p.pages);
	for (unsigned int i = 0; i < NG_PAGEACC_NBUCKET; i++) {
		const char *name = ng_pageacc_bucket_name(i);

		EXPECT_EQ(want[i], p.by_blocks[i]) TH_LOG("bucket %s", name);
	}
	/* the first bucket is the pages of one block */
	EXPECT_EQ(p.one_block, p.by_blocks[0]);
}

/* ---- placement: the chunk rule, the plan, page groups, the decode -- */

/* 4 GPUs of 64 MiB, 4 KB pages, FGP at 256 B, CODA's chunk capped. */
static void placement_config(struct ng_config *c)
{
	if (ng_config_preset(c, "coda", NULL, 0))
		abort();
	c->fgp_granularity = 256;
	c->mem_per_gpu = 64 << 20;
	c->deterministic = true;
	c->backend = NG_MEM_USER;
}

TEST(coda_chunk_rule)
{
	/* CODA's Equation 2: min(4 KB, B x N), rounded up to pages */
	EXPECT_EQ(4096, ng_coda_chunk(1024, 8, 4096, true));
	EXPECT_EQ(4096, ng_coda_chunk(16, 8, 4096, true));
	EXPECT_EQ(4096, ng_coda_chunk(3000, 3, 4096, true));
	/* 2 MB pages: still one page */
	EXPECT_EQ(2 << 20, ng_coda_chunk(1024, 8, 2 << 20, true));
	/* uncapped: the product, in whole pages, one page at least */
	EXPECT_EQ(8192, ng_coda_chunk(1024, 8, 4096, false));
	EXPECT_EQ(12288, ng_coda_chunk(3000, 3, 4096, false));
	EXPECT_EQ(4096, ng_coda_chunk(16, 8, 4096, false));
}

TEST(coda_capped_chunks_go_round_robin)
{
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_buf b;
	struct ng_alloc_opts o = { .place = NG_PLACE_CODA, .block_bytes = 1024,
				   .blocks_per_gpu = 8 };
	char err[256];

	placement_config(&cfg);
	ASSERT_EQ(NG_CODA_CHUNK_CAP, cfg.coda_chunk);	/* the default */
	ASSERT_EQ(0, ng_space_init(&sp, &cfg, NULL, 1, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(&sp, &b, 64 << 10, &o, err, sizeof(err)));
	EXPECT_EQ(4096, b.chunk);
	for (unsigned int k = 0; k < 16; k++)
		EXPECT_EQ(k % 4, ng_home(&sp, (uintptr_t)b.ptr + k * 4096 + 7, 0));
	ng_free(&sp, &b);
	ng_space_fini(&sp);
}

/* A plan from a profile: B per allocation, 0 keeps a structure FGP. */
TEST(coda_plan_places_by_allocation_order)
{
	static const uint64_t plan[] = { 2048, 0 };
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_buf a, b, c;
	struct ng_alloc_opts o = { .place = NG_PLACE_CODA, .block_bytes = 64,
				   .blocks_per_gpu = 4 };
	char err[256];

	placement_config(&cfg);
	cfg.coda_chunk = NG_CODA_CHUNK_UNCAPPED;
	ASSERT_EQ(0, ng_space_init(&sp, &cfg, NULL, 1, err, sizeof(err)));
	ng_space_set_plan(&sp, plan, 2);
	ASSERT_EQ(0, ng_malloc(&sp, &a, 64 << 10, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(&sp, &b, 64 << 10, &o, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(&sp, &c, 64 << 10, &o, err, sizeof(err)));
	EXPECT_EQ(0u, a.seq);
	EXPECT_EQ(8192, a.chunk);		/* the plan's 2 KB x 4 */
	EXPECT_EQ(NG_PLACE_FGP, b.place);	/* the plan says shared */
	EXPECT_EQ(NG_PLACE_CODA, c.place);	/* past the plan: the hint */
	EXPECT_EQ(4096, c.chunk);
	EXPECT_EQ(3u, sp.nallocs);
	EXPECT_EQ((uintptr_t)b.ptr, sp.allocs[1].start);
	ng_free(&sp, &c);
	ng_free(&sp, &b);
	ng_free(&sp, &a);
	ng_space_fini(&sp);
}

/* A page group switches mode only when none of its pages is live. */
TEST(coda_group_switch_waits_for_free_pages)
{
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_buf b;
	struct ng_alloc_opts o = { .place = NG_PLACE_FGP };
	char err[256];
	uint64_t g, pg;

	placement_config(&cfg);
	ASSERT_EQ(0, ng_space_init(&sp, &cfg, NULL, 1, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(&sp, &b, 4096, &o, err, sizeof(err)));
	pg = ((uintptr_t)b.ptr - (uintptr_t)sp.base) >> sp.page_shift;
	g = pg / 4;
	/* one page of the buffer is live: its whole group stays FGP */
	EXPECT_EQ(-EBUSY, ng_space_switch_group(&sp, g, true));
	EXPECT_EQ(NG_LOC_FGP, atomic_load(&sp.loc[pg + 3]));
	ng_free(&sp, &b);
	/* free: it may become CGP, each page on its page number's GPU */
	EXPECT_EQ(0, ng_space_switch_group(&sp, g, true));
	for (unsigned int i = 0; i < 4; i++)
		EXPECT_EQ((pg + i) % 4, atomic_load(&sp.loc[pg + i]));
	/* and back */
	EXPECT_EQ(0, ng_space_switch_group(&sp, g, false));
	EXPECT_EQ(NG_LOC_FGP, atomic_load(&sp.loc[pg]));
	EXPECT_EQ(-EINVAL, ng_space_switch_group(&sp, sp.npages, true));
	ng_space_fini(&sp);
}

TEST(coda_bit_selection)
{
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_buf b;
	struct ng_alloc_opts o = { .place = NG_PLACE_FGP };
	char err[256];

	/* 4 GPUs, 4 KB pages: CGP uses bits [13:12] */
	for (uint64_t x = 0; x < (1 << 16); x += 1024)
		EXPECT_EQ((x >> 12) & 3, ng_coda_gpu_bits(x, true, 12, 7, 4));
	/* FGP at 128 B (CODA's): bits [8:7]; at 1 KB: [11:10] */
	for (uint64_t x = 0; x < (1 << 16); x += 64) {
		EXPECT_EQ((x >> 7) & 3, ng_coda_gpu_bits(x, false, 12, 7, 4));
		EXPECT_EQ((x >> 10) & 3, ng_coda_gpu_bits(x, false, 12, 10, 4));
	}
	/* 2 MB pages: bits [22:21] for CGP (CODA 7.2) */
	EXPECT_EQ(3, ng_coda_gpu_bits(3ULL << 21, true, 21, 7, 4));
	/* 8 GPUs: three bits */
	EXPECT_EQ(5, ng_coda_gpu_bits(5ULL << 12, true, 12, 7, 8));
	EXPECT_EQ(5, ng_coda_gpu_bits(5ULL << 7, false, 12, 7, 8));
	/* one definition: the location table's FGP homes are the decode's */
	placement_config(&cfg);
	cfg.fgp_granularity = 128;
	ASSERT_EQ(0, ng_space_init(&sp, &cfg, NULL, 1, err, sizeof(err)));
	ASSERT_EQ(0, ng_malloc(&sp, &b, 64 << 10, &o, err, sizeof(err)));
	for (uint64_t x = 0; x < (64 << 10); x += 96) {
		uint64_t off = (uintptr_t)b.ptr + x - (uintptr_t)sp.base;

		EXPECT_EQ(ng_coda_gpu_bits(off, false, 12, 7, 4),
			  ng_home(&sp, (uintptr_t)b.ptr + x, 0));
	}
	ng_free(&sp, &b);
	ng_space_fini(&sp);
}

TEST_HARNESS_MAIN
