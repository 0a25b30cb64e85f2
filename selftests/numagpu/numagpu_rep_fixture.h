/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the replication and migration selftests: a buffer homed
 * on one GPU with every view mapped, the module's parameters saved and
 * restored, and no page held or taint left afterwards.
 */
#ifndef NUMAGPU_REP_FIXTURE_H
#define NUMAGPU_REP_FIXTURE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"

#define PARAM_DIR "/sys/module/numagpu/parameters/"

static inline int param_set(const char *name, long val)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%ld\n", val);
	return fclose(f) ? -errno : 0;
}

static inline long param_get(const char *name)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	if (read_text(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(rep) {
	struct numagpu_topology topo;
	unsigned int ngpus;
	int dev;
	long page;
	struct ng_kbuf b;
	char *v[NUMAGPU_MAX_GPUS];
	long thr, win, pin, period, hold;
};

FIXTURE_SETUP(rep)
{
	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	self->ngpus = self->topo.ngpus;
	self->page = sysconf(_SC_PAGESIZE);
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
	self->b.fd = -1;
	self->thr = param_get("thrash_threshold");
	self->win = param_get("thrash_window_ms");
	self->pin = param_get("pin_ms");
	self->period = param_get("automigrate_period_ms");
	self->hold = param_get("debug_hold_ms");
	ASSERT_LE(0, self->thr);
	ASSERT_EQ(0, numagpu_wait_pages_zero(2000));
}

FIXTURE_TEARDOWN(rep)
{
	param_set("thrash_threshold", self->thr);
	param_set("thrash_window_ms", self->win);
	param_set("pin_ms", self->pin);
	param_set("automigrate_period_ms", self->period);
	if (self->hold >= 0)
		param_set("debug_hold_ms", self->hold);
	ng_kbuf_destroy(&self->b);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	EXPECT_EQ(0, numagpu_tainted() & ~NUMAGPU_TAINT_OK);
	close(self->dev);
}

/* A CGP buffer homed on GPU @home, every view mapped. */
static inline int setup_buf(FIXTURE_DATA(rep) *self, size_t npages,
		     unsigned int home)
{
	struct numagpu_buf_create c = {
		.size = npages * self->page, .mode = NUMAGPU_MODE_CGP,
		.target = home,
	};
	int err = ng_kbuf_create(&self->b, self->dev, &c);

	for (unsigned int g = 0; !err && g < self->ngpus; g++)
		err = ng_kbuf_map_view(&self->b, g, (void **)&self->v[g]);
	return err;
}

/* Node of page @p as view @g maps it (after touching it there). */
static inline int view_node(FIXTURE_DATA(rep) *self, unsigned int g, size_t p)
{
	void *addr = self->v[g] + p * self->page;
	int status = -1;

	(void)*(volatile char *)addr;

	if (numagpu_page_nodes(&addr, &status, 1))
		return -errno;
	return status;
}

static inline struct numagpu_loc loc_of(FIXTURE_DATA(rep) *self, size_t p)
{
	struct numagpu_loc l = { 0 };

	ng_kbuf_query(&self->b, p, 1, &l);
	return l;
}

#endif /* NUMAGPU_REP_FIXTURE_H */
