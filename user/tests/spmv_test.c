// SPDX-License-Identifier: GPL-2.0
/*
 * spmv is SHOC's CSR-vector kernel: a wavefront per row of a square
 * matrix with 1% of its positions filled. Its counters say so: as many
 * 128-thread blocks as rows fill (4 rows a block with 32-lane warps, 2
 * with 64-lane wavefronts), one store a row (lane 0's y), each nonzero's
 * col, val and x read by one lane, and a row's cols and vals read by
 * consecutive lanes, at most two lines per trip of the wavefront's loop
 * (a thread per row would read them a line per lane).
 */
#include <stdlib.h>

#include "ng_test.h"

#include "bench_run.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#define SIZE	(256u << 10)	/* bytes of val: 65536 nonzeros */
#define ROWS	2560ULL		/* 2560 x 2560, 1% of it */
#define ITERS	2

static void run(struct __test_metadata *_metadata, const char *warp_width,
		struct ng_bench_result *r)
{
	const char *const kv[] = { "warp-width", warp_width, NULL };
	struct ng_bench_opts o = { .size = SIZE, .iters = ITERS };
	char err[256];

	ASSERT_EQ(0, bench_run("carve", BENCH_SCALED | BENCH_ONE_SM, kv,
			       ng_workload_find("spmv"), &o, r, err,
			       sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	/* SHOC's nItems = numRows * numRows / 100, exactly */
	EXPECT_EQ(ROWS * ROWS / 100, r->elements);
}

static void check(struct __test_metadata *_metadata,
		  const struct ng_bench_result *r, unsigned int vec)
{
	const struct ng_counters *t = &r->total;
	uint64_t nnz = r->elements, halves = vec / 32;

	EXPECT_EQ(ITERS * ROWS * vec / 128, t->v[NG_CTR_BLOCKS]);
	EXPECT_EQ(ITERS * ROWS, t->v[NG_CTR_REQ_STORE]);
	/* each half's two delimiter loads, y's store; col, val, x a nonzero */
	EXPECT_EQ(ITERS * (ROWS * (2 * halves + 1) + 3 * nnz), t->v[NG_CTR_LANES]);
	/*
	 * the delimiters, x (a line a lane at most), and each half's cols
	 * and vals: a trip's 32 words on two lines at most, and a row has at
	 * most nnz / vec + 1 trips
	 */
	EXPECT_GE(ITERS * (2 * halves * ROWS + nnz +
			   2 * 2 * halves * (nnz / vec + ROWS)),
		  t->v[NG_CTR_REQ_LOAD]);
}

TEST(a_warp_per_row)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	run(_metadata, "32", r);
	check(_metadata, r, 32);
	free(r);
}

TEST(a_wavefront_per_row)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	run(_metadata, "64", r);
	check(_metadata, r, 64);
	/* the halves' delimiter loads are one wavefront's: shared lines */
	EXPECT_LE(2 * ITERS * ROWS, r->total.v[NG_CTR_WAVE_SHARED]);
	free(r);
}

TEST_HARNESS_MAIN
