// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu hints, read replication, collapse on write and coherence through
 * replicas (migration and the rest: numagpu_migrate_test.c). Placement is
 * checked with move_pages(2) through each view (a view's address reports
 * the node of the page mapped in that view, so a replica shows its own
 * node), and the module holds no page afterwards.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "numagpu_rep_fixture.h"

TEST_F(rep, advise_and_migrate_args)
{
	struct numagpu_buf_advise a = { .npages = 1,
					.advice = NUMAGPU_ADVISE_READ_MOSTLY };
	struct numagpu_buf_migrate m = { .npages = 1 };

	ASSERT_EQ(0, setup_buf(self, 16, 0));
	EXPECT_EQ(0, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	a.advice = 0;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	EXPECT_EQ(EINVAL, errno);
	a.advice = NUMAGPU_ADVISE_MAX + 1;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	a.advice = NUMAGPU_ADVISE_READ_MOSTLY;
	a.target = 1;		/* no target for read-mostly */
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	a.advice = NUMAGPU_ADVISE_PREFERRED;
	a.target = self->ngpus;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	a.target = 0;
	a.npages = 17;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	a.npages = 0;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	a.npages = 1;
	a.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_ADVISE, &a));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(0, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	m.flags = 1u << 7;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	m.flags = NUMAGPU_MIGRATE_GPU;
	m.target = self->ngpus;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	m.flags = 0;
	m.target = 9999;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	m.target = 0;
	m.first_page = 16;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	m.first_page = 0;
	m.reserved[0] = 1;
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, NULL));
	EXPECT_EQ(EFAULT, errno);
}

/* Reads replicate to each view's node; one write collapses them all. */
TEST_F(rep, replicate_then_collapse)
{
	const size_t n = 256;
	struct numagpu_buf_stats st;
	unsigned int g;
	long long held0 = numagpu_pages_held();

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, n, 0));
	for (size_t p = 0; p < n; p++)
		((volatile uint64_t *)(self->v[0] + p * self->page))[0] = p + 1;
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, n,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	for (g = 1; g < self->ngpus; g++)
		for (size_t p = 0; p < n; p++)
			ASSERT_EQ(p + 1, ((volatile uint64_t *)
					  (self->v[g] + p * self->page))[0]);
	for (size_t p = 0; p < n; p++) {
		struct numagpu_loc l = loc_of(self, p);

		ASSERT_EQ(self->topo.gpu[0].node, l.node);
		ASSERT_TRUE(l.flags & NUMAGPU_LOC_REPLICATED);
		ASSERT_EQ(self->ngpus - 1, NUMAGPU_LOC_REPLICAS(l.flags));
		for (g = 0; g < self->ngpus; g++)
			ASSERT_EQ((int)self->topo.gpu[g].node,
				  view_node(self, g, p));
	}
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(n * (self->ngpus - 1), st.replica_pages);
	EXPECT_EQ(n * (self->ngpus - 1), st.replicas_created);
	EXPECT_EQ(held0 + (long long)(n * self->ngpus), numagpu_pages_held());

	/* a write through the last view drops every replica */
	g = self->ngpus - 1;
	for (size_t p = 0; p < n; p++)
		((volatile uint64_t *)(self->v[g] + p * self->page))[0] = p + 1000;
	for (size_t p = 0; p < n; p++) {
		struct numagpu_loc l = loc_of(self, p);

		ASSERT_FALSE(l.flags & NUMAGPU_LOC_REPLICATED);
		for (unsigned int h = 0; h < self->ngpus; h++) {
			/* the page read there is the home page, new value */
			ASSERT_EQ(p + 1000, ((volatile uint64_t *)
					     (self->v[h] + p * self->page))[0]);
		}
	}
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(n, st.collapses);
	/* reads replicate again after the write */
	for (size_t p = 0; p < n; p++)
		ASSERT_EQ((int)self->topo.gpu[1].node, view_node(self, 1, p));
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(n * (self->ngpus - 1), st.replica_pages);
	/* unsetting the hint drops them */
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, n,
				    NUMAGPU_ADVISE_UNSET_READ_MOSTLY, 0));
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(0, st.replica_pages);
	for (size_t p = 0; p < n; p++)
		ASSERT_EQ((int)self->topo.gpu[0].node, view_node(self, 1, p));
	/* accessed-by: that view maps the home page */
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, n,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, n,
				    NUMAGPU_ADVISE_ACCESSED_BY, 1));
	for (size_t p = 0; p < n; p++)
		ASSERT_EQ((int)self->topo.gpu[0].node, view_node(self, 1, p));
}

struct coh {
	FIXTURE_DATA(rep) *self;
	size_t n;
	unsigned int g;
	_Atomic uint64_t *committed;
	atomic_int *stop;
	atomic_long stale;
	long reads;
};

static void *coh_reader(void *arg)
{
	struct coh *c = arg;
	char *v = c->self->v[c->g];

	numagpu_pin_gpu(&c->self->topo, c->g);
	while (!atomic_load(c->stop)) {
		for (size_t p = 0; p < c->n; p++) {
			uint64_t want = atomic_load_explicit(&c->committed[p],
							memory_order_acquire);
			volatile uint64_t *w =
				(volatile uint64_t *)(v + p * c->self->page);
			uint64_t a = w[0], z = w[c->self->page / 8 - 1];

			if (a < want || z < want)
				atomic_fetch_add(&c->stale, 1);
			c->reads++;
		}
	}
	return NULL;
}

/*
 * Readers on every node, one writer moving across the views: once a write
 * returns (and is published to the readers), no view reads an older value.
 */
TEST_F(rep, coherence)
{
	const size_t n = 2048;
	struct coh c[NUMAGPU_MAX_GPUS];
	pthread_t th[NUMAGPU_MAX_GPUS];
	_Atomic uint64_t *committed;
	atomic_int stop = 0;
	struct numagpu_buf_stats st;
	long writes = 0, stale = 0, reads = 0;
	double end;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, n, 0));
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, n,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	committed = calloc(n, sizeof(*committed));
	ASSERT_NE(NULL, committed);
	for (unsigned int g = 0; g < self->ngpus; g++) {
		c[g] = (struct coh){ .self = self, .n = n, .g = g,
				     .committed = committed, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&th[g], NULL, coh_reader, &c[g]));
	}
	end = now_s() + 3.0;
	for (uint64_t it = 1; now_s() < end; it++) {
		unsigned int w = it % self->ngpus;

		for (size_t p = (it * 7) % 64; p < n; p += 64) {
			volatile uint64_t *x =
				(volatile uint64_t *)(self->v[w] + p * self->page);

			x[self->page / 8 - 1] = it;
			x[0] = it;
			atomic_store_explicit(&committed[p], it,
					      memory_order_release);
			writes++;
		}
	}
	atomic_store(&stop, 1);
	for (unsigned int g = 0; g < self->ngpus; g++) {
		pthread_join(th[g], NULL);
		stale += atomic_load(&c[g].stale);
		reads += c[g].reads;
	}
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	TH_LOG("%ld writes, %ld page reads, %llu replicas made, %llu collapses, %ld stale",
	       writes, reads, (unsigned long long)st.replicas_created,
	       (unsigned long long)st.collapses, stale);
	EXPECT_EQ(0, stale);
	/* each collapse and replica costs TLB shootdowns: few in a VM */
	EXPECT_LT(100, st.replicas_created);
	EXPECT_LT(20, st.collapses);
	/* every view reads the last value */
	for (size_t p = 0; p < n; p++)
		for (unsigned int g = 0; g < self->ngpus; g++)
			ASSERT_EQ(atomic_load(&committed[p]),
				  ((volatile uint64_t *)
				   (self->v[g] + p * self->page))[0]);
	free(committed);
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
