// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel's misuse of the warp access functions stops the run with a
 * message naming the access (kernel.h): an address outside the device
 * address space in every mode, an address outside every live buffer in
 * checked mode (with the lane and the nearest buffer), a lane size over
 * the line in every mode. Each bad kernel runs in a child whose stderr
 * is kept; the child must end by abort() with the message, where without
 * the checks it dies of SIGSEGV, overruns its stack or runs on.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/runtime/kernel.h"
#include "ngemu/runtime/space.h"
#include "ngemu/runtime/system.h"

enum op { OP_LD, OP_ST, OP_LD_CONTIG, OP_ST_CONTIG, OP_BLOCK_LD, OP_ATOMIC };

/* Warp 0 of block 0: lane l at base + l * size, lane @bad at @bad_addr. */
struct bad_args {
	enum op op;
	uintptr_t base, bad_addr;
	unsigned int size;
	int bad;
};

static void bad_kernel(struct ng_block *b, void *p)
{
	const struct bad_args *a = p;
	char buf[NG_WARP * 256] = { 0 };
	uintptr_t addr[NG_WARP];
	uint32_t one[NG_WARP], old[NG_WARP];
	struct ng_warp w;

	if (b->id)
		return;
	ng_warp_get(b, 0, &w);
	for (unsigned int l = 0; l < NG_WARP; l++) {
		addr[l] = a->base + l * a->size;
		one[l] = 1;
	}
	if (a->bad >= 0)
		addr[a->bad] = a->bad_addr;
	switch (a->op) {
	case OP_LD:
		ng_ld(&w, addr, a->size, buf);
		break;
	case OP_ST:
		ng_st(&w, addr, a->size, buf);
		break;
	case OP_LD_CONTIG:
		ng_ld_contig(&w, (const void *)a->base, a->size, buf);
		break;
	case OP_ST_CONTIG:
		ng_st_contig(&w, (void *)a->base, a->size, buf);
		break;
	case OP_BLOCK_LD:
		(void)ng_block_ld_contig_ref(b, (const void *)a->base,
					     b->nthreads, a->size, buf);
		break;
	case OP_ATOMIC:
		ng_atomic_add_u32(&w, addr, one, old);
		break;
	}
	ng_warp_wait(&w);
}

static void small_config(struct ng_config *c, bool checked)
{
	/* unchecked: the default, whatever the suite's environment says */
	if (!checked)
		unsetenv("NGEMU_CHECKED");
	if (ng_config_preset(c, "carve", NULL, 0))
		abort();
	c->gpus = 2;
	c->sms = 1;
	c->page = 4096;
	c->mem_per_gpu = 64 << 20;
	c->deterministic = true;
	c->rdc.size = 0;
	c->rdc.pct = 0;
	/* by name: a library without the key fails here, not at build */
	if (checked && ng_config_set(c, "checked", "yes", NULL, 0))
		_exit(5);
}

/*
 * Allocate buffers of @sizes (0-terminated), let @setup fill @a from
 * them, run bad_kernel named "probe" as one block of 64 threads. In a
 * child: the child's exit status goes to *status, its stderr to @msg.
 */
static void run_child(bool checked, const uint64_t *sizes,
		      void (*setup)(struct bad_args *a, struct ng_buf *bufs),
		      struct bad_args *a, int *status, char *msg, size_t len)
{
	char path[] = "/tmp/ngemu-checked-XXXXXX";
	int fd = mkstemp(path);
	pid_t pid;
	ssize_t n;

	*status = -1;
	msg[0] = '\0';
	if (fd < 0)
		return;
	unlink(path);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		struct ng_launch l = { .name = "probe", .fn = bad_kernel,
				       .grid = { 2, 1 }, .block = { 64, 1 },
				       .only_gpu = -1, .args = a };
		struct ng_buf bufs[4];
		struct ng_alloc_opts o = { 0 };
		struct ng_config cfg;
		struct ng_system *sys;
		char err[256];

		dup2(fd, 2);
		/* no core file for an abort() that is the expected outcome */
		signal(SIGABRT, SIG_DFL);
		small_config(&cfg, checked);
		if (ng_system_create(&sys, &cfg, err, sizeof(err)))
			_exit(3);
		for (unsigned int i = 0; sizes[i]; i++)
			if (ng_malloc(ng_system_space(sys), &bufs[i], sizes[i],
				      &o, err, sizeof(err)))
				_exit(3);
		setup(a, bufs);
		if (ng_launch(sys, &l, NULL))
			_exit(4);
		ng_system_destroy(sys);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, status, 0);
	n = pread(fd, msg, len - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	close(fd);
}

static bool aborted(int status)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static char *hex(uintptr_t a)
{
	static char s[32];

	snprintf(s, sizeof(s), "%#llx", (unsigned long long)a);
	return s;
}

/* lane 5 just below the first buffer: outside the whole space */
static void below_first(struct bad_args *a, struct ng_buf *b)
{
	a->base = (uintptr_t)b[0].ptr;
	a->bad_addr = a->base - 4;
}

TEST(below_space_stops_in_every_mode)
{
	static const uint64_t sizes[] = { 4096, 0 };
	char msg[4096];
	int st;

	for (int checked = 0; checked < 2; checked++) {
		struct bad_args a = { .op = OP_LD, .size = 4, .bad = 5 };

		run_child(checked, sizes, below_first, &a, &st, msg, sizeof(msg));
		EXPECT_TRUE(aborted(st)) TH_LOG("checked %d: status %#x, stderr:\n%s",
						 checked, st, msg);
		EXPECT_NE(NULL, strstr(msg, "kernel 'probe', block 0 (0,0), warp 0, "))
			TH_LOG("%s", msg);
		EXPECT_NE(NULL, strstr(msg, "outside the device address space"))
			TH_LOG("%s", msg);
		/* unchecked: the line the lane falls in, not the lane's address */
		EXPECT_NE(NULL, strstr(msg, checked ? "4 bytes below its start" :
						      "128 bytes below its start"))
			TH_LOG("%s", msg);
		if (checked) {
			/* the lane's own address */
			EXPECT_NE(NULL, strstr(msg, "lane 5: load of 4 bytes at "))
				TH_LOG("%s", msg);
			EXPECT_NE(NULL, strstr(msg, hex(a.bad_addr))) TH_LOG("%s", msg);
		} else {
			EXPECT_NE(NULL, strstr(msg, "lane not known")) TH_LOG("%s", msg);
			EXPECT_NE(NULL, strstr(msg, "checked")) TH_LOG("%s", msg);
		}
	}
}

/*
 * Just below the second buffer: inside the space (the first buffer's
 * padding to its page group), outside every buffer. Checked mode only.
 */
static void below_second(struct bad_args *a, struct ng_buf *b)
{
	a->base = (uintptr_t)b[1].ptr;
	a->bad_addr = a->base - 8;
}

TEST(below_buffer_checked_names_lane_and_buffer)
{
	static const uint64_t sizes[] = { 100, 4096, 0 };
	struct bad_args a = { .op = OP_LD, .size = 4, .bad = 7 };
	char msg[4096];
	int st;

	run_child(true, sizes, below_second, &a, &st, msg, sizeof(msg));
	EXPECT_TRUE(aborted(st)) TH_LOG("status %#x, stderr:\n%s", st, msg);
	EXPECT_NE(NULL, strstr(msg, "kernel 'probe', block 0 (0,0), warp 0, lane 7: load of 4 bytes at "))
		TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, hex(a.bad_addr))) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "outside every live device buffer")) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "nearest buffer: allocation 1, 4096 bytes at "))
		TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "8 bytes below its start")) TH_LOG("%s", msg);
}

/* lane 3 reads a plain malloc()ed pointer */
static void *host_block;

static void host_ptr(struct bad_args *a, struct ng_buf *b)
{
	a->base = (uintptr_t)b[0].ptr;
	a->bad_addr = (uintptr_t)host_block;
}

TEST(malloc_pointer_stops)
{
	static const uint64_t sizes[] = { 4096, 0 };
	char msg[4096];
	int st;

	host_block = malloc(64);
	ASSERT_NE(NULL, host_block);
	for (int checked = 0; checked < 2; checked++) {
		struct bad_args a = { .op = checked ? OP_ST : OP_LD, .size = 4,
				      .bad = 3 };

		run_child(checked, sizes, host_ptr, &a, &st, msg, sizeof(msg));
		EXPECT_TRUE(aborted(st)) TH_LOG("checked %d: status %#x, stderr:\n%s",
						 checked, st, msg);
		EXPECT_NE(NULL, strstr(msg, "outside the device address space"))
			TH_LOG("%s", msg);
		if (checked) {
			EXPECT_NE(NULL, strstr(msg, "lane 3: store of 4 bytes at "))
				TH_LOG("%s", msg);
			EXPECT_NE(NULL, strstr(msg, hex(a.bad_addr))) TH_LOG("%s", msg);
		}
	}
	free(host_block);
}

/* lanes 24.. of a contiguous store run past a 40-float buffer's end */
static void past_end(struct bad_args *a, struct ng_buf *b)
{
	a->base = (uintptr_t)b[0].ptr + 16 * 4;
}

TEST(contig_past_end_checked_names_first_lane_out)
{
	static const uint64_t sizes[] = { 40 * 4, 4096, 0 };
	enum op ops[] = { OP_ST_CONTIG, OP_LD_CONTIG, OP_BLOCK_LD };
	const char *what[] = { "lane 24: store", "lane 24: load", "lane 24: load" };
	char msg[4096];
	int st;

	for (unsigned int i = 0; i < 3; i++) {
		struct bad_args a = { .op = ops[i], .size = 4, .bad = -1 };

		run_child(true, sizes, past_end, &a, &st, msg, sizeof(msg));
		EXPECT_TRUE(aborted(st)) TH_LOG("op %u: status %#x, stderr:\n%s",
						 i, st, msg);
		EXPECT_NE(NULL, strstr(msg, what[i])) TH_LOG("op %u: %s", i, msg);
		EXPECT_NE(NULL, strstr(msg, "the address is its end")) TH_LOG("%s", msg);
	}
}

/* ng_ld / ng_st of more than a line per lane: refused in every mode */
static void big_lane(struct bad_args *a, struct ng_buf *b)
{
	a->base = (uintptr_t)b[0].ptr;
}

TEST(lane_size_over_line_refused)
{
	static const uint64_t sizes[] = { 1 << 20, 0 };
	char msg[4096];
	int st;

	for (int checked = 0; checked < 2; checked++) {
		struct bad_args a = { .op = checked ? OP_ST : OP_LD, .size = 256,
				      .bad = -1 };

		run_child(checked, sizes, big_lane, &a, &st, msg, sizeof(msg));
		EXPECT_TRUE(aborted(st)) TH_LOG("checked %d: status %#x, stderr:\n%s",
						 checked, st, msg);
		EXPECT_NE(NULL, strstr(msg, checked ? "lane 0: store of 256 bytes"
						     : "lane 0: load of 256 bytes"))
			TH_LOG("%s", msg);
		EXPECT_NE(NULL, strstr(msg, "a lane accesses 1 to 128 bytes (the line)"))
			TH_LOG("%s", msg);
	}
	/* and a size of 0 */
	{
		struct bad_args a = { .op = OP_LD, .size = 0, .bad = -1 };

		run_child(false, sizes, big_lane, &a, &st, msg, sizeof(msg));
		EXPECT_TRUE(aborted(st)) TH_LOG("status %#x, stderr:\n%s", st, msg);
		EXPECT_NE(NULL, strstr(msg, "a lane accesses 1 to 128 bytes"))
			TH_LOG("%s", msg);
	}
}

/* Every access form inside its buffers: checked mode lets it all run. */
static void inside(struct bad_args *a, struct ng_buf *b)
{
	a->base = (uintptr_t)b[0].ptr;
}

TEST(checked_mode_runs_right_accesses)
{
	static const uint64_t sizes[] = { 64 * 8, 0 };
	enum op ops[] = { OP_LD, OP_ST, OP_LD_CONTIG, OP_ST_CONTIG,
			  OP_BLOCK_LD, OP_ATOMIC };
	char msg[4096];
	int st;

	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		/* the block form reads 64 threads' elements: the whole buffer */
		struct bad_args a = { .op = ops[i], .size = ops[i] == OP_ATOMIC ? 4 : 8,
				      .bad = -1 };

		run_child(true, sizes, inside, &a, &st, msg, sizeof(msg));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
			TH_LOG("op %u: status %#x, stderr:\n%s", i, st, msg);
	}
}

/* The environment turns it on for every config a preset starts. */
TEST(env_turns_checked_on)
{
	struct ng_config cfg;
	char err[256], val[16];
	const struct ng_key *k = ng_config_find_key("checked");

	ASSERT_NE(NULL, k);
	setenv("NGEMU_CHECKED", "1", 1);
	ASSERT_EQ(0, ng_config_preset(&cfg, "rec", err, sizeof(err))) TH_LOG("%s", err);
	ng_config_format(&cfg, k, val, sizeof(val));
	EXPECT_STREQ("yes", val);
	setenv("NGEMU_CHECKED", "0", 1);
	ASSERT_EQ(0, ng_config_preset(&cfg, "rec", err, sizeof(err)));
	ng_config_format(&cfg, k, val, sizeof(val));
	EXPECT_STREQ("no", val);
	setenv("NGEMU_CHECKED", "maybe", 1);
	EXPECT_EQ(-EINVAL, ng_config_preset(&cfg, "rec", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "NGEMU_CHECKED")) TH_LOG("%s", err);
	unsetenv("NGEMU_CHECKED");
}

TEST_HARNESS_MAIN
