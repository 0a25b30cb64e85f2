// SPDX-License-Identifier: GPL-2.0
/*
 * ScaleGPU's system as a user meets it: every workload of its suite
 * verified with device memory caching the host and failing when one
 * element is wrong; the compare table against full
 * (the data in device memory, copied in and out), split code and
 * zero-copy, what device memory's share of the data changes, and the
 * errors of bad settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/workloads/workload.h"
#include "cmp_csv.h"
#include "run_cmd.h"

/* |a - b| <= tol */
#define EXPECT_NEAR(a, b, tol) EXPECT_GE((tol), (a) > (b) ? (a) - (b) : (b) - (a))

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

#include "suite_cases.h"

FIXTURE(scalegpu) {
	struct cmd_result r;
};

FIXTURE_SETUP(scalegpu)
{
	(void)self;
}

FIXTURE_TEARDOWN(scalegpu)
{
	(void)self;
}

TEST_F(scalegpu, workloads_verify_and_catch_one_wrong_element)
{
	EXPECT_LE(1, suite_verifies(_metadata, &self->r, ng_suite_bit("scalegpu"),
				   "scalegpu", "\nscalegpu   tag hit rate "));
}

/*
 * Bank Account's transfers must conserve the total: one account off (as
 * a transfer's lost half leaves it) fails the conservation check.
 */
TEST_F(scalegpu, bank_catches_a_lost_transfer)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "bank", "--system",
					     "scalegpu", "--size", "256K",
					     "--corrupt-one")));
	EXPECT_EQ(1, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.out, "(a transfer lost or doubled)"))
		TH_LOG("%s", self->r.out);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "bank", "--system",
					     "scalegpu", "--size", "256K")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "transfers conserve the total"));
}

/*
 * hotspot's three arrays of 1 MiB, four time steps (two kernels of
 * two): with all of the data, each row is fetched once and the second
 * kernel hits; with 12.5% the arrays' rows take each other's slots.
 */
TEST_F(scalegpu, device_memory_share_decides_hits_and_fetches)
{
	const char *o;

	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "--compare", "hotspot",
					     "--system", "scalegpu", "--size", "1M",
					     "--iters", "4", "--csv", "--sweep",
					     "device-mem=100%,12.5%")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	o = self->r.out;
	EXPECT_NE(NULL, strstr(o, "d2h_s,device_mem,host_bytes")) TH_LOG("%s", o);
	/* full is the reference; only its copies cross the host link */
	EXPECT_EQ(1, field(o, "100%", "full", "speedup_vs_reference")) TH_LOG("%s", o);
	EXPECT_EQ(0, field(o, "100%", "full", "host_bytes"));
	/*
	 * 2 MiB read (temperature in, power) copied in once, 2 MiB written
	 * (both temperature arrays) out once; split code for an eighth of
	 * the data copies them around each of the 2 kernels: twice as much,
	 * each kernel's own (split_mem_test: at 100% it is full)
	 */
	EXPECT_LT(0, field(o, "100%", "full", "h2d_s"));
	EXPECT_NEAR(2 * field(o, "100%", "full", "h2d_s"),
		    field(o, "12.5%", "split", "h2d_s"), 1e-6) TH_LOG("%s", o);
	EXPECT_LT(field(o, "100%", "full", "d2h_s"), field(o, "12.5%", "split", "d2h_s"));
	EXPECT_NEAR(field(o, "100%", "full", "kernel_s"), field(o, "12.5%", "split", "kernel_s"),
		    1e-9);
	EXPECT_NEAR(field(o, "100%", "full", "modeled_s"), field(o, "100%", "full", "h2d_s") +
		    field(o, "100%", "full", "kernel_s") + field(o, "100%", "full", "d2h_s"),
		    1e-9);
	/* 3 MiB of 2 KB rows, each fetched once */
	EXPECT_EQ(3 * 512, field(o, "100%", "scalegpu", "fetches")) TH_LOG("%s", o);
	EXPECT_EQ(0, field(o, "100%", "scalegpu", "evicted"));
	EXPECT_LT(0.3, field(o, "100%", "scalegpu", "tag_hit_rate"));
	/* it moves less over the link than zero-copy's every access */
	EXPECT_GT(field(o, "100%", "zero-copy", "host_bytes"),
		  field(o, "100%", "scalegpu", "host_bytes"));
	/* an eighth of the data: conflicts evict rows, hits fall */
	EXPECT_LT(0, field(o, "12.5%", "scalegpu", "evicted"));
	EXPECT_GT(field(o, "100%", "scalegpu", "tag_hit_rate"),
		  field(o, "12.5%", "scalegpu", "tag_hit_rate"));
	for (unsigned int i = 0; i < 4; i++) {
		static const char *const sys[] = { "full", "split", "zero-copy",
						   "scalegpu" };

		EXPECT_EQ(1, field(o, "100%", sys[i], "verified")) TH_LOG("%s", sys[i]);
		EXPECT_EQ(1, field(o, "12.5%", sys[i], "verified")) TH_LOG("%s", sys[i]);
	}
}

TEST_F(scalegpu, the_report_says_what_device_memory_did)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "scalegpu", "--size", "1M",
					     "--device-mem", "50%")));
	EXPECT_EQ(0, self->r.status) TH_LOG("%s", self->r.err);
	EXPECT_NE(NULL, strstr(self->r.out, "system     ScaleGPU (preset scalegpu)"));
	EXPECT_NE(NULL, strstr(self->r.out,
			       "ScaleGPU device memory 50% of the data caching host memory, 2048 B per tag, TMH 32/32 x 6"))
		TH_LOG("%s", self->r.out);
	EXPECT_NE(NULL, strstr(self->r.out, "\nscalegpu   tag hit rate "));
}

TEST_F(scalegpu, bad_settings_are_usage_errors)
{
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "scalegpu", "--device-mem", "150%")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "above 0% and up to 100%")) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "scalegpu", "--tag-bytes", "1000")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "power of two")) TH_LOG("%s", self->r.err);
	ASSERT_EQ(0, run_cmd(&self->r, NGEMU("bench", "stream-triad", "--system",
					     "scalegpu", "--placement", "cgp")));
	EXPECT_EQ(2, self->r.status);
	EXPECT_NE(NULL, strstr(self->r.err, "placement host")) TH_LOG("%s", self->r.err);
}

TEST_HARNESS_MAIN
