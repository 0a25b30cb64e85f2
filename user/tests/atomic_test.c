// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel API's atomics (runtime/atomic.c): every operation, 32- and
 * 64-bit, lane after lane in lane order at the home, each lane given the
 * value its operation found; one atomic request per line the warp
 * touches; a misaligned address stops the run naming it; and the result
 * of many blocks on every GPU updating one word does not depend on how
 * the host's threads interleaved them.
 */
#include <float.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"

struct args {
	void *word;			/* the word every lane updates */
	enum ng_atomic_op op;
	bool wide;			/* 64-bit */
	bool fp;			/* ng_atomic_add_f32() */
	uint64_t val[NG_WARP], cmp[NG_WARP], old[NG_WARP];
	unsigned int stride;		/* bytes between lanes' words (0: one) */
	uintptr_t skew;			/* bytes added to every address */
};

/* Warp 0 of each block: lane l operates at word + l * stride. */
static void kernel(struct ng_block *b, void *p)
{
	struct args *a = p;
	uint32_t v32[NG_WARP], c32[NG_WARP], o32[NG_WARP];
	uintptr_t addr[NG_WARP];
	struct ng_warp w;

	ng_warp_get(b, 0, &w);
	for (unsigned int l = 0; l < NG_WARP; l++) {
		addr[l] = (uintptr_t)a->word + a->skew + l * a->stride;
		v32[l] = (uint32_t)a->val[l];
		c32[l] = (uint32_t)a->cmp[l];
	}
	if (a->wide) {
		ng_atomic_u64(&w, a->op, addr, a->val, a->cmp, a->old);
		return;
	}
	if (a->fp)
		ng_atomic_add_f32(&w, addr, (const float *)(const void *)v32,
				  (float *)(void *)o32);
	else
		ng_atomic_u32(&w, a->op, addr, v32, c32, o32);
	for (unsigned int l = 0; l < NG_WARP; l++)
		a->old[l] = o32[l];
}

struct run {
	struct ng_system *sys;
	struct ng_buf buf;
	struct args a;
};

static void setup(struct __test_metadata *_metadata, struct run *r,
		  bool deterministic)
{
	struct ng_alloc_opts ao = { .place = NG_PLACE_NODE, .node = 1 };
	struct ng_config cfg;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", err, sizeof(err)));
	cfg.mem_per_gpu = 64 << 20;
	cfg.deterministic = deterministic;
	ASSERT_EQ(0, ng_system_create(&r->sys, &cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_malloc(ng_system_space(r->sys), &r->buf, 1 << 20, &ao,
			       err, sizeof(err))) TH_LOG("%s", err);
	memset(r->buf.ptr, 0, 1 << 20);
	memset(&r->a, 0, sizeof(r->a));
	r->a.word = r->buf.ptr;
}

/* @blocks blocks (on GPU 0 when 1, else on every GPU); GPU 0's counters. */
static void launch(struct __test_metadata *_metadata, struct run *r,
		   unsigned int blocks, struct ng_counters *c)
{
	struct ng_launch l = { .name = "atomic", .fn = kernel,
			       .block = { NG_WARP, 1 }, .grid = { blocks, 1 },
			       .only_gpu = blocks == 1 ? 0 : -1, .args = &r->a };

	ng_system_reset_counters(r->sys);
	ASSERT_EQ(0, ng_launch(r->sys, &l, NULL));
	if (c)
		ng_system_counters(r->sys, 0, c);
}

static void teardown(struct run *r)
{
	ng_free(ng_system_space(r->sys), &r->buf);
	ng_system_destroy(r->sys);
}

/* 32-bit @op with @start in the word and lane values from @val(l). */
#define RUN32(op_, start, val_expr, cmp_expr)				\
	do {								\
		setup(_metadata, &r, true);				\
		*(uint32_t *)r.a.word = (uint32_t)(start);		\
		r.a.op = (op_);						\
		for (unsigned int l = 0; l < NG_WARP; l++) {		\
			r.a.val[l] = (uint32_t)(val_expr);		\
			r.a.cmp[l] = (uint32_t)(cmp_expr);		\
		}							\
		launch(_metadata, &r, 1, NULL);				\
	} while (0)

TEST(integer_operations_in_lane_order)
{
	struct run r;
	uint32_t want;

	RUN32(NG_ATOMIC_ADD, 5, l + 1, 0);
	EXPECT_EQ(5 + 32 * 33 / 2, *(uint32_t *)r.a.word);
	want = 5;
	for (unsigned int l = 0; l < NG_WARP; want += l + 1, l++)
		EXPECT_EQ(want, r.a.old[l]);
	teardown(&r);

	/* unsigned: 0xffffffff is the largest, not -1 */
	RUN32(NG_ATOMIC_MIN, 100, l == 9 ? 0xffffffffu : 200 - 5 * l, 0);
	EXPECT_EQ(200 - 5 * 31, *(uint32_t *)r.a.word);
	EXPECT_EQ(100, r.a.old[20]);		/* 200 - 100: not below 100 */
	EXPECT_EQ(100, r.a.old[21]);
	EXPECT_EQ(95, r.a.old[22]);		/* lane 21 left 95 */
	teardown(&r);

	RUN32(NG_ATOMIC_MAX, 100, l == 9 ? 0xffffffffu : l, 0);
	EXPECT_EQ(0xffffffffu, *(uint32_t *)r.a.word);
	EXPECT_EQ(100, r.a.old[9]);
	teardown(&r);

	RUN32(NG_ATOMIC_SMIN, 0, (int32_t)l - 20, 0);
	EXPECT_EQ((uint32_t)-20, *(uint32_t *)r.a.word);
	EXPECT_EQ(0, r.a.old[0]);
	EXPECT_EQ((uint32_t)-20, r.a.old[31]);
	teardown(&r);

	RUN32(NG_ATOMIC_SMAX, (uint32_t)-50, l == 3 ? -1 : -100, 0);
	EXPECT_EQ((uint32_t)-1, *(uint32_t *)r.a.word);
	EXPECT_EQ((uint32_t)-50, r.a.old[3]);
	teardown(&r);

	RUN32(NG_ATOMIC_EXCH, 7, l + 100, 0);
	EXPECT_EQ(131, *(uint32_t *)r.a.word);
	EXPECT_EQ(7, r.a.old[0]);
	for (unsigned int l = 1; l < NG_WARP; l++)
		EXPECT_EQ(l + 99, r.a.old[l]);
	teardown(&r);

	/* a chain: lane l finds l, leaves l + 1 */
	RUN32(NG_ATOMIC_CAS, 0, l + 1, l);
	EXPECT_EQ(32, *(uint32_t *)r.a.word);
	for (unsigned int l = 0; l < NG_WARP; l++)
		EXPECT_EQ(l, r.a.old[l]);
	teardown(&r);

	/* every lane expects 0: only lane 0 swaps */
	RUN32(NG_ATOMIC_CAS, 0, l + 1, 0);
	EXPECT_EQ(1, *(uint32_t *)r.a.word);
	for (unsigned int l = 1; l < NG_WARP; l++)
		EXPECT_EQ(1, r.a.old[l]);
	teardown(&r);
}

TEST(float_add)
{
	float h = 0.5f, got;
	struct run r;
	uint32_t hb;

	memcpy(&hb, &h, 4);
	RUN32(NG_ATOMIC_FADD, 0, hb, 0);
	memcpy(&got, r.a.word, 4);
	EXPECT_EQ(16.0f, got);
	teardown(&r);

	/* ng_atomic_add_f32(): the same, with the old values as floats */
	setup(_metadata, &r, true);
	r.a.fp = true;
	for (unsigned int l = 0; l < NG_WARP; l++)
		r.a.val[l] = hb;
	launch(_metadata, &r, 1, NULL);
	memcpy(&got, r.a.word, 4);
	EXPECT_EQ(16.0f, got);
	for (unsigned int l = 0; l < NG_WARP; l++) {
		uint32_t ob = (uint32_t)r.a.old[l];

		memcpy(&got, &ob, 4);
		EXPECT_EQ(0.5f * (float)l, got);
	}
	teardown(&r);
}

TEST(sixty_four_bit_operations)
{
	double d = 0.25, got;
	struct run r;
	uint64_t db;

	setup(_metadata, &r, true);
	r.a.wide = true;
	r.a.op = NG_ATOMIC_ADD;
	*(uint64_t *)r.a.word = 0xfffffff0ULL;
	for (unsigned int l = 0; l < NG_WARP; l++)
		r.a.val[l] = 1;
	launch(_metadata, &r, 1, NULL);
	/* carries past 32 bits */
	EXPECT_EQ(0x100000010ULL, *(uint64_t *)r.a.word);
	teardown(&r);

	setup(_metadata, &r, true);
	r.a.wide = true;
	r.a.op = NG_ATOMIC_SMIN;
	for (unsigned int l = 0; l < NG_WARP; l++)
		r.a.val[l] = l == 17 ? (uint64_t)INT64_MIN : (uint64_t)l;
	launch(_metadata, &r, 1, NULL);
	EXPECT_EQ((uint64_t)INT64_MIN, *(uint64_t *)r.a.word);
	EXPECT_EQ(0, r.a.old[17]);
	teardown(&r);

	setup(_metadata, &r, true);
	r.a.wide = true;
	r.a.op = NG_ATOMIC_CAS;
	for (unsigned int l = 0; l < NG_WARP; l++) {
		r.a.cmp[l] = (uint64_t)l << 40;
		r.a.val[l] = (uint64_t)(l + 1) << 40;
	}
	launch(_metadata, &r, 1, NULL);
	EXPECT_EQ(32ULL << 40, *(uint64_t *)r.a.word);
	teardown(&r);

	setup(_metadata, &r, true);
	r.a.wide = true;
	r.a.op = NG_ATOMIC_FADD;
	memcpy(&db, &d, 8);
	for (unsigned int l = 0; l < NG_WARP; l++)
		r.a.val[l] = db;
	launch(_metadata, &r, 1, NULL);
	memcpy(&got, r.a.word, 8);
	EXPECT_EQ(8.0, got);
	teardown(&r);
}

TEST(one_request_per_line)
{
	struct ng_counters c;
	struct run r;

	setup(_metadata, &r, true);
	r.a.op = NG_ATOMIC_MAX;
	r.a.stride = 4;			/* 32 words: one 128 B line */
	launch(_metadata, &r, 1, &c);
	EXPECT_EQ(1, c.v[NG_CTR_REQ_ATOMIC]);
	EXPECT_EQ(1, c.v[NG_CTR_REMOTE]);	/* the word's home is GPU 1 */
	r.a.wide = true;		/* 32 x 8 B: two lines */
	r.a.stride = 8;
	launch(_metadata, &r, 1, &c);
	EXPECT_EQ(2, c.v[NG_CTR_REQ_ATOMIC]);
	teardown(&r);
}

/* Many blocks on every GPU, the host's threads interleaving them. */
TEST(every_gpu_updating_one_word_gives_one_result)
{
	struct run r;

	setup(_metadata, &r, false);
	r.a.wide = true;
	r.a.op = NG_ATOMIC_ADD;
	for (unsigned int l = 0; l < NG_WARP; l++)
		r.a.val[l] = l + 1;
	launch(_metadata, &r, 512, NULL);
	EXPECT_EQ(512ULL * 32 * 33 / 2, *(uint64_t *)r.a.word);
	r.a.op = NG_ATOMIC_SMAX;
	*(uint64_t *)r.a.word = 0;
	launch(_metadata, &r, 512, NULL);
	EXPECT_EQ(32, *(uint64_t *)r.a.word);
	teardown(&r);
}

TEST(a_misaligned_address_stops_the_run_naming_it)
{
	char msg[4096] = { 0 };
	int pipefd[2], status;
	struct run r;
	ssize_t n;
	pid_t pid;

	setup(_metadata, &r, true);
	r.a.op = NG_ATOMIC_ADD;
	r.a.stride = 4;
	r.a.skew = 2;
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ng_launch l = { .name = "misaligned", .fn = kernel,
				       .block = { NG_WARP, 1 },
				       .grid = { 1, 1 }, .only_gpu = 0,
				       .args = &r.a };

		signal(SIGABRT, SIG_DFL);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		ng_launch(r.sys, &l, NULL);
		_exit(0);
	}
	close(pipefd[1]);
	/* all of it: the child writes its message in pieces */
	for (size_t len = 0; len < sizeof(msg) - 1; len += (size_t)n) {
		n = read(pipefd[0], msg + len, sizeof(msg) - 1 - len);
		if (n <= 0)
			break;
	}
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	EXPECT_NE(NULL, strstr(msg, "misaligned")) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "multiple of 4")) TH_LOG("%s", msg);
	teardown(&r);
}

TEST_HARNESS_MAIN
