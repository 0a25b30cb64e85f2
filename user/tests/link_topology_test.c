// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric's topology (model/link.c, ng_link_route()), measured as the
 * calibration streams measure a link: lines read once from other GPUs'
 * memory, no cache in the way, much data next to one latency. On a mesh
 * a GPU reading from the three others gets three links' bandwidth; behind
 * a switch or a hub, its one port's. All-to-all traffic behind a switch
 * gives every GPU its port's bandwidth. The fabric's use
 * (ngemu/model/linkuse.h) says the same from the inside: which servers
 * were busy, how long, and what each pair of GPUs sent.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/model/linkuse.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

#define BLOCK		256
#define WORDS		(4u << 20)	/* 16 MiB per GPU's buffer */
#define LINK_BW		64.0

struct xfer {
	uint32_t *v[NG_MAX_GPUS];
	unsigned int ngpus;
	bool write;
	uint64_t *sums;
};

/*
 * Block b of GPU g reads (or with @write, writes) its share of the buffer
 * on GPU g + 1 + b % 3: every other GPU's memory alike, each line of it
 * once when GPU 0 alone runs the grid.
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
		if (x->write) {
			for (unsigned int l = 0; l < NG_WARP; l++)
				v[l] = (uint32_t)(i0 + l);
			ng_st_contig(&w, x->v[from] + i0, 4, v);
			continue;
		}
		ng_ld_contig(&w, x->v[from] + i0, 4, v);
		for (unsigned int l = 0; l < w.nlanes; l++)
			sum += v[l];
		ng_warp_compute(&w, 4);
	}
	x->sums[b->id] = sum;
}

/* How a run of read_others() is set up, and what it measured. */
struct run {
	const char *topology;
	bool only0;			/* GPU 0 alone, else every GPU at once */
	bool write;
	double gbs;			/* what one receiving GPU got */
	ng_ticks modeled;
	struct ng_link_usage use;
};

/*
 * Run read_others() under @r->topology: each receiving GPU reads (or
 * writes) 3 x 16 MiB.
 */
static void run(struct __test_metadata *_metadata, struct run *r)
{
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_buf buf[4] = { 0 };
	struct xfer x = { .ngpus = 4, .write = r->write };
	struct ng_launch l = { .name = "read-others", .fn = read_others,
			       .block = { BLOCK, 1 }, .args = &x,
			       .only_gpu = r->only0 ? 0 : -1 };
	struct ng_launch_result lr;
	struct ng_link_usage after;
	unsigned int receivers = r->only0 ? 1 : 4;
	uint64_t per_gpu_blocks = 3ULL * WORDS / BLOCK;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	ASSERT_EQ(0, ng_config_set(&cfg, "topology", r->topology, err,
				   sizeof(err)))
		TH_LOG("%s", err);
	cfg.l2.size = 0;
	cfg.rdc.size = 0;
	cfg.rdc.pct = 0;
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
	ng_link_usage(ng_system_model(sys), &r->use);
	/* it goes back to nothing with the counters, as a bench run's does */
	ng_system_reset_counters(sys);
	ng_link_usage(ng_system_model(sys), &after);
	EXPECT_EQ(0, after.ticks);
	for (unsigned int i = 0; i < after.nservers; i++)
		EXPECT_EQ(0, after.server[i].busy + after.server[i].bytes);
	for (unsigned int i = 0; i < 4; i++)
		for (unsigned int j = 0; j < 4; j++)
			EXPECT_EQ(0, after.pair[i][j]);
	for (unsigned int g = 0; g < 4; g++)
		ng_free(ng_system_space(sys), &buf[g]);
	free(x.sums);
	ng_system_destroy(sys);
	r->modeled = lr.modeled;
	/* bytes per receiving GPU over the kernel's modeled time */
	r->gbs = 3.0 * WORDS * 4 / ((double)lr.modeled / NG_TICKS_PER_NS);
}

static double bandwidth(struct __test_metadata *_metadata,
			const char *topology, bool only0)
{
	struct run r = { .topology = topology, .only0 = only0 };

	run(_metadata, &r);
	return r.gbs;
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
	cfg.rdc.size = 0;
	cfg.rdc.pct = 0;
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

/* Server of @u: a mesh's link @a -> @b, or GPU @a's port (@b 1: in). */
static const struct ng_link_server *server(const struct ng_link_usage *u,
					   unsigned int a, unsigned int b)
{
	for (unsigned int i = 0; i < u->nservers; i++) {
		const struct ng_link_server *s = &u->server[i];

		if (u->topology == NG_TOPO_MESH ? s->from == a && s->to == b :
						  s->gpu == a && s->in == b)
			return s;
	}
	return NULL;
}

TEST(behind_a_switch_one_reader_fills_its_port_in_each_sender_a_third)
{
	struct run r = { .topology = "switch", .only0 = true };
	const struct ng_link_usage *u = &r.use;

	run(_metadata, &r);
	ASSERT_EQ(8, u->nservers);
	/* the kernel's time is what utilization is of */
	EXPECT_EQ(r.modeled, u->ticks);
	TH_LOG("switch, GPU 0 from GPUs 1-3: port in of 0 %.4f, out of 1-3 %.4f %.4f %.4f",
	       ng_link_util(u, server(u, 0, 1)), ng_link_util(u, server(u, 1, 0)),
	       ng_link_util(u, server(u, 2, 0)), ng_link_util(u, server(u, 3, 0)));
	/* the one port every line comes in by is the bottleneck */
	EXPECT_LT(0.95, ng_link_util(u, server(u, 0, 1)));
	EXPECT_GE(1.001, ng_link_util(u, server(u, 0, 1)));
	EXPECT_EQ(3ULL * WORDS * 4, server(u, 0, 1)->bytes);
	EXPECT_TRUE(server(u, 0, 1) == &u->server[ng_link_busiest(u)]);
	for (unsigned int g = 1; g < 4; g++) {
		/* each sender's port out carries a third of it */
		EXPECT_GT(0.02, fabs(ng_link_util(u, server(u, g, 0)) -
				     ng_link_util(u, server(u, 0, 1)) / 3))
			TH_LOG("GPU %u", g);
		EXPECT_EQ((uint64_t)WORDS * 4, server(u, g, 0)->bytes);
		/* nothing goes the other way: requests are not charged */
		EXPECT_EQ(0, server(u, g, 1)->busy) TH_LOG("GPU %u", g);
	}
	EXPECT_EQ(0, server(u, 0, 0)->busy);
}

TEST(on_a_mesh_the_three_links_into_one_reader_are_each_full)
{
	struct run r = { .topology = "mesh", .only0 = true };
	const struct ng_link_usage *u = &r.use;

	run(_metadata, &r);
	ASSERT_EQ(12, u->nservers);
	EXPECT_EQ(r.modeled, u->ticks);
	TH_LOG("mesh, GPU 0 from GPUs 1-3: links into 0 %.4f %.4f %.4f",
	       ng_link_util(u, server(u, 1, 0)), ng_link_util(u, server(u, 2, 0)),
	       ng_link_util(u, server(u, 3, 0)));
	for (unsigned int i = 0; i < u->nservers; i++) {
		const struct ng_link_server *s = &u->server[i];

		if (s->to == 0) {
			EXPECT_LT(0.95, ng_link_util(u, s)) TH_LOG("%u -> 0", s->from);
			EXPECT_GE(1.001, ng_link_util(u, s)) TH_LOG("%u -> 0", s->from);
			EXPECT_EQ((uint64_t)WORDS * 4, s->bytes);
		} else {
			/* the other 9 links idle: each pair has its own */
			EXPECT_EQ(0, s->busy) TH_LOG("%u -> %u", s->from, s->to);
		}
	}
}

/*
 * What each pair sent is what the kernel moved, whatever the route: GPU
 * 0's reads bring 16 MiB of lines from each other GPU; its writes, each
 * line's 32 words once, carry 16 MiB to each.
 */
TEST(the_pairs_bytes_are_what_the_kernel_moved_on_every_topology)
{
	static const char *const topo[] = { "mesh", "switch", "hub" };

	for (unsigned int t = 0; t < 3; t++)
		for (unsigned int wr = 0; wr < 2; wr++) {
			struct run r = { .topology = topo[t], .only0 = true,
					 .write = wr };
			const struct ng_link_usage *u = &r.use;

			run(_metadata, &r);
			ASSERT_EQ(4, u->ngpus);
			for (unsigned int i = 0; i < 4; i++)
				for (unsigned int j = 0; j < 4; j++) {
					bool moved = wr ? i == 0 && j != 0 :
							  j == 0 && i != 0;

					EXPECT_EQ(moved ? (uint64_t)WORDS * 4 : 0,
						  u->pair[i][j])
						TH_LOG("%s %s: GPU %u to GPU %u",
						       topo[t], wr ? "writes" : "reads",
						       i, j);
				}
		}
}

TEST_HARNESS_MAIN
