// SPDX-License-Identifier: GPL-2.0
/*
 * sched mgpusim: every block runs on the GPU MGPUSim's unified multi-GPU
 * driver gives its work-group. The expected map is computed here the way
 * MGPUSim v3.0.0 computes it (driver/driver.go: distributeWGToGPUs fills
 * wgDist, the WGFilter of processUnifiedMultiGPULaunchKernelCommand keeps
 * a GPU's flattened ids), and compared with the GPU whose SM ran each
 * block of a real launch.
 */
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/model/model.h"
#include "ngemu/ngemu.h"
#include "ngemu/runtime/sched.h"

#define MAX_BLOCKS 1024

/*
 * distributeWGToGPUs, loop for loop: every CU of the unified device is
 * owed wgPerCU work-groups, and GPU i, in order, gets its CUs' worth after
 * GPU i-1's. wg_dist has ngpus + 1 entries.
 */
static void mgpusim_dist(unsigned int ngpus, unsigned int cu_count,
			 unsigned int num_wg_x, unsigned int num_wg_y,
			 int *wg_dist)
{
	int total_cu_count = 0, wg_allocated = 0, total_wg_count, wg_per_cu;

	for (unsigned int i = 0; i < ngpus; i++)
		total_cu_count += (int)cu_count;
	total_wg_count = (int)(num_wg_x * num_wg_y);	/* numWGZ is 1 */
	wg_per_cu = (total_wg_count - 1) / total_cu_count + 1;
	wg_dist[0] = 0;
	for (unsigned int i = 0; i < ngpus; i++) {
		int wg_to_allocate = (int)cu_count * wg_per_cu;

		wg_dist[i + 1] = wg_allocated + wg_to_allocate;
		wg_allocated += wg_to_allocate;
	}
}

/* The GPU whose WGFilter keeps work-group (x, y), or -1. */
static int mgpusim_filter_gpu(const int *wg_dist, unsigned int ngpus,
			      unsigned int num_wg_x, unsigned int x,
			      unsigned int y)
{
	int flattened_id = (int)(y * num_wg_x + x);

	for (unsigned int i = 0; i < ngpus; i++)
		if (flattened_id >= wg_dist[i] && flattened_id < wg_dist[i + 1])
			return (int)i;
	return -1;
}

struct where {
	int gpu[MAX_BLOCKS];	/* by block index in the grid */
	unsigned int runs[MAX_BLOCKS];
};

static void record_kernel(struct ng_block *b, void *p)
{
	struct where *w = p;
	uint64_t at = (uint64_t)b->idx.y * b->grid.x + b->idx.x;

	w->gpu[at] = (int)b->sm->gpu;
	w->runs[at]++;
}

/* @preset's system, sched mgpusim, @sms emulated SMs of @scale real ones */
static void system_of(struct ng_config *c, const char *preset,
		      unsigned int sms, unsigned int scale)
{
	char err[256];

	if (ng_config_preset(c, preset, err, sizeof(err)) ||
	    ng_config_set(c, "sched", "mgpusim", err, sizeof(err)))
		abort();
	if (sms) {
		c->sms = sms;
		c->sm_scale = scale;
	}
	c->mem_per_gpu = 64 << 20;
	c->deterministic = true;
}

/*
 * Launch a gx x gy grid on @cfg and check every block ran once on the GPU
 * MGPUSim gives it. Returns the number of GPUs that ran blocks and, in
 * *batch_differs, whether batch would have put some block elsewhere.
 */
static unsigned int check_map(struct __test_metadata *_metadata,
			      const struct ng_config *cfg, unsigned int gx,
			      unsigned int gy, bool *batch_differs)
{
	struct where *w = calloc(1, sizeof(*w));
	struct ng_launch l = { .name = "where", .fn = record_kernel,
			       .grid = { gx, gy }, .block = { NG_WARP, 1 },
			       .only_gpu = -1 };
	unsigned int cus = cfg->sms * cfg->sm_scale, used = 0, n = gx * gy;
	bool seen[NG_MAX_GPUS] = { false };
	int wg_dist[NG_MAX_GPUS + 1];
	struct ng_system *sys;
	char err[256];

	if (!w || n > MAX_BLOCKS) {
		free(w);
		return 0;
	}
	l.args = w;
	EXPECT_EQ(NG_SCHED_MGPUSIM, cfg->sched);
	mgpusim_dist(cfg->gpus, cus, gx, gy, wg_dist);
	if (ng_system_create(&sys, cfg, err, sizeof(err))) {
		TH_LOG("%s", err);
		free(w);
		return 0;
	}
	EXPECT_EQ(0, ng_launch(sys, &l, NULL));
	ng_system_destroy(sys);
	*batch_differs = false;
	for (unsigned int y = 0; y < gy; y++)
		for (unsigned int x = 0; x < gx; x++) {
			unsigned int b = y * gx + x;
			int want = mgpusim_filter_gpu(wg_dist, cfg->gpus, gx,
						      x, y);

			EXPECT_EQ(1, w->runs[b]) TH_LOG("block (%u, %u)", x, y);
			EXPECT_EQ(want, w->gpu[b])
				TH_LOG("block (%u, %u) of %ux%u", x, y, gx, gy);
			if (w->runs[b] && w->gpu[b] >= 0 && !seen[w->gpu[b]]) {
				seen[w->gpu[b]] = true;
				used++;
			}
			/* batch: b / ceil(nblocks / ngpus) */
			if ((unsigned int)want !=
			    b / ((n + cfg->gpus - 1) / cfg->gpus))
				*batch_differs = true;
		}
	free(w);
	return used;
}

/*
 * The rec preset (4 GPUs of 64 CUs): 16 work-groups are one for each of
 * GPU 0's first 16 CUs, so GPUs 1 to 3 get none; batch would give each
 * GPU 4.
 */
TEST(small_grid_lands_on_gpu_0)
{
	struct ng_config c;
	bool differs;

	system_of(&c, "rec", 0, 0);
	ASSERT_EQ(4, c.gpus);
	ASSERT_EQ(64, c.sms * c.sm_scale);
	EXPECT_EQ(1, check_map(_metadata, &c, 16, 1, &differs));
	EXPECT_TRUE(differs);
	/* dualopt's CUs, as REC's */
	system_of(&c, "dualopt", 0, 0);
	EXPECT_EQ(1, check_map(_metadata, &c, 16, 1, &differs));
}

/*
 * 1024 work-groups on 256 CUs are 4 a CU, 256 a GPU: the equal split. On
 * 4 GPUs of 6 CUs they are 43 a CU, 258 a GPU, and the last GPU gets the
 * 250 left, which batch (256 each) does not do.
 */
TEST(large_grid)
{
	struct ng_config c;
	bool differs;

	system_of(&c, "rec", 0, 0);
	EXPECT_EQ(4, check_map(_metadata, &c, 1024, 1, &differs));
	EXPECT_FALSE(differs);
	system_of(&c, "rec", 6, 1);
	EXPECT_EQ(4, check_map(_metadata, &c, 1024, 1, &differs));
	EXPECT_TRUE(differs);
}

/*
 * MGPUSim counts real CUs: 4 emulated SMs of 16 real ones are 64 CUs, and
 * 100 work-groups fill GPU 0's 64 and 36 of GPU 1's, GPUs 2 and 3 idle.
 */
TEST(cus_are_real_sms)
{
	struct ng_config c;
	bool differs;

	system_of(&c, "rec", 4, 16);
	EXPECT_EQ(2, check_map(_metadata, &c, 100, 1, &differs));
	EXPECT_TRUE(differs);
	EXPECT_EQ(4, check_map(_metadata, &c, 1024, 1, &differs));
}

/*
 * A 2-D grid is split by flattened id, x fastest (the WGFilter's
 * IDY * numWGX + IDX): 40 x 25 = 1000 work-groups are 4 a CU, GPUs 0 to
 * 2 take 256 each (6.4 rows), GPU 3 the 232 left.
 */
TEST(two_d_grid_flattened_x_fastest)
{
	struct ng_config c;
	bool differs;

	system_of(&c, "rec", 0, 0);
	EXPECT_EQ(4, check_map(_metadata, &c, 40, 25, &differs));
	EXPECT_TRUE(differs);
	/* 5 x 20 = 100: GPU 0 rows 0-11 and 4 blocks of row 12, GPU 1 the rest */
	EXPECT_EQ(2, check_map(_metadata, &c, 5, 20, &differs));
}

/* REC and DualOpt ran MGPUSim's unified mode: their presets schedule so. */
TEST(rec_and_dualopt_presets_use_it)
{
	static const char *const presets[] = { "rec", "dualopt" };

	for (unsigned int i = 0; i < 2; i++) {
		struct ng_config c;
		bool differs;
		char err[256];

		ASSERT_EQ(0, ng_config_preset(&c, presets[i], err, sizeof(err)));
		EXPECT_EQ(NG_SCHED_MGPUSIM, c.sched) TH_LOG("%s", presets[i]);
		c.mem_per_gpu = 64 << 20;
		c.deterministic = true;
		EXPECT_EQ(1, check_map(_metadata, &c, 16, 1, &differs));
	}
}

/*
 * Within a GPU its blocks come in ascending order, as with batch, and
 * stealing still hands an idle GPU the blocks MGPUSim left on GPU 0.
 */
TEST(queues_and_stealing)
{
	const struct ng_sched_shape sh = { .ngpus = 4, .cus_per_gpu = 64 };
	int wg_dist[5];
	struct ng_sched s = { 0 };
	unsigned char seen[300] = { 0 };
	bool stolen;
	int64_t b;
	int n = 0;

	mgpusim_dist(4, 64, 300, 1, wg_dist);
	ASSERT_EQ(0, ng_sched_prepare(&s, NG_SCHED_MGPUSIM, false, 300, &sh,
				      -1));
	for (unsigned int g = 0; g < 4; g++) {
		for (int i = wg_dist[g]; i < wg_dist[g + 1] && i < 300; i++) {
			b = ng_sched_next(&s, g, &stolen);
			EXPECT_EQ(i, b);
			EXPECT_FALSE(stolen);
		}
		EXPECT_EQ(-1, ng_sched_next(&s, g, &stolen));
	}
	ASSERT_EQ(0, ng_sched_prepare(&s, NG_SCHED_MGPUSIM, true, 16, &sh,
				      -1));
	while ((b = ng_sched_next(&s, 3, &stolen)) >= 0) {
		ASSERT_LT(b, 16);
		EXPECT_EQ(0, seen[b]);
		seen[b] = 1;
		EXPECT_TRUE(stolen);
		n++;
	}
	EXPECT_EQ(16, n);
	ng_sched_fini(&s);
}

TEST_HARNESS_MAIN
