// SPDX-License-Identifier: GPL-2.0
/*
 * hpgmg and comd (workloads/proxy/) as CARVE's HPC proxies: each does
 * what its original computes (a V-cycle cuts the residual, an MD step
 * conserves momentum), a wrong element fails, and under NUMA-GPU their
 * remote data is the halo another GPU rewrites between kernels.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "bench_run.h"

/* The carve preset in the scaled regime, one SM a GPU; @kv on top. */
static int run(const char *wl, const char *const *kv, struct ng_bench_opts *o,
	       struct ng_bench_result *r, char *err, size_t errlen)
{
	return bench_run("carve", BENCH_SCALED | BENCH_ONE_SM, kv,
			 ng_workload_find(wl), o, r, err, errlen);
}

/* The RMS residual after @iters V-cycles, from the verification message. */
static double hpgmg_residual(struct __test_metadata *_metadata,
			     unsigned int iters, double *before)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .iters = iters };
	double a = -1, b = -1;
	const char *p;
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run("hpgmg", NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	p = strstr(r->verify, "rms residual ");
	ASSERT_NE(NULL, p) TH_LOG("%s", r->verify);
	EXPECT_EQ(2, sscanf(p, "rms residual %lf -> %lf", &a, &b));
	free(r);
	*before = a;
	return b;
}

TEST(each_v_cycle_cuts_the_residual)
{
	double r0, r1, r2, r3;

	r1 = hpgmg_residual(_metadata, 1, &r0);
	r2 = hpgmg_residual(_metadata, 2, &r0);
	r3 = hpgmg_residual(_metadata, 3, &r0);
	EXPECT_LT(r1, r0 / 2) TH_LOG("%g -> %g", r0, r1);
	EXPECT_LT(r2, r1 / 3) TH_LOG("%g -> %g", r1, r2);
	EXPECT_LT(r3, r2 / 3) TH_LOG("%g -> %g", r2, r3);
}

TEST(an_md_step_conserves_momentum)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .iters = 2 };
	double p[3], ek, eu, natoms = 19652;
	const char *s;
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run("comd", NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	s = strstr(r->verify, "momentum (");
	ASSERT_NE(NULL, s) TH_LOG("%s", r->verify);
	ASSERT_EQ(5, sscanf(s, "momentum (%lf, %lf, %lf), eK %lf eU %lf",
			    &p[0], &p[1], &p[2], &ek, &eu)) TH_LOG("%s", s);
	/* the atoms move: an atom's momentum sqrt(2 m eK / N) is ~1 */
	EXPECT_LT(0.1, ek);
	EXPECT_GT(0, eu);
	/* and the total stays at its start, zero, to float rounding */
	for (int m = 0; m < 3; m++) {
		double pm = fabs(p[m]);

		EXPECT_GT(1e-2 * sqrt(2 * 63.55 * 103.64 * ek / natoms), pm)
			TH_LOG("momentum: %g", pm);
	}
	free(r);
}

TEST(a_wrong_element_fails_verification)
{
	static const char *const wl[] = { "hpgmg", "comd" };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512];

	ASSERT_NE(NULL, r);
	for (int i = 0; i < 2; i++) {
		struct ng_bench_opts o = { .corrupt = true };

		ASSERT_EQ(0, run(wl[i], NULL, &o, r, err, sizeof(err))) TH_LOG("%s", err);
		EXPECT_FALSE(r->verified) TH_LOG("%s", wl[i]);
		EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"))
			TH_LOG("%s", r->verify);
	}
	free(r);
}

/*
 * Under NUMA-GPU (no RDC), with the sharing profile: each GPU's boxes or
 * cells are its own, and what crosses a link is mostly the halo of
 * boxes or cells another GPU rewrites in every step (read-write shared
 * lines); comd also reads every cell's count (read-shared).
 */
TEST(the_remote_data_is_the_rewritten_halo)
{
	static const char *const numa[] = { "rdc-size", "0",
					    "sharing-profile", "yes", NULL };
	static const char *const wl[] = { "hpgmg", "comd" };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	char err[512];

	ASSERT_NE(NULL, r);
	for (int i = 0; i < 2; i++) {
		struct ng_bench_opts o = { 0 };
		const uint64_t *all, *rem;
		uint64_t n;

		ASSERT_EQ(0, run(wl[i], numa, &o, r, err, sizeof(err))) TH_LOG("%s", err);
		EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
		ASSERT_TRUE(r->has_sharing);
		all = r->sharing.all[NG_GRAIN_LINE];
		rem = r->sharing.remote[NG_GRAIN_LINE];
		n = all[NG_SHARE_PRIVATE] + all[NG_SHARE_READ] + all[NG_SHARE_RW];
		EXPECT_LT(0.1 * n, all[NG_SHARE_RW]) TH_LOG("%s", wl[i]);
		EXPECT_LT(0, rem[NG_SHARE_RW]) TH_LOG("%s", wl[i]);
		if (i == 1)
			EXPECT_LT(0, rem[NG_SHARE_READ]);
		EXPECT_GT(0.5, r->remote_frac) TH_LOG("%s: %.3f", wl[i], r->remote_frac);
	}
	free(r);
}

TEST_HARNESS_MAIN
