// SPDX-License-Identifier: GPL-2.0
/*
 * libngemu's kbuf wrapper without the module: argument checks, mode names,
 * the location table's consistent read on a fabricated table, and
 * `ngemu mem`'s usage errors (exit 2) and its failure without a device.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ng_test.h"

#include <linux/io_uring.h>

#include "ngemu/backend/kbuf.h"
#include "run_cmd.h"

#define NGEMU(...) ((char *const[]){ (char *)ngemu_path(), __VA_ARGS__, NULL })

TEST(mode_names)
{
	static const char *const names[] = {
		"first-touch", "fgp", "cgp", "cgp-chunk", "host",
	};

	for (int i = 0; i < NUMAGPU_MODE_COUNT; i++) {
		EXPECT_STREQ(names[i], ng_kbuf_mode_name(i));
		EXPECT_EQ(i, ng_kbuf_mode_parse(names[i]));
	}
	EXPECT_EQ(NULL, ng_kbuf_mode_name(NUMAGPU_MODE_COUNT));
	EXPECT_EQ(NULL, ng_kbuf_mode_name(~0u));
	EXPECT_EQ(-EINVAL, ng_kbuf_mode_parse("FGP"));
	EXPECT_EQ(-EINVAL, ng_kbuf_mode_parse(""));
	EXPECT_EQ(-EINVAL, ng_kbuf_mode_parse(NULL));
}

TEST(uapi_layout)
{
	EXPECT_EQ(48, sizeof(struct numagpu_buf_create));
	EXPECT_EQ(48, sizeof(struct numagpu_buf_mode));
	EXPECT_EQ(24, sizeof(struct numagpu_buf_query));
	EXPECT_EQ(4, sizeof(struct numagpu_loc));
	EXPECT_EQ(64, sizeof(struct numagpu_loctab_header));
	EXPECT_EQ(0, NUMAGPU_LOCTAB_OFFSET % 4096);
	EXPECT_EQ(1ULL << 43, NUMAGPU_LOCTAB_OFFSET);
	/* every offset fits 32-bit mmap2()'s page offset */
	EXPECT_GT(1ULL << 44, NUMAGPU_LOCTAB_OFFSET +
		  NUMAGPU_LOCTAB_SIZE((1ULL << (NUMAGPU_VIEW_SHIFT - 12))));
	EXPECT_EQ(64 + 4 * 10, NUMAGPU_LOCTAB_SIZE(10));
	EXPECT_EQ(40, sizeof(struct numagpu_buf_advise));
	EXPECT_EQ(56, sizeof(struct numagpu_buf_migrate));
	EXPECT_EQ(16, sizeof(struct numagpu_uring_cmd));
	/* 0.3 took stats fields from reserved space: sizes unchanged */
	EXPECT_EQ((16 + 16 + 64 + 64) * 8, sizeof(struct numagpu_buf_stats));
	EXPECT_EQ((16 + 64) * 8, sizeof(struct numagpu_dev_stats));
}

/* The io_uring helper fills a URING_CMD SQE with the 16-byte command. */
TEST(uring_prep)
{
	struct ng_kbuf b = { .fd = 7 };
	struct io_uring_sqe sqe;
	struct numagpu_uring_cmd c;

	memset(&sqe, 0xaa, sizeof(sqe));
	ng_kbuf_uring_prep(&sqe, &b, NUMAGPU_URING_PREFETCH, 12, 3, 2, 0);
	EXPECT_EQ(IORING_OP_URING_CMD, sqe.opcode);
	EXPECT_EQ(7, sqe.fd);
	EXPECT_EQ(NUMAGPU_URING_PREFETCH, sqe.cmd_op);
	EXPECT_EQ(0, sqe.flags);
	EXPECT_EQ(0, sqe.user_data);
	memcpy(&c, sqe.cmd, sizeof(c));
	EXPECT_EQ(12, c.first_page);
	EXPECT_EQ(3, c.npages);
	EXPECT_EQ(2, c.arg);
	EXPECT_EQ(0, c.arg2);
}

TEST(bad_arguments)
{
	struct numagpu_buf_create c = { .size = 4096 };
	struct numagpu_buf_stats st;
	struct numagpu_dev_stats ds;
	struct numagpu_loc loc[2];
	struct ng_kbuf b;
	void *v;
	int fd;

	EXPECT_EQ(-ENOENT, ng_kbuf_open_device("/nonexistent/numagpu"));
	EXPECT_EQ(-EINVAL, ng_kbuf_create(NULL, 0, &c));
	EXPECT_EQ(-EINVAL, ng_kbuf_create(&b, 0, NULL));
	EXPECT_EQ(-1, b.fd);
	EXPECT_EQ(-EINVAL, ng_kbuf_create(&b, -1, &c));
	EXPECT_EQ(-1, b.fd);
	/* a file that is not the device */
	fd = open("/dev/null", O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-ENOTTY, ng_kbuf_create(&b, fd, &c));
	EXPECT_EQ(-1, b.fd);
	EXPECT_EQ(NULL, b.loctab);
	EXPECT_EQ(-ENOTTY, ng_kbuf_dev_stats(fd, &ds));
	close(fd);
	EXPECT_EQ(-EINVAL, ng_kbuf_dev_stats(-1, &ds));
	EXPECT_EQ(-EINVAL, ng_kbuf_dev_stats(0, NULL));

	/* everything on a closed buffer */
	EXPECT_EQ(-EINVAL, ng_kbuf_advise(&b, 0, 1, NUMAGPU_ADVISE_READ_MOSTLY, 0));
	EXPECT_EQ(-EINVAL, ng_kbuf_advise(NULL, 0, 1, 1, 0));
	EXPECT_EQ(-EINVAL, ng_kbuf_migrate(&b, 0, 1, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, ng_kbuf_prefetch(NULL, 0, 1, 0, NULL));
	EXPECT_EQ(-EINVAL, ng_kbuf_map_view(&b, 0, &v));
	EXPECT_EQ(-EINVAL, ng_kbuf_map_view(NULL, 0, &v));
	EXPECT_EQ(-EINVAL, ng_kbuf_unmap_view(&b, 0));
	EXPECT_EQ(-EINVAL, ng_kbuf_unmap_view(&b, NUMAGPU_MAX_GPUS));
	EXPECT_EQ(-EINVAL, ng_kbuf_loctab_read(&b, 0, 1, loc));
	EXPECT_EQ(-EINVAL, ng_kbuf_set_mode(&b, 0, 1, 0, 0, 0));
	EXPECT_EQ(-EINVAL, ng_kbuf_query(&b, 0, 1, loc));
	EXPECT_EQ(-EINVAL, ng_kbuf_stats(&b, &st));
	EXPECT_EQ(-EINVAL, ng_kbuf_stats(NULL, &st));
	ng_kbuf_destroy(&b);
	ng_kbuf_destroy(NULL);

	/* query limits are checked before the kernel is asked */
	b.fd = 1000;
	EXPECT_EQ(-E2BIG, ng_kbuf_query(&b, 0, NUMAGPU_QUERY_MAX + 1, loc));
	EXPECT_EQ(-EINVAL, ng_kbuf_query(&b, 0, 0, loc));
	EXPECT_EQ(-EINVAL, ng_kbuf_query(&b, 0, 1, NULL));
	b.ngpus = 2;
	EXPECT_EQ(-EINVAL, ng_kbuf_map_view(&b, 2, &v));
	EXPECT_EQ(-EINVAL, ng_kbuf_map_view(&b, 0, NULL));
}

/* A fabricated location table, updated by a "kernel" thread. */
struct fake_table {
	struct numagpu_loctab_header h;
	struct numagpu_loc e[64];
};

struct writer {
	struct fake_table *t;
	atomic_int stop;
};

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	__u16 v = 0;

	while (!atomic_load(&w->stop)) {
		__atomic_store_n(&w->t->h.seq, w->t->h.seq + 1,
				 __ATOMIC_RELEASE);
		v++;
		for (int i = 0; i < 64; i++) {
			__atomic_store_n(&w->t->e[i].node, v, __ATOMIC_RELAXED);
			__atomic_store_n(&w->t->e[i].flags, v, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&w->t->h.seq, w->t->h.seq + 1,
				 __ATOMIC_RELEASE);
	}
	return NULL;
}

TEST(loctab_read_consistent)
{
	struct fake_table *t = calloc(1, sizeof(*t));
	struct numagpu_loc out[64];
	struct writer w = { t, 0 };
	struct ng_kbuf b = { .fd = -1 };
	pthread_t tid;
	time_t deadline = time(NULL) + 5;
	int torn = 0;

	ASSERT_NE(NULL, t);
	t->h.npages = 64;
	t->h.entries_offset = sizeof(t->h);
	t->h.entry_size = sizeof(struct numagpu_loc);
	b.loctab = &t->h;
	b.npages = 64;

	EXPECT_EQ(0, ng_kbuf_loctab_read(&b, 0, 64, out));
	EXPECT_EQ(0, ng_kbuf_loctab_read(&b, 64, 0, out));
	EXPECT_EQ(-EINVAL, ng_kbuf_loctab_read(&b, 60, 5, out));
	EXPECT_EQ(-EINVAL, ng_kbuf_loctab_read(&b, 65, 0, out));
	EXPECT_EQ(-EINVAL, ng_kbuf_loctab_read(&b, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, ng_kbuf_loctab_read(&b, 1, (size_t)-1, out));

	ASSERT_EQ(0, pthread_create(&tid, NULL, writer_thread, &w));
	/*
	 * Bounded in time as well: on a loaded machine the reader may share
	 * a CPU with the writer and spin out its time slices on an odd seq.
	 */
	for (int r = 0; r < 20000 && time(NULL) < deadline; r++) {
		ASSERT_EQ(0, ng_kbuf_loctab_read(&b, 0, 64, out));
		for (int i = 1; i < 64; i++)
			torn += out[i].node != out[0].node ||
				out[i].flags != out[0].node;
	}
	atomic_store(&w.stop, 1);
	pthread_join(tid, NULL);
	EXPECT_EQ(0, torn);
	free(t);
}

TEST(mem_usage_errors)
{
	static const char *const cases[][4] = {
		{ "--mode", "gpu", NULL, "'gpu' is not first-touch" },
		{ "--mode", NULL, NULL, "needs a value" },
		{ "--pages", "0", NULL, "--pages: '0'" },
		{ "--pages", "-3", NULL, "--pages: '-3'" },
		{ "--pages", "65537", NULL, "--pages: '65537'" },
		{ "--target", "x", "", "--target: 'x'" },
		{ "--target", "1", NULL, "--target is for cgp and host" },
		{ "--chunk", "4K", NULL, "--chunk is for cgp-chunk" },
		{ "--chunk", "4Q", NULL, "--chunk: '4Q'" },
		{ "--gpus", "1-", NULL, "--gpus: '1-'" },
		{ "--gpus", "16", NULL, "GPUs are 0 to 15" },
		{ "--frob", NULL, NULL, "unknown option '--frob'" },
		{ "--migrate", "x", NULL, "--migrate: 'x'" },
		{ "--prefetch", "99", NULL, "--prefetch: '99'" },
		{ "extra", NULL, NULL, "unexpected argument 'extra'" },
	};
	struct cmd_result *r = malloc(sizeof(*r));

	ASSERT_NE(NULL, r);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = { (char *)ngemu_path(), "mem" };

		for (int a = 0; a < 3 && cases[i][a] && *cases[i][a]; a++)
			argv[a + 2] = (char *)cases[i][a];
		ASSERT_EQ(0, run_cmd(r, argv));
		EXPECT_EQ(2, r->status) TH_LOG("case %zu", i);
		EXPECT_NE(NULL, strstr(r->err, cases[i][3]))
			TH_LOG("case %zu: %s", i, r->err);
		EXPECT_STREQ("", r->out);
	}
	ASSERT_EQ(0, run_cmd(r, NGEMU("mem", "--help")));
	EXPECT_EQ(0, r->status);
	EXPECT_NE(NULL, strstr(r->out, "Usage: ngemu mem"));
	/* no such device: a failure, not a usage error */
	ASSERT_EQ(0, run_cmd(r, NGEMU("mem", "--device", "/nonexistent/numagpu")));
	EXPECT_EQ(1, r->status);
	EXPECT_NE(NULL, strstr(r->err, "/nonexistent/numagpu")) TH_LOG("%s",
								       r->err);
	free(r);
}

TEST_HARNESS_MAIN
