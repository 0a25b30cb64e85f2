// SPDX-License-Identifier: GPL-2.0
/*
 * The model request by request: the RDC (remote lines only, write-through,
 * epochs and their roll-over, HWC invalidations, the IMST at the home),
 * the L2 under SWC and HWC, and when replication's page table changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/model/hwc.h"
#include "ngemu/model/model.h"
#include "ngemu/model/rdc.h"
#include "ngemu/model/sidecar.h"
#include "ngemu/runtime/space.h"

/* ---- the RDC, request by request ---------------------------------- */

FIXTURE(rdc) {
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_model m;
	struct ng_sm sm[3];
	struct ng_sm *sms[3];
	struct ng_buf x, y;	/* x homed on GPU 1, y on GPU 0 */
	bool up;
};

FIXTURE_SETUP(rdc)
{
	(void)self;
}

FIXTURE_TEARDOWN(rdc)
{
	if (!self->up)
		return;
	for (unsigned int g = 0; g < self->cfg.gpus; g++)
		ng_sm_fini(&self->sm[g]);
	ng_free(&self->sp, &self->y);
	ng_free(&self->sp, &self->x);
	ng_model_fini(&self->m);
	ng_space_fini(&self->sp);
}

/* The model of @gpus GPUs of one SM with 4 KiB pages, as a test needs it. */
static void cfg_base(struct __test_metadata *_metadata, FIXTURE_DATA(rdc) *self,
		     unsigned int gpus)
{
	ASSERT_EQ(0, ng_config_preset(&self->cfg, "carve", NULL, 0));
	self->cfg.gpus = gpus;
	self->cfg.sms = 1;
	self->cfg.page = 4096;
	self->cfg.mem_per_gpu = 16 << 20;
	self->cfg.deterministic = true;
	/* the RDC and the L2 seen without an L1 in front (its own tests) */
	self->cfg.l1.size = 0;
}

/* ... then the space, the model, an SM per GPU, x and y, a kernel begun. */
static void model_up(struct __test_metadata *_metadata, FIXTURE_DATA(rdc) *self)
{
	struct ng_alloc_opts o = { .place = NG_PLACE_NODE };
	unsigned int gpus = self->cfg.gpus;
	char err[256];

	ASSERT_EQ(0, ng_space_init(&self->sp, &self->cfg, NULL, 1, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_model_init(&self->m, &self->cfg, &self->sp, err,
				   sizeof(err))) TH_LOG("%s", err);
	for (unsigned int g = 0; g < gpus; g++) {
		ASSERT_EQ(0, ng_sm_init(&self->sm[g], &self->m, g, 0, g));
		self->sms[g] = &self->sm[g];
	}
	o.node = 1;
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->x, 16 << 10, &o, err, sizeof(err)));
	o.node = 0;
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->y, 16 << 10, &o, err, sizeof(err)));
	self->up = true;
	ng_model_kernel_begin(&self->m, self->sms, gpus);
}

static void rdc_up_l2(struct __test_metadata *_metadata,
		      FIXTURE_DATA(rdc) *self, enum ng_coherence coh,
		      unsigned int gpus, double reset, uint64_t l2)
{
	cfg_base(_metadata, self, gpus);
	self->cfg.l2.size = l2;
	self->cfg.rdc.size = 64 << 10;
	self->cfg.rdc.pct = 0;
	self->cfg.rdc.coherence = coh;
	self->cfg.rdc.imst_reset = reset;
	model_up(_metadata, self);
}

/* Without an L2, every remote load reaches the RDC. */
static void rdc_up(struct __test_metadata *_metadata,
		   FIXTURE_DATA(rdc) *self, enum ng_coherence coh,
		   unsigned int gpus, double reset)
{
	rdc_up_l2(_metadata, self, coh, gpus, reset, 0);
}

/*
 * The end of an interval, as the runtime's pool does it: every GPU's
 * phase 0, then every GPU's phase 1; what HWC's homes heard is applied.
 */
static void settle(FIXTURE_DATA(rdc) *self)
{
	for (unsigned int ph = 0; ph < 2; ph++)
		for (unsigned int g = 0; g < self->cfg.gpus; g++)
			ng_model_sync(&self->m, ph, g);
	for (unsigned int g = 0; g < self->cfg.gpus; g++)
		ng_sm_resync(&self->sm[g]);
}

/* A counter of GPU @g: its SM's and what the model counted for it. */
static uint64_t ctr(FIXTURE_DATA(rdc) *self, unsigned int g, unsigned int id)
{
	return self->sm[g].ctr.v[id] + self->m.gctr[g].v[id];
}

/* One line request of @op by @sm's GPU; returns where its data came from. */
static const void *req(struct ng_sm *sm, void *addr, unsigned int op)
{
	struct ng_req r = { .line = (uintptr_t)addr & ~(uintptr_t)127,
			    .mask = ~0ULL >> 32, .op = op, .gpu = sm->gpu };

	r.home = ng_home(sm->model->space, r.line, sm->gpu);
	ng_model_access(sm, &r);
	return r.src;
}

/* A store as ng_st does it: home memory first, then the model. */
static void store(struct ng_sm *sm, uint32_t *p, uint32_t v)
{
	*p = v;
	req(sm, p, NG_OP_STORE);
}

static uint32_t load(struct ng_sm *sm, const uint32_t *p)
{
	const char *src = req(sm, (void *)p, NG_OP_LOAD);

	return *(const uint32_t *)(src + ((uintptr_t)p & 127));
}

TEST_F(rdc, holds_remote_lines_only_and_counts_add_up)
{
	uint32_t *x, *y;
	struct ng_rdc_info info;
	uint64_t lookups;

	rdc_up(_metadata, self, NG_COH_NONE, 2, 0.01);
	x = self->x.ptr;
	y = self->y.ptr;
	ASSERT_EQ(0, ng_rdc_info(&self->m, &info));
	EXPECT_EQ(512, info.lines);
	EXPECT_EQ(2 * (64 << 10), info.carve_bytes);
	EXPECT_EQ(2ULL * (64 << 10), self->sp.carved);
	/* local lines never enter the RDC, however often they are read */
	for (unsigned int k = 0; k < 3; k++)
		for (unsigned int i = 0; i < 4096; i += 32)
			(void)load(&self->sm[0], &y[i]);
	for (unsigned int i = 0; i < 4096; i += 32)
		EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)&y[i], NULL, NULL));
	EXPECT_EQ(0, self->sm[0].ctr.v[NG_CTR_RDC_HIT] +
		     self->sm[0].ctr.v[NG_CTR_RDC_MISS]);
	/* remote lines do: a miss fills, the next read hits */
	for (unsigned int k = 0; k < 3; k++)
		for (unsigned int i = 0; i < 4096; i += 32)
			EXPECT_EQ(0, load(&self->sm[0], &x[i]));
	for (unsigned int i = 0; i < 4096; i += 32)
		EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[i], NULL, NULL));
	lookups = self->sm[0].ctr.v[NG_CTR_REMOTE];
	EXPECT_EQ(3 * 128, lookups);
	EXPECT_EQ(128, self->sm[0].ctr.v[NG_CTR_RDC_MISS]);
	EXPECT_EQ(256, self->sm[0].ctr.v[NG_CTR_RDC_HIT]);
	EXPECT_EQ(lookups, self->sm[0].ctr.v[NG_CTR_RDC_HIT] +
			   self->sm[0].ctr.v[NG_CTR_RDC_MISS]);
	EXPECT_EQ(128, self->sm[0].ctr.v[NG_CTR_RDC_FILL]);
	/* the home's own reads of x are local: GPU 1's RDC stays empty */
	(void)load(&self->sm[1], &x[0]);
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 1, (uintptr_t)&x[0], NULL, NULL));
}

TEST_F(rdc, write_through_and_stale_copies_without_coherence)
{
	uint32_t *x;
	const void *data;

	rdc_up(_metadata, self, NG_COH_NONE, 2, 0.01);
	x = self->x.ptr;
	EXPECT_EQ(0, load(&self->sm[0], &x[5]));
	/* GPU 0's store to the remote line: home current, its copy too */
	store(&self->sm[0], &x[5], 42);
	EXPECT_EQ(42, x[5]);
	ASSERT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, NULL, &data));
	EXPECT_EQ(42, ((const uint32_t *)data)[5]);
	EXPECT_EQ(42, load(&self->sm[0], &x[5]));
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_RDC_WUPD]);
	/* a store of a line not cached does not allocate */
	store(&self->sm[0], &x[1000], 9);
	EXPECT_EQ(9, x[1000]);
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[1000], NULL, NULL));
	/* the home writes; with no coherence GPU 0 keeps reading its copy */
	store(&self->sm[1], &x[5], 77);
	EXPECT_EQ(77, x[5]);
	ng_model_kernel_end(&self->m, self->sms, 2);
	ng_model_kernel_begin(&self->m, self->sms, 2);
	EXPECT_EQ(42, load(&self->sm[0], &x[5]));
}

TEST_F(rdc, swc_epochs_and_roll_over)
{
	uint32_t *x;
	uint32_t e, set;
	uint64_t sc, n;

	rdc_up(_metadata, self, NG_COH_SWC, 2, 0.01);
	x = self->x.ptr;
	ASSERT_EQ(0, ng_rdc_epoch(&self->m, 0, &e, NULL));
	EXPECT_EQ(0, e);
	(void)load(&self->sm[0], &x[0]);
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, &sc, NULL));
	/* a boundary bumps the epoch: the copy no longer hits */
	store(&self->sm[1], &x[0], 5);
	ng_model_kernel_end(&self->m, self->sms, 2);
	ng_model_kernel_begin(&self->m, self->sms, 2);
	ASSERT_EQ(0, ng_rdc_epoch(&self->m, 0, &e, NULL));
	EXPECT_EQ(1, e);
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, &sc, NULL));
	EXPECT_NE(0, sc);	/* invalid by epoch, not physically cleared */
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_RDC_FLUSH]);
	EXPECT_EQ(5, load(&self->sm[0], &x[0]));
	/*
	 * Roll-over: a line inserted in epoch 0; 2^20 - 1 boundaries later
	 * the counter is at its maximum; the next boundary wraps it to 0,
	 * where the old line would match again: the sidecars are cleared.
	 */
	set = 0;
	ASSERT_EQ(0, ng_rdc_epoch(&self->m, 0, NULL, &set));
	(void)load(&self->sm[0], &x[64]);
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[64], NULL, NULL));
	set = NG_SC_EPOCH_MASK;
	ASSERT_EQ(0, ng_rdc_epoch(&self->m, 0, NULL, &set));
	ng_model_kernel_end(&self->m, self->sms, 2);
	ng_model_kernel_begin(&self->m, self->sms, 2);
	ASSERT_EQ(0, ng_rdc_epoch(&self->m, 0, &e, NULL));
	EXPECT_EQ(0, e);
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[64], &sc, NULL));
	EXPECT_EQ(0, sc);
	ASSERT_EQ(0, ng_rdc_valid_lines(&self->m, 0, &n));
	EXPECT_EQ(0, n);
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, &sc, NULL));
	EXPECT_EQ(0, sc);
}

TEST_F(rdc, hwc_invalidates_shared_lines_only)
{
	uint32_t *x, *y;

	rdc_up(_metadata, self, NG_COH_HWC, 3, 0.0);
	x = self->x.ptr;	/* home GPU 1 */
	y = self->y.ptr;	/* home GPU 0 */
	/* private data: the home reads and writes it, no invalidates */
	for (unsigned int i = 0; i < 4096; i += 32) {
		(void)load(&self->sm[0], &y[i]);
		store(&self->sm[0], &y[i], i);
	}
	settle(self);
	EXPECT_EQ(NG_IMST_PRIVATE, ng_hwc_imst(&self->m, (uintptr_t)y));
	EXPECT_EQ(0, ctr(self, 0, NG_CTR_INV_MSGS));
	/* every store brought no copy of the IMST: the home read it */
	EXPECT_EQ(128, ctr(self, 0, NG_CTR_IMST_READS));
	/* read-shared: GPUs 0 and 2 read x, cached in both RDCs */
	EXPECT_EQ(NG_IMST_UNCACHED, ng_hwc_imst(&self->m, (uintptr_t)x));
	(void)load(&self->sm[0], &x[0]);
	(void)load(&self->sm[2], &x[0]);
	/* the home's books change at the end of the interval */
	EXPECT_EQ(NG_IMST_UNCACHED, ng_hwc_imst(&self->m, (uintptr_t)x));
	settle(self);
	EXPECT_EQ(NG_IMST_RSHARED, ng_hwc_imst(&self->m, (uintptr_t)x));
	EXPECT_EQ(1, ctr(self, 1, NG_CTR_IMST_WRITES));
	for (unsigned int k = 0; k < 3; k++)
		(void)load(&self->sm[2], &x[0]);
	EXPECT_EQ(0, ctr(self, 2, NG_CTR_INV_MSGS));
	/* the home writes: both copies are invalidated, two messages */
	store(&self->sm[1], &x[0], 11);
	settle(self);
	EXPECT_EQ(2, ctr(self, 1, NG_CTR_INV_MSGS));
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_RDC_INVAL));
	EXPECT_EQ(1, ctr(self, 2, NG_CTR_RDC_INVAL));
	EXPECT_EQ(2 * self->cfg.flit, ctr(self, 1, NG_CTR_INV_BYTES));
	EXPECT_EQ(NG_IMST_RWSHARED, ng_hwc_imst(&self->m, (uintptr_t)x));
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, NULL, NULL));
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 2, (uintptr_t)x, NULL, NULL));
	/* no kernel boundary needed: the next reads see the new value */
	EXPECT_EQ(11, load(&self->sm[0], &x[0]));
	EXPECT_EQ(11, load(&self->sm[2], &x[0]));
	settle(self);
	/*
	 * A remote writer holding the line decides from the IMST copy kept
	 * with it (read-write shared): it broadcasts at once, to GPU 2 only
	 * (not to itself, not to the home); its own copy stays.
	 */
	store(&self->sm[0], &x[0], 12);
	EXPECT_EQ(12, x[0]);
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_INV_MSGS));
	EXPECT_EQ(0, ctr(self, 0, NG_CTR_IMST_READS) - 128);
	settle(self);
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, NULL, NULL));
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 2, (uintptr_t)x, NULL, NULL));
	EXPECT_EQ(12, load(&self->sm[0], &x[0]));
	/* with imst-reset 0 a local write never returns it to private */
	for (unsigned int k = 0; k < 50; k++)
		store(&self->sm[1], &x[0], k);
	settle(self);
	EXPECT_EQ(NG_IMST_RWSHARED, ng_hwc_imst(&self->m, (uintptr_t)x));
	EXPECT_EQ(0, ctr(self, 1, NG_CTR_IMST_RESET));
}

TEST_F(rdc, hwc_probabilistic_return_to_private)
{
	uint32_t *x;

	rdc_up(_metadata, self, NG_COH_HWC, 2, 1.0);
	x = self->x.ptr;
	(void)load(&self->sm[0], &x[0]);
	settle(self);
	EXPECT_EQ(NG_IMST_RSHARED, ng_hwc_imst(&self->m, (uintptr_t)x));
	/* imst-reset 1: the local write broadcasts, then resets */
	store(&self->sm[1], &x[0], 3);
	settle(self);
	EXPECT_EQ(NG_IMST_PRIVATE, ng_hwc_imst(&self->m, (uintptr_t)x));
	EXPECT_EQ(1, ctr(self, 1, NG_CTR_INV_MSGS));
	EXPECT_EQ(1, ctr(self, 1, NG_CTR_IMST_RESET));
	EXPECT_EQ(3, load(&self->sm[0], &x[0]));
}

/* The IMST lives in the home line's sidecar word, the rest of it intact. */
TEST_F(rdc, hwc_imst_in_the_home_sidecar)
{
	uint32_t *x;
	uint64_t w;
	struct ng_sidecar sc;

	rdc_up(_metadata, self, NG_COH_HWC, 2, 0.0);
	x = self->x.ptr;
	ASSERT_EQ(0, ng_hwc_sidecar(&self->m, (uintptr_t)x, &w));
	EXPECT_EQ(0, w);
	(void)load(&self->sm[0], &x[0]);	/* remote read: read-shared */
	store(&self->sm[0], &x[0], 1);		/* remote write: rw-shared */
	settle(self);
	ASSERT_EQ(0, ng_hwc_sidecar(&self->m, (uintptr_t)x, &w));
	ng_sc_unpack(w, &sc);
	EXPECT_EQ(NG_IMST_RWSHARED, sc.imst);
	EXPECT_EQ(NG_IMST_RWSHARED, ng_sc_imst(w));
	EXPECT_FALSE(sc.valid);
	EXPECT_EQ(0, sc.tag);
	EXPECT_EQ(0, w >> NG_SC_BITS);
	/* the copy kept with the cached line says what the home says */
	{
		uint64_t rw;

		ASSERT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)x, &rw, NULL));
		EXPECT_EQ(NG_IMST_RSHARED, ng_sc_imst(rw));
	}
}

/*
 * The L2 under HWC: a write to a read-write shared line invalidates a
 * remote L2 copy (the next read misses and returns the new data), and the
 * L2 keeps its remote lines across a kernel boundary; under SWC it drops
 * them there.
 */
TEST_F(rdc, hwc_reaches_the_l2_and_keeps_it_across_kernels)
{
	uint32_t *x;
	uint64_t miss;

	rdc_up_l2(_metadata, self, NG_COH_HWC, 2, 0.0, 64 << 10);
	x = self->x.ptr;	/* home GPU 1 */
	EXPECT_EQ(0, load(&self->sm[0], &x[0]));
	store(&self->sm[0], &x[0], 5);		/* rw-shared from now on */
	settle(self);
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
	/* a kernel boundary: the L2 keeps x */
	ng_model_kernel_end(&self->m, self->sms, 2);
	ng_model_kernel_begin(&self->m, self->sms, 2);
	EXPECT_EQ(5, load(&self->sm[0], &x[0]));
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_L2_HIT]);
	/* the home writes the rw-shared line: GPU 0's L2 copy goes */
	store(&self->sm[1], &x[0], 6);
	settle(self);
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_L2_COH_INVAL));
	miss = self->sm[0].ctr.v[NG_CTR_L2_MISS];
	EXPECT_EQ(6, load(&self->sm[0], &x[0]));
	EXPECT_EQ(miss + 1, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
}

TEST_F(rdc, swc_l2_drops_remote_lines_at_kernel_boundaries)
{
	uint32_t *x;

	rdc_up_l2(_metadata, self, NG_COH_SWC, 2, 0.0, 64 << 10);
	x = self->x.ptr;
	(void)load(&self->sm[0], &x[0]);
	(void)load(&self->sm[0], &x[0]);
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_L2_HIT]);
	ng_model_kernel_end(&self->m, self->sms, 2);
	ng_model_kernel_begin(&self->m, self->sms, 2);
	(void)load(&self->sm[0], &x[0]);
	EXPECT_EQ(2, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_L2_INVAL]);
	/* without HWC there is no home sidecar */
	EXPECT_EQ(-ENOENT, ng_hwc_imst(&self->m, (uintptr_t)x));
}

/*
 * Sizes that are no power of two index by division, the others by mask:
 * both must place lines alike. A 3-line RDC: lines 3 apart share a slot.
 * A 3-way L2 of 5 sets: lines 5 apart share a set, and a fourth evicts
 * the least recently used.
 */
TEST_F(rdc, any_size_indexes_and_replaces_alike)
{
	const unsigned int w = 32;	/* uint32_t per 128 B line */
	uint32_t *x;

	cfg_base(_metadata, self, 2);
	self->cfg.rdc.size = 3 * 128;
	self->cfg.rdc.pct = 0;
	self->cfg.rdc.coherence = NG_COH_NONE;
	self->cfg.l2.size = 5 * 3 * 128;
	self->cfg.l2.ways = 3;
	model_up(_metadata, self);
	x = self->x.ptr;	/* home GPU 1 */
	x[0] = 10;
	x[5 * w] = 15;
	x[10 * w] = 20;
	x[15 * w] = 25;
	EXPECT_EQ(10, load(&self->sm[0], &x[0]));
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[0], NULL, NULL));
	EXPECT_EQ(15, load(&self->sm[0], &x[5 * w]));	/* another slot */
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[0], NULL, NULL));
	EXPECT_EQ(20, load(&self->sm[0], &x[10 * w]));	/* the third */
	EXPECT_EQ(25, load(&self->sm[0], &x[15 * w]));	/* x[0]'s: x[0] out */
	EXPECT_EQ(0, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[0], NULL, NULL));
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[15 * w], NULL, NULL));
	EXPECT_EQ(1, ng_rdc_lookup(&self->m, 0, (uintptr_t)&x[5 * w], NULL, NULL));
	/* the L2's set of x[0] holds x[0], x[5w], x[10w]; x[0] is reread */
	EXPECT_EQ(4, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
	EXPECT_EQ(1, self->sm[0].ctr.v[NG_CTR_L2_EVICT]);	/* x[0] went */
	EXPECT_EQ(10, load(&self->sm[0], &x[0]));	/* evicts x[5w] */
	EXPECT_EQ(5, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
	EXPECT_EQ(10, load(&self->sm[0], &x[0]));
	EXPECT_EQ(20, load(&self->sm[0], &x[10 * w]));
	EXPECT_EQ(25, load(&self->sm[0], &x[15 * w]));
	EXPECT_EQ(3, self->sm[0].ctr.v[NG_CTR_L2_HIT]);
	EXPECT_EQ(15, load(&self->sm[0], &x[5 * w]));
	EXPECT_EQ(6, self->sm[0].ctr.v[NG_CTR_L2_MISS]);
}

/*
 * Replication's page table changes for the other GPUs at the end of an
 * interval, as the IMST does: a GPU's copy serves its next read at once, a
 * write collapses the copies (counted at the home) only at the interval's
 * end, and a collapsed page is not copied again.
 */
TEST_F(rdc, repl_copies_at_once_and_collapses_at_the_interval_end)
{
	uint32_t *x;

	cfg_base(_metadata, self, 3);
	self->cfg.l2.size = 0;
	self->cfg.rdc.size = 0;
	self->cfg.rdc.pct = 0;
	self->cfg.replicate = NG_REPL_RO;
	model_up(_metadata, self);
	x = self->x.ptr;
	(void)load(&self->sm[0], &x[0]);
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_REPL_PAGES));
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_REMOTE));
	(void)load(&self->sm[0], &x[32]);
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_REPL_HIT));
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_LOCAL));
	settle(self);
	store(&self->sm[2], &x[0], 7);
	(void)load(&self->sm[0], &x[64]);
	EXPECT_EQ(2, ctr(self, 0, NG_CTR_REPL_HIT));
	EXPECT_EQ(0, ctr(self, 1, NG_CTR_REPL_COLLAPSE));
	settle(self);
	EXPECT_EQ(1, ctr(self, 1, NG_CTR_REPL_COLLAPSE));
	EXPECT_EQ(7, load(&self->sm[0], &x[0]));
	EXPECT_EQ(2, ctr(self, 0, NG_CTR_REPL_HIT));
	EXPECT_EQ(2, ctr(self, 0, NG_CTR_REMOTE));
	(void)load(&self->sm[2], &x[96]);
	EXPECT_EQ(0, ctr(self, 2, NG_CTR_REPL_PAGES));
	/* the home's own write collapses too: GPU 2 copies y, GPU 0 writes */
	(void)load(&self->sm[2], &((uint32_t *)self->y.ptr)[0]);
	EXPECT_EQ(1, ctr(self, 2, NG_CTR_REPL_PAGES));
	settle(self);
	store(&self->sm[0], self->y.ptr, 1);
	settle(self);
	EXPECT_EQ(1, ctr(self, 0, NG_CTR_REPL_COLLAPSE));
}

TEST_HARNESS_MAIN
