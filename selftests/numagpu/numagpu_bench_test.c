// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu migration benchmarks, printed as ratios (they do not fail on
 * speed): the module's migration of a buffer against move_pages(2) of
 * ordinary anonymous memory of the same size between the same nodes, and
 * 256 prefetch commands in one io_uring batch against 256 ioctls.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "kselftest_harness.h"

#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"

#define NPAGES	8192	/* 32 MiB of 4 KiB pages */
#define ROUNDS	8

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(bench) {
	struct numagpu_topology topo;
	int dev;
	long page;
	struct ng_kbuf b;
};

FIXTURE_SETUP(bench)
{
	struct numagpu_buf_create c = { .mode = NUMAGPU_MODE_CGP };

	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	self->page = sysconf(_SC_PAGESIZE);
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
	c.size = (uint64_t)NPAGES * self->page;
	ASSERT_EQ(0, ng_kbuf_create(&self->b, self->dev, &c));
}

FIXTURE_TEARDOWN(bench)
{
	ng_kbuf_destroy(&self->b);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	close(self->dev);
}

TEST_F(bench, migrate_vs_move_pages)
{
	int n0 = self->topo.gpu[0].node, n1 = self->topo.gpu[1].node;
	void **addrs = calloc(NPAGES, sizeof(void *));
	int *nodes = calloc(NPAGES, sizeof(int));
	int *status = calloc(NPAGES, sizeof(int));
	double t, t_mod = 0, t_mp = 0;
	uint64_t moved, total = 0, mp_total = 0;
	char *v, *anon;

	if (self->topo.ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_NE(NULL, addrs);
	ASSERT_NE(NULL, nodes);
	ASSERT_NE(NULL, status);
	ASSERT_EQ(0, ng_kbuf_map_view(&self->b, 0, (void **)&v));
	memset(v, 1, (size_t)NPAGES * self->page);
	anon = mmap(NULL, (size_t)NPAGES * self->page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, anon);
	ASSERT_EQ(0, numagpu_pin_gpu(&self->topo, 0));
	memset(anon, 1, (size_t)NPAGES * self->page);
	for (int i = 0; i < NPAGES; i++)
		addrs[i] = anon + (size_t)i * self->page;
	/* interleaved rounds, so that the VM's noise hits both alike */
	for (int r = 0; r < ROUNDS; r++) {
		t = now_s();
		ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, NPAGES,
					     r % 2 ? n0 : n1, 0, &moved));
		t_mod += now_s() - t;
		ASSERT_EQ(NPAGES, moved);
		total += moved;
		/* the view maps the moved pages again, as a user would */
		memset(v, r, (size_t)NPAGES * self->page);

		for (int i = 0; i < NPAGES; i++)
			nodes[i] = r % 2 ? n0 : n1;
		t = now_s();
		ASSERT_EQ(0, syscall(SYS_move_pages, 0, NPAGES, addrs, nodes,
				     status, 0));
		t_mp += now_s() - t;
		for (int i = 0; i < NPAGES; i++)
			mp_total += status[i] == nodes[i];
		memset(anon, r, (size_t)NPAGES * self->page);
	}
	TH_LOG("migration of %d pages x %d: numagpu %.0f pages/s, move_pages(2) %.0f pages/s (%lu of %d moved), ratio numagpu/move_pages %.2f",
		       NPAGES, ROUNDS, total / t_mod, mp_total / t_mp,
		       (unsigned long)mp_total, NPAGES * ROUNDS,
		       (total / t_mod) / (mp_total / t_mp));
	munmap(anon, (size_t)NPAGES * self->page);
	free(addrs);
	free(nodes);
	free(status);
}

TEST_F(bench, uring_vs_ioctl_prefetch)
{
	const unsigned int n = 256;
	double t, t_ioctl = 0, t_uring = 0;
	struct io_uring ring;
	uint64_t moved;
	long ok = 0;

	if (self->topo.ngpus < 3)
		SKIP(return, "fewer than 3 GPUs");
	ASSERT_EQ(0, io_uring_queue_init(n, &ring, 0));
	for (int r = 0; r < 8; r++) {
		unsigned int gpu = 1 + r % 2;

		t = now_s();
		for (unsigned int i = 0; i < n; i++) {
			ASSERT_EQ(0, ng_kbuf_prefetch(&self->b, i * 4, 4, gpu,
						      &moved));
			ok += moved == 4;
		}
		t_ioctl += now_s() - t;

		t = now_s();
		for (unsigned int i = 0; i < n; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			ASSERT_NE(NULL, sqe);
			ng_kbuf_uring_prep(sqe, &self->b,
					   NUMAGPU_URING_PREFETCH,
					   n * 4 + i * 4, 4, gpu, 0);
		}
		ASSERT_EQ((int)n, io_uring_submit_and_wait(&ring, n));
		for (unsigned int i = 0; i < n; i++) {
			struct io_uring_cqe *cqe;

			ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
			ok += cqe->res == 4;
			io_uring_cqe_seen(&ring, cqe);
		}
		t_uring += now_s() - t;
	}
	EXPECT_EQ(2 * 8 * n, ok);
	/*
	 * The same commands again: the pages are there, so this is the cost
	 * of the calls alone. Best of 10 each.
	 */
	{
		double t_i = 1e9, t_u = 1e9;
		unsigned int gpu = 2;	/* where round 7 left them */

		for (int rep = 0; rep < 10; rep++) {
			t = now_s();
			for (unsigned int i = 0; i < n; i++)
				ASSERT_EQ(0, ng_kbuf_prefetch(&self->b, i * 4,
							      4, gpu, &moved));
			t = now_s() - t;
			t_i = t < t_i ? t : t_i;
			t = now_s();
			for (unsigned int i = 0; i < n; i++)
				ng_kbuf_uring_prep(io_uring_get_sqe(&ring),
						   &self->b,
						   NUMAGPU_URING_PREFETCH,
						   i * 4, 4, gpu, 0);
			ASSERT_EQ((int)n, io_uring_submit_and_wait(&ring, n));
			for (unsigned int i = 0; i < n; i++) {
				struct io_uring_cqe *cqe;

				ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
				EXPECT_EQ(0, cqe->res);
				io_uring_cqe_seen(&ring, cqe);
			}
			t = now_s() - t;
			t_u = t < t_u ? t : t_u;
		}
		TH_LOG("256 prefetches of resident pages: ioctl %.1f us, io_uring %.1f us, ratio ioctl/uring %.2f",
		       t_i * 1e6, t_u * 1e6, t_i / t_u);
	}
	TH_LOG("256 prefetches of 4 pages x 8: ioctl %.1f us/batch, io_uring %.1f us/batch, ratio ioctl/uring %.2f",
		       t_ioctl / 8 * 1e6, t_uring / 8 * 1e6, t_ioctl / t_uring);
	io_uring_queue_exit(&ring);
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
