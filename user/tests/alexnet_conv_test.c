// SPDX-License-Identifier: GPL-2.0
/*
 * alexnet-conv (lib/workloads/dnn/alexnet_conv.c) under CARVE's systems at
 * the scaled regime of `ngemu bench --compare`: the filters, written by
 * GPU 0, are read remotely by the other GPUs while each GPU's images stay
 * local; an RDC with hardware coherence keeps the filters from one kernel
 * to the next, one flushed at kernel boundaries does not; --size scales
 * the batch; a wrong element fails the check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "bench_run.h"

/* An output image: 256 channels of 27 x 27 */
#define OUT_IMG (256 * 27 * 27)
/* 256 filters of 48 x 5 x 5 and their biases */
#define FILTER_BYTES ((256 * 48 * 25 + 256) * 4)

/* The carve preset at the scaled regime's sizes, all its SMs; @kv on top. */
static int run_conv(const char *const *kv, struct ng_bench_opts *o,
		    struct ng_bench_result *r, char *err, size_t errlen)
{
	return bench_run("carve", BENCH_SCALED, kv,
			 ng_workload_find("alexnet-conv"), o, r, err, errlen);
}

TEST(the_filters_are_read_remotely_and_an_rdc_keeps_them)
{
	static const char *const numa[] = { "rdc-size", "0",
					    "sharing-profile", "yes", NULL };
	static const char *const hwc[] = { "rdc-size", "4M", "coherence", "hwc",
					   NULL };
	static const char *const swc[] = { "rdc-size", "4M", "coherence", "swc",
					   NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { 0 };
	const uint64_t *rem;
	double numa_link;
	char err[512];

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, run_conv(numa, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	/* the default: a batch of 4, one image a GPU, 4 forward passes */
	EXPECT_EQ(4ULL * OUT_IMG, r->elements);
	EXPECT_EQ(4, r->iters);
	/* GPU 0 holds the filters and its image: next to nothing remote */
	EXPECT_GT(r->gpu[0].v[NG_CTR_REQ] / 100, r->gpu[0].v[NG_CTR_REMOTE]);
	/*
	 * the others read the filters from it, all of them in every kernel
	 * (the L2 is flushed at kernel boundaries, and smaller)
	 */
	for (unsigned int g = 1; g < 4; g++) {
		EXPECT_LT(r->gpu[g].v[NG_CTR_REQ] / 5, r->gpu[g].v[NG_CTR_REMOTE])
			TH_LOG("GPU %u", g);
		EXPECT_LE(4ULL * FILTER_BYTES, r->gpu[g].v[NG_CTR_LINK_RX])
			TH_LOG("GPU %u", g);
	}
	EXPECT_EQ(0, r->total.v[NG_CTR_RDC_HIT]);
	/*
	 * What crosses is read-shared (the filters); the rest is the pages
	 * that straddle two GPUs' images, private to one of them
	 */
	ASSERT_TRUE(r->has_sharing);
	rem = r->sharing.remote[NG_GRAIN_LINE];
	EXPECT_LT(3 * (rem[NG_SHARE_PRIVATE] + rem[NG_SHARE_RW]),
		  rem[NG_SHARE_READ]);
	EXPECT_EQ(0, rem[NG_SHARE_RW]);
	numa_link = r->link_frac;
	EXPECT_LT(0.05, numa_link);

	/*
	 * The RDC holds the 1.2 MiB of filters an L2 of 256 KiB cannot:
	 * kernels 2-4 find them there (3 of 4 lookups)
	 */
	ASSERT_EQ(0, run_conv(hwc, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_LT(0.6, r->rdc_hit_rate);
	EXPECT_LT(0, r->total.v[NG_CTR_RDC_HIT]);
	EXPECT_GT(numa_link / 2, r->link_frac);

	/* flushed at each kernel's end, with one image a GPU: no reuse left */
	ASSERT_EQ(0, run_conv(swc, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_GT(0.1, r->rdc_hit_rate);
	EXPECT_LT(0.8 * numa_link, r->link_frac);
	free(r);
}

TEST(size_scales_the_batch_and_a_wrong_element_fails)
{
	static const char *const hwc[] = { "rdc-size", "4M", NULL };
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .size = 4 << 20, .iters = 1 };
	char err[512];

	ASSERT_NE(NULL, r);
	/* 12 MiB less the filters' 1.2 MiB: 11 images of 1002 KiB */
	ASSERT_EQ(0, run_conv(hwc, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(11ULL * OUT_IMG, r->elements);

	o.size = 0;
	o.corrupt = true;
	ASSERT_EQ(0, run_conv(hwc, &o, r, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_FALSE(r->verified);
	EXPECT_NE(NULL, strstr(r->verify, "the CPU reference says"))
		TH_LOG("%s", r->verify);

	/* a third of 1.5 MiB: too small for one image beside the filters */
	o.size = 512 << 10;
	o.corrupt = false;
	EXPECT_EQ(-EINVAL, run_conv(hwc, &o, r, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "one image")) TH_LOG("%s", err);
	free(r);
}

TEST_HARNESS_MAIN
