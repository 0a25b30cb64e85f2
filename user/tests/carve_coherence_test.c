// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE's hardware coherence at the home alone (model/carve_coherence.c,
 * the "hwc" component, with an RDC and coherence = hwc), its costs and
 * its reach: a write that brings no copy of its line reads the IMST at
 * the home first (one more line on the home's memory, which the write
 * queues behind); a read that changes the state writes it back; a write
 * to a read-shared line sends one flit to every GPU but the home and the
 * writer, and their copies go at the interval's end; a line only its
 * home touches never broadcasts. rdc_test has the IMST's transitions.
 */
#include "model_rig.h"

#include "ngemu/model/hwc.h"

/* 4 GPUs, a 64 KiB RDC each, @coh; no L2 (the RDC alone holds copies). */
static void hwc_rig(struct __test_metadata *_metadata, struct rig *r,
		    enum ng_coherence coh)
{
	rig_cfg(_metadata, r, "carve", 4);
	r->cfg.rdc.size = 64 << 10;
	r->cfg.rdc.coherence = coh;
	r->cfg.rdc.imst_reset = 0;
	rig_up(_metadata, r);
}

/* A counter summed over the GPUs. */
static uint64_t all(struct rig *r, unsigned int id)
{
	uint64_t v = 0;

	for (unsigned int g = 0; g < r->cfg.gpus; g++)
		v += rig_ctr(r, g, id);
	return v;
}

TEST(a_write_without_a_copy_reads_the_imst_first)
{
	ng_ticks swc, hwc, at = rig_ns(1000);
	struct rig r;

	hwc_rig(_metadata, &r, NG_COH_SWC);
	swc = rig_store(&r, 0, rig_word(&r, 0, 0), 1, at);
	EXPECT_EQ(1, all(&r, NG_CTR_MEM_ACC));
	EXPECT_EQ(0, all(&r, NG_CTR_IMST_READS));
	rig_down(&r);

	hwc_rig(_metadata, &r, NG_COH_HWC);
	hwc = rig_store(&r, 0, rig_word(&r, 0, 0), 1, at);
	EXPECT_EQ(1, all(&r, NG_CTR_IMST_READS));
	EXPECT_EQ(2, all(&r, NG_CTR_MEM_ACC));
	/* the write waits for the read's line on the memory, not its latency */
	EXPECT_NEAR(hwc - swc, r.m.mem_line_dur, 2);
	EXPECT_EQ(rig_ns(r.cfg.line / r.cfg.local_bw), r.m.mem_line_dur);
	rig_down(&r);
}

/* GPU 1's first read of a line of GPU 0's; the memory accesses it made. */
static uint64_t first_read(struct __test_metadata *_metadata, struct rig *r,
			   enum ng_coherence coh)
{
	hwc_rig(_metadata, r, coh);
	(void)rig_load(r, 1, rig_word(r, 0, 0), rig_ns(1000), NULL);
	rig_settle(r);
	return all(r, NG_CTR_MEM_ACC);
}

TEST(a_read_that_changes_the_state_writes_it_back)
{
	uint64_t swc, hwc;
	struct rig r;

	swc = first_read(_metadata, &r, NG_COH_SWC);
	rig_down(&r);
	hwc = first_read(_metadata, &r, NG_COH_HWC);
	EXPECT_NE(NG_IMST_UNCACHED, ng_hwc_imst(&r.m, (uintptr_t)rig_word(&r, 0, 0)));
	EXPECT_EQ(1, all(&r, NG_CTR_IMST_WRITES));
	/* the write-back is one more line at the home */
	EXPECT_EQ(swc + 1, hwc);
	/* the same reader again: no change, nothing written */
	(void)rig_load(&r, 1, rig_word(&r, 0, 0), rig_ns(5000), NULL);
	rig_settle(&r);
	EXPECT_EQ(1, all(&r, NG_CTR_IMST_WRITES));
	rig_down(&r);
}

TEST(a_write_to_a_shared_line_invalidates_every_other_gpu)
{
	struct ng_link_usage u;
	struct rig r;
	uint32_t *x;

	hwc_rig(_metadata, &r, NG_COH_HWC);
	x = rig_word(&r, 0, 0);
	(void)rig_load(&r, 1, x, rig_ns(1000), NULL);
	(void)rig_load(&r, 2, x, rig_ns(1000), NULL);
	rig_settle(&r);
	EXPECT_EQ(NG_IMST_RSHARED, ng_hwc_imst(&r.m, (uintptr_t)x));
	/* GPU 3 writes it: the home tells GPUs 1 and 2, a flit each */
	(void)rig_store(&r, 3, x, 99, rig_ns(3000));
	rig_settle(&r);
	EXPECT_EQ(2, all(&r, NG_CTR_INV_MSGS));
	EXPECT_EQ(2 * r.cfg.flit, all(&r, NG_CTR_INV_BYTES));
	ng_link_usage(&r.m, &u);
	EXPECT_EQ(r.cfg.line + r.cfg.flit, u.pair[0][1]);
	EXPECT_EQ(r.cfg.line + r.cfg.flit, u.pair[0][2]);
	EXPECT_EQ(0, u.pair[0][3]);
	EXPECT_EQ(1, rig_ctr(&r, 1, NG_CTR_RDC_INVAL));
	EXPECT_EQ(1, rig_ctr(&r, 2, NG_CTR_RDC_INVAL));
	/* their next reads miss and see the write */
	EXPECT_EQ(99u, rig_load(&r, 1, x, rig_ns(9000), NULL));
	EXPECT_EQ(99u, rig_load(&r, 2, x, rig_ns(9000), NULL));
	EXPECT_EQ(0, all(&r, NG_CTR_RDC_HIT));
	rig_down(&r);
}

TEST(a_line_only_its_home_touches_broadcasts_nothing)
{
	struct rig r;
	uint32_t *y;

	hwc_rig(_metadata, &r, NG_COH_HWC);
	y = rig_word(&r, 0, 64);
	for (unsigned int i = 0; i < 4; i++) {
		(void)rig_load(&r, 0, y, rig_ns(1000 + 2000 * i), NULL);
		(void)rig_store(&r, 0, y, i, rig_ns(2000 + 2000 * i));
		rig_settle(&r);
	}
	EXPECT_EQ(NG_IMST_PRIVATE, ng_hwc_imst(&r.m, (uintptr_t)y));
	EXPECT_EQ(0, all(&r, NG_CTR_INV_MSGS));
	EXPECT_EQ(0, all(&r, NG_CTR_LINK_TX));
	rig_down(&r);
}

TEST_HARNESS_MAIN
