// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu buffers: placement per mode checked against the kernel's own view
 * (move_pages(2) with NULL nodes) and the location table.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"

/* Placement, one variant per mode. */

FIXTURE(place) {
	struct numagpu_topology topo;
	int dev;
	struct ng_kbuf b;
	char *view[NUMAGPU_MAX_GPUS];
};

FIXTURE_VARIANT(place) {
	__u32 mode;
	__u32 target;		/* CGP: GPU; HOST: GPU whose node is used */
	__u64 chunk_groups;	/* CGP_CHUNK: chunk in page groups */
};

FIXTURE_VARIANT_ADD(place, first_touch) {
	.mode = NUMAGPU_MODE_FIRST_TOUCH,
};

FIXTURE_VARIANT_ADD(place, fgp) {
	.mode = NUMAGPU_MODE_FGP,
};

FIXTURE_VARIANT_ADD(place, cgp_node) {
	.mode = NUMAGPU_MODE_CGP,
	.target = 2,
};

FIXTURE_VARIANT_ADD(place, cgp_chunk) {
	.mode = NUMAGPU_MODE_CGP_CHUNK,
	.chunk_groups = 3,
};

FIXTURE_VARIANT_ADD(place, host) {
	.mode = NUMAGPU_MODE_HOST,
	.target = 3,
};

FIXTURE_SETUP(place)
{
	struct numagpu_buf_create c = { .mode = variant->mode };
	unsigned int ngpus;

	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	ngpus = self->topo.ngpus;
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
	c.size = (__u64)NGROUPS * ngpus * page_size();
	if (variant->mode == NUMAGPU_MODE_CGP)
		c.target = variant->target % ngpus;
	if (variant->mode == NUMAGPU_MODE_HOST)
		c.target = self->topo.gpu[variant->target % ngpus].node;
	if (variant->mode == NUMAGPU_MODE_CGP_CHUNK)
		c.chunk = variant->chunk_groups * ngpus * page_size();
	ASSERT_EQ(0, ng_kbuf_create(&self->b, self->dev, &c));
	ASSERT_EQ(ngpus, self->b.ngpus);
	for (unsigned int g = 0; g < ngpus; g++)
		ASSERT_EQ(0, ng_kbuf_map_view(&self->b, g,
					      (void **)&self->view[g]));
}

FIXTURE_TEARDOWN(place)
{
	ng_kbuf_destroy(&self->b);
	close(self->dev);
}

/* The node the variant's mode puts page @p on (first touch by GPU p % n). */
static int expected_node(const struct numagpu_topology *t,
			 const FIXTURE_VARIANT(place) *v, unsigned long p)
{
	unsigned int n = t->ngpus;

	switch (v->mode) {
	case NUMAGPU_MODE_FIRST_TOUCH:
	case NUMAGPU_MODE_FGP:
		return t->gpu[p % n].node;
	case NUMAGPU_MODE_CGP:
		return t->gpu[v->target % n].node;
	case NUMAGPU_MODE_CGP_CHUNK:
		return t->gpu[(p / (v->chunk_groups * n)) % n].node;
	default:
		return t->gpu[v->target % n].node;
	}
}

struct toucher {
	const struct numagpu_topology *topo;
	unsigned int gpu;
	char *view;
	size_t npages;
	long page;
	int err;
};

/* GPU g's thread, on g's CPUs, writes pages p with p % ngpus == g. */
static void *touch_thread(void *arg)
{
	struct toucher *t = arg;

	t->err = numagpu_pin_gpu(t->topo, t->gpu);
	if (t->err)
		return NULL;
	for (size_t p = t->gpu; p < t->npages; p += t->topo->ngpus)
		t->view[p * t->page] = (char)(p + 1);
	return NULL;
}

TEST_F(place, placement_matches_mode)
{
	unsigned int ngpus = self->topo.ngpus;
	size_t n = self->b.npages;
	struct toucher th[NUMAGPU_MAX_GPUS];
	pthread_t tid[NUMAGPU_MAX_GPUS];
	struct numagpu_loc *loc = calloc(n, sizeof(*loc));
	void **addrs = calloc(n, sizeof(*addrs));
	int *status = calloc(n, sizeof(*status));
	struct numagpu_buf_stats st;

	ASSERT_NE(NULL, loc);
	ASSERT_NE(NULL, addrs);
	ASSERT_NE(NULL, status);
	ASSERT_EQ(0, loctab_matches_query(&self->b));
	ASSERT_EQ(0, ng_kbuf_loctab_read(&self->b, 0, n, loc));
	for (size_t p = 0; p < n; p++) {
		EXPECT_EQ(NUMAGPU_LOC_NO_NODE, loc[p].node);
		EXPECT_EQ(variant->mode, NUMAGPU_LOC_MODE(loc[p].flags));
	}

	for (unsigned int g = 0; g < ngpus; g++) {
		th[g] = (struct toucher){ &self->topo, g, self->view[g], n,
					  page_size(), 0 };
		ASSERT_EQ(0, pthread_create(&tid[g], NULL, touch_thread, &th[g]));
	}
	for (unsigned int g = 0; g < ngpus; g++) {
		pthread_join(tid[g], NULL);
		ASSERT_EQ(0, th[g].err) TH_LOG("pin GPU %u", g);
	}

	ASSERT_EQ(0, loctab_matches_query(&self->b));
	ASSERT_EQ(0, ng_kbuf_loctab_read(&self->b, 0, n, loc));
	/* the kernel's page tables, through every view */
	for (unsigned int g = 0; g < ngpus; g++) {
		size_t bad = 0;

		/* read every page through this view: its PTEs now exist */
		for (size_t p = 0; p < n; p++) {
			addrs[p] = self->view[g] + p * page_size();
			bad += *(char *)addrs[p] != (char)(p + 1);
		}
		EXPECT_EQ(0, bad) TH_LOG("view %u", g);
		ASSERT_EQ(0, numagpu_page_nodes(addrs, status, n));
		for (size_t p = 0; p < n; p++) {
			int want = expected_node(&self->topo, variant, p);

			EXPECT_EQ(want, status[p])
				TH_LOG("view %u page %zu", g, p);
			EXPECT_EQ(want, loc[p].node) TH_LOG("page %zu", p);
			EXPECT_EQ(NUMAGPU_LOC_POPULATED |
				  variant->mode << NUMAGPU_LOC_MODE_SHIFT,
				  loc[p].flags);
		}
	}

	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(n, st.npages);
	EXPECT_EQ(n, st.populated);
	EXPECT_EQ(0, st.fallbacks);
	EXPECT_EQ(n, st.first_touch_local + st.first_touch_remote);
	if (variant->mode == NUMAGPU_MODE_FIRST_TOUCH ||
	    variant->mode == NUMAGPU_MODE_FGP)
		EXPECT_EQ(n, st.first_touch_local);
	for (unsigned int g = 0; g < ngpus; g++)
		EXPECT_LE(n / ngpus, st.view_faults[g]);
	{
		__u64 sum = 0;

		for (int i = 0; i < NUMAGPU_MAX_NODES; i++)
			sum += st.node_pages[i];
		EXPECT_EQ(n, sum);
	}
	free(loc);
	free(addrs);
	free(status);
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
