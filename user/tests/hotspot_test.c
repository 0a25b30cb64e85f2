// SPDX-License-Identifier: GPL-2.0
/*
 * hotspot is Rodinia's calculate_temp with its pyramid: 16 x 16 blocks
 * that each load a tile of the temperatures and the power map, compute
 * pyramid_height (2) time steps in shared memory and store the inner 12 x
 * 12 cells. Its counters say so: ceil(side / 12) x ceil(side / 12) blocks
 * a kernel and steps / 2 kernels (one more of a single step for an odd
 * count); each block's 16 x 16 tile loaded, inside the grid, once for
 * each array, so the tiles' rings of 2 cells are loaded (and recomputed)
 * by the neighbouring blocks too; every cell stored once a kernel; a
 * tile's 16-float rows loaded as a line or two each. The warps'
 * instructions follow Rodinia's thread ranges step by step: in step i the
 * threads with tx and ty in [i + 1, 14 - i] and inside the grid compute,
 * each warp that has one issues the update, and every warp issues the
 * range test of each step and, between steps (the barriers around the
 * copy back into temp_on_cuda), the copy.
 */
#include <stdlib.h>

#include "ng_test.h"

#include "bench_run.h"

#include "ngemu/config.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#define SIDE	100		/* cells a side: not a multiple of 12 */
#define B	16		/* BLOCK_SIZE */
#define PH	2		/* pyramid_height */
#define NB	((SIDE + B - 2 * PH - 1) / (B - 2 * PH))	/* 9 */
/* hotspot.c's HS_INSTS_*: a warp's instructions by phase */
#define I_LOAD	20
#define I_RANGE	20
#define I_TEST	10
#define I_CELL	29
#define I_COPY	4
#define I_STORE	3

static void run(struct __test_metadata *_metadata, unsigned int steps,
		struct ng_bench_result *r)
{
	struct ng_bench_opts o = { .size = SIDE * SIDE * 4, .iters = steps };
	char err[256];

	ASSERT_EQ(0, bench_run("carve", BENCH_SCALED | BENCH_ONE_SM, NULL,
			       ng_workload_find("hotspot"), &o, r, err,
			       sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	EXPECT_EQ(SIDE * SIDE, r->elements);
}

/* A tile's first row (or column) and the part of it inside the grid. */
static void tile(unsigned int bi, int it, int *lo, int *hi)
{
	int y0 = (B - 2 * it) * (int)bi - PH;

	*lo = y0 < 0 ? -y0 : 0;
	*hi = y0 + B - 1 > SIDE - 1 ? SIDE - 1 - y0 : B - 1;
}

/* Tile cells inside the grid along one dimension, over the blocks. */
static uint64_t cover(int it)
{
	uint64_t s = 0;

	for (unsigned int bi = 0; bi < NB; bi++) {
		int lo, hi;

		tile(bi, it, &lo, &hi);
		/* a one-step kernel's last tiles can lie past the grid */
		if (hi >= lo)
			s += (uint64_t)(hi - lo + 1);
	}
	return s;
}

static int max(int a, int b)
{
	return a > b ? a : b;
}

static int min(int a, int b)
{
	return a < b ? a : b;
}

/* A kernel of @it steps: the warps' instructions, Rodinia's ranges. */
static uint64_t insts(int it)
{
	uint64_t n = 0;

	for (unsigned int by = 0; by < NB; by++)
		for (unsigned int bx = 0; bx < NB; bx++) {
			int ylo, yhi, xlo, xhi;

			tile(by, it, &ylo, &yhi);
			tile(bx, it, &xlo, &xhi);
			for (int wi = 0; wi < B * B / 32; wi++) {
				n += I_LOAD + I_RANGE + I_STORE + it * I_TEST +
				     (it - 1) * I_COPY;
				/* rows 2 wi and 2 wi + 1, all 16 columns */
				for (int i = 0; i < it; i++)
					if (max(max(2 * wi, i + 1), ylo) <=
					    min(min(2 * wi + 1, B - i - 2), yhi) &&
					    max(i + 1, xlo) <= min(B - i - 2, xhi))
						n += I_CELL;
			}
		}
	return n;
}

static void check(struct __test_metadata *_metadata,
		  const struct ng_bench_result *r, unsigned int steps)
{
	const struct ng_counters *t = &r->total;
	unsigned int kernels = (steps + PH - 1) / PH;
	uint64_t lanes = 0, in = 0;

	for (unsigned int k = 0; k < kernels; k++) {
		int it = k + 1 < kernels || !(steps % PH) ? PH : (int)(steps % PH);

		lanes += 2 * cover(it) * cover(it) + SIDE * SIDE;
		in += insts(it);
	}
	EXPECT_EQ(kernels * NB * NB, t->v[NG_CTR_BLOCKS]);
	/* temperature and power of each tile cell in the grid; each cell's store */
	EXPECT_EQ(lanes, t->v[NG_CTR_LANES]);
	/* a block's 16-float rows: one or two lines each, both arrays */
	EXPECT_GE(kernels * NB * NB * 2 * B * 2, t->v[NG_CTR_REQ_LOAD]);
	/*
	 * its rows of stored cells (12, or 14 in a one-step kernel), a line
	 * or two each; a grid row's 400 bytes take 4 lines at least
	 */
	EXPECT_GE(kernels * NB * NB * (B - 2) * 2, t->v[NG_CTR_REQ_STORE]);
	EXPECT_LE(kernels * SIDE * ((SIDE * 4 + 127) / 128), t->v[NG_CTR_REQ_STORE]);
	EXPECT_EQ(in, t->v[NG_CTR_INSTS]);
}

TEST(two_steps_a_kernel)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	run(_metadata, 4, r);
	check(_metadata, r, 4);
	free(r);
}

/* Rodinia's last launch of MIN(pyramid_height, steps left): one step */
TEST(an_odd_step_count_ends_with_a_one_step_kernel)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	run(_metadata, 3, r);
	check(_metadata, r, 3);
	free(r);
}

TEST_HARNESS_MAIN
