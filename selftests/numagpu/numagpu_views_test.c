// SPDX-License-Identifier: GPL-2.0
/*
 * What user space may do to views besides reading and writing them:
 * mremap them elsewhere, MADV_DONTNEED them, mprotect a view with replicas
 * read-only and back, mlock them, pass the buffer to an unrelated process
 * with SCM_RIGHTS; and what may race: SET_MODE against first faults,
 * UNSET_READ_MOSTLY against replication, module parameters against
 * migration. Each checks the data and the counters; the fixture checks
 * that no page stays held.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "numagpu_rep_fixture.h"

#define NP	16

/* Page p's word: a value of round @r. */
static uint64_t val(size_t p, unsigned int r)
{
	return (p + 1) * 0x9e3779b97f4a7c15ull + r;
}

static void fill(FIXTURE_DATA(rep) *self, unsigned int g, unsigned int r)
{
	for (size_t p = 0; p < NP; p++)
		*(volatile uint64_t *)(self->v[g] + p * self->page) = val(p, r);
}

/* Pages of view @g whose word is not round @r's. */
static size_t wrong(FIXTURE_DATA(rep) *self, const char *v, unsigned int r)
{
	size_t bad = 0;

	for (size_t p = 0; p < NP; p++)
		bad += *(const volatile uint64_t *)(v + p * self->page) != val(p, r);
	return bad;
}

static sigjmp_buf mce_jmp;
static volatile int mce_code;

static void on_mce(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	mce_code = si->si_code;
	siglongjmp(mce_jmp, 1);
}

/* Read @p's first byte: the SIGBUS code it raised, or 0. */
static __attribute__((noinline)) int read_code(const volatile char *p)
{
	struct sigaction sa = { .sa_sigaction = on_mce, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	mce_code = 0;
	if (sigaction(SIGBUS, &sa, NULL))
		return -1;
	if (!sigsetjmp(mce_jmp, 1))
		(void)*p;
	signal(SIGBUS, SIG_DFL);
	return mce_code;
}

/*
 * A page that memory failure poisons while two views map it: the view
 * that faults it again gets SIGBUS with BUS_MCEERR_AR, and so does the
 * other (its PTE is gone too), never an oops (the core would unmap the
 * page through a mapping the module's pages do not have); a migration
 * skips it rather than copying it.
 */
TEST_F(rep, hwpoisoned_page_gives_sigbus)
{
	uint64_t moved = 1;
	char *p0, *p1;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	p0 = self->v[0] + 3 * self->page;
	p1 = self->v[1] + 3 * self->page;
	*(volatile char *)p0 = 7;
	ASSERT_EQ(7, *(volatile char *)p1);
	/* EBUSY: memory failure poisons the page but cannot recover it */
	if (madvise(p0, self->page, MADV_HWPOISON) && errno != EBUSY)
		SKIP(return, "MADV_HWPOISON: %s (CONFIG_MEMORY_FAILURE)",
		     strerror(errno));
	ASSERT_EQ(0, madvise(p1, self->page, MADV_DONTNEED));
	EXPECT_EQ(BUS_MCEERR_AR, read_code(p1));
	EXPECT_EQ(BUS_MCEERR_AR, read_code(p0));
	/* the others are fine */
	EXPECT_EQ(0, read_code(self->v[1] + 2 * self->page));
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 3, 1, 1, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(0, moved);
}

TEST_F(rep, mremap_moves_a_view)
{
	size_t len = NP * self->page;
	void *to, *moved;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 1);
	to = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, to);
	moved = mremap(self->v[1], len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	ASSERT_EQ(to, moved);
	self->b.view[1] = moved;	/* destroy unmaps it there */
	self->v[1] = moved;
	EXPECT_EQ(0, wrong(self, moved, 1));
	/* still view 1: a migration is seen there, and writes go home */
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, NP, 1, NUMAGPU_MIGRATE_GPU,
				     NULL));
	EXPECT_EQ(self->topo.gpu[1].node, view_node(self, 1, 0));
	fill(self, 1, 2);
	EXPECT_EQ(0, wrong(self, self->v[0], 2));
	/* a move that would grow it is refused */
	EXPECT_EQ(MAP_FAILED, mremap(moved, len, 2 * len, MREMAP_MAYMOVE));
}

TEST_F(rep, madv_dontneed_keeps_the_data)
{
	struct numagpu_buf_stats st;

	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 3);
	ASSERT_EQ(0, madvise(self->v[0], NP * self->page, MADV_DONTNEED));
	for (unsigned int g = 0; g < self->ngpus; g++)
		EXPECT_EQ(0, wrong(self, self->v[g], 3));
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(NP, st.populated);
}

TEST_F(rep, mprotect_back_to_write_collapses_replicas)
{
	struct numagpu_buf_stats st;
	size_t len = NP * self->page;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 4);
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, NP,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	ASSERT_EQ(0, mprotect(self->v[1], len, PROT_READ));
	EXPECT_EQ(0, wrong(self, self->v[1], 4));
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(NP, st.replica_pages);
	ASSERT_EQ(0, mprotect(self->v[1], len, PROT_READ | PROT_WRITE));
	fill(self, 1, 5);
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(0, st.replica_pages);
	EXPECT_LE(NP, st.collapses);
	/* (reading replicates again: the hint stays) */
	for (unsigned int g = 0; g < self->ngpus; g++)
		EXPECT_EQ(0, wrong(self, self->v[g], 5));
}

TEST_F(rep, mlock_of_a_view)
{
	size_t len = NP * self->page;
	uint64_t moved = 0;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 6);
	/* a special mapping: mlock succeeds and changes nothing */
	ASSERT_EQ(0, mlock(self->v[0], len));
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, NP, 1, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(NP, moved);
	EXPECT_EQ(0, wrong(self, self->v[0], 6));
	EXPECT_EQ(0, munlock(self->v[0], len));
}

static int send_fd(int sock, int fd)
{
	char c = 'b', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec io = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = {
		.msg_iov = &io, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = {
		.msg_iov = &io, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *h;
	int fd;

	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	h = CMSG_FIRSTHDR(&m);
	if (!h || h->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(h), sizeof(int));
	return fd;
}

/* The other process: map view @g of the fd it got, check, write round 8. */
static int peer(int sock, unsigned int g, long page)
{
	int fd = recv_fd(sock), bad = 0;
	char *v, ok = 1;

	if (fd < 0)
		return 40;
	v = mmap(NULL, NP * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 NUMAGPU_VIEW_OFFSET(g));
	if (v == MAP_FAILED)
		return 41;
	for (size_t p = 0; p < NP; p++) {
		bad += *(volatile uint64_t *)(v + p * page) != val(p, 7);
		*(volatile uint64_t *)(v + p * page) = val(p, 8);
	}
	close(fd);
	/* the mapping keeps the buffer alive after the fd is gone */
	if (write(sock, &ok, 1) != 1)
		return 42;
	if (read(sock, &ok, 1) != 1)
		return 43;
	munmap(v, NP * page);
	return bad ? 44 : 0;
}

TEST_F(rep, scm_rights_to_an_unrelated_process)
{
	int sv[2], status;
	char ok = 1;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	/* forked before the buffer exists: it has nothing of it but the fd */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(sv[0]);
		_exit(peer(sv[1], self->ngpus - 1, self->page));
	}
	close(sv[1]);
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 7);
	ASSERT_EQ(0, send_fd(sv[0], self->b.fd));
	ASSERT_EQ(1, read(sv[0], &ok, 1));
	EXPECT_EQ(0, wrong(self, self->v[0], 8));
	/* our side goes first: the peer's mapping still holds the pages */
	ng_kbuf_destroy(&self->b);
	EXPECT_LT(0, numagpu_pages_held());
	ASSERT_EQ(1, write(sv[0], &ok, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("peer step %d",
						 WEXITSTATUS(status));
	close(sv[0]);
}

struct racer {
	FIXTURE_DATA(rep) *self;
	volatile int stop;
	unsigned int g;
	unsigned long n, busy;
	int err;
};

/* SET_MODE over the whole buffer until stopped: EBUSY once populated. */
static void *set_mode_loop(void *arg)
{
	struct racer *rc = arg;

	while (!rc->stop) {
		bool fgp = rc->n++ & 1;
		int err = ng_kbuf_set_mode(&rc->self->b, 0, NP,
					   fgp ? NUMAGPU_MODE_FGP :
					   NUMAGPU_MODE_CGP, !fgp, 0);

		if (err == -EBUSY) {
			rc->busy++;
		} else if (err) {
			rc->err = err;
			break;
		}
	}
	return NULL;
}

TEST_F(rep, set_mode_racing_first_faults)
{
	struct racer rc = { .self = self };
	pthread_t t;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, set_mode_loop, &rc));
	while (!rc.n)
		sched_yield();
	fill(self, 0, 9);
	usleep(10000);
	rc.stop = 1;
	pthread_join(t, NULL);
	EXPECT_EQ(0, rc.err);
	EXPECT_LT(0, rc.busy);
	for (unsigned int g = 0; g < self->ngpus; g++)
		EXPECT_EQ(0, wrong(self, self->v[g], 9));
	/*
	 * The first populated page froze the policy (SET_MODE then fails
	 * with EBUSY): every page has the mode that was in force then, the
	 * creation's CGP on GPU 0 or the loop's FGP or CGP on GPU 1, and sits
	 * where it puts it.
	 */
	{
		struct numagpu_loc l0 = loc_of(self, 0);
		unsigned int mode = NUMAGPU_LOC_MODE(l0.flags);

		EXPECT_TRUE(l0.node == self->topo.gpu[0].node ||
			    l0.node == self->topo.gpu[1].node ||
			    mode == NUMAGPU_MODE_FGP);
		for (size_t p = 0; p < NP; p++) {
			struct numagpu_loc l = loc_of(self, p);
			/* FGP: page p on GPU p % n; CGP: all with page 0 */
			int node = mode == NUMAGPU_MODE_FGP ?
				   self->topo.gpu[p % self->ngpus].node :
				   l0.node;

			EXPECT_TRUE(l.flags & NUMAGPU_LOC_POPULATED);
			EXPECT_EQ(mode, NUMAGPU_LOC_MODE(l.flags));
			EXPECT_EQ(node, l.node);
		}
	}
	EXPECT_EQ(0, loctab_matches_query(&self->b));
}

/* Read every page through view g until stopped (read faults replicate). */
static void *read_loop(void *arg)
{
	struct racer *rc = arg;

	while (!rc->stop)
		rc->n += wrong(rc->self, rc->self->v[rc->g], 10) == 0;
	return NULL;
}

/*
 * Three readers spin on the VM's few (software-emulated) CPUs while the
 * advice flips 200 times: on a loaded host that took longer than the
 * harness's default 30 s once, so it gets more (a hang still fails).
 */
TEST_F_TIMEOUT(rep, unset_read_mostly_racing_replication, 120)
{
	struct racer rc[NUMAGPU_MAX_GPUS];
	struct numagpu_buf_stats st;
	pthread_t t[NUMAGPU_MAX_GPUS];
	unsigned int k;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 10);
	for (k = 1; k < self->ngpus; k++) {
		rc[k] = (struct racer){ .self = self, .g = k };
		ASSERT_EQ(0, pthread_create(&t[k], NULL, read_loop, &rc[k]));
	}
	for (k = 1; k < self->ngpus; k++)
		while (!rc[k].n)
			usleep(1000);
	for (unsigned int i = 0; i < 200; i++) {
		ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, NP,
					    i & 1 ? NUMAGPU_ADVISE_UNSET_READ_MOSTLY :
					    NUMAGPU_ADVISE_READ_MOSTLY, 0));
		usleep(200);	/* the readers fault in between */
	}
	/* the last advice unset it: no replica may survive it */
	for (k = 1; k < self->ngpus; k++) {
		rc[k].stop = 1;
		pthread_join(t[k], NULL);
		EXPECT_LT(0, rc[k].n);
	}
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(0, st.replica_pages);
	EXPECT_LT(0, st.replicas_created);
	for (k = 0; k < self->ngpus; k++)
		EXPECT_EQ(0, wrong(self, self->v[k], 10));
}

/* Migrate the buffer around while parameters change under it. */
static void *param_loop(void *arg)
{
	struct racer *rc = arg;
	static const long thr[] = { 0, 1, 2, 16 }, per[] = { 0, 1, 5, 0 };

	while (!rc->stop) {
		param_set("thrash_threshold", thr[rc->n % 4]);
		param_set("pin_ms", 1 + rc->n % 7);
		param_set("automigrate_period_ms", per[rc->n % 4]);
		param_set("automigrate_threshold", 1 + rc->n % 3);
		rc->n++;
		usleep(500);
	}
	return NULL;
}

TEST_F(rep, params_changed_under_load)
{
	struct racer rc = { .self = self };
	long athr = param_get("automigrate_threshold");
	pthread_t t;
	double end;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, NP, 0));
	fill(self, 0, 11);
	ASSERT_EQ(0, pthread_create(&t, NULL, param_loop, &rc));
	end = now_s() + 1.0;
	for (unsigned int i = 0; now_s() < end; i++) {
		ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, NP,
					     i % self->ngpus,
					     NUMAGPU_MIGRATE_GPU, NULL));
		ASSERT_EQ(0, wrong(self, self->v[(i + 1) % self->ngpus], 11));
	}
	rc.stop = 1;
	pthread_join(t, NULL);
	param_set("automigrate_threshold", athr);
	param_set("automigrate_period_ms", 0);
	EXPECT_LT(0, rc.n);
	/* pins (pin_ms <= 7) expire; a query drops them, then all agree */
	usleep(50000);
	loc_of(self, 0);
	{
		struct numagpu_loc q[NP];

		ASSERT_EQ(0, ng_kbuf_query(&self->b, 0, NP, q));
	}
	EXPECT_EQ(0, loctab_matches_query(&self->b));
}

TEST_HARNESS_MAIN
