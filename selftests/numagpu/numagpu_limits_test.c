// SPDX-License-Identifier: GPL-2.0
/*
 * What limits a buffer's memory: the creator's RLIMIT_MEMLOCK (its pages
 * are locked memory of that user unless it has CAP_IPC_LOCK) and its
 * memory cgroup's memory.max (the pages, the metadata and the location
 * table are charged there). Each gives a clean error, SIGBUS for a fault
 * and ENOMEM for a creation or a prefetch, and the charges return after
 * close. Each case runs in a child: it drops CAP_IPC_LOCK or moves itself
 * into a cgroup.
 */
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "ngemu/backend/kbuf.h"
#include "numagpu_test.h"
#include "numagpu_sigbus.h"
#include "../../user/tests/run_cmd.h"

#define CG_ROOT	"/sys/fs/cgroup"
#define CG	CG_ROOT "/numagpu-limits"

static int drop_cap_ipc_lock(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
	d[CAP_IPC_LOCK / 32].permitted &= ~(1u << (CAP_IPC_LOCK % 32));
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* A buffer of @npages on GPU 0 mapped in view 0, touched until SIGBUS. */
static long fill(int dev, size_t npages, int *bus)
{
	struct numagpu_buf_create c = {
		.size = npages * page_size(), .mode = NUMAGPU_MODE_CGP,
	};
	struct ng_kbuf b;
	size_t n;
	char *v;

	if (ng_kbuf_create(&b, dev, &c) || ng_kbuf_map_view(&b, 0, (void **)&v))
		return -1;
	n = touch_until_sigbus(v, npages, page_size(), bus);
	ng_kbuf_destroy(&b);
	return (long)n;
}

/* Child exit codes of the memlock case: 0 passed, else the failed step */
static int memlock_child(int dev, size_t limit_pages)
{
	struct rlimit rl = {
		.rlim_cur = limit_pages * page_size(),
		.rlim_max = limit_pages * page_size(),
	};
	long first, again;
	int bus;

	if (drop_cap_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 10;
	first = fill(dev, 4 * limit_pages, &bus);
	if (first <= 0 || (size_t)first > limit_pages || !bus)
		return 11;
	/* what the first buffer held came back at close */
	again = fill(dev, 4 * limit_pages, &bus);
	if (again != first || !bus)
		return 12;
	return 0;
}

/* Filling memory under a debug kernel (KASAN) takes a while */
#define LIMITS_TIMEOUT	180

FIXTURE(limits) {
	int dev;
};

FIXTURE_SETUP(limits)
{
	self->dev = ng_kbuf_open_device(NULL);
	ASSERT_LE(0, self->dev);
	ASSERT_EQ(0, numagpu_wait_pages_zero(2000));
}

FIXTURE_TEARDOWN(limits)
{
	EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	close(self->dev);
}

TEST_F_TIMEOUT(limits, memlock_limit_gives_sigbus_and_comes_back,
	       LIMITS_TIMEOUT)
{
	const size_t limit = 256;	/* pages: 1 MiB of 4 KiB pages */
	int dev = self->dev, status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(memlock_child(dev, limit));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child failed at step %d",
						 WEXITSTATUS(status));
}

/* ngemu on the module past RLIMIT_MEMLOCK: an error naming it, no SIGBUS */
static int ngemu_child(void)
{
	static struct cmd_result r;
	struct rlimit rl = { .rlim_cur = 1 << 20, .rlim_max = 1 << 20 };

	/* root gets every capability back at exec but the bounding set's */
	if (prctl(PR_CAPBSET_DROP, CAP_IPC_LOCK, 0, 0, 0) ||
	    drop_cap_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
		return 30;
	if (run_cmd(&r, (char *const[]){
		(char *)ngemu_path(), "bench", "stream-triad", "--backend",
		"kmod", "--no-native", NULL }))
		return 31;
	if (!r.status || r.status >= 128 || !strstr(r.err, "RLIMIT_MEMLOCK")) {
		fprintf(stderr, "# ngemu exit %d: %.400s\n", r.status, r.err);
		return 32;
	}
	return 0;
}

TEST_F_TIMEOUT(limits, ngemu_names_the_memlock_limit, LIMITS_TIMEOUT)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid)
		_exit(ngemu_child());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child failed at step %d",
						 WEXITSTATUS(status));
}

/* A number from file @file of cgroup directory @cg, or -1. */
static long cg_read_in(const char *cg, const char *file)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	if (read_text(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

static long cg_read(const char *file)
{
	return cg_read_in(CG, file);
}

static int cg_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(val, f);
	return fclose(f) ? -errno : 0;
}

/* Exit codes: 0 passed, else the failed step */
static int memcg_child(int dev, long max)
{
	const size_t npages = 4 * max / page_size();
	struct numagpu_buf_create big = {
		.size = 3UL << 29, .mode = NUMAGPU_MODE_FGP,	/* 21 MiB of metadata */
	};
	struct numagpu_buf_create c = {
		.size = npages * page_size(), .mode = NUMAGPU_MODE_CGP,
	};
	struct numagpu_buf_migrate m = {
		.npages = npages, .flags = NUMAGPU_MIGRATE_PREFETCH,
	};
	long base, made;
	char pid[32];
	int fd;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (cg_write(CG "/cgroup.procs", pid))
		return 20;
	base = cg_read("memory.current");
	/* metadata past the limit: ENOMEM, no OOM kill */
	fd = ioctl(dev, NUMAGPU_IOC_BUF_CREATE, &big);
	if (fd >= 0 || errno != ENOMEM)
		return 21;
	fd = ioctl(dev, NUMAGPU_IOC_BUF_CREATE, &c);
	if (fd < 0)
		return 22;
	/* the table and the page arrays are charged here */
	made = cg_read("memory.current");
	if (made - base < (long)NUMAGPU_LOCTAB_SIZE(npages))
		return 23;
	/* a prefetch past the limit moves what fits and skips the rest */
	if (ioctl(fd, NUMAGPU_BUF_IOC_MIGRATE, &m) || !m.skipped ||
	    !m.moved || m.moved >= npages / 2)
		return 24;
	close(fd);
	if (numagpu_wait_pages_zero(2000))
		return 25;
	/* everything came back (slack: the kernel's own small objects) */
	if (cg_read("memory.current") - base > 256 * 1024)
		return 26;
	return 0;
}

TEST_F_TIMEOUT(limits, memcg_limit_gives_enomem_and_comes_back,
	       LIMITS_TIMEOUT)
{
	const long max = 16 << 20;
	int dev = self->dev, status;
	char val[32];
	pid_t pid;

	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL);
	ASSERT_EQ(0, access(CG_ROOT "/cgroup.controllers", F_OK))
		TH_LOG("no cgroup2 at %s", CG_ROOT);
	ASSERT_EQ(0, cg_write(CG_ROOT "/cgroup.subtree_control", "+memory"));
	ASSERT_TRUE(!mkdir(CG, 0755) || errno == EEXIST);
	snprintf(val, sizeof(val), "%ld", max);
	ASSERT_EQ(0, cg_write(CG "/memory.max", val));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(memcg_child(dev, max));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d",
					      WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child failed at step %d",
						 WEXITSTATUS(status));
	EXPECT_EQ(0, rmdir(CG));
}

#define CG2	CG_ROOT "/numagpu-automigrate"
#define AUTO_PAGES	2048

static int automigrate_period(long ms)
{
	char v[32];

	snprintf(v, sizeof(v), "%ld", ms);
	return cg_write("/sys/module/numagpu/parameters/automigrate_period_ms",
			v);
}

/* A buffer on GPU 0 of AUTO_PAGES, written through view 0; 0 or -1. */
static int make_local(int dev, struct ng_kbuf *b)
{
	struct numagpu_buf_create c = {
		.size = AUTO_PAGES * page_size(), .mode = NUMAGPU_MODE_CGP,
	};
	volatile char *v0;

	if (ng_kbuf_create(b, dev, &c) ||
	    ng_kbuf_map_view(b, 0, (void **)&v0))
		return -1;
	for (size_t p = 0; p < AUTO_PAGES; p++)
		v0[p * page_size()] = 1;
	return 0;
}

/* Read @b for @secs seconds through view 1, automatic migration on. */
static int read_remote(struct ng_kbuf *b, double secs)
{
	struct timespec t0, t;
	unsigned long sum = 0, rounds = 0;
	volatile char *v1;

	/* the sampler starts with the next mapping */
	if (automigrate_period(20) || ng_kbuf_map_view(b, 1, (void **)&v1))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (size_t p = 0; p < AUTO_PAGES; p++)
			sum += v1[p * page_size()];
		rounds++;
		usleep(5000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return automigrate_period(0) || sum != rounds * AUTO_PAGES ? -1 : 0;
}

/* Exit codes: 0 passed, else the failed step */
static int automigrate_memcg_child(int dev)
{
	struct numagpu_buf_stats st;
	struct ng_kbuf b;
	long before, after;
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (cg_write(CG2 "/cgroup.procs", pid))
		return 30;
	if (make_local(dev, &b))
		return 31;
	before = cg_read_in(CG2, "memory.current");
	if (read_remote(&b, 3.0))
		return 32;
	after = cg_read_in(CG2, "memory.current");
	if (ng_kbuf_stats(&b, &st) || st.auto_migrations < AUTO_PAGES / 4)
		return 33;
	/*
	 * Moved pages stay charged here: the total does not fall by the
	 * pages moved (8 MiB; slack for the kernel's own small objects).
	 */
	fprintf(stderr, "# memory.current %ld KiB before, %ld KiB after %llu automatic migrations\n",
		before >> 10, after >> 10,
		(unsigned long long)st.auto_migrations);
	if (after < before - (long)(AUTO_PAGES / 8 * page_size()))
		return 34;
	ng_kbuf_destroy(&b);
	return 0;
}

/* Exit codes: 0 passed, else the failed step */
static int automigrate_cpuset_child(int dev, const struct numagpu_topology *t)
{
	struct numagpu_buf_stats st;
	struct numagpu_loc loc;
	struct ng_kbuf b;
	uint64_t moved;
	char pid[32];
	size_t away = 0;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (cg_write(CG2 "/cgroup.procs", pid))
		return 40;
	if (make_local(dev, &b) || read_remote(&b, 3.0))
		return 41;
	if (ng_kbuf_stats(&b, &st) || st.auto_migrations)
		return 42;
	for (size_t p = 0; p < AUTO_PAGES; p++) {
		if (ng_kbuf_loctab_read(&b, p, 1, &loc))
			return 43;
		away += loc.node != t->gpu[0].node;
	}
	if (away)
		return 44;
	/* as move_pages(2): a node outside the cpuset is refused */
	if (!ng_kbuf_migrate(&b, 0, 1, 1, NUMAGPU_MIGRATE_GPU, &moved) ||
	    errno != EACCES)
		return 45;
	ng_kbuf_destroy(&b);
	return 0;
}

/*
 * Automatic migration moves pages from a kworker: the moved pages stay
 * charged to the memory cgroup of the pages they replace (a task under
 * memory.max could hold more than its limit when the charge went
 * nowhere), and a page never leaves the cpuset of the task that touches it
 * (cpuset.mems = GPU 0's node: nothing moves to GPU 1, and an explicit
 * MIGRATE there gets EACCES).
 */
TEST_F_TIMEOUT(limits, automatic_migration_keeps_memcg_and_cpuset,
	       LIMITS_TIMEOUT)
{
	struct numagpu_topology topo;
	int dev = self->dev, status;
	char mems[32];
	pid_t pid;

	ASSERT_EQ(0, numagpu_get_topology(&topo));
	if (topo.ngpus < 2)
		SKIP(return, "one GPU");
	if (access(CG_ROOT "/cgroup.controllers", F_OK))
		mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL);
	ASSERT_EQ(0, cg_write(CG_ROOT "/cgroup.subtree_control",
			      "+memory +cpuset"));
	ASSERT_TRUE(!mkdir(CG2, 0755) || errno == EEXIST);
	ASSERT_EQ(0, cg_write(CG2 "/memory.max", "268435456"));
	for (int k = 0; k < 2; k++) {
		if (k) {
			snprintf(mems, sizeof(mems), "%u", topo.gpu[0].node);
			ASSERT_EQ(0, cg_write(CG2 "/cpuset.mems", mems));
		}
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			_exit(k ? automigrate_cpuset_child(dev, &topo)
				: automigrate_memcg_child(dev));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		(void)automigrate_period(0);
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d",
						      WTERMSIG(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("the %s child failed at step %d",
			       k ? "cpuset" : "memcg", WEXITSTATUS(status));
		EXPECT_EQ(0, numagpu_wait_pages_zero(2000));
	}
	EXPECT_EQ(0, rmdir(CG2));
}

int main(int argc, char **argv)
{
	numagpu_require_device();
	return test_harness_run(argc, argv);
}
