// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu migration and prefetch, thrashing control,
 * automatic migration, tracepoints, and a teardown in the middle of a
 * migration. Placement is checked with move_pages(2) through each view
 * (a view's address reports the node of the page mapped in that view, so
 * a replica shows its own node), and the module holds no page afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "numagpu_rep_fixture.h"

TEST_F(rep, migrate_and_prefetch)
{
	const size_t n = 512;
	unsigned int to = self->ngpus - 1;
	struct numagpu_buf_stats st;
	uint64_t moved = 0;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, n, 0));
	for (size_t p = 0; p < n / 2; p++)
		memset(self->v[0] + p * self->page, (int)(p & 0xff),
		       self->page);
	/* half populated: migrate moves those, prefetch also fills the rest */
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, n, self->topo.gpu[to].node,
				     0, &moved));
	EXPECT_EQ(n / 2, moved);
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(n / 2, st.populated);
	ASSERT_EQ(0, ng_kbuf_prefetch(&self->b, 0, n, 1, &moved));
	EXPECT_EQ(n, moved);
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(n, st.populated);
	EXPECT_EQ(n, st.migrations);
	for (size_t p = 0; p < n; p++) {
		struct numagpu_loc l = loc_of(self, p);
		unsigned char *q = (unsigned char *)self->v[0] + p * self->page;

		ASSERT_EQ(self->topo.gpu[1].node, l.node);
		for (unsigned int g = 0; g < self->ngpus; g++)
			ASSERT_EQ((int)self->topo.gpu[1].node,
				  view_node(self, g, p));
		ASSERT_EQ(p < n / 2 ? (p & 0xff) : 0, q[0]);
		ASSERT_EQ(p < n / 2 ? (p & 0xff) : 0, q[self->page - 1]);
	}
	/* a replicated page migrates without its replicas */
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, 1,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	/* view 0 maps the home page already: a new mapping faults */
	ASSERT_EQ(0, ng_kbuf_unmap_view(&self->b, 0));
	ASSERT_EQ(0, ng_kbuf_map_view(&self->b, 0, (void **)&self->v[0]));
	ASSERT_EQ(0, self->v[0][0]);
	ASSERT_EQ((int)self->topo.gpu[0].node, view_node(self, 0, 0));
	ASSERT_TRUE(loc_of(self, 0).flags & NUMAGPU_LOC_REPLICATED);
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, 1, 0, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(1, moved);
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(0, st.replica_pages);
}

/* Ping-pong between two nodes pins the page; the pin expires. */
TEST_F(rep, thrashing_pins_then_expires)
{
	const long thr = 4, pin_ms = 400;
	struct numagpu_buf_stats st;
	volatile uint64_t *r, *w;
	int i;

	if (self->ngpus < 3)
		SKIP(return, "fewer than 3 GPUs");
	ASSERT_EQ(0, param_set("thrash_threshold", thr));
	ASSERT_EQ(0, param_set("thrash_window_ms", 5000));
	ASSERT_EQ(0, param_set("pin_ms", pin_ms));
	ASSERT_EQ(0, setup_buf(self, 1, 0));
	ASSERT_EQ(0, ng_kbuf_advise(&self->b, 0, 1,
				    NUMAGPU_ADVISE_READ_MOSTLY, 0));
	r = (volatile uint64_t *)self->v[1];
	w = (volatile uint64_t *)self->v[2];
	w[0] = 1;
	/* node 1 reads (replica), node 2 writes (collapse) */
	for (i = 0; i < 2 * thr; i++) {
		ASSERT_EQ((uint64_t)i + 1, r[0]);
		w[0] = i + 2;
		if (loc_of(self, 0).flags & NUMAGPU_LOC_PINNED)
			break;
	}
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	TH_LOG("pinned after %d round trips, %llu collapses", i + 1,
	       (unsigned long long)st.collapses);
	EXPECT_EQ(1, st.pins);
	EXPECT_EQ(thr, (long)st.collapses);
	ASSERT_TRUE(loc_of(self, 0).flags & NUMAGPU_LOC_PINNED);
	/* pinned: the reader maps the home page remotely, no migration */
	EXPECT_EQ((uint64_t)i + 2, r[0]);
	EXPECT_EQ((int)self->topo.gpu[0].node, view_node(self, 1, 0));
	{
		uint64_t moved = 9;

		ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, 1, 1,
					     NUMAGPU_MIGRATE_GPU, &moved));
		EXPECT_EQ(0, moved);
	}
	usleep((pin_ms + 100) * 1000);
	EXPECT_FALSE(loc_of(self, 0).flags & NUMAGPU_LOC_PINNED);
	w[0] = 77;
	/* a new mapping of view 1 faults, and replicates again */
	ASSERT_EQ(0, ng_kbuf_unmap_view(&self->b, 1));
	ASSERT_EQ(0, ng_kbuf_map_view(&self->b, 1, (void **)&self->v[1]));
	r = (volatile uint64_t *)self->v[1];
	EXPECT_EQ(77, r[0]);
	EXPECT_EQ((int)self->topo.gpu[1].node, view_node(self, 1, 0));
}

/* A page touched again and again from one remote GPU moves there. */
TEST_F(rep, automatic_migration)
{
	struct numagpu_buf_stats st;
	volatile uint64_t *x;
	double end;

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	ASSERT_EQ(0, setup_buf(self, 8, 0));
	x = (volatile uint64_t *)self->v[1];
	x[0] = 5;
	ASSERT_EQ(self->topo.gpu[0].node, loc_of(self, 0).node);
	ASSERT_EQ(0, param_set("automigrate_period_ms", 20));
	/* the sampler starts with the next mapping */
	ASSERT_EQ(0, ng_kbuf_unmap_view(&self->b, 1));
	ASSERT_EQ(0, ng_kbuf_map_view(&self->b, 1, (void **)&self->v[1]));
	x = (volatile uint64_t *)self->v[1];
	end = now_s() + 2.0;
	while (now_s() < end &&
	       loc_of(self, 0).node != self->topo.gpu[1].node) {
		x[0]++;
		usleep(2000);
	}
	ASSERT_EQ(0, param_set("automigrate_period_ms", 0));
	ASSERT_EQ(0, ng_kbuf_stats(&self->b, &st));
	EXPECT_EQ(self->topo.gpu[1].node, loc_of(self, 0).node);
	EXPECT_LE(1, st.auto_migrations);
	EXPECT_LT(5, x[0]);
}

static int tracefs(char *dir, size_t len)
{
	const char *cands[] = { "/sys/kernel/tracing",
				"/sys/kernel/debug/tracing" };

	for (unsigned int i = 0; i < 2; i++) {
		snprintf(dir, len, "%s/events", cands[i]);
		if (!access(dir, F_OK)) {
			snprintf(dir, len, "%s", cands[i]);
			return 0;
		}
	}
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return -errno;
	snprintf(dir, len, "/sys/kernel/tracing");
	return 0;
}

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(s, f);
	return fclose(f) ? -errno : 0;
}

TEST_F(rep, tracepoints)
{
	const char *ev[] = { "numagpu_fault", "numagpu_replicate",
			     "numagpu_collapse", "numagpu_migrate",
			     "numagpu_pin" };
	char dir[128], path[256], line[512];
	int found = 0;
	FILE *f;

	if (tracefs(dir, sizeof(dir)))
		SKIP(return, "no tracefs");
	for (unsigned int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s/events/numagpu/%s/format",
			 dir, ev[i]);
		EXPECT_EQ(0, access(path, R_OK));
	}
	snprintf(path, sizeof(path), "%s/trace", dir);
	ASSERT_EQ(0, write_file(path, ""));
	snprintf(path, sizeof(path), "%s/events/numagpu/enable", dir);
	ASSERT_EQ(0, write_file(path, "1"));
	ASSERT_EQ(0, setup_buf(self, 4, 0));
	self->v[0][0] = 1;
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, 1, self->ngpus - 1,
				     NUMAGPU_MIGRATE_GPU, NULL));
	ASSERT_EQ(0, write_file(path, "0"));
	snprintf(path, sizeof(path), "%s/trace", dir);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "numagpu_migrate:") ||
		    strstr(line, "numagpu_fault:"))
			found++;
	fclose(f);
	EXPECT_LE(2, found);
}

/* Migration trace events of page @idx since the trace was cleared. */
static int migrate_events(const char *dir, unsigned long idx)
{
	char path[256], line[512], want[32];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", dir);
	snprintf(want, sizeof(want), " idx=%lu ", idx);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "numagpu_migrate:") && strstr(line, want);
	fclose(f);
	return n;
}

/*
 * While a pipe holds a vmsplice reference on a page (a plain GUP reference
 * on 6.1 and 6.12), the page may be written through it at any time: a
 * migration, alone or in a batch, skips it (no copy, no migrate event);
 * once the pipe lets go, it moves.
 */
TEST_F(rep, a_page_a_pipe_holds_stays)
{
	char dir[128], path[256], sink[1 << 16];
	struct iovec iov;
	uint64_t moved = 0;
	int pfd[2];

	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	if (tracefs(dir, sizeof(dir)))
		SKIP(return, "no tracefs");
	ASSERT_LE(self->page, (long)sizeof(sink));
	ASSERT_EQ(0, setup_buf(self, 8, 0));
	for (unsigned int p = 0; p < 8; p++)
		self->v[0][p * self->page] = (char)p;
	ASSERT_EQ(self->topo.gpu[0].node, loc_of(self, 5).node);
	ASSERT_EQ(0, pipe(pfd));
	iov.iov_base = self->v[0] + 5 * self->page;
	iov.iov_len = self->page;
	ASSERT_EQ(self->page, vmsplice(pfd[1], &iov, 1, 0));
	snprintf(path, sizeof(path), "%s/trace", dir);
	ASSERT_EQ(0, write_file(path, ""));
	snprintf(path, sizeof(path), "%s/events/numagpu/numagpu_migrate/enable",
		 dir);
	ASSERT_EQ(0, write_file(path, "1"));
	/* alone, then in a batch with pages that do move */
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 5, 1, 1, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(0, moved);
	EXPECT_EQ(self->topo.gpu[0].node, loc_of(self, 5).node);
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 0, 8, 1, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(7, moved);
	EXPECT_EQ(self->topo.gpu[0].node, loc_of(self, 5).node);
	EXPECT_EQ(self->topo.gpu[1].node, loc_of(self, 4).node);
	EXPECT_EQ(0, migrate_events(dir, 5));
	EXPECT_EQ(1, migrate_events(dir, 4));
	/* the pipe's copy is the page's, and the page moves once it is read */
	ASSERT_EQ(self->page, read(pfd[0], sink, self->page));
	EXPECT_EQ(5, sink[0]);
	ASSERT_EQ(0, ng_kbuf_migrate(&self->b, 5, 1, 1, NUMAGPU_MIGRATE_GPU,
				     &moved));
	EXPECT_EQ(1, moved);
	EXPECT_EQ(self->topo.gpu[1].node, loc_of(self, 5).node);
	EXPECT_EQ(1, migrate_events(dir, 5));
	EXPECT_EQ(5, self->v[1][5 * self->page]);
	ASSERT_EQ(0, write_file(path, "0"));
	close(pfd[0]);
	close(pfd[1]);
}

/*
 * Teardown in the middle: a child migrates and replicates in a loop on
 * one thread while another reads and writes; it is killed (SIGKILL), or it
 * unmaps and closes while the other thread works. Nothing leaks.
 */
static void churn_child(FIXTURE_DATA(rep) *self, int how)
{
	const size_t n = 256;
	unsigned int g = 0;

	if (setup_buf(self, n, 0))
		_exit(2);
	ng_kbuf_advise(&self->b, 0, n, NUMAGPU_ADVISE_READ_MOSTLY, 0);
	if (fork() == 0) {	/* a sibling sharing nothing but the fd */
		for (;;) {
			for (size_t p = 0; p < n; p++)
				(void)*(volatile char *)(self->v[g % self->ngpus] +
							 p * self->page);
			self->v[g % self->ngpus][(g * 13 % n) * self->page] = 1;
			g++;
		}
	}
	for (unsigned int it = 0;; it++) {
		ng_kbuf_migrate(&self->b, 0, n, it % self->ngpus,
				NUMAGPU_MIGRATE_GPU, NULL);
		if (how == 1 && it == 20) {
			for (unsigned int h = 0; h < self->ngpus; h++)
				ng_kbuf_unmap_view(&self->b, h);
			ng_kbuf_destroy(&self->b);
			kill(0, SIGKILL);
		}
	}
}

TEST_F(rep, teardown_mid_migration)
{
	for (int how = 0; how < 2; how++) {
		int status;
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0) {
			setpgid(0, 0);
			churn_child(self, how);
			_exit(0);
		}
		setpgid(pid, pid);
		usleep(300000);
		kill(-pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		while (waitpid(-1, &status, WNOHANG) > 0)
			;
		usleep(50000);
		EXPECT_EQ(0, numagpu_wait_pages_zero(3000));
	}
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
