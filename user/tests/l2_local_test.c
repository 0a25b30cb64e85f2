// SPDX-License-Identifier: GPL-2.0
/*
 * The L2 caching local lines too (l2-local, model/l2.c): a local line
 * read in one kernel hits in the next (the L1 is dropped at the boundary,
 * the L2's local lines are not); a store to a line the L2 holds reaches
 * neither the memory nor, under CARVE's HWC, the IMST in it; a dirty line
 * goes back to memory when it is replaced; and with l2-local off the L2
 * holds no local line, as before.
 */
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"

struct lines {
	uint32_t *v;
	unsigned int nlines;	/* lines of 32 words touched, one warp each */
	bool store;
};

/* One warp per line: a contiguous load, or store, of its 32 words. */
static void touch(struct ng_block *b, void *p)
{
	struct lines *x = p;
	uint32_t buf[NG_WARP];
	struct ng_warp w;

	if (b->id >= x->nlines)
		return;
	ng_warp_get(b, 0, &w);
	if (x->store) {
		for (unsigned int l = 0; l < NG_WARP; l++)
			buf[l] = (uint32_t)(b->id * NG_WARP + l);
		ng_st_contig(&w, x->v + b->id * NG_WARP, 4, buf);
	} else {
		ng_ld_contig(&w, x->v + b->id * NG_WARP, 4, buf);
	}
}

struct run {
	struct ng_system *sys;
	struct ng_buf buf;
	struct lines x;
};

static void setup(struct __test_metadata *_metadata, struct run *r,
		  bool l2_local, bool hwc)
{
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = 0 };
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	cfg.l2.local = l2_local;
	cfg.l1.size = 0;
	cfg.gpus = 2;
	cfg.mem_per_gpu = 64 << 20;
	cfg.l2.size = 64 << 10;		/* 512 lines of 128 B */
	cfg.deterministic = true;
	if (!hwc) {
		cfg.rdc.size = 0;
		cfg.rdc.pct = 0;
	}
	ASSERT_EQ(0, ng_system_create(&r->sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_malloc(ng_system_space(r->sys), &r->buf, 4 << 20, &ao,
			       err, sizeof(err))) TH_LOG("%s", err);
	memset(r->buf.ptr, 0, 4 << 20);
	r->x.v = r->buf.ptr;
}

/* Launch touch() over @nlines lines on GPU 0; its counters after. */
static void kernel(struct __test_metadata *_metadata, struct run *r,
		   unsigned int nlines, bool store, struct ng_counters *c)
{
	struct ng_launch l = { .name = "touch", .fn = touch,
			       .block = { NG_WARP, 1 }, .grid = { nlines, 1 },
			       .only_gpu = 0, .args = &r->x };
	struct ng_launch_result lr;

	r->x.nlines = nlines;
	r->x.store = store;
	ng_system_reset_counters(r->sys);
	ASSERT_EQ(0, ng_launch(r->sys, &l, &lr));
	ng_system_counters(r->sys, 0, c);
}

static void teardown(struct run *r)
{
	ng_free(ng_system_space(r->sys), &r->buf);
	ng_system_destroy(r->sys);
}

TEST(a_local_line_read_again_hits_in_the_next_kernel)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, true, false);
	kernel(_metadata, &r, 64, false, &c);
	EXPECT_EQ(0, c.v[NG_CTR_L2_LOCAL_HIT]);
	EXPECT_EQ(64, c.v[NG_CTR_L2_LOCAL_MISS]);
	EXPECT_EQ(64, c.v[NG_CTR_MEM_ACC]);
	kernel(_metadata, &r, 64, false, &c);
	EXPECT_EQ(64, c.v[NG_CTR_L2_LOCAL_HIT]);
	EXPECT_EQ(0, c.v[NG_CTR_MEM_ACC]);
	teardown(&r);
}

TEST(without_l2_local_every_local_read_goes_to_memory)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, false, false);
	kernel(_metadata, &r, 64, false, &c);
	kernel(_metadata, &r, 64, false, &c);
	EXPECT_EQ(0, c.v[NG_CTR_L2_LOCAL_HIT] + c.v[NG_CTR_L2_LOCAL_MISS]);
	EXPECT_EQ(64, c.v[NG_CTR_MEM_ACC]);
	teardown(&r);
}

TEST(stores_stay_in_the_l2_until_their_lines_are_replaced)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, true, false);
	/* 64 dirty lines, none written to memory */
	kernel(_metadata, &r, 64, true, &c);
	EXPECT_EQ(0, c.v[NG_CTR_MEM_ACC]);
	EXPECT_EQ(0, c.v[NG_CTR_L2_WRITEBACK]);
	/*
	 * 4096 lines read through a 512-line L2: the 64 hit, then go back
	 * to memory as the other 4032 replace them
	 */
	kernel(_metadata, &r, 4096, false, &c);
	EXPECT_EQ(64, c.v[NG_CTR_L2_LOCAL_HIT]);
	EXPECT_EQ(64, c.v[NG_CTR_L2_WRITEBACK]);
	EXPECT_EQ(4032 + 64, c.v[NG_CTR_MEM_ACC]);
	/* what was stored is in memory all along */
	for (unsigned int i = 0; i < 64 * NG_WARP; i++)
		ASSERT_EQ(i, r.x.v[i]);
	teardown(&r);
}

TEST(under_hwc_a_store_to_a_line_the_l2_holds_reads_no_imst)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, true, true);
	kernel(_metadata, &r, 64, false, &c);
	kernel(_metadata, &r, 64, true, &c);
	EXPECT_EQ(64, c.v[NG_CTR_L2_LOCAL_HIT]);
	EXPECT_EQ(0, c.v[NG_CTR_IMST_READS]);
	EXPECT_EQ(0, c.v[NG_CTR_MEM_ACC]);
	teardown(&r);

	/* without the line in the L2, the ECC (and IMST) is read first */
	setup(_metadata, &r, false, true);
	kernel(_metadata, &r, 64, true, &c);
	EXPECT_EQ(64, c.v[NG_CTR_IMST_READS]);
	teardown(&r);
}

/*
 * REC's Fig. 16 quantity (l2.request_ticks over l2.requests): a hit's
 * time in the L2 is the L2's latency; a miss's adds the memory's.
 */
TEST(a_requests_time_in_the_l2_is_its_latency_and_what_lies_below)
{
	ng_ticks lat = 120 * NG_TICKS_PER_NS;	/* the carve preset's */
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, true, false);
	kernel(_metadata, &r, 64, false, &c);
	EXPECT_EQ(64, c.v[NG_CTR_L2_REQS]);
	/* the memory's 300 ns and the line's transfer below the L2 */
	EXPECT_LT(64 * (lat + 300 * NG_TICKS_PER_NS), c.v[NG_CTR_L2_REQ_TICKS]);
	kernel(_metadata, &r, 64, false, &c);
	EXPECT_EQ(64, c.v[NG_CTR_L2_LOCAL_HIT]);
	EXPECT_EQ(64, c.v[NG_CTR_L2_REQS]);
	EXPECT_EQ(64 * lat, c.v[NG_CTR_L2_REQ_TICKS]);
	teardown(&r);
}

TEST_HARNESS_MAIN
