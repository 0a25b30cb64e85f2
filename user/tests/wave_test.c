// SPDX-License-Identifier: GPL-2.0
/*
 * 64-lane wavefronts (warp-width 64, runtime/wave.h): the kernel API's
 * warps 2k and 2k + 1 are one wavefront, whose loads are one access over
 * the lines they touch; stores still go half by half; a wavefront with
 * one half issues arithmetic for two; an SM holds threads a wavefront at
 * a time. And every workload verifies at the width its preset does not
 * use (each preset's own width is what every other test runs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "bench_run.h"

#include "ngemu/config.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"
#include "ngemu/workloads/workload.h"

enum access { CONTIG_LOAD, BROADCAST_LOAD, CONTIG_STORE, COMPUTE };

struct args {
	uint32_t *v;
	enum access what;
	unsigned int skew;		/* words the first lane is off a line */
	ng_ticks ready[2];		/* each half's, after its load */
	uint32_t got[2 * NG_WARP];	/* what the lanes loaded */
};

/* Each warp of the one block makes the same kind of access, in turn. */
static void kernel(struct ng_block *b, void *p)
{
	struct args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint32_t *base = a->v + a->skew + wi * NG_WARP;
		uintptr_t addr[NG_WARP];
		uint32_t buf[NG_WARP];
		struct ng_warp w;

		ng_warp_get(b, wi, &w);
		switch (a->what) {
		case CONTIG_LOAD:
			ng_ld_contig(&w, base, 4, a->got + wi * NG_WARP);
			break;
		case BROADCAST_LOAD:
			for (unsigned int l = 0; l < NG_WARP; l++)
				addr[l] = (uintptr_t)(a->v + 7);
			ng_ld(&w, addr, 4, a->got + wi * NG_WARP);
			break;
		case CONTIG_STORE:
			for (unsigned int l = 0; l < NG_WARP; l++)
				buf[l] = wi * NG_WARP + l + 1;
			ng_st_contig(&w, base, 4, buf);
			break;
		case COMPUTE:
			ng_warp_compute(&w, 1000);
			break;
		}
		if (wi < 2)
			a->ready[wi] = w.ready;
	}
}

struct run {
	struct ng_system *sys;
	struct ng_buf buf;
	struct args a;
};

/* REC's machine (64 B lines) on 2 GPUs, with @width-lane wavefronts. */
static void setup(struct __test_metadata *_metadata, struct run *r,
		  unsigned int width)
{
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = 1 };
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "rec", err, sizeof(err)));
	cfg.warp_width = width;
	cfg.gpus = 2;
	cfg.mem_per_gpu = 64 << 20;
	cfg.deterministic = true;
	ASSERT_EQ(0, ng_system_create(&r->sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_malloc(ng_system_space(r->sys), &r->buf, 1 << 20, &ao,
			       err, sizeof(err))) TH_LOG("%s", err);
	r->a.v = r->buf.ptr;
	for (unsigned int i = 0; i < (1 << 18); i++)
		r->a.v[i] = 3 * i;
}

/* One block of @threads on GPU 0 (its data on GPU 1); GPU 0's counters. */
static void launch(struct __test_metadata *_metadata, struct run *r,
		   enum access what, unsigned int skew, unsigned int threads,
		   struct ng_counters *c)
{
	struct ng_launch l = { .name = "wave", .fn = kernel,
			       .block = { threads, 1 }, .grid = { 1, 1 },
			       .only_gpu = 0, .args = &r->a };

	r->a.what = what;
	r->a.skew = skew;
	memset(r->a.ready, 0, sizeof(r->a.ready));
	ng_system_reset_counters(r->sys);
	ASSERT_EQ(0, ng_launch(r->sys, &l, NULL));
	ng_system_counters(r->sys, 0, c);
}

static void teardown(struct run *r)
{
	ng_free(ng_system_space(r->sys), &r->buf);
	ng_system_destroy(r->sys);
}

/* The line requests a 64-thread block's access makes at @width. */
static uint64_t requests(struct __test_metadata *_metadata, unsigned int width,
			 enum access what, unsigned int skew, uint64_t *shared)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, width);
	launch(_metadata, &r, what, skew, 2 * NG_WARP, &c);
	if (what != CONTIG_STORE)
		for (unsigned int i = 0; i < 2 * NG_WARP; i++) {
			EXPECT_EQ(what == BROADCAST_LOAD ? 21 : 3 * (skew + i),
				  r.a.got[i]) TH_LOG("lane %u", i);
		}
	*shared = c.v[NG_CTR_WAVE_SHARED];
	teardown(&r);
	return c.v[NG_CTR_REQ];
}

TEST(a_64_lane_contiguous_load_is_one_access_over_its_lines)
{
	uint64_t shared;

	/* 64 x 4 B on 64 B lines: 4 lines, whatever the width */
	EXPECT_EQ(4, requests(_metadata, 32, CONTIG_LOAD, 0, &shared));
	EXPECT_EQ(0, shared);
	EXPECT_EQ(4, requests(_metadata, 64, CONTIG_LOAD, 0, &shared));
	EXPECT_EQ(0, shared);
	/* a word off: each half 3 lines, the wavefront 5 (one shared) */
	EXPECT_EQ(6, requests(_metadata, 32, CONTIG_LOAD, 1, &shared));
	EXPECT_EQ(5, requests(_metadata, 64, CONTIG_LOAD, 1, &shared));
	EXPECT_EQ(1, shared);
}

TEST(a_broadcast_load_is_one_request_per_wavefront)
{
	uint64_t shared;

	EXPECT_EQ(2, requests(_metadata, 32, BROADCAST_LOAD, 0, &shared));
	EXPECT_EQ(1, requests(_metadata, 64, BROADCAST_LOAD, 0, &shared));
	EXPECT_EQ(1, shared);
}

/* A store's request refreshes cached copies with its half's data. */
TEST(stores_go_half_by_half)
{
	uint64_t shared;

	EXPECT_EQ(6, requests(_metadata, 64, CONTIG_STORE, 1, &shared));
	EXPECT_EQ(0, shared);
}

TEST(the_second_half_waits_for_the_line_it_shares)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, 64);
	launch(_metadata, &r, BROADCAST_LOAD, 0, 2 * NG_WARP, &c);
	EXPECT_LT(0, r.a.ready[0]);
	EXPECT_EQ(r.a.ready[0], r.a.ready[1]);
	teardown(&r);
}

/* SM time issuing a block of @threads' arithmetic at @width. */
static uint64_t compute(struct __test_metadata *_metadata, unsigned int width,
			unsigned int threads)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, width);
	launch(_metadata, &r, COMPUTE, 0, threads, &c);
	teardown(&r);
	return c.v[NG_CTR_COMPUTE_TICKS];
}

TEST(a_wavefront_with_one_half_issues_for_two)
{
	uint64_t full32 = compute(_metadata, 32, 2 * NG_WARP);

	EXPECT_LT(0, full32);
	/* the same 64 lanes' work at both widths */
	EXPECT_EQ(full32, compute(_metadata, 64, 2 * NG_WARP));
	/* 32 threads: half a wavefront's lanes, a whole one's issue */
	EXPECT_EQ(full32 / 2, compute(_metadata, 32, NG_WARP));
	EXPECT_EQ(full32, compute(_metadata, 64, NG_WARP));
	/* 96 threads: a wavefront and a half */
	EXPECT_EQ(full32 * 3 / 2, compute(_metadata, 32, 3 * NG_WARP));
	EXPECT_EQ(full32 * 2, compute(_metadata, 64, 3 * NG_WARP));
}

TEST(an_sm_holds_threads_a_wavefront_at_a_time)
{
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "rec", err, sizeof(err)));
	EXPECT_EQ(64, cfg.warp_width);
	cfg.blocks_per_sm = 64;
	/* 2560 threads: 40 wavefronts of 64 lanes, 80 warps of 32 */
	EXPECT_EQ(40, ng_resident_blocks(&cfg, 32, 0));
	EXPECT_EQ(40, ng_resident_blocks(&cfg, 64, 0));
	cfg.warp_width = 32;
	EXPECT_EQ(64, ng_resident_blocks(&cfg, 32, 0));
	EXPECT_EQ(40, ng_resident_blocks(&cfg, 64, 0));
}

TEST(warp_width_is_32_or_64)
{
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	EXPECT_EQ(32, cfg.warp_width);
	EXPECT_EQ(-EINVAL, ng_config_set(&cfg, "warp-width", "48", err,
					 sizeof(err)) ?:
		  ng_config_validate(&cfg, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "warp-width"));
}

/* Run @wl under @preset at @width lanes, at a small size: verified? */
static bool verifies(struct __test_metadata *_metadata, const char *preset,
		     const struct ng_workload *wl, unsigned int width,
		     bool corrupt)
{
	struct ng_bench_result *r = calloc(1, sizeof(*r));
	struct ng_bench_opts o = { .corrupt = corrupt };
	char err[512], lanes[8];
	const char *kv[] = { "warp-width", lanes, NULL };
	bool ok;

	if (!r)
		abort();
	snprintf(lanes, sizeof(lanes), "%u", width);
	EXPECT_EQ(0, bench_run(preset, BENCH_SMALL, kv, wl, &o, r, err,
			       sizeof(err)))
		TH_LOG("%s %s at %u: %s", preset, wl->name, width, err);
	ok = r->verified;
	if (!ok && !corrupt)
		TH_LOG("%s %s at %u lanes: %s", preset, wl->name, width, r->verify);
	free(r);
	return ok;
}

TEST(every_workload_verifies_at_the_other_width)
{
	static const char *const presets[] = { "carve", "dualopt", "rec",
					       "scalegpu", "coda" };
	unsigned int runs = 0;

	for (const struct ng_workload *const *w = ng_workloads; *w; w++) {
		struct ng_config cfg;
		unsigned int p = 0;
		char err[256];

		if (!(ng_workload_suites(*w) & ~ng_suite_bit("calibration")))
			continue;
		/* the first paper that runs it, at the width it does not use */
		while (!(ng_workload_suites(*w) & ng_suite_bit(presets[p])))
			p++;
		ASSERT_EQ(0, ng_config_preset(&cfg, presets[p], err, sizeof(err)));
		EXPECT_TRUE(verifies(_metadata, presets[p], *w,
				     cfg.warp_width == 64 ? 32 : 64, false));
		runs++;
	}
	EXPECT_LT(30, runs);
}

/* The check of the check at 64 lanes. */
TEST(a_wrong_element_fails_verification_at_64_lanes)
{
	EXPECT_FALSE(verifies(_metadata, "carve", ng_workload_find("spmv"), 64,
			      true));
}

TEST_HARNESS_MAIN
