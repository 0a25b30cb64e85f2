// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric's topology (model/link.c, ng_link_route()), measured as the
 * calibration streams measure a link: lines read once from other GPUs'
 * memory, no cache in the way, much data next to one latency. On a mesh
 * a GPU reading from the three others gets three links' bandwidth; behind
 * a switch or a hub, its one port's. All-to-all traffic behind a switch
 * gives every GPU its port's bandwidth.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#define BLOCK		256
#define WORDS		(4u << 20)	/* 16 MiB per GPU's buffer */
#define LINK_BW		64.0

struct xfer {
	const uint32_t *v[NG_MAX_GPUS];
	unsigned int ngpus;
	uint64_t *sums;
};

/*
 * Block b of GPU g reads its share of the buffer on GPU g + 1 + b % 3:
 * every other GPU's memory alike.
 */
static void read_others(struct ng_block *b, void *p)
{
	struct xfer *x = p;
	unsigned int g = b->sm->gpu;
	unsigned int from = (g + 1 + (unsigned int)(b->id % (x->ngpus - 1))) %
			    x->ngpus;
	uint64_t chunk = b->id / (x->ngpus - 1), sum = 0;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i0 = (chunk * BLOCK + wi * NG_WARP) % WORDS;
		uint32_t v[NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		ng_ld_contig(&w, x->v[from] + i0, 4, v);
		for (unsigned int l = 0; l < w.nlanes; l++)
			sum += v[l];
		ng_warp_compute(&w, 4);
	}
	x->sums[b->id] = sum;
}

/*
 * GB/s one receiving GPU gets: GPU 0 alone (@only0) or every GPU at
 * once, reading 3 x 16 MiB each, under @topology.
 */
static double bandwidth(struct __test_metadata *_metadata,
			const char *topology, bool only0)
{
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_buf buf[4] = { 0 };
	struct xfer x = { .ngpus = 4 };
	struct ng_launch l = { .name = "read-others", .fn = read_others,
			       .block = { BLOCK, 1 }, .args = &x,
			       .only_gpu = only0 ? 0 : -1 };
	struct ng_launch_result lr;
	unsigned int receivers = only0 ? 1 : 4;
	uint64_t per_gpu_blocks = 3ULL * WORDS / BLOCK;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	ASSERT_EQ(0, ng_config_set(&cfg, "topology", topology, err, sizeof(err)))
		TH_LOG("%s", err);
	cfg.l2_size = 0;
	cfg.rdc_size = 0;
	cfg.rdc_pct = 0;
	cfg.link_bw = LINK_BW;
	cfg.deterministic = true;
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	for (unsigned int g = 0; g < 4; g++) {
		struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = g };

		ASSERT_EQ(0, ng_malloc(ng_system_space(sys), &buf[g], WORDS * 4ULL,
				       &ao, err, sizeof(err))) TH_LOG("%s", err);
		for (uint32_t i = 0; i < WORDS; i++)
			((uint32_t *)buf[g].ptr)[i] = i ^ g;
		x.v[g] = buf[g].ptr;
	}
	l.grid.x = (unsigned int)(per_gpu_blocks * receivers);
	x.sums = calloc(l.grid.x, sizeof(*x.sums));
	ASSERT_NE(NULL, x.sums);
	ASSERT_EQ(0, ng_launch(sys, &l, &lr));
	for (unsigned int g = 0; g < 4; g++)
		ng_free(ng_system_space(sys), &buf[g]);
	free(x.sums);
	ng_system_destroy(sys);
	/* bytes per receiving GPU over the kernel's modeled time */
	return 3.0 * WORDS * 4 / ((double)lr.modeled / NG_TICKS_PER_NS);
}

TEST(one_gpu_reading_all_others_gets_its_links_or_its_port)
{
	double mesh = bandwidth(_metadata, "mesh", true);
	double sw = bandwidth(_metadata, "switch", true);
	double hub = bandwidth(_metadata, "hub", true);

	TH_LOG("GPU 0 from GPUs 1-3: mesh %.1f, switch %.1f, hub %.1f GB/s",
	       mesh, sw, hub);
	/* three links of link-bw each */
	EXPECT_LT(3 * LINK_BW * 0.95, mesh);
	EXPECT_GE(3 * LINK_BW * 1.001, mesh);
	/* one port */
	EXPECT_LT(LINK_BW * 0.95, sw);
	EXPECT_GE(LINK_BW * 1.001, sw);
	EXPECT_LT(LINK_BW * 0.95, hub);
	EXPECT_GE(LINK_BW * 1.001, hub);
}

TEST(all_to_all_behind_a_switch_gives_each_gpu_its_port)
{
	double sw = bandwidth(_metadata, "switch", false);
	double mesh = bandwidth(_metadata, "mesh", false);

	TH_LOG("every GPU from the 3 others: switch %.1f, mesh %.1f GB/s",
	       sw, mesh);
	EXPECT_LT(LINK_BW * 0.95, sw);
	EXPECT_GE(LINK_BW * 1.001, sw);
	EXPECT_LT(3 * LINK_BW * 0.95, mesh);
}

/* pointer-chase's measured remote load latency under @topology, ns */
static double chase(struct __test_metadata *_metadata, const char *topology)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { 0 };
	struct ng_config cfg;
	struct ng_system *sys;
	char err[256];
	double ns;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	ASSERT_EQ(0, ng_config_set(&cfg, "topology", topology, err, sizeof(err)));
	cfg.rdc_size = 0;
	cfg.rdc_pct = 0;
	cfg.deterministic = true;
	ASSERT_EQ(0, ng_system_create(&sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_bench_run(sys, ng_workload_find("pointer-chase"), &o, r,
				  err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(r->verified) TH_LOG("%s", r->verify);
	ns = r->measured;
	ng_system_destroy(sys);
	free(r);
	return ns;
}

TEST(a_hub_crosses_two_links_each_way_a_switch_one)
{
	double mesh = chase(_metadata, "mesh"), sw = chase(_metadata, "switch");
	double hub = chase(_metadata, "hub");
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	TH_LOG("remote load latency: mesh %.1f, switch %.1f, hub %.1f ns",
	       mesh, sw, hub);
	/* one transfer at a time: the same latency on a mesh and a switch */
	EXPECT_GT(1.0, fabs(sw - mesh));
	/* a request and a response, each through the CPU's two links */
	EXPECT_GT(1.0, fabs(hub - mesh - 2 * cfg.link_latency_ns));
	EXPECT_EQ(NG_TOPO_MESH, cfg.topology);
	EXPECT_NE(0, ng_config_set(&cfg, "topology", "torus", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "topology")) TH_LOG("%s", err);
}

TEST_HARNESS_MAIN
