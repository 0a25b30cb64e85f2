// SPDX-License-Identifier: GPL-2.0
/*
 * The stress component alone (model/stress.c, stress = N): it perturbs
 * the host threads (sleeps, yields) at one in N remote requests and at
 * interval ends, and must change no modeled value and no request's way:
 * the same requests give the same completion times and counters with it
 * and without it. It is in the pipeline only when stress is not 0.
 */
#include <string.h>

#include "model_rig.h"

/* Remote loads and stores of GPU 0 on GPU 1's memory, an L2 between. */
static void work(struct rig *r, ng_ticks *times, unsigned int n)
{
	r->sm[0].now = 0;
	for (unsigned int i = 0; i < n; i++) {
		uint32_t *p = rig_line(r, 1, i % 200);

		if (i % 7 == 3)
			times[i] = rig_store(r, 0, p, i, RIG_NOW);
		else
			(void)rig_load(r, 0, p, RIG_NOW, &times[i]);
		if (i % 100 == 99)
			rig_settle(r);
	}
}

static bool has_stress(const struct rig *r)
{
	for (unsigned int i = 0; i < r->m.ncomp; i++)
		if (!strcmp(r->m.comp[i]->name, "stress"))
			return true;
	return false;
}

TEST(stress_changes_no_modeled_value)
{
	enum { N = 1000 };
	static ng_ticks quiet[N], stressed[N];
	struct ng_counters a, b;
	struct rig r;

	rig_cfg(_metadata, &r, "carve", 2);
	r.cfg.l2.size = 64 << 10;
	rig_up(_metadata, &r);
	EXPECT_FALSE(has_stress(&r));
	work(&r, quiet, N);
	ng_model_counters(&r.m, -1, &a);
	ng_counters_add(&a, &r.sm[0].ctr);
	ng_counters_add(&a, &r.sm[1].ctr);
	rig_down(&r);

	rig_cfg(_metadata, &r, "carve", 2);
	r.cfg.l2.size = 64 << 10;
	r.cfg.stress = 2;
	rig_up(_metadata, &r);
	EXPECT_TRUE(has_stress(&r));
	work(&r, stressed, N);
	ng_model_counters(&r.m, -1, &b);
	ng_counters_add(&b, &r.sm[0].ctr);
	ng_counters_add(&b, &r.sm[1].ctr);
	rig_down(&r);

	for (unsigned int i = 0; i < N; i++) {
		ASSERT_EQ(quiet[i], stressed[i]) {
			TH_LOG("request %u", i);
		}
	}
	for (unsigned int c = 0; c < NG_CTR_MAX; c++) {
		EXPECT_EQ(a.v[c], b.v[c]) {
			TH_LOG("%s.%s", ng_counter_info[c].component,
			       ng_counter_info[c].name);
		}
	}
	/* the work did reach the L2 and the link */
	EXPECT_LT(0, a.v[NG_CTR_L2_HIT]);
	EXPECT_LT(0, a.v[NG_CTR_LINK_RX]);
}

TEST_HARNESS_MAIN
