// SPDX-License-Identifier: GPL-2.0
/*
 * Other kernel code writing into a view's pages while the module moves or
 * copies them: O_DIRECT and io_uring reads from a block device (brd's
 * /dev/ram0, loaded by the VM lane: selftests/numagpu/kmods) into a view,
 * racing NUMAGPU_BUF_IOC_MIGRATE and read-mostly replication. The device's
 * reference on a page (plain on 6.1, a pin on 6.12) must keep migration
 * from copying the page under the write, and replication from copying it
 * at all: after every read, every byte is checked through every view.
 * And issue 23's race, staged with the module's debug_hold_ms hook so that
 * it happens every time: a holder of a page that replaced another, while a
 * fault still waits on that other page, must keep the page in place.
 */
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <liburing.h>

#include "numagpu_rep_fixture.h"

#define RAM_DEV		"/dev/ram0"
#define NP		32		/* pages per buffer and per device region */
#define ROUNDS_MAX	400
#define BUDGET_S	4.0

static uint32_t pat(unsigned int region, size_t word)
{
	return ((region + 1) * 0x9e3779b1u) ^ ((uint32_t)word * 0x85ebca6bu);
}

/* Fill the device with its regions' patterns; the fd, O_DIRECT, or -errno. */
static int ram_open(long page, unsigned int *nregions)
{
	size_t rbytes = NP * page, words = rbytes / 4;
	int fd = open(RAM_DEV, O_RDWR | O_DIRECT | O_CLOEXEC);
	off_t size;
	uint32_t *w;

	if (fd < 0)
		return -errno;
	size = lseek(fd, 0, SEEK_END);
	*nregions = size / rbytes;
	if (!*nregions || posix_memalign((void **)&w, page, rbytes)) {
		close(fd);
		return -ENOSPC;
	}
	for (unsigned int r = 0; r < *nregions; r++) {
		for (size_t i = 0; i < words; i++)
			w[i] = pat(r, i);
		if (pwrite(fd, w, rbytes, (off_t)r * rbytes) != (ssize_t)rbytes) {
			free(w);
			close(fd);
			return -EIO;
		}
	}
	free(w);
	return fd;
}

/* Words of region @r wrong in view @g, with the first one reported. */
static size_t check_view(FIXTURE_DATA(rep) *self, unsigned int g,
			 unsigned int r)
{
	const volatile uint32_t *v = (const uint32_t *)self->v[g];
	size_t words = NP * self->page / 4, bad = 0;

	for (size_t i = 0; i < words; i++) {
		uint32_t got = v[i];

		if (got != pat(r, i) && !bad++)
			fprintf(stderr, "# view %u word %zu: %#x, want %#x (region %u)\n",
				g, i, got, pat(r, i), r);
	}
	return bad;
}

static size_t check_all(FIXTURE_DATA(rep) *self, unsigned int r)
{
	size_t bad = 0;

	for (unsigned int g = 0; g < self->ngpus; g++)
		bad += check_view(self, g, r);
	return bad;
}

struct racer {
	FIXTURE_DATA(rep) *self;
	volatile int stop;
	unsigned int g;		/* reader: its view */
	unsigned long n;	/* pages moved, or pages read */
	unsigned long calls, skipped;
	int err;
	unsigned int role;	/* mix(): what it does */
};

/* Move the whole buffer from GPU to GPU until told to stop. */
static void *migrator(void *arg)
{
	struct racer *rc = arg;
	unsigned int g = 1;

	while (!rc->stop) {
		struct numagpu_buf_migrate m = {
			.npages = NP, .target = g++ % rc->self->ngpus,
			.flags = NUMAGPU_MIGRATE_GPU,
		};

		if (ioctl(rc->self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m)) {
			rc->err = errno;
			break;
		}
		rc->calls++;
		rc->n += m.moved;
		rc->skipped += m.skipped;
	}
	return NULL;
}

/* Read every page through view @g (read faults make replicas). */
static void *reader(void *arg)
{
	struct racer *rc = arg;
	const volatile char *v = rc->self->v[rc->g];
	unsigned long sum = 0;

	while (!rc->stop)
		for (size_t p = 0; p < NP; p++, rc->n++)
			sum += v[p * rc->self->page];
	return (void *)sum;
}

/*
 * Hold a page for a moment through a pipe, as vmsplice does (a plain GUP
 * reference), page after page: a migration batch that meets it retries
 * it alone while the pages it has published stay locked.
 */
static void *splicer(void *arg)
{
	struct racer *rc = arg;
	long page = rc->self->page;
	char *sink = malloc(page);
	int pfd[2];

	if (!sink || pipe(pfd)) {
		rc->err = ENOMEM;
		free(sink);
		return NULL;
	}
	for (size_t p = 0; !rc->stop; p = (p + 7) % NP, rc->n++) {
		struct iovec iov = {
			.iov_base = rc->self->v[1] + p * page, .iov_len = page,
		};

		if (vmsplice(pfd[1], &iov, 1, 0) != page) {
			rc->err = errno;
			break;
		}
		usleep(200);
		if (read(pfd[0], sink, page) != page) {
			rc->err = EIO;
			break;
		}
	}
	close(pfd[0]);
	close(pfd[1]);
	free(sink);
	return NULL;
}

/* Two migrators, a reader and a splicer at once, by role. */
static void *mix(void *arg)
{
	struct racer *rc = arg;

	switch (rc->role) {
	case 0:
	case 1:
		return migrator(arg);
	case 2:
		return reader(arg);
	default:
		return splicer(arg);
	}
}

/* One O_DIRECT read of region @r into view @g; 0 or -errno. */
static int read_direct(FIXTURE_DATA(rep) *self, int fd, unsigned int g,
		       unsigned int r)
{
	size_t n = NP * self->page;
	ssize_t got = pread(fd, self->v[g], n, (off_t)r * n);

	return got == (ssize_t)n ? 0 : got < 0 ? -errno : -EIO;
}

/* The same through io_uring, as 4 reads in flight at once; 0 or -errno. */
static int read_uring(FIXTURE_DATA(rep) *self, struct io_uring *ring, int fd,
		      unsigned int g, unsigned int r)
{
	size_t part = NP / 4 * self->page;
	int ret = 0;

	for (unsigned int k = 0; k < 4; k++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		if (!sqe)
			return -EBUSY;
		io_uring_prep_read(sqe, fd, self->v[g] + k * part, part,
				   (off_t)r * NP * self->page + k * part);
	}
	if (io_uring_submit(ring) != 4)
		return -EIO;
	for (unsigned int k = 0; k < 4; k++) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(ring, &cqe))
			return -EIO;
		if (cqe->res != (int)part && !ret)
			ret = cqe->res < 0 ? cqe->res : -EIO;
		io_uring_cqe_seen(ring, cqe);
	}
	return ret;
}

enum how { DIRECT, URING };

/*
 * Rounds of "read region r into a view, then check it through every view"
 * while @fn races; returns the rounds done.
 */
static unsigned int race(struct __test_metadata *_metadata,
			 FIXTURE_DATA(rep) *self, enum how how,
			 void *(*fn)(void *), struct racer *rc,
			 unsigned int nracers)
{
	pthread_t t[NUMAGPU_MAX_GPUS];
	struct io_uring ring;
	unsigned int nregions = 0, r = 0;
	double end;
	int fd;

	/* no thrashing pins: every page stays movable (restored by teardown) */
	ASSERT_EQ(0, param_set("thrash_threshold", 0));
	fd = ram_open(self->page, &nregions);
	ASSERT_LE(0, fd) TH_LOG("%s: %s (the VM lane loads brd)", RAM_DEV,
				strerror(-fd));
	if (how == URING)
		ASSERT_EQ(0, io_uring_queue_init(8, &ring, 0));
	for (unsigned int k = 0; k < nracers; k++)
		ASSERT_EQ(0, pthread_create(&t[k], NULL, fn, &rc[k]));
	end = now_s() + BUDGET_S;
	for (; r < ROUNDS_MAX && (r < 20 || now_s() < end); r++) {
		unsigned int g = r % self->ngpus, reg = r % nregions;
		int err = how == DIRECT ? read_direct(self, fd, g, reg)
					: read_uring(self, &ring, fd, g, reg);

		size_t bad = err ? 0 : check_all(self, reg);

		EXPECT_EQ(0, err);
		EXPECT_EQ(0, bad) TH_LOG("round %u: region %u read into view %u",
					 r, reg, g);
		if (err || bad)
			break;
	}
	for (unsigned int k = 0; k < nracers; k++)
		rc[k].stop = 1;
	for (unsigned int k = 0; k < nracers; k++) {
		pthread_join(t[k], NULL);
		EXPECT_EQ(0, rc[k].err);
	}
	if (how == URING)
		io_uring_queue_exit(&ring);
	close(fd);
	TH_LOG("%u rounds", r);
	return r;
}

TEST_F(rep, odirect_read_racing_migrate)
{
	struct racer rc = { .self = self };

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	race(_metadata, self, DIRECT, migrator, &rc, 1);
	TH_LOG("%lu migration calls meanwhile: %lu pages moved, %lu skipped",
	       rc.calls, rc.n, rc.skipped);
	EXPECT_LT(NP * 20, rc.n);
	EXPECT_TRUE(loctab_matches_query(&self->b) == 0);
}

TEST_F(rep, uring_read_racing_migrate)
{
	struct racer rc = { .self = self };

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	race(_metadata, self, URING, migrator, &rc, 1);
	TH_LOG("%lu migration calls meanwhile: %lu pages moved, %lu skipped",
	       rc.calls, rc.n, rc.skipped);
	EXPECT_LT(NP * 20, rc.n);
}

TEST_F(rep, odirect_read_racing_replication)
{
	struct racer rc[NUMAGPU_MAX_GPUS];
	struct numagpu_buf_stats st;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, NP,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	for (unsigned int g = 1; g < self->ngpus; g++)
		rc[g - 1] = (struct racer){ .self = self, .g = g };
	race(_metadata, self, DIRECT, reader, rc, self->ngpus - 1);
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	TH_LOG("replicas made %llu, collapses %llu",
	       (unsigned long long)st.replicas_created,
	       (unsigned long long)st.collapses);
	EXPECT_LT(0, st.replicas_created);
	EXPECT_LT(0, st.collapses);
}

/*
 * Everything at once: O_DIRECT reads land in a view while two migrations
 * move the buffer (batches that meet a page a pipe holds retry it with
 * their published pages still locked), a reader faults through another
 * view (waiting for old pages' locks) and a pipe holds page after page.
 * Every byte is checked after every read.
 */
TEST_F(rep, odirect_read_racing_the_mix)
{
	struct racer rc[4];

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	for (unsigned int k = 0; k < 4; k++)
		rc[k] = (struct racer){ .self = self, .role = k,
					.g = self->ngpus - 1 };
	race(_metadata, self, DIRECT, mix, rc, 4);
	TH_LOG("%lu pages moved, %lu skipped; %lu pages read; %lu pages spliced",
	       rc[0].n + rc[1].n, rc[0].skipped + rc[1].skipped, rc[2].n,
	       rc[3].n);
	EXPECT_LT(0, rc[0].n + rc[1].n);
	EXPECT_LT(0, rc[3].n);
}

#include "numagpu_stage.h"

/* A pipe takes the new page (vmsplice: a plain GUP reference). */
TEST_F(rep, a_pipe_is_not_a_fault_waiting_on_the_old_page)
{
	struct stage *st = &stage;
	char *got = malloc(self->page);
	struct iovec iov;
	uint64_t moved;
	int held[2];

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	if (self->hold < 0)
		SKIP(return, "no debug_hold_ms parameter");
	/* the hook is bounded */
	EXPECT_EQ(-EINVAL, param_set("debug_hold_ms", 10001));
	EXPECT_EQ(self->hold, param_get("debug_hold_ms"));
	ASSERT_NE(NULL, got);
	ASSERT_EQ(0, pipe(held));
	stage_begin(_metadata, self, st);
	iov = (struct iovec){ self->v[1] + WAITED * self->page, self->page };
	ASSERT_EQ(self->page, vmsplice(held[1], &iov, 1, 0));
	stage_migrate(_metadata, self, st);
	stage_end(_metadata, self, st);
	EXPECT_EQ(fill_of(WAITED), st->got);
	EXPECT_EQ(0, check_stage(self, NULL));
	ASSERT_EQ(self->page, read(held[0], got, self->page));
	EXPECT_EQ(fill_of(WAITED), got[0]);
	EXPECT_EQ(fill_of(WAITED), got[self->page - 1]);
	/* the pipes let go: both pages move */
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, BUSY, 1, 1, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(1, moved);
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, WAITED, 1, 0,
				     NUMAGPU_MIGRATE_GPU, &moved));
	EXPECT_EQ(1, moved);
	close(held[0]);
	close(held[1]);
	free(got);
}

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_SLOW		CG_ROOT "/numagpu-slow-read"
/* a page's read waits about 2 s in the throttle, after its GUP */
#define SLOW_RBPS	2048

static int cg_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(val, f);
	return fclose(f) ? -errno : 0;
}

/*
 * This process into a cgroup whose reads of @fd's device the block layer
 * throttles (io.max): a read's pages are taken (GUP) when it is issued,
 * and written seconds later. 0, or -errno.
 */
static int slow_reads(int fd)
{
	char val[64];
	struct stat sb;
	int err;

	if (fstat(fd, &sb))
		return -errno;
	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL);
	err = cg_write(CG_ROOT "/cgroup.subtree_control", "+io");
	if (err)
		return err;
	if (mkdir(CG_SLOW, 0755) && errno != EEXIST)
		return -errno;
	snprintf(val, sizeof(val), "%u:%u rbps=%d", major(sb.st_rdev),
		 minor(sb.st_rdev), SLOW_RBPS);
	err = cg_write(CG_SLOW "/io.max", val);
	snprintf(val, sizeof(val), "%d", (int)getpid());
	return err ? err : cg_write(CG_SLOW "/cgroup.procs", val);
}

static void fast_reads(void)
{
	char val[32];

	snprintf(val, sizeof(val), "%d", (int)getpid());
	cg_write(CG_ROOT "/cgroup.procs", val);
	rmdir(CG_SLOW);
}

struct slow_read {
	int fd;
	void *dst;
	size_t len;
	ssize_t got;
	int err;
	volatile pid_t tid;
	int go;
	volatile int done;
};

static void *slow_read_run(void *arg)
{
	struct slow_read *r = arg;

	r->tid = gettid();
	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		usleep(1000);
	r->got = pread(r->fd, r->dst, r->len, 0);
	r->err = r->got < 0 ? errno : 0;
	r->done = 1;
	return NULL;
}

/*
 * An O_DIRECT read from brd takes the new page (a plain GUP reference on
 * 6.1, a pin on 6.12) and, the block layer throttling it, writes into it
 * seconds later: had the migration copied the page meanwhile, the read's
 * data would land in a page no view maps any more (a lost write).
 */
TEST_F(rep, an_odirect_read_is_not_a_fault_waiting_on_the_old_page)
{
	struct stage *st = &stage;
	unsigned int nregions = 0;
	struct slow_read r = { 0 };
	uint32_t *dev;
	pthread_t tr;
	int fd, err;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	if (self->hold < 0)
		SKIP(return, "no debug_hold_ms parameter");
	fd = ram_open(self->page, &nregions);
	ASSERT_LE(0, fd) TH_LOG("%s: %s (the VM lane loads brd)", RAM_DEV,
				strerror(-fd));
	/* the device's first page, as region 0's pattern */
	dev = malloc(self->page);
	ASSERT_NE(NULL, dev);
	for (size_t i = 0; i < (size_t)self->page / 4; i++)
		dev[i] = pat(0, i);
	err = slow_reads(fd);
	if (err) {
		fast_reads();
		close(fd);
		free(dev);
		SKIP(return, "no throttled cgroup: %s", strerror(-err));
	}
	r = (struct slow_read){ .fd = fd, .len = self->page };
	ASSERT_EQ(0, pthread_create(&tr, NULL, slow_read_run, &r));
	stage_begin(_metadata, self, st);
	r.dst = self->v[1] + WAITED * self->page;
	__atomic_store_n(&r.go, 1, __ATOMIC_RELEASE);
	/* its GUP mapped the new page in view 1; it waits for the device */
	ASSERT_TRUE(WAIT_FOR(mapped(r.dst) == 1 && r.tid &&
			     thread_state(r.tid) == 'D', HOLD_MS / 4))
		TH_LOG("the read did not wait");
	ASSERT_FALSE(r.done);
	stage_migrate(_metadata, self, st);
	EXPECT_FALSE(r.done) TH_LOG("the read ended before the migration returned");
	pthread_join(tr, NULL);
	EXPECT_EQ(self->page, r.got) TH_LOG("read: %s", strerror(r.err));
	stage_end(_metadata, self, st);
	fast_reads();
	/* the read's data, through every view: none lost */
	EXPECT_EQ(0, check_stage(self, (const char *)dev))
		TH_LOG("the O_DIRECT read's data is not in page %d", WAITED);
	close(fd);
	free(dev);
}

TEST_HARNESS_MAIN
