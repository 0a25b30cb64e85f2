// SPDX-License-Identifier: GPL-2.0
/*
 * DualOpt's MSHRs alone (model/mshr.c), for fine-grained remote loads
 * (remote-opt coalesce, CoDec off): at most mshr-entries of them are in
 * flight per real SM, however many the SM's mlp allows, so a burst takes
 * as many round trips as it has entries' worth of loads; a load whose
 * words an entry in flight covers merges with it (no link traffic); one
 * that is not covered, or comes after the entry's words arrived, sends
 * a request of its own. Modeled values only.
 */
#include "model_rig.h"

/* 2 GPUs of DualOpt's (64 B lines, a switch), one SM, @entries MSHRs. */
static void mshr_rig(struct __test_metadata *_metadata, struct rig *r,
		     unsigned int entries, enum ng_remote_opt ro)
{
	rig_cfg(_metadata, r, "dualopt", 2);
	r->cfg.remote_opt = ro;
	r->cfg.codec.pack = 0;
	r->cfg.mshr_entries = entries;
	r->cfg.mlp = 256;		/* the SM's ring never binds here */
	rig_up(_metadata, r);
}

/* @n one-word loads of as many remote lines, issued back to back from 0. */
static ng_ticks burst(struct rig *r, unsigned int n)
{
	ng_ticks last = 0, t;

	r->sm[0].now = 0;
	for (unsigned int l = 0; l < n; l++) {
		t = rig_req(r, 0, rig_line(r, 1, l), NG_OP_LOAD, 1, RIG_NOW).t;
		last = t > last ? t : last;
	}
	return last;
}

TEST(a_fifth_load_waits_for_one_of_four_entries)
{
	ng_ticks t[5], lat;
	struct rig r;

	mshr_rig(_metadata, &r, 4, NG_RO_COALESCE);
	for (unsigned int i = 0; i < 5; i++)
		t[i] = rig_req(&r, 0, rig_line(&r, 1, i), NG_OP_LOAD, 1, 0).t;
	lat = t[0];
	EXPECT_EQ(5, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSHR_FULL));
	/* the four went at once; the fifth once the first was back */
	for (unsigned int i = 1; i < 4; i++)
		EXPECT_NEAR(t[i], lat, 0.01 * lat);
	EXPECT_NEAR(t[4], 2 * lat, 0.01 * lat);
	rig_down(&r);

	/* five entries: the fifth goes at once too */
	mshr_rig(_metadata, &r, 5, NG_RO_COALESCE);
	for (unsigned int i = 0; i < 5; i++)
		t[i] = rig_req(&r, 0, rig_line(&r, 1, i), NG_OP_LOAD, 1, 0).t;
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_MSHR_FULL));
	EXPECT_NEAR(t[4], lat, 0.01 * lat);
	rig_down(&r);
}

/*
 * 64 loads through 4 entries take 16 round trips, through 16 entries 4:
 * the burst's time is bounded by the entries, not by the SM's mlp (256).
 */
TEST(outstanding_misses_are_bounded_by_the_entries)
{
	ng_ticks lat, t4, t16, tnone;
	struct rig r;

	mshr_rig(_metadata, &r, 4, NG_RO_COALESCE);
	lat = rig_req(&r, 0, rig_line(&r, 1, 100), NG_OP_LOAD, 1, 0).t;
	rig_next_kernel(&r);
	t4 = burst(&r, 64);
	/*
	 * one load a round finds all four in flight and waits (the SM's
	 * clock with it); by then the rest of the round's are back
	 */
	EXPECT_EQ(64 / 4 - 1, rig_ctr(&r, 0, NG_CTR_MSHR_FULL));
	rig_down(&r);
	mshr_rig(_metadata, &r, 16, NG_RO_COALESCE);
	t16 = burst(&r, 64);
	EXPECT_EQ(64 / 16 - 1, rig_ctr(&r, 0, NG_CTR_MSHR_FULL));
	rig_down(&r);
	TH_LOG("64 loads: %.0f ns with 4 entries, %.0f with 16; one %.0f",
	       (double)t4 / NG_TICKS_PER_NS, (double)t16 / NG_TICKS_PER_NS,
	       (double)lat / NG_TICKS_PER_NS);
	EXPECT_NEAR(t4, 16 * lat, 0.05 * 16 * lat);
	EXPECT_NEAR(t16, 4 * lat, 0.05 * 4 * lat);
	/* whole-line loads (no fine-grained ones) are not the MSHRs' */
	mshr_rig(_metadata, &r, 4, NG_RO_OFF);
	tnone = burst(&r, 64);
	EXPECT_EQ(0, rig_ctr(&r, 0, NG_CTR_FINE_REQ) + rig_ctr(&r, 0, NG_CTR_MSHR_FULL));
	EXPECT_GT(2 * lat, tnone);
	rig_down(&r);
}

TEST(a_covered_load_merges_an_uncovered_one_goes_on)
{
	struct ng_req a, b;
	struct rig r;

	mshr_rig(_metadata, &r, 4, NG_RO_COALESCE);
	/* words 0-3 on their way */
	a = rig_req(&r, 0, rig_word(&r, 1, 0), NG_OP_LOAD, 0xf, rig_ns(1000));
	/* words 1-2 are among them: the same arrival, nothing sent */
	b = rig_req(&r, 0, rig_word(&r, 1, 1), NG_OP_LOAD, 0x6, rig_ns(1001));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSHR_HIT));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	EXPECT_EQ(a.t, b.t);
	EXPECT_EQ(1000001u, *(const uint32_t *)((const char *)b.src + 4));
	/* words 3-4: word 4 is not coming, a request of its own */
	(void)rig_req(&r, 0, rig_word(&r, 1, 3), NG_OP_LOAD, 0x18, rig_ns(1002));
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSHR_PARTIAL));
	EXPECT_EQ(2, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	/* once the words are back the entry is free: a new request */
	(void)rig_req(&r, 0, rig_word(&r, 1, 1), NG_OP_LOAD, 0x6, a.t + 1);
	EXPECT_EQ(1, rig_ctr(&r, 0, NG_CTR_MSHR_HIT));
	EXPECT_EQ(3, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
	rig_down(&r);
}

/*
 * An entry covers the words its transfer units bring: at xfer-gran 16 a
 * load of word 0 brings words 0-3, so a load of word 2 merges and one of
 * word 4 goes on; at xfer-gran 64 (the line, the bypass system) any word
 * of the line merges; at 4 only the word itself.
 */
TEST(an_entry_covers_its_transfer_units)
{
	static const struct {
		unsigned int gran;
		uint64_t hits;		/* of words 2, 4 and 15 */
	} c[] = { { 4, 0 }, { 16, 1 }, { 64, 3 } };
	struct rig r;

	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		rig_cfg(_metadata, &r, "dualopt", 2);
		r.cfg.remote_opt = NG_RO_COALESCE;
		r.cfg.codec.pack = 0;
		r.cfg.xfer_gran = c[i].gran;
		rig_up(_metadata, &r);
		(void)rig_req(&r, 0, rig_word(&r, 1, 0), NG_OP_LOAD, 0x1,
			      rig_ns(1000));
		(void)rig_req(&r, 0, rig_word(&r, 1, 2), NG_OP_LOAD, 0x4,
			      rig_ns(1001));
		(void)rig_req(&r, 0, rig_word(&r, 1, 4), NG_OP_LOAD, 0x10,
			      rig_ns(1002));
		(void)rig_req(&r, 0, rig_word(&r, 1, 15), NG_OP_LOAD,
			      1ULL << 15, rig_ns(1003));
		EXPECT_EQ(c[i].hits, rig_ctr(&r, 0, NG_CTR_MSHR_HIT))
			TH_LOG("xfer-gran %u", c[i].gran);
		EXPECT_EQ(4 - c[i].hits, rig_ctr(&r, 0, NG_CTR_FINE_REQ));
		rig_down(&r);
	}
}

TEST_HARNESS_MAIN
