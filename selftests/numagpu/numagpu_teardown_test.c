// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu buffers going away: fork + exit, kill -9 during concurrent first
 * touch, munmap of one view while others are in use, the module pinned by a
 * buffer; and a node running full, with SIGBUS or fallback. After each, the
 * module's count of pages held is back to zero.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ngemu/backend/kbuf.h"
#include "numagpu_sigbus.h"
#include "numagpu_test.h"

FIXTURE(td) {
	struct numagpu_topology topo;
	unsigned int ngpus;
	int dev;
	long page;
};

FIXTURE_SETUP(td)
{
	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	self->ngpus = self->topo.ngpus;
	self->page = page_size();
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
	ASSERT_EQ(0, numagpu_wait_pages_zero(2000));
}

FIXTURE_TEARDOWN(td)
{
	close(self->dev);
}

static int create(struct ng_kbuf *b, int dev, size_t size, __u32 mode,
		  __u32 flags, __u32 target)
{
	struct numagpu_buf_create c = {
		.size = size, .mode = mode, .flags = flags, .target = target,
	};

	return ng_kbuf_create(b, dev, &c);
}

/* A child fills a buffer through every view and exits without cleaning up. */
TEST_F(td, fork_exit)
{
	long long before = numagpu_pages_held(), during = -1;
	int pfd[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct ng_kbuf b;
		char *v;
		char ok = 1;

		if (create(&b, self->dev, 256 * self->page,
			   NUMAGPU_MODE_FIRST_TOUCH, 0, 0))
			_exit(1);
		for (unsigned int g = 0; g < self->ngpus; g++) {
			if (ng_kbuf_map_view(&b, g, (void **)&v))
				_exit(2);
			for (size_t i = g * self->page; i < b.size;
			     i += self->ngpus * self->page)
				v[i] = 1;
		}
		if (write(pfd[1], &ok, 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	{
		char c;

		ASSERT_EQ(1, read(pfd[0], &c, 1));
	}
	during = numagpu_pages_held();
	kill(pid, SIGTERM);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(pfd[0]);
	EXPECT_EQ(256, during - before);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	TH_LOG("pages held: before %lld, in the child %lld, after %lld",
	       before, during, numagpu_pages_held());
}

/* The child of a fork shares the buffer; its writes are the parent's. */
TEST_F(td, fork_shares_buffer)
{
	struct ng_kbuf b;
	int status;
	pid_t pid;
	char *v;

	ASSERT_EQ(0, create(&b, self->dev, 64 * self->page, NUMAGPU_MODE_FGP,
			    0, 0));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		for (size_t i = 0; i < b.size; i += self->page)
			v[i] = 7;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	for (size_t i = 0; i < b.size; i += self->page)
		ASSERT_EQ(7, v[i]);
	EXPECT_EQ(64, numagpu_pages_held());
	ng_kbuf_destroy(&b);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
}

struct racer {
	const struct numagpu_topology *topo;
	unsigned int gpu;
	char *view;
	size_t size;
	long page;
};

static void *race_thread(void *arg)
{
	struct racer *r = arg;

	numagpu_pin_gpu(r->topo, r->gpu);
	for (;;)
		for (size_t i = 0; i < r->size; i += r->page)
			r->view[i]++;
	return NULL;
}

/* kill -9 while 4 threads first-touch the same pages through 4 views. */
TEST_F(td, kill9_during_first_touch)
{
	long long before = numagpu_pages_held();
	struct timespec ts;
	int killed_busy = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	srand(ts.tv_nsec);
	for (int round = 0; round < 8; round++) {
		int pfd[2], status;
		pid_t pid;
		char c;

		ASSERT_EQ(0, pipe(pfd));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			struct racer r[NUMAGPU_MAX_GPUS];
			pthread_t t;
			struct ng_kbuf b;
			unsigned int n = self->ngpus < 4 ? self->ngpus : 4;

			if (create(&b, self->dev, 4096 * self->page,
				   NUMAGPU_MODE_FIRST_TOUCH, 0, 0))
				_exit(1);
			for (unsigned int g = 0; g < 4; g++) {
				r[g] = (struct racer){ &self->topo, g % n, NULL,
						       b.size, self->page };
				if (ng_kbuf_map_view(&b, g % n,
						     (void **)&r[g].view))
					_exit(2);
				if (pthread_create(&t, NULL, race_thread, &r[g]))
					_exit(3);
			}
			c = 1;
			if (write(pfd[1], &c, 1) != 1)
				_exit(4);
			pause();
			_exit(0);
		}
		close(pfd[1]);
		ASSERT_EQ(1, read(pfd[0], &c, 1));
		close(pfd[0]);
		usleep(1000 + rand() % 40000);
		if (numagpu_pages_held() > before &&
		    numagpu_pages_held() < before + 4096)
			killed_busy++;
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status));
		EXPECT_EQ(0, numagpu_wait_pages_zero(5000)) TH_LOG("round %d",
								   round);
	}
	TH_LOG("pages held before %lld, after %lld; %d of 8 kills mid first touch",
	       before, numagpu_pages_held(), killed_busy);
}

struct user {
	char *view;
	size_t size;
	long page;
	atomic_int *stop;
	long rounds;
	int bad;
};

static void *use_thread(void *arg)
{
	struct user *u = arg;

	while (!atomic_load(u->stop)) {
		for (size_t i = 0; i < u->size; i += u->page) {
			u->view[i + 8] = (char)i;
			if (u->view[i] != (char)(i / u->page))
				u->bad++;
		}
		u->rounds++;
	}
	return NULL;
}

struct once {
	const struct numagpu_topology *topo;
	unsigned int gpu;
	char *view;
	size_t size;
	long page;
	pthread_barrier_t *go;
};

static void *once_thread(void *arg)
{
	struct once *o = arg;

	numagpu_pin_gpu(o->topo, o->gpu);
	pthread_barrier_wait(o->go);
	for (size_t i = 0; i < o->size; i += o->page)
		__atomic_fetch_add(&o->view[i], 1, __ATOMIC_RELAXED);
	return NULL;
}

/* 4 threads race to first-touch the same pages: one page each wins. */
TEST_F(td, concurrent_first_touch)
{
	const size_t npages = 2048;
	struct numagpu_buf_create c = {
		.size = npages * self->page, .mode = NUMAGPU_MODE_FIRST_TOUCH,
	};
	struct numagpu_loc *loc = calloc(npages, sizeof(*loc));
	void **addrs = calloc(npages, sizeof(*addrs));
	int *status = calloc(npages, sizeof(*status));
	unsigned int n = self->ngpus < 4 ? self->ngpus : 4;
	struct once o[4];
	pthread_t t[4];
	pthread_barrier_t go;
	struct numagpu_buf_stats st;
	struct ng_kbuf b;

	ASSERT_NE(NULL, loc);
	ASSERT_NE(NULL, addrs);
	ASSERT_NE(NULL, status);
	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, n));
	for (unsigned int g = 0; g < n; g++) {
		o[g] = (struct once){ &self->topo, g, NULL, b.size, self->page,
				      &go };
		ASSERT_EQ(0, ng_kbuf_map_view(&b, g, (void **)&o[g].view));
	}
	for (unsigned int g = 0; g < n; g++)
		ASSERT_EQ(0, pthread_create(&t[g], NULL, once_thread, &o[g]));
	for (unsigned int g = 0; g < n; g++)
		pthread_join(t[g], NULL);
	ASSERT_EQ(0, ng_kbuf_stats(&b, &st));
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, 0, npages, loc));
	EXPECT_EQ(npages, st.populated);
	EXPECT_EQ((long long)npages, numagpu_pages_held());
	for (unsigned int g = 0; g < n; g++) {
		size_t bad_val = 0, bad_node = 0;

		for (size_t p = 0; p < npages; p++) {
			addrs[p] = o[g].view + p * self->page;
			bad_val += o[g].view[p * self->page] != (char)n;
		}
		ASSERT_EQ(0, numagpu_page_nodes(addrs, status, npages));
		for (size_t p = 0; p < npages; p++)
			bad_node += loc[p].node != status[p];
		EXPECT_EQ(0, bad_val) TH_LOG("view %u", g);
		EXPECT_EQ(0, bad_node) TH_LOG("view %u", g);
	}
	TH_LOG("%zu pages, %llu faults, %llu lost races", npages,
	       (unsigned long long)st.faults, (unsigned long long)st.races);
	pthread_barrier_destroy(&go);
	ng_kbuf_destroy(&b);
	free(loc);
	free(addrs);
	free(status);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
}

/* One view goes while the others are in use. */
TEST_F(td, munmap_one_view_in_use)
{
	struct user u[NUMAGPU_MAX_GPUS];
	pthread_t t[NUMAGPU_MAX_GPUS];
	atomic_int stop = 0;
	struct ng_kbuf b;
	char *v0;

	ASSERT_EQ(0, create(&b, self->dev, 512 * self->page, NUMAGPU_MODE_FGP,
			    0, 0));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, (void **)&v0));
	for (size_t i = 0; i < b.size; i += self->page)
		v0[i] = (char)(i / self->page);
	for (unsigned int g = 1; g < self->ngpus; g++) {
		u[g] = (struct user){ NULL, b.size, self->page, &stop, 0, 0 };
		ASSERT_EQ(0, ng_kbuf_map_view(&b, g, (void **)&u[g].view));
		ASSERT_EQ(0, pthread_create(&t[g], NULL, use_thread, &u[g]));
	}
	usleep(20000);
	ASSERT_EQ(0, ng_kbuf_unmap_view(&b, 0));
	/* the fd goes too: the remaining views keep the buffer */
	close(b.fd);
	b.fd = -1;
	usleep(50000);
	atomic_store(&stop, 1);
	for (unsigned int g = 1; g < self->ngpus; g++) {
		pthread_join(t[g], NULL);
		EXPECT_EQ(0, u[g].bad);
		EXPECT_LT(0, u[g].rounds);
	}
	EXPECT_EQ(512, numagpu_pages_held());
	ng_kbuf_destroy(&b);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
}

/* The module stays while a buffer or just a mapping of one exists. */
TEST_F(td, buffer_pins_module)
{
	struct ng_kbuf b;
	void *v;

	ASSERT_EQ(0, create(&b, self->dev, 4 * self->page, NUMAGPU_MODE_FGP,
			    0, 0));
	close(self->dev);
	self->dev = -1;
	EXPECT_NE(0, numagpu_unload());
	ASSERT_EQ(0, ng_kbuf_map_view(&b, 0, &v));
	((char *)v)[0] = 1;
	close(b.fd);
	b.fd = -1;
	EXPECT_NE(0, numagpu_unload());
	EXPECT_TRUE(numagpu_loaded());
	ng_kbuf_destroy(&b);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
}

/* ---------------------------------------------------------------------- */
/* A node running full. */

FIXTURE(full) {
	struct numagpu_topology topo;
	int dev;
	long page;
};

FIXTURE_VARIANT(full) {
	__u32 flags;
};

FIXTURE_VARIANT_ADD(full, sigbus) {
	.flags = 0,
};

FIXTURE_VARIANT_ADD(full, fallback) {
	.flags = NUMAGPU_BUF_FALLBACK,
};

FIXTURE_SETUP(full)
{
	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	self->page = page_size();
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
}

FIXTURE_TEARDOWN(full)
{
	close(self->dev);
}

/*
 * Fill GPU 1's node (GPU 0's if there is one GPU) past its free memory
 * with a CGP buffer, from a CPU of that node. Without FALLBACK the first
 * page that does not fit raises SIGBUS; with it, the rest go to the
 * nearest nodes, flagged and counted.
 */
/* TCG, and a debug kernel more so, take tens of seconds to fill a node */
TEST_F_TIMEOUT(full, node_full, 240)
{
	unsigned int gpu = self->topo.ngpus > 1 ? 1 : 0;
	int node = self->topo.gpu[gpu].node;
	size_t group = self->topo.ngpus * self->page;
	size_t size = (self->topo.gpu[gpu].mem_free + (64 << 20)) / group * group;
	size_t npages = size / self->page, touched = 0, on_node = 0, fb = 0;
	struct numagpu_buf_create c = {
		.size = size, .mode = NUMAGPU_MODE_CGP, .flags = variant->flags,
		.target = gpu,
	};
	struct numagpu_loc *loc = calloc(npages, sizeof(*loc));
	struct numagpu_buf_stats st;
	struct ng_kbuf b;
	int bus = 0;
	char *v;

	ASSERT_NE(NULL, loc);
	ASSERT_EQ(0, numagpu_pin_gpu(&self->topo, gpu));
	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, gpu, (void **)&v));
	touched = touch_until_sigbus(v, npages, self->page, &bus);
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, 0, npages, loc));
	ASSERT_EQ(0, ng_kbuf_stats(&b, &st));
	for (size_t p = 0; p < npages; p++) {
		if (!(loc[p].flags & NUMAGPU_LOC_POPULATED))
			continue;
		if (loc[p].flags & NUMAGPU_LOC_FALLBACK) {
			fb++;
			EXPECT_NE(node, loc[p].node);
		} else {
			on_node++;
			EXPECT_EQ(node, loc[p].node);
		}
	}
	TH_LOG("node %d, %zu MiB free, buffer %zu MiB: %zu pages touched, %zu on node %d, %zu fallback, sigbus %llu, fallbacks %llu",
	       node, (size_t)(self->topo.gpu[gpu].mem_free >> 20), size >> 20,
	       touched, on_node, node, fb, st.sigbus, st.fallbacks);
	if (variant->flags & NUMAGPU_BUF_FALLBACK) {
		EXPECT_EQ(0, bus);
		EXPECT_EQ(npages, touched);
		EXPECT_LT(0, fb);
		EXPECT_EQ(fb, st.fallbacks);
		EXPECT_EQ(0, st.sigbus);
	} else {
		EXPECT_EQ(1, bus);
		EXPECT_GT(npages, touched);
		EXPECT_EQ(0, fb);
		EXPECT_EQ(1, st.sigbus);
		EXPECT_EQ(touched, st.populated);
	}
	/* most of the node's free memory was taken before it ran out */
	EXPECT_LT(npages / 2, on_node);
	EXPECT_EQ(on_node + fb, st.populated);
	ng_kbuf_destroy(&b);
	free(loc);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	/* the pages went back to the node, not just out of the count */
	{
		struct numagpu_topology after;
		__u64 before = self->topo.gpu[gpu].mem_free;

		ASSERT_EQ(0, numagpu_get_topology(&after));
		TH_LOG("node %d free: %llu MiB before, %llu MiB after", node,
		       (unsigned long long)before >> 20,
		       (unsigned long long)after.gpu[gpu].mem_free >> 20);
		EXPECT_LT(before, after.gpu[gpu].mem_free + (64 << 20));
	}
}

/* A FALLBACK buffer's back-off: no variants, FALLBACK is the point. */
FIXTURE(backoff) {
	struct numagpu_topology topo;
	int dev;
	long page;
};

FIXTURE_SETUP(backoff)
{
	ASSERT_EQ(0, numagpu_get_topology(&self->topo));
	self->page = page_size();
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
}

FIXTURE_TEARDOWN(backoff)
{
	close(self->dev);
}

static void *destroy_later(void *arg)
{
	usleep(100000);
	ng_kbuf_destroy(arg);
	return NULL;
}

/*
 * A node that ran full and then has room again is used again: a buffer
 * with FALLBACK fills the node (its faults skip the node for 10 ms after a
 * failed allocation) and goes on faulting at about 1 kHz, while another
 * buffer on the node goes. The faults of the last second land on the node;
 * a back-off that each skipped fault re-armed sent all of them elsewhere.
 */
TEST_F_TIMEOUT(backoff, node_with_room_again_is_used, 300)
{
	unsigned int gpu = self->topo.ngpus > 1 ? 1 : 0;
	int node = self->topo.gpu[gpu].node;
	size_t group = self->topo.ngpus * self->page;
	size_t room = (64 << 20) / group * group, late = 2000, last = 1000;
	size_t size = (self->topo.gpu[gpu].mem_free + room + 2 * late *
		       self->page) / group * group;
	size_t npages = size / self->page, p, fb = 0, back = 0;
	struct numagpu_buf_create c = {
		.size = room, .mode = NUMAGPU_MODE_CGP, .target = gpu,
	};
	struct numagpu_loc *loc = calloc(npages, sizeof(*loc));
	struct ng_kbuf hog, b;
	volatile char *v, *h;
	pthread_t t;

	ASSERT_NE(NULL, loc);
	ASSERT_EQ(0, numagpu_pin_gpu(&self->topo, gpu));
	/* 64 MiB of the node held by another buffer, to be freed later */
	ASSERT_EQ(0, ng_kbuf_create(&hog, self->dev, &c));
	ASSERT_EQ(0, ng_kbuf_map_view(&hog, gpu, (void **)&h));
	for (p = 0; p < room / self->page; p++)
		h[p * self->page] = 1;
	c.size = size;
	c.flags = NUMAGPU_BUF_FALLBACK;
	ASSERT_EQ(0, ng_kbuf_create(&b, self->dev, &c));
	ASSERT_EQ(0, ng_kbuf_map_view(&b, gpu, (void **)&v));
	/* fill the node: touch until 16 pages have fallen back */
	for (p = 0; p < npages - late && fb < 16; p++) {
		v[p * self->page] = 1;
		ASSERT_EQ(0, ng_kbuf_loctab_read(&b, p, 1, loc + p));
		fb += !!(loc[p].flags & NUMAGPU_LOC_FALLBACK);
	}
	ASSERT_EQ(16, fb) TH_LOG("the node did not fill in %zu pages", p);
	/* no pause: the faults go on while the other buffer goes */
	ASSERT_EQ(0, pthread_create(&t, NULL, destroy_later, &hog));
	for (size_t k = 0; k < late; k++, p++) {
		v[p * self->page] = 1;
		usleep(1000);
	}
	pthread_join(t, NULL);
	ASSERT_EQ(0, ng_kbuf_loctab_read(&b, p - last, last, loc));
	for (size_t k = 0; k < last; k++)
		back += loc[k].node == node &&
			!(loc[k].flags & NUMAGPU_LOC_FALLBACK);
	TH_LOG("node %d: %zu of the last %zu pages on it", node, back, last);
	EXPECT_LT(last * 9 / 10, back);
	ng_kbuf_destroy(&b);
	free(loc);
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
}

static long long pages_before;
static pid_t main_pid;

/* The harness exits from test_harness_run(): report from atexit. */
static void report_pages(void)
{
	if (getpid() != main_pid)
		return;
	ksft_print_msg("pages held by numagpu.ko: %lld before the teardown tests, %lld after\n",
		       pages_before, numagpu_wait_pages_zero(2000));
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	main_pid = getpid();
	pages_before = numagpu_pages_held();
	atexit(report_pages);
	return test_harness_run(argc, argv);
}
