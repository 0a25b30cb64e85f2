/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numagpu_direct_test's staging of issue 23's race, step by step (its
 * helpers need the test's rep fixture and page checks: included there,
 * after them).
 */
#ifndef NUMAGPU_STAGE_H
#define NUMAGPU_STAGE_H

/*
 * Issue 23. A fault waiting for the lock of a home page holds a reference
 * on that page and counts itself a waiter, so that a migration can tell
 * its reference from other holders'. When the migration publishes the
 * page's successor while the fault still waits (a batch keeps the old
 * pages it published locked while it retries a page someone else holds),
 * the fault's reference stays on the old page. Counted per slot, as before
 * the fix, the next freeze of the new page expected that reference too and
 * succeeded with a GUP holder's reference uncounted: the copy missed the
 * holder's later write. Nothing but chance placed a fault, a GUP and a
 * second migration in those windows (microseconds); debug_hold_ms makes
 * them seconds, so the old counting fails these tests every time.
 *
 * The stage: page BUSY held by a pipe; a batch MIGRATE of STAGE_NP pages
 * to GPU 1 locks and unmaps them and waits; a fault on page WAITED through
 * view 0 waits for its old page's lock; the batch publishes the new pages
 * and waits again, before it retries BUSY, with the old pages after BUSY
 * still locked. The tests then take the new page WAITED through view 1
 * and migrate it again: it must be skipped.
 */
#define HOLD_MS		2000
#define STAGE_NP	64	/* one batch */
#define BUSY		0	/* held by a pipe: the batch retries it */
#define WAITED		5	/* a fault waits on its old page */

/* Poll @cond every millisecond for up to @ms; its last value. */
#define WAIT_FOR(cond, ms) ({					\
	double __end = now_s() + (ms) / 1000.0;			\
	bool __ok;						\
	while (!(__ok = (cond)) && now_s() < __end)		\
		usleep(1000);					\
	__ok;							\
})

/*
 * While the stage's fault waits, it holds this process's mmap_lock for
 * reading: whatever takes it for writing (a thread's stack, a malloc()
 * that grows the heap or makes an arena) waits for the fault, and so does
 * every later GUP. The stage's helpers call open(), read() and write().
 */

/* Thread @tid's state in /proc ('D': asleep on a page lock or an I/O), or 0 */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* The hook off, as param_set() but without stdio */
static int hold_off(void)
{
	int fd = open(PARAM_DIR "debug_hold_ms", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, "0\n", 2);
	close(fd);
	return n == 2 ? 0 : -EIO;
}

/* Does a PTE of this process map @addr (pagemap's present bit)? */
static int mapped(const void *addr)
{
	long page = sysconf(_SC_PAGESIZE);
	off_t off = (off_t)((uintptr_t)addr / page) * sizeof(uint64_t);
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t e = 0;
	ssize_t got;

	if (fd < 0)
		return -errno;
	got = pread(fd, &e, sizeof(e), off);
	close(fd);
	return got == sizeof(e) ? (int)(e >> 63) : -EIO;
}

static char fill_of(size_t p)
{
	return (char)(0x21 + p * 7);
}

/* Static: a thread may outlive a test function that failed an ASSERT */
static struct stage {
	FIXTURE_DATA(rep) *self;
	struct numagpu_buf_migrate m;	/* the batch, in thread tb */
	int err;
	volatile pid_t btid;
	volatile int done;
	volatile pid_t tid;		/* the fault, in thread tf */
	volatile int faulted;
	char got;
	pthread_t tb, tf;
	int pipe[2];
} stage;

static void *stage_batch(void *arg)
{
	struct stage *st = arg;

	st->btid = gettid();
	if (ioctl(st->self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &st->m))
		st->err = errno;
	st->done = 1;
	return NULL;
}

static void *stage_fault(void *arg)
{
	struct stage *st = arg;

	st->tid = gettid();
	st->got = *(const volatile char *)(st->self->v[0] +
					   WAITED * st->self->page);
	st->faulted = 1;
	return NULL;
}

/*
 * Set the stage; returns with the hook off, the fault waiting and the
 * batch holding its old pages. Threads of the test must exist before.
 */
static void stage_begin(struct __test_metadata *_metadata,
			FIXTURE_DATA(rep) *self, struct stage *st)
{
	const char *waited;
	struct iovec iov;

	*st = (struct stage){ .self = self, .pipe = { -1, -1 } };
	ASSERT_EQ(0, param_set("thrash_threshold", 0));
	ASSERT_EQ(0, setup_buf(self, STAGE_NP, 0));
	waited = self->v[0] + WAITED * self->page;
	for (size_t p = 0; p < STAGE_NP; p++)
		memset(self->v[0] + p * self->page, fill_of(p), self->page);
	ASSERT_EQ(1, mapped(waited));
	ASSERT_EQ(0, pipe(st->pipe));
	iov = (struct iovec){ self->v[0] + BUSY * self->page, self->page };
	ASSERT_EQ(self->page, vmsplice(st->pipe[1], &iov, 1, 0));

	ASSERT_EQ(0, param_set("debug_hold_ms", HOLD_MS));
	st->m = (struct numagpu_buf_migrate){
		.npages = STAGE_NP, .target = 1, .flags = NUMAGPU_MIGRATE_GPU,
	};
	ASSERT_EQ(0, pthread_create(&st->tb, NULL, stage_batch, st));
	ASSERT_TRUE(WAIT_FOR(mapped(waited) == 0, HOLD_MS / 2))
		TH_LOG("the batch did not unmap page %d", WAITED);
	ASSERT_EQ(0, pthread_create(&st->tf, NULL, stage_fault, st));
	ASSERT_TRUE(WAIT_FOR(st->tid && thread_state(st->tid) == 'D',
			     HOLD_MS / 2))
		TH_LOG("the fault on page %d did not wait", WAITED);
	ASSERT_TRUE(WAIT_FOR(loc_of(self, WAITED).node ==
			     self->topo.gpu[1].node, 3 * HOLD_MS))
		TH_LOG("the batch did not publish page %d", WAITED);
	/* it waits before it retries BUSY (its only sleep after publishing) */
	ASSERT_TRUE(WAIT_FOR(thread_state(st->btid) == 'D', HOLD_MS / 2))
		TH_LOG("the batch did not wait after publishing");
	/* nothing else is to wait */
	ASSERT_EQ(0, hold_off());
	ASSERT_FALSE(st->faulted);
}

/* Does the fault still wait on the old page, the batch still hold it? */
static bool stage_waiting(struct stage *st)
{
	return !st->faulted && thread_state(st->tid) == 'D' && !st->done;
}

/* Migrate page WAITED to GPU 0 now: it must stay where a holder holds it */
static void stage_migrate(struct __test_metadata *_metadata,
			  FIXTURE_DATA(rep) *self, struct stage *st)
{
	struct numagpu_buf_migrate m = {
		.first_page = WAITED, .npages = 1, .target = 0,
		.flags = NUMAGPU_MIGRATE_GPU,
	};
	bool waiting;

	ASSERT_EQ(0, ioctl(self->b.fd, NUMAGPU_BUF_IOC_MIGRATE, &m));
	waiting = stage_waiting(st);
	EXPECT_EQ(0, m.moved)
		TH_LOG("page %d moved while another holder held it", WAITED);
	EXPECT_EQ(1, m.skipped);
	EXPECT_EQ(self->topo.gpu[1].node, loc_of(self, WAITED).node);
	EXPECT_TRUE(waiting)
		TH_LOG("the fault stopped waiting on the old page before the migration returned: debug_hold_ms %d is too short here",
		       HOLD_MS);
}

/* The batch and the fault done; page BUSY through its pipe. */
static void stage_end(struct __test_metadata *_metadata,
		      FIXTURE_DATA(rep) *self, struct stage *st)
{
	char *got = malloc(self->page);
	ssize_t n;

	pthread_join(st->tf, NULL);
	pthread_join(st->tb, NULL);
	EXPECT_EQ(0, st->err);
	EXPECT_EQ(STAGE_NP - 1, st->m.moved);
	EXPECT_EQ(1, st->m.skipped);
	ASSERT_NE(NULL, got);
	n = read(st->pipe[0], got, self->page);
	EXPECT_EQ(self->page, n);
	for (ssize_t i = 0; i < n; i++)
		if (got[i] != fill_of(BUSY)) {
			EXPECT_EQ(fill_of(BUSY), got[i]);
			break;
		}
	close(st->pipe[0]);
	close(st->pipe[1]);
	free(got);
}

/* Bytes of page @p in view @g other than @want's, the first reported. */
static size_t check_page(FIXTURE_DATA(rep) *self, unsigned int g, size_t p,
			 const char *want)
{
	const volatile char *v = self->v[g] + p * self->page;
	size_t bad = 0;

	for (long i = 0; i < self->page; i++)
		if (v[i] != want[i] && !bad++)
			fprintf(stderr, "# view %u page %zu byte %ld: %#x, want %#x\n",
				g, p, i, v[i] & 0xff, want[i] & 0xff);
	return bad;
}

/* Every byte of every page through every view: @waited for WAITED's */
static size_t check_stage(FIXTURE_DATA(rep) *self, const char *waited)
{
	char *want = malloc(self->page);
	size_t bad = 0;

	if (!want)
		return 1;
	for (size_t p = 0; p < STAGE_NP; p++) {
		if (p == WAITED && waited)
			memcpy(want, waited, self->page);
		else
			memset(want, fill_of(p), self->page);
		for (unsigned int g = 0; g < self->ngpus; g++)
			bad += check_page(self, g, p, want);
	}
	free(want);
	return bad;
}

#endif
