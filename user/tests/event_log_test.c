// SPDX-License-Identifier: GPL-2.0
/*
 * The home's gathered event log (model/event_log.c): whatever the logs
 * hold, nearly sorted or not, it comes out in (time, requester, issue
 * order) with every event and its payload, and the requesters' logs empty.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ng_test.h"

#include "model/event_log.h"

/* an event as the models log it: the ordering header, then a payload */
struct ev {
	struct ng_ev h;
	uint64_t payload;
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static bool before(const struct ev *a, const struct ev *b)
{
	if (a->h.t != b->h.t)
		return a->h.t < b->h.t;
	if (a->h.gpu != b->h.gpu)
		return a->h.gpu < b->h.gpu;
	return a->h.seq < b->h.seq;
}

/*
 * @n events a requester into home 1's column, each requester's times
 * drifting up with noise of @jitter (0: each log in order), a few equal;
 * the gathered log must be ordered and hold each (gpu, seq) once.
 */
static void gather_check(struct __test_metadata *_metadata, unsigned int n,
			 uint64_t jitter)
{
	static struct ng_evlog logs[NG_MAX_GPUS][NG_MAX_GPUS];
	struct ng_evlog all = { 0 };
	const unsigned int ngpus = 4, home = 1;
	uint64_t s = 0x9e3779b97f4a7c15ULL, seen = 0, want = 0;
	size_t got;

	for (unsigned int g = 0; g < ngpus; g++) {
		for (unsigned int i = 0; i < n; i++) {
			struct ev *e = ng_evlog_add(&logs[g][home], sizeof(*e));

			ASSERT_NE(NULL, e);
			e->h.t = (uint64_t)i * 4 + (jitter ? rnd(&s) % jitter : 0);
			e->h.seq = i;
			e->h.gpu = (uint8_t)g;
			e->payload = (uint64_t)g << 32 | i;
			want += e->payload;
		}
	}
	got = ng_evlog_gather(&all, logs, ngpus, home, sizeof(struct ev));
	ASSERT_EQ((size_t)ngpus * n, got);
	for (size_t i = 0; i < got; i++) {
		const struct ev *e = (const struct ev *)all.e + i;

		/* the payload moved with its header */
		EXPECT_EQ((uint64_t)e->h.gpu << 32 | e->h.seq, e->payload);
		seen += e->payload;
		if (i)
			EXPECT_TRUE(before(e - 1, e)) TH_LOG("at %zu", i);
	}
	EXPECT_EQ(want, seen);
	for (unsigned int g = 0; g < ngpus; g++) {
		EXPECT_EQ(0, logs[g][home].n);
		ng_evlog_free(&logs[g][home]);
	}
	ng_evlog_free(&all);
}

TEST(each_log_in_order)
{
	gather_check(_metadata, 1000, 0);
}

TEST(nearly_in_order_with_ties)
{
	gather_check(_metadata, 5000, 16);
}

TEST(out_of_order)
{
	gather_check(_metadata, 3001, 1u << 20);
}

TEST(one_event_and_none)
{
	gather_check(_metadata, 1, 0);
	gather_check(_metadata, 0, 0);
}

TEST_HARNESS_MAIN
