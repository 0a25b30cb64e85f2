// SPDX-License-Identifier: GPL-2.0
/*
 * Host perturbation, to check that no result depends on how the host ran
 * the threads (stress = N): at random one in N of the requests it sees,
 * and at random at a GPU's interval ends, the host thread sleeps a few
 * tens of microseconds or gives its CPU away, so that threads meet the
 * model's shared state in orders a quiet machine rarely shows. It changes
 * no modeled value and no path a request takes (it sees remote requests
 * only, so local ones stay inline): a threaded run must still give the
 * deterministic run's results (ngemu bench --compare W --agreement N
 * --stress N).
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "ngemu/model/model.h"
#include "ngemu/util/err.h"

struct stress {
	unsigned int every;
};

/* Per host thread, seeded from the clock: every run perturbs differently. */
static _Thread_local uint64_t rng;

static uint64_t next(void)
{
	uint64_t x = rng;

	if (!x) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = ((uint64_t)ts.tv_nsec << 20 ^ (uint64_t)ts.tv_sec ^
		     (uint64_t)(uintptr_t)&rng) | 1;
	}
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng = x;
	return x;
}

/* Give the CPU away, or sleep up to @max_us microseconds. */
static void perturb(unsigned int max_us)
{
	uint64_t x = next();
	struct timespec ts = { 0, 0 };

	if (x & 1) {
		sched_yield();
		return;
	}
	ts.tv_nsec = (long)((x >> 8) % ((uint64_t)max_us * 1000 + 1));
	nanosleep(&ts, NULL);
}

static int stress_create(struct ng_model *m, void **priv, char *err,
			 size_t errlen)
{
	struct stress *s = calloc(1, sizeof(*s));

	if (!s) {
		ng_seterr(err, errlen, "out of memory for stress");
		return -ENOMEM;
	}
	s->every = m->cfg->stress;
	*priv = s;
	return 0;
}

static bool stress_access(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	const struct stress *s = priv;

	(void)sm;
	(void)r;
	if (next() % s->every == 0)
		perturb(20);
	return false;
}

/* A late thread at an interval's end changes the order of every merge. */
static void stress_sync(void *priv, unsigned int phase, unsigned int gpu)
{
	(void)priv;
	(void)phase;
	(void)gpu;
	if (!(next() & 3))
		perturb(50);
}

static bool stress_enabled(const struct ng_config *c)
{
	return c->stress != 0;
}

static const struct ng_key stress_keys[] = {
	NG_KEY_NUM("stress", NG_KEY_UINT, stress, 0, 1000000000,
		   "host perturbation for determinism checks: a thread sleeps or yields at 1 in N remote requests and at interval ends (0: off)"),
	{ .name = NULL },
};

const struct ng_component ng_stress_component = {
	.name = "stress",
	.desc = "host perturbation: random sleeps and yields of the host threads, no modeled effect (determinism checks)",
	.keys = stress_keys,
	.counters = "",
	.enabled = stress_enabled,
	.remote_only = true,
	.create = stress_create,
	.destroy = free,
	.access = stress_access,
	.sync = stress_sync,
	.sync_phases = 1,
};
