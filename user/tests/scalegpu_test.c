// SPDX-License-Identifier: GPL-2.0
/*
 * ScaleGPU's model request by request: device memory as a cache of host
 * memory, one tag per row, the tag miss handler (one fetch for N misses,
 * N replays, a full pending queue holding the SM), conflict and cold
 * writes, a row refetched after a conflict with the host's current data,
 * and the CPU-GPU link's packets.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "model/link.h"
#include "ngemu/config.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/space.h"

#define ROW	2048

FIXTURE(sg) {
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_model m;
	struct ng_sm sm;
	struct ng_sm *sms[1];
	struct ng_buf buf;		/* in host memory */
	uint32_t *h;
	bool up;
};

FIXTURE_SETUP(sg)
{
	ASSERT_EQ(0, ng_config_preset(&self->cfg, "scalegpu", NULL, 0));
	self->cfg.sms = 1;
	self->cfg.sm_scale = 1;
	self->cfg.l1.size = 0;
	self->cfg.l2.size = 0;
	self->cfg.mem_per_gpu = 16 << 20;
	self->cfg.deterministic = true;
	self->cfg.backend = NG_MEM_USER;
	/* four rows of device memory, one partition */
	self->cfg.sg.device_mem = 4 * ROW;
	self->cfg.sg.device_mem_pct = 0;
	self->cfg.sg.tmh_units = 1;
}

FIXTURE_TEARDOWN(sg)
{
	if (!self->up)
		return;
	ng_sm_fini(&self->sm);
	ng_free(&self->sp, &self->buf);
	ng_model_fini(&self->m);
	ng_space_fini(&self->sp);
}

static void up(struct __test_metadata *_metadata, FIXTURE_DATA(sg) *self)
{
	struct ng_alloc_opts o = { .place = NG_PLACE_HOST };
	char err[256];

	ASSERT_EQ(0, ng_config_validate(&self->cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_space_init(&self->sp, &self->cfg, NULL, 1, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_model_init(&self->m, &self->cfg, &self->sp, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_sm_init(&self->sm, &self->m, 0, 0, 0));
	self->sms[0] = &self->sm;
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->buf, 64 * ROW, &o, err,
			       sizeof(err))) TH_LOG("%s", err);
	self->h = self->buf.ptr;
	for (unsigned int i = 0; i < 64 * ROW / 4; i++)
		self->h[i] = i;
	self->up = true;
	ng_model_reset_counters(&self->m);
	ng_model_kernel_begin(&self->m, self->sms, 1);
}

static uint64_t ctr(FIXTURE_DATA(sg) *self, unsigned int id)
{
	return self->sm.ctr.v[id] + self->m.gctr[0].v[id];
}

/* One request for word @w of the buffer; the request as it came back. */
static struct ng_req req(FIXTURE_DATA(sg) *self, uint64_t w, unsigned int op)
{
	uintptr_t a = (uintptr_t)(self->h + w);
	unsigned int line = self->cfg.line;
	struct ng_req r = { .line = a & ~(uintptr_t)(line - 1),
			    .mask = 1ULL << ((a & (line - 1)) / 4), .op = op };

	r.home = ng_home(&self->sp, r.line, 0);
	ng_model_access(&self->sm, &r);
	return r;
}

static uint32_t load(FIXTURE_DATA(sg) *self, uint64_t w, ng_ticks *t)
{
	struct ng_req r = req(self, w, NG_OP_LOAD);

	if (t)
		*t = r.t;
	return *(const uint32_t *)((const char *)r.src +
				   ((uintptr_t)(self->h + w) & (self->cfg.line - 1)));
}

/* A store as a kernel makes it: the home first, then the model. */
static void store(FIXTURE_DATA(sg) *self, uint64_t w, uint32_t v)
{
	self->h[w] = v;
	(void)req(self, w, NG_OP_STORE);
}

TEST_F(sg, host_link_packets)
{
	up(_metadata, self);
	/* a 2 KB row: 16 packets of 128 B behind 20 B headers */
	EXPECT_EQ(2048 + 16 * 20, ng_host_bytes(&self->cfg, 2048));
	EXPECT_EQ(20, ng_host_bytes(&self->cfg, 0));
	EXPECT_EQ(4 + 20, ng_host_bytes(&self->cfg, 4));
	EXPECT_EQ(129 + 2 * 20, ng_host_bytes(&self->cfg, 129));
}

TEST_F(sg, misses_to_one_row_share_one_fetch)
{
	ng_ticks t0, t;

	up(_metadata, self);
	/* eight lines of row 0, issued back to back: one fetch, 8 replays */
	EXPECT_EQ(0u, load(self, 0, &t0));
	for (unsigned int k = 1; k < 8; k++) {
		EXPECT_EQ(k * 32u, load(self, k * 32, &t));
		/* each waits for the same arrival, none much later */
		EXPECT_GE(t + 1024, t0);
	}
	EXPECT_EQ(8, ctr(self, NG_CTR_SG_MISS));
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_FETCH));
	/* the request went out as one header, the row came back in packets */
	EXPECT_EQ(20 + 2048 + 16 * 20, ctr(self, NG_CTR_HOST_BYTES));
	/* once it has arrived, the row hits */
	self->sm.now = t0 + 1;
	EXPECT_EQ(100u, load(self, 100, NULL));
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_HIT));
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_FETCH));
}

TEST_F(sg, a_full_pending_queue_holds_the_sm)
{
	ng_ticks first;

	self->cfg.sg.tmh_queue = 2;
	up(_metadata, self);
	(void)load(self, 0, &first);
	(void)load(self, 32, NULL);
	EXPECT_EQ(0, ctr(self, NG_CTR_SG_STALL));
	/* the third miss finds both entries taken until the replays */
	(void)load(self, 64, NULL);
	EXPECT_LT(0, ctr(self, NG_CTR_SG_STALL));
	EXPECT_LE(first, self->sm.now);
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_FETCH));
}

TEST_F(sg, a_conflict_write_goes_to_the_host_and_is_read_back)
{
	uint64_t bytes;

	up(_metadata, self);
	/* row 0 in slot 0; row 4 maps to slot 0 too */
	EXPECT_EQ(5u, load(self, 5, NULL));
	bytes = ctr(self, NG_CTR_HOST_BYTES);
	store(self, 4 * ROW / 4 + 3, 777);
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_CONFL_WR));
	/* relayed: one word behind a header, the slot left to row 0 */
	EXPECT_EQ(bytes + 4 + 20, ctr(self, NG_CTR_HOST_BYTES));
	EXPECT_EQ(0, ctr(self, NG_CTR_SG_EVICT));
	/* the next read of row 4 fetches it, with the written word */
	EXPECT_EQ(777u, load(self, 4 * ROW / 4 + 3, NULL));
	EXPECT_EQ(2, ctr(self, NG_CTR_SG_FETCH));
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_EVICT));
}

TEST_F(sg, a_row_evicted_by_a_conflict_is_refetched_current)
{
	up(_metadata, self);
	EXPECT_EQ(7u, load(self, 7, NULL));
	/* a hit write stays in device memory: the row is dirty */
	self->sm.now += 100000 * NG_TICKS_PER_NS;
	store(self, 7, 4242);
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_HIT));
	EXPECT_EQ(0, ctr(self, NG_CTR_SG_WB_BYTES));
	/* row 4 takes the slot: row 0's dirty sector goes home */
	EXPECT_EQ(4 * ROW / 4u, load(self, 4 * ROW / 4, NULL));
	EXPECT_EQ(64, ctr(self, NG_CTR_SG_WB_BYTES));
	/* and row 0 comes back with the word as written */
	EXPECT_EQ(4242u, load(self, 7, NULL));
	EXPECT_EQ(3, ctr(self, NG_CTR_SG_FETCH));
}

TEST_F(sg, a_cold_write_is_kept_and_sent_to_the_host)
{
	uint64_t bytes;

	up(_metadata, self);
	store(self, 9, 99);
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_COLD_WR));
	EXPECT_EQ(0, ctr(self, NG_CTR_SG_FETCH));
	EXPECT_EQ(4 + 20, ctr(self, NG_CTR_HOST_BYTES));
	/* another word of that row was never fetched: a read fetches it */
	bytes = ctr(self, NG_CTR_HOST_BYTES);
	EXPECT_EQ(200u, load(self, 200, NULL));
	EXPECT_EQ(1, ctr(self, NG_CTR_SG_FETCH));
	EXPECT_EQ(bytes + 20 + 2048 + 16 * 20, ctr(self, NG_CTR_HOST_BYTES));
	EXPECT_EQ(99u, load(self, 9, NULL));
}

TEST_F(sg, needs_host_placement)
{
	char err[256];

	self->cfg.placement = NG_PLACE_CGP;
	EXPECT_EQ(-EINVAL, ng_config_validate(&self->cfg, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "placement host"));
}

TEST_HARNESS_MAIN
