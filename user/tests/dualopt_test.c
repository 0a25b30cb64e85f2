// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's model request by request: the BGU's word masks, the MSHR's
 * mask matching, fine-grained transfers and the CoDec's packets with the
 * bytes they put on the link, the RDMA cache (remote lines only, empty
 * after a kernel boundary, write-back), the decision engine's thresholds
 * and its decisions on synthetic streams, and page migration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "model/codec.h"
#include "ngemu/config.h"
#include "ngemu/model/dualopt.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/coalesce.h"
#include "ngemu/runtime/space.h"

/* |a - b| <= tol */
#define EXPECT_CLOSE(a, b, tol) EXPECT_GE((tol), (a) > (b) ? (a) - (b) : (b) - (a))

/* ---- the BGU: masks of 4-byte words per 64 B line ------------------ */

TEST(bgu_masks_contiguous_strided_scattered)
{
	struct ng_line_req lr[NG_MAX_LINE_REQS];
	uintptr_t a[NG_WARP];
	uintptr_t base = 0x100000;
	unsigned int n;

	/* contiguous: 32 x 4 B = two whole lines */
	for (unsigned int l = 0; l < NG_WARP; l++)
		a[l] = base + 4 * l;
	n = ng_coalesce(a, ~0u, 4, 64, lr);
	ASSERT_EQ(2, n);
	EXPECT_EQ(0xffffULL, lr[0].mask);
	EXPECT_EQ(0xffffULL, lr[1].mask);
	/* strided by 68 B: one word a line, moving one word each time */
	for (unsigned int l = 0; l < NG_WARP; l++)
		a[l] = base + 68 * l;
	n = ng_coalesce(a, ~0u, 4, 64, lr);
	ASSERT_EQ(32, n);
	for (unsigned int i = 0; i < n; i++) {
		EXPECT_EQ(1ULL << (i % 16), lr[i].mask) TH_LOG("lane %u", i);
		EXPECT_EQ(1u << i, lr[i].lanes);
	}
	/* scattered: each line's mask is the OR of its lanes' words */
	uint64_t x = 12345;

	for (unsigned int l = 0; l < NG_WARP; l++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		a[l] = base + ((x >> 33) % 256) * 4;
	}
	n = ng_coalesce(a, ~0u, 4, 64, lr);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t want = 0;

		for (unsigned int l = 0; l < NG_WARP; l++)
			if ((a[l] & ~(uintptr_t)63) == lr[i].line)
				want |= 1ULL << ((a[l] & 63) / 4);
		EXPECT_EQ(want, lr[i].mask);
	}
}

TEST(transfer_units_of_a_mask)
{
	EXPECT_EQ(1, ng_fine_units(0x1, 4));
	EXPECT_EQ(16, ng_fine_units(0xffff, 4));
	EXPECT_EQ(2, ng_fine_units(0x0101, 4));
	EXPECT_EQ(1, ng_fine_units(0x3, 8));
	EXPECT_EQ(2, ng_fine_units(0x6, 8));	/* words 1 and 2: two pairs */
	EXPECT_EQ(2, ng_fine_units(0x0101, 16));
	EXPECT_EQ(1, ng_fine_units(0x8001, 64));
}

/* ---- the model: 2 GPUs of one SM, a buffer on each --------------- */

FIXTURE(dualopt) {
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_model m;
	struct ng_sm sm[2];
	struct ng_sm *sms[2];
	struct ng_buf loc, rem;		/* homed on GPU 0 and on GPU 1 */
	uint32_t *l, *r;
	bool up;
};

FIXTURE_SETUP(dualopt)
{
	ASSERT_EQ(0, ng_config_preset(&self->cfg, "dualopt", NULL, 0));
	self->cfg.gpus = 2;
	self->cfg.sms = 1;
	self->cfg.sm_scale = 1;
	self->cfg.mem_per_gpu = 16 << 20;
	self->cfg.deterministic = true;
	self->cfg.backend = NG_MEM_USER;
}

FIXTURE_TEARDOWN(dualopt)
{
	if (!self->up)
		return;
	for (unsigned int g = 0; g < 2; g++)
		ng_sm_fini(&self->sm[g]);
	ng_free(&self->sp, &self->loc);
	ng_free(&self->sp, &self->rem);
	ng_model_fini(&self->m);
	ng_space_fini(&self->sp);
}

static void up(struct __test_metadata *_metadata, FIXTURE_DATA(dualopt) *self)
{
	struct ng_alloc_opts o = { .place = NG_PLACE_NODE, .node = 0 };
	char err[256];

	ASSERT_EQ(0, ng_config_validate(&self->cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_space_init(&self->sp, &self->cfg, NULL, 1, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_model_init(&self->m, &self->cfg, &self->sp, err,
				   sizeof(err))) TH_LOG("%s", err);
	for (unsigned int g = 0; g < 2; g++) {
		ASSERT_EQ(0, ng_sm_init(&self->sm[g], &self->m, g, 0, g));
		self->sms[g] = &self->sm[g];
	}
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->loc, 256 << 10, &o, err,
			       sizeof(err)));
	o.node = 1;
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->rem, 256 << 10, &o, err,
			       sizeof(err)));
	self->l = self->loc.ptr;
	self->r = self->rem.ptr;
	for (unsigned int i = 0; i < (256 << 10) / 4; i++) {
		self->l[i] = i;
		self->r[i] = 1000000 + i;
	}
	self->up = true;
	ng_model_reset_counters(&self->m);
	ng_model_kernel_begin(&self->m, self->sms, 2);
}

static uint64_t ctr(FIXTURE_DATA(dualopt) *self, unsigned int id)
{
	uint64_t v = 0;

	for (unsigned int g = 0; g < 2; g++)
		v += self->sm[g].ctr.v[id] + self->m.gctr[g].v[id];
	return v;
}

/* One request of GPU @g's SM for the words @mask of @p's line. */
static struct ng_req req(FIXTURE_DATA(dualopt) *self, unsigned int g,
			 void *p, uint64_t mask, unsigned int op)
{
	struct ng_sm *sm = &self->sm[g];
	struct ng_req r = { .line = (uintptr_t)p & ~(uintptr_t)63, .mask = mask,
			    .op = op, .gpu = g };

	r.home = ng_home(&self->sp, r.line, g);
	ng_model_access(sm, &r);
	return r;
}

static uint32_t load(FIXTURE_DATA(dualopt) *self, unsigned int g, uint32_t *p)
{
	struct ng_req r = req(self, g, p, 1ULL << (((uintptr_t)p & 63) / 4),
			      NG_OP_LOAD);

	return *(const uint32_t *)((const char *)r.src + ((uintptr_t)p & 63));
}

static void settle(FIXTURE_DATA(dualopt) *self)
{
	for (unsigned int g = 0; g < 2; g++)
		ng_model_sync(&self->m, 0, g);
	for (unsigned int g = 0; g < 2; g++)
		ng_sm_resync(&self->sm[g]);
}

static void next_kernel(FIXTURE_DATA(dualopt) *self)
{
	settle(self);
	ng_model_kernel_end(&self->m, self->sms, 2);
	ng_model_kernel_begin(&self->m, self->sms, 2);
}

TEST_F(dualopt, mshr_merges_only_when_the_mask_is_covered)
{
	self->cfg.remote_opt = NG_RO_COALESCE;
	self->cfg.codec.pack = 0;
	up(_metadata, self);
	/* words 0-1 in flight; word 0 alone is covered: no new request */
	req(self, 0, self->r, 0x3, NG_OP_LOAD);
	EXPECT_EQ(1, ctr(self, NG_CTR_FINE_REQ));
	req(self, 0, self->r, 0x1, NG_OP_LOAD);
	EXPECT_EQ(1, ctr(self, NG_CTR_MSHR_HIT));
	EXPECT_EQ(1, ctr(self, NG_CTR_FINE_REQ));
	/* words 1-2: word 2 is not on its way, so a request of its own */
	req(self, 0, self->r, 0x6, NG_OP_LOAD);
	EXPECT_EQ(1, ctr(self, NG_CTR_MSHR_HIT));
	EXPECT_EQ(1, ctr(self, NG_CTR_MSHR_PARTIAL));
	EXPECT_EQ(2, ctr(self, NG_CTR_FINE_REQ));
	/* another line entirely */
	req(self, 0, self->r + 16, 0x1, NG_OP_LOAD);
	EXPECT_EQ(3, ctr(self, NG_CTR_FINE_REQ));
	/* each alone on the link: 2 units = 8 B and 1 unit, in 16 B flits */
	EXPECT_EQ(3 * 16, ctr(self, NG_CTR_LINK_RX));
	/* fine-grained loads never fill the L1 */
	EXPECT_EQ(0, ctr(self, NG_CTR_L1_FILL));
}

/*
 * Each kernel's times start again at 0: an entry of the kernel before has
 * arrived, whatever its time was, and must not hold a new load back.
 */
TEST_F(dualopt, mshr_entries_do_not_outlive_their_kernel)
{
	struct ng_req r;

	self->cfg.remote_opt = NG_RO_COALESCE;
	self->cfg.codec.pack = 0;
	up(_metadata, self);
	/* a load late in the first kernel: its words arrive late */
	self->sm[0].now = 1000 * NG_TICKS_PER_NS;
	r = req(self, 0, self->r, 0x1, NG_OP_LOAD);
	EXPECT_LT(1000 * NG_TICKS_PER_NS, r.t);
	next_kernel(self);
	/* the same words at the new kernel's start: a new request, on time */
	r = req(self, 0, self->r, 0x1, NG_OP_LOAD);
	EXPECT_EQ(0, ctr(self, NG_CTR_MSHR_HIT));
	EXPECT_EQ(2, ctr(self, NG_CTR_FINE_REQ));
	EXPECT_GT(1000 * NG_TICKS_PER_NS, r.t);
}

TEST_F(dualopt, baseline_moves_whole_lines)
{
	self->cfg.remote_opt = NG_RO_OFF;
	up(_metadata, self);
	EXPECT_EQ(1000000u, load(self, 0, self->r));
	EXPECT_EQ(64, ctr(self, NG_CTR_LINK_RX));
	/* the L1 holds it now, and a hit waits for its arrival */
	EXPECT_EQ(1000001u, load(self, 0, self->r + 1));
	EXPECT_EQ(64, ctr(self, NG_CTR_LINK_RX));
	EXPECT_EQ(1, ctr(self, NG_CTR_L1_RHIT));
}

TEST_F(dualopt, granularity_sets_the_bytes_sent)
{
	self->cfg.remote_opt = NG_RO_COALESCE;
	self->cfg.codec.pack = 0;
	self->cfg.xfer_gran = 32;
	self->cfg.flit = 1;
	up(_metadata, self);
	/* words 0 and 9: one unit in each 32 B half */
	req(self, 0, self->r, 0x201, NG_OP_LOAD);
	EXPECT_EQ(64, ctr(self, NG_CTR_LINK_RX));
	req(self, 0, self->r + 16, 0x3, NG_OP_LOAD);
	EXPECT_EQ(96, ctr(self, NG_CTR_LINK_RX));
}

TEST_F(dualopt, codec_packs_ten_and_flushes_on_timeout)
{
	struct ng_codec *c;
	struct ng_sm *sm = &self->sm[0];
	ng_ticks w, t, done;

	self->cfg.remote_opt = NG_RO_COALESCE;
	up(_metadata, self);
	c = calloc(1, sizeof(*c));
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, ng_codec_init(c, &self->cfg));
	w = c->window;
	/* 30 cycles at 1 GHz */
	EXPECT_EQ(30 * NG_TICKS_PER_NS, w);
	/* ten 6 B transactions in one window: one full 64 B packet (4 flits) */
	t = 100 * w + 1;
	for (unsigned int i = 0; i < 10; i++)
		done = ng_codec_send(c, sm, 1, t + i, 1);
	EXPECT_EQ(1, sm->ctr.v[NG_CTR_CODEC_PKTS]);
	EXPECT_EQ(1, sm->ctr.v[NG_CTR_CODEC_FULL]);
	EXPECT_EQ(10, sm->ctr.v[NG_CTR_CODEC_XACTS]);
	EXPECT_EQ(64, sm->ctr.v[NG_CTR_LINK_RX]);
	/* the tenth left with itself, not at the window's end */
	EXPECT_LT(done, 101 * w + (ng_ticks)(self->cfg.link_latency_ns *
					     NG_TICKS_PER_NS));
	/* an eleventh in the same window opens a packet: one more flit */
	done = ng_codec_send(c, sm, 1, t + 11, 1);
	EXPECT_EQ(2, sm->ctr.v[NG_CTR_CODEC_PKTS]);
	EXPECT_EQ(80, sm->ctr.v[NG_CTR_LINK_RX]);
	/* ... which leaves on the timeout, at the window's end */
	EXPECT_GE(done, 101 * w);
	/* three lone responses in three windows: three packets of a flit */
	for (unsigned int i = 0; i < 3; i++)
		ng_codec_send(c, sm, 1, (200 + 2 * i) * w, 1);
	EXPECT_EQ(5, sm->ctr.v[NG_CTR_CODEC_PKTS]);
	EXPECT_EQ(1, sm->ctr.v[NG_CTR_CODEC_FULL]);
	EXPECT_EQ(80 + 3 * 16, sm->ctr.v[NG_CTR_LINK_RX]);
	/* a response of four units: 24 B in one packet, 2 flits */
	ng_codec_send(c, sm, 1, 300 * w, 4);
	EXPECT_EQ(80 + 3 * 16 + 32, sm->ctr.v[NG_CTR_LINK_RX]);
	ng_codec_fini(c);
	free(c);
}

TEST_F(dualopt, rdma_cache_holds_remote_lines_only_per_kernel)
{
	self->cfg.remote_opt = NG_RO_RDMA;
	self->cfg.l1.size = 0;
	up(_metadata, self);
	EXPECT_EQ(7u, load(self, 0, self->l + 7));
	EXPECT_EQ(0, ctr(self, NG_CTR_RDMA_FILL) + ctr(self, NG_CTR_RDMA_MISS));
	EXPECT_EQ(1000003u, load(self, 0, self->r + 3));
	EXPECT_EQ(1, ctr(self, NG_CTR_RDMA_FILL));
	EXPECT_EQ(1000004u, load(self, 0, self->r + 4));
	EXPECT_EQ(1, ctr(self, NG_CTR_RDMA_HIT));
	EXPECT_EQ(64, ctr(self, NG_CTR_LINK_RX));
	/* write-back: the store stays here, its word marked dirty */
	self->r[5] = 42;
	req(self, 0, self->r + 5, 1ULL << 5, NG_OP_STORE);
	EXPECT_EQ(1, ctr(self, NG_CTR_RDMA_WHIT));
	EXPECT_EQ(0, ctr(self, NG_CTR_LINK_TX));
	EXPECT_EQ(42u, load(self, 0, self->r + 5));
	next_kernel(self);
	/* the boundary wrote the word back (a flit) and dropped the line */
	EXPECT_EQ(16, ctr(self, NG_CTR_RDMA_WB_BYTES));
	EXPECT_EQ(16, ctr(self, NG_CTR_LINK_TX));
	EXPECT_EQ(1, ctr(self, NG_CTR_RDMA_INVAL));
	EXPECT_EQ(1000003u, load(self, 0, self->r + 3));
	EXPECT_EQ(2, ctr(self, NG_CTR_RDMA_MISS));
}

/*
 * MGPUSim's memory-side L2 in front of each memory: any GPU's request to
 * a line the L2 holds skips the memory. Another GPU sees a fill once the
 * interval it happened in has ended (so that threads' timing cannot
 * change hits); the filling GPU hits it at once.
 */
TEST_F(dualopt, memory_side_l2_serves_every_requester)
{
	ng_ticks miss_t, hit_t;
	struct ng_req r;

	self->cfg.remote_opt = NG_RO_OFF;
	self->cfg.l1.size = 0;
	self->cfg.msl2.size = 64 << 10;
	up(_metadata, self);
	r = req(self, 0, self->l + 3, 1ULL << 3, NG_OP_LOAD);
	miss_t = r.t;
	EXPECT_EQ(1, ctr(self, NG_CTR_MSL2_MISS));
	EXPECT_EQ(1, ctr(self, NG_CTR_MEM_ACC));
	/* GPU 1 in the same interval: not yet */
	EXPECT_EQ(3u, load(self, 1, self->l + 3));
	EXPECT_EQ(2, ctr(self, NG_CTR_MSL2_MISS));
	/* GPU 0 again: its own fill, at once, without the memory */
	self->sm[0].now = 0;
	r = req(self, 0, self->l + 4, 1ULL << 4, NG_OP_LOAD);
	hit_t = r.t;
	EXPECT_EQ(1, ctr(self, NG_CTR_MSL2_HIT));
	EXPECT_EQ(2, ctr(self, NG_CTR_MEM_ACC));
	EXPECT_LT(hit_t, miss_t);
	EXPECT_EQ(4u, *(const uint32_t *)((const char *)r.src + 16));
	/* after the interval, GPU 1's remote request hits at the home too */
	settle(self);
	EXPECT_EQ(5u, load(self, 1, self->l + 5));
	EXPECT_EQ(2, ctr(self, NG_CTR_MSL2_HIT));
	EXPECT_EQ(2, ctr(self, NG_CTR_MEM_ACC));
	/* a line of GPU 1's memory is new to its L2: a miss */
	EXPECT_EQ(1000000u + 64, load(self, 0, self->r + 64));
	EXPECT_EQ(3, ctr(self, NG_CTR_MSL2_MISS));
}

/* ---- the decision engine ------------------------------------------ */

TEST(thresholds_on_each_side)
{
	struct ng_config c;
	struct ng_de_measure v = { 0.5, 0.1, 0.1 };

	ASSERT_EQ(0, ng_config_preset(&c, "dualopt", NULL, 0));
	EXPECT_EQ(NG_CLASS_INSENSITIVE, ng_de_classify(&v, &c));
	v.remote_ratio = 0.019;
	EXPECT_EQ(NG_CLASS_LOCAL, ng_de_classify(&v, &c));
	v.remote_ratio = 0.021;
	EXPECT_EQ(NG_CLASS_INSENSITIVE, ng_de_classify(&v, &c));
	v.utilization = 0.21;
	EXPECT_EQ(NG_CLASS_FRIENDLY, ng_de_classify(&v, &c));
	v.utilization = 0.19;
	v.hit_rate = 0.41;
	EXPECT_EQ(NG_CLASS_FRIENDLY, ng_de_classify(&v, &c));
	v.hit_rate = 0.39;
	EXPECT_EQ(NG_CLASS_INSENSITIVE, ng_de_classify(&v, &c));
	EXPECT_STREQ("cache-insensitive", ng_class_name(NG_CLASS_INSENSITIVE));
	EXPECT_STREQ("cache-friendly", ng_class_name(NG_CLASS_FRIENDLY));
	EXPECT_STREQ("local-dominated", ng_class_name(NG_CLASS_LOCAL));
}

static struct ng_de_gpu engine(FIXTURE_DATA(dualopt) *self)
{
	struct ng_de_report rep;

	ng_de_report(&self->m, &rep);
	return rep.gpu[0];
}

static void auto_up(struct __test_metadata *_metadata,
		    FIXTURE_DATA(dualopt) *self)
{
	self->cfg.remote_opt = NG_RO_AUTO;
	self->cfg.de.warmup = 0;
	self->cfg.de.window = 100;
	up(_metadata, self);
}

TEST_F(dualopt, engine_local_dominated)
{
	auto_up(_metadata, self);
	/* 1 remote access in 100: 1% < remote_thresh 2% */
	for (unsigned int k = 0; k < 100; k++) {
		for (unsigned int i = 0; i < 99; i++)
			load(self, 0, self->l + 16 * ((k * 99 + i) % 4096));
		load(self, 0, self->r + 16 * k);
	}
	EXPECT_EQ(NG_CLASS_LOCAL, engine(self).cls);
	EXPECT_TRUE(engine(self).complete);
	EXPECT_CLOSE(0.01, engine(self).v.remote_ratio, 0.001);
	/* nothing changes after it */
	load(self, 0, self->r + 16 * 200);
	EXPECT_EQ(0, ctr(self, NG_CTR_FINE_REQ) + ctr(self, NG_CTR_RDMA_MISS));
}

TEST_F(dualopt, engine_cache_insensitive_then_coalesces)
{
	auto_up(_metadata, self);
	/* one word of each remote line, never again: 1/16 used, no hits */
	for (unsigned int i = 0; i < 100; i++)
		load(self, 0, self->r + 16 * i);
	EXPECT_EQ(NG_CLASS_INSENSITIVE, engine(self).cls);
	EXPECT_CLOSE(1.0 / 16, engine(self).v.utilization, 0.001);
	EXPECT_EQ(0.0, engine(self).v.hit_rate);
	EXPECT_EQ(100, engine(self).at_request);
	EXPECT_EQ(0, ctr(self, NG_CTR_FINE_REQ));
	EXPECT_EQ(1000000u + 16 * 500, load(self, 0, self->r + 16 * 500));
	EXPECT_EQ(1, ctr(self, NG_CTR_FINE_REQ));
}

TEST_F(dualopt, engine_cache_friendly_then_caches)
{
	auto_up(_metadata, self);
	/* every word of 10 lines, 10 times over: used whole, mostly hits */
	for (unsigned int i = 0; i < 100; i++)
		req(self, 0, self->r + 16 * (i % 10), 0xffff, NG_OP_LOAD);
	EXPECT_EQ(NG_CLASS_FRIENDLY, engine(self).cls);
	EXPECT_CLOSE(1.0, engine(self).v.utilization, 0.001);
	EXPECT_CLOSE(0.9, engine(self).v.hit_rate, 0.001);
	EXPECT_EQ(1000000u + 16 * 600, load(self, 0, self->r + 16 * 600));
	EXPECT_EQ(1, ctr(self, NG_CTR_RDMA_MISS));
	EXPECT_EQ(1, ctr(self, NG_CTR_RDMA_FILL));
}

TEST_F(dualopt, engine_needs_an_l1)
{
	char err[256];

	self->cfg.remote_opt = NG_RO_AUTO;
	self->cfg.l1.size = 0;
	EXPECT_EQ(-EINVAL, ng_config_validate(&self->cfg, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "l1-size"));
	self->cfg.l1.size = 16 << 10;
	self->cfg.xfer_gran = 12;
	EXPECT_EQ(-EINVAL, ng_config_validate(&self->cfg, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "xfer-gran"));
}

/* ---- page migration on first remote touch -------------------------- */

TEST_F(dualopt, a_page_moves_once_to_its_first_remote_toucher)
{
	self->cfg.remote_opt = NG_RO_OFF;
	self->cfg.mig.mode = NG_MIGRATE_FIRST_TOUCH;
	self->cfg.l1.size = 0;
	up(_metadata, self);
	EXPECT_EQ(1000000u, load(self, 0, self->r));
	/* the fault waits for the interval's end */
	EXPECT_EQ(1u, ng_home(&self->sp, (uintptr_t)self->r, 0));
	settle(self);
	EXPECT_EQ(0u, ng_home(&self->sp, (uintptr_t)self->r, 0));
	EXPECT_EQ(1, ctr(self, NG_CTR_MIG_PAGES));
	EXPECT_EQ(4096, ctr(self, NG_CTR_MIG_BYTES));
	/* GPU 1 reaches it remotely now, and it stays */
	EXPECT_EQ(1000001u, load(self, 1, self->r + 1));
	settle(self);
	EXPECT_EQ(0u, ng_home(&self->sp, (uintptr_t)self->r, 1));
	EXPECT_EQ(1, ctr(self, NG_CTR_MIG_PAGES));
}

TEST_HARNESS_MAIN
