// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu concurrent stress, bounded in time: one thread pinned to every
 * node doing random reads, writes, hints, explicit migrations and io_uring
 * batches through random views of shared buffers. Thread t alone writes
 * the bytes at offsets = t (mod nthreads) and keeps a reference of them;
 * every read of its own bytes, and the final contents, must equal it.
 * Afterwards the module holds no page and the kernel is not tainted.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "kselftest_harness.h"

#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"

#define NBUF	2
#define NPAGES	256
#define SECONDS	4.0

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct shared {
	struct numagpu_topology topo;
	unsigned int ngpus;
	long page;
	struct ng_kbuf b[NBUF];
	char *view[NBUF][NUMAGPU_MAX_GPUS];
	unsigned char *ref[NBUF];	/* reference, each thread its bytes */
	double end;
};

struct worker {
	struct shared *sh;
	unsigned int t;
	unsigned int seed;
	long ops[6], mismatches, errors;
};

static unsigned int rnd(struct worker *w, unsigned int n)
{
	return rand_r(&w->seed) % n;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	unsigned int nt = sh->ngpus;
	size_t size = (size_t)NPAGES * sh->page;
	struct io_uring ring;

	numagpu_pin_gpu(&sh->topo, w->t);
	if (io_uring_queue_init(16, &ring, 0))
		w->errors++;
	while (now_s() < sh->end) {
		unsigned int bi = rnd(w, NBUF), g = rnd(w, nt);
		unsigned int op = rnd(w, 100);
		size_t off = (rnd(w, size / nt) * nt) + w->t;
		uint64_t first = rnd(w, NPAGES), n = 1 + rnd(w, 16);
		char *v = sh->view[bi][g];

		if (first + n > NPAGES)
			n = NPAGES - first;
		if (op < 40) {		/* read own bytes of a page */
			size_t p = off / sh->page * sh->page;

			for (size_t o = p + w->t; o < p + sh->page; o += nt * 61)
				if ((unsigned char)((volatile char *)v)[o] !=
				    sh->ref[bi][o])
					w->mismatches++;
			(void)((volatile char *)v)[p];
			w->ops[0]++;
		} else if (op < 75) {	/* write one own byte */
			unsigned char x = rand_r(&w->seed);

			((volatile char *)v)[off] = x;
			sh->ref[bi][off] = x;
			if ((unsigned char)((volatile char *)
					    sh->view[bi][rnd(w, nt)])[off] != x)
				w->mismatches++;
			w->ops[1]++;
		} else if (op < 85) {	/* hints */
			static const unsigned int adv[] = {
				NUMAGPU_ADVISE_READ_MOSTLY,
				NUMAGPU_ADVISE_UNSET_READ_MOSTLY,
				NUMAGPU_ADVISE_PREFERRED,
				NUMAGPU_ADVISE_UNSET_PREFERRED,
				NUMAGPU_ADVISE_ACCESSED_BY,
				NUMAGPU_ADVISE_UNSET_ACCESSED_BY,
			};
			unsigned int a = adv[rnd(w, 6)];
			unsigned int tg = (a == NUMAGPU_ADVISE_PREFERRED ||
					   a >= NUMAGPU_ADVISE_ACCESSED_BY) ?
					  g : 0;

			if (ng_kbuf_advise(&sh->b[bi], first, n, a, tg))
				w->errors++;
			w->ops[2]++;
		} else if (op < 95) {	/* explicit migration */
			if (ng_kbuf_migrate(&sh->b[bi], first, n, g,
					    NUMAGPU_MIGRATE_GPU, NULL))
				w->errors++;
			w->ops[3]++;
		} else {		/* a uring batch with one bad command */
			unsigned int k = 1 + rnd(w, 8);

			for (unsigned int i = 0; i < k; i++) {
				unsigned int c = 1 + rnd(w, 4);

				ng_kbuf_uring_prep(io_uring_get_sqe(&ring),
						   &sh->b[bi], c,
						   rnd(w, NPAGES),
						   c == NUMAGPU_URING_QUERY ? 1 : 1 + rnd(w, 4),
						   c == NUMAGPU_URING_MIGRATE ?
						   sh->topo.gpu[g].node :
						   c == NUMAGPU_URING_ADVISE ?
						   NUMAGPU_ADVISE_READ_MOSTLY : g,
						   0);
			}
			ng_kbuf_uring_prep(io_uring_get_sqe(&ring), &sh->b[bi],
					   77, 0, 1, 0, 0);
			if (io_uring_submit_and_wait(&ring, k + 1) != (int)k + 1)
				w->errors++;
			for (unsigned int i = 0; i <= k; i++) {
				struct io_uring_cqe *cqe;

				if (io_uring_wait_cqe(&ring, &cqe)) {
					w->errors++;
					break;
				}
				/* only the bad command fails (range clipped) */
				if (cqe->res < 0 && cqe->res != -EINVAL)
					w->errors++;
				io_uring_cqe_seen(&ring, cqe);
			}
			w->ops[4]++;
		}
	}
	io_uring_queue_exit(&ring);
	return NULL;
}

TEST(stress)
{
	struct shared sh = { 0 };
	struct worker w[NUMAGPU_MAX_GPUS];
	pthread_t th[NUMAGPU_MAX_GPUS];
	struct numagpu_dev_stats ds;
	long mism = 0, errs = 0, ops[6] = { 0 };
	int dev;

	ASSERT_EQ(0, numagpu_get_topology(&sh.topo));
	sh.ngpus = sh.topo.ngpus;
	sh.page = sysconf(_SC_PAGESIZE);
	dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, numagpu_wait_pages_zero(2000));
	for (int bi = 0; bi < NBUF; bi++) {
		struct numagpu_buf_create c = {
			.size = (uint64_t)NPAGES * sh.page,
			.mode = bi ? NUMAGPU_MODE_FGP : NUMAGPU_MODE_FIRST_TOUCH,
		};

		ASSERT_EQ(0, ng_kbuf_create(&sh.b[bi], dev, &c));
		for (unsigned int g = 0; g < sh.ngpus; g++)
			ASSERT_EQ(0, ng_kbuf_map_view(&sh.b[bi], g,
						      (void **)&sh.view[bi][g]));
		sh.ref[bi] = calloc(NPAGES, sh.page);
		ASSERT_NE(NULL, sh.ref[bi]);
	}
	sh.end = now_s() + SECONDS;
	for (unsigned int t = 0; t < sh.ngpus; t++) {
		w[t] = (struct worker){ .sh = &sh, .t = t, .seed = 1234 + t };
		ASSERT_EQ(0, pthread_create(&th[t], NULL, work, &w[t]));
	}
	for (unsigned int t = 0; t < sh.ngpus; t++) {
		pthread_join(th[t], NULL);
		mism += w[t].mismatches;
		errs += w[t].errors;
		for (int k = 0; k < 6; k++)
			ops[k] += w[t].ops[k];
	}
	for (int bi = 0; bi < NBUF; bi++)
		for (unsigned int g = 0; g < sh.ngpus; g++)
			ASSERT_EQ(0, memcmp(sh.view[bi][g], sh.ref[bi],
					    (size_t)NPAGES * sh.page));
	ASSERT_EQ(0, numagpu_dev_stats(&ds));
	TH_LOG("%u threads, %.0f s: %ld reads, %ld writes, %ld advises, %ld migrates, %ld uring batches; module: %llu replicas, %llu collapses, %llu migrations, %llu pins; %ld mismatches, %ld errors",
	       sh.ngpus, SECONDS, ops[0], ops[1], ops[2], ops[3], ops[4],
	       (unsigned long long)ds.replicas_created,
	       (unsigned long long)ds.collapses,
	       (unsigned long long)ds.migrations,
	       (unsigned long long)ds.pins, mism, errs);
	EXPECT_EQ(0, mism);
	EXPECT_EQ(0, errs);
	for (int bi = 0; bi < NBUF; bi++) {
		ng_kbuf_destroy(&sh.b[bi]);
		free(sh.ref[bi]);
	}
	close(dev);
	EXPECT_EQ(0, numagpu_wait_pages_zero(3000));
	EXPECT_EQ(0, numagpu_tainted() & ~NUMAGPU_TAINT_OK);
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
