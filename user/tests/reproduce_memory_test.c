// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu reproduce's memory metric (CARVE sec. I: replication's memory
 * cost): the bytes the data takes, its footprint and its replicas, of a
 * system over the reference's, from results.csv's footprint and
 * repl_bytes; checked against a hand calculation from the same file, and
 * the ideal's copies counted (repl.pages) where they used to be none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ng_test.h"

#include "rep_csv.h"
#include "rep_dir.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

FIXTURE(mem) {
	struct cmd_result r;
	struct rep_dir d;
};

FIXTURE_SETUP(mem)
{
	ASSERT_EQ(0, rep_dir_make(&self->d, "mem", "carve.txt",
				     "preset carve\nreference numa-gpu\nworkloads hotspot,sssp\n"
				     "systems numa-gpu,repl-ro,ideal\n"
				     "claim mem | s | memory amean | ideal | 2.4 | repl.pages\n"
				     "claim mem-ro | s | memory amean | repl-ro | 2.4 | repl.pages | sssp\n"));
}

FIXTURE_TEARDOWN(mem)
{
	if (rep_dir_remove(&self->d))
		TH_LOG("could not remove %s", self->d.dir);
}

/* results.csv's columns 11 and 12 (the header is checked below) */
#define FOOTPRINT	11
#define REPL_BYTES	12

/* Row @wl, @sys of results.csv: its footprint plus its replicas' bytes. */
static double taken(const char *csv, const char *wl, const char *sys)
{
	return result(csv, wl, sys, FOOTPRINT) +
	       result(csv, wl, sys, REPL_BYTES);
}

TEST_F(mem, memory_is_footprint_and_replicas_over_the_reference)
{
	double want, ro, base;
	unsigned int used = 0;
	char *res, *claims;

	run_cmd(&self->r, NGEMU("reproduce", "carve", "--data", self->d.data,
				"--out", self->d.out, "--size", "256K",
				"--iters", "1"));
	ASSERT_TRUE(self->r.status == 0 || self->r.status == 3)
		TH_LOG("%d: %s", self->r.status, self->r.err);
	res = file(self->d.out, "results.csv");
	claims = file(self->d.out, "claims.csv");
	ASSERT_NE(NULL, strstr(res, "hash,workload,system,verified,modeled_s,remote_fraction,link_bytes,link_fraction,l2_misses,inv_evict_hits,mem_latency_ns,footprint,repl_bytes,page_blocks\n"))
		TH_LOG("%s", res);
	/* every GPU reaches pages another homes: the ideal holds copies */
	EXPECT_GT(result(res, "sssp", "ideal", REPL_BYTES), 0);
	EXPECT_EQ(0, result(res, "sssp", "numa-gpu", REPL_BYTES));
	want = (taken(res, "hotspot", "ideal") / taken(res, "hotspot", "numa-gpu") +
		taken(res, "sssp", "ideal") / taken(res, "sssp", "numa-gpu")) / 2;
	EXPECT_GE(1e-4 * want, fabs(want - claim_value(claims, "mem", &used)))
		TH_LOG("%s", claims);
	EXPECT_EQ(2, used);
	ro = taken(res, "sssp", "repl-ro");
	base = taken(res, "sssp", "numa-gpu");
	EXPECT_GT(ro, base);
	EXPECT_GE(1e-4 * ro / base,
		  fabs(ro / base - claim_value(claims, "mem-ro", &used)));
	free(res);
	free(claims);
}

TEST_HARNESS_MAIN
