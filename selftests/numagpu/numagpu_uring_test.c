// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu's io_uring commands (IORING_OP_URING_CMD on a buffer fd): a batch
 * of every command, good and bad, submitted inline, from an SQPOLL thread
 * (which must not block: the module returns -EAGAIN and io_uring hands the
 * command to a worker) and with IOSQE_ASYNC (straight to a worker).
 */
#include <errno.h>
#include <stdint.h>

#include <liburing.h>

#include "numagpu_rep_fixture.h"

/*
 * One batch of every command, good and bad, on a ring set up with
 * @ring_flags, each SQE with @sqe_flags: each completes with its own result.
 */
static void batch(struct __test_metadata *_metadata, FIXTURE_DATA(rep) *self,
		  unsigned int ring_flags, unsigned int sqe_flags)
{
	const unsigned int n = 64;
	struct io_uring ring;
	int res[64], expect[64];
	unsigned int seen = 0;

	ASSERT_EQ(0, setup_buf(self, 64, 0));
	ASSERT_EQ(0, io_uring_queue_init(n, &ring, ring_flags));
	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		ASSERT_NE(NULL, sqe);
		switch (i % 8) {
		case 0:	/* prefetch page i to GPU 1: one page */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_PREFETCH,
					   i, 1, 1, 0);
			expect[i] = 1;
			break;
		case 1:	/* bad op */
			ng_kbuf_uring_prep(sqe, &self->b, 99, i, 1, 0, 0);
			expect[i] = -EINVAL;
			break;
		case 2:	/* out of range */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_MIGRATE,
					   64, 1, 0, 0);
			expect[i] = -EINVAL;
			break;
		case 3:	/* advise read-mostly */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_ADVISE,
					   i, 1, NUMAGPU_ADVISE_READ_MOSTLY, 0);
			expect[i] = 0;
			break;
		case 4:	/* bad GPU */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_PREFETCH,
					   i, 1, self->ngpus, 0);
			expect[i] = -EINVAL;
			break;
		case 5:	/* query of an absent page */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_QUERY,
					   i, 1, 0, 0);
			expect[i] = (NUMAGPU_MODE_CGP << NUMAGPU_LOC_MODE_SHIFT)
				    << 16 | NUMAGPU_LOC_NO_NODE;
			break;
		case 6:	/* migrate of an absent page: nothing */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_MIGRATE,
					   i, 1, self->topo.gpu[1].node, 0);
			expect[i] = 0;
			break;
		default: /* query with npages 2: invalid */
			ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_QUERY,
					   i, 2, 0, 0);
			expect[i] = -EINVAL;
			break;
		}
		sqe->user_data = i;
		sqe->flags |= sqe_flags;
	}
	ASSERT_EQ((int)n, io_uring_submit(&ring));
	while (seen < n) {
		struct io_uring_cqe *cqe;

		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		ASSERT_GT(n, cqe->user_data);
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
		seen++;
	}
	for (unsigned int k = 0; k < n; k++)
		EXPECT_EQ(expect[k], res[k]);
	for (unsigned int k = 0; k < n; k += 8)
		EXPECT_EQ(self->topo.gpu[1].node, loc_of(self, k).node);
	EXPECT_TRUE(loc_of(self, 3).flags & NUMAGPU_LOC_READ_MOSTLY);
	io_uring_queue_exit(&ring);
}

TEST_F(rep, uring_batch)
{
	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	batch(_metadata, self, 0, 0);
}

TEST_F(rep, uring_batch_sqpoll)
{
	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	batch(_metadata, self, IORING_SETUP_SQPOLL, 0);
}

TEST_F(rep, uring_batch_async)
{
	if (self->ngpus < 2)
		SKIP(return, "one GPU");
	batch(_metadata, self, 0, IOSQE_ASYNC);
}

/*
 * A command with a positive result (QUERY) linked to a NOP, issued inline
 * and from a worker: both complete, the NOP with 0. 6.1 failed the QUERY
 * (its CQE right, but the link broken) and cancelled the NOP.
 */
static void uring_link(struct __test_metadata *_metadata,
		       FIXTURE_DATA(rep) *self, unsigned int sqe_flags)
{
	int want = (NUMAGPU_MODE_CGP << NUMAGPU_LOC_MODE_SHIFT) << 16 |
		   NUMAGPU_LOC_NO_NODE;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int res[2] = { 1, 1 };

	ASSERT_EQ(0, setup_buf(self, 4, 0));
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, 0));
	sqe = io_uring_get_sqe(&ring);
	ASSERT_NE(NULL, sqe);
	ng_kbuf_uring_prep(sqe, &self->b, NUMAGPU_URING_QUERY, 1, 1, 0, 0);
	sqe->user_data = 0;
	sqe->flags |= IOSQE_IO_LINK | sqe_flags;
	sqe = io_uring_get_sqe(&ring);
	ASSERT_NE(NULL, sqe);
	io_uring_prep_nop(sqe);
	sqe->user_data = 1;
	ASSERT_EQ(2, io_uring_submit(&ring));
	for (unsigned int i = 0; i < 2; i++) {
		struct io_uring_cqe *cqe;

		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		ASSERT_GT(2, cqe->user_data);
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	}
	EXPECT_EQ(want, res[0]);
	EXPECT_EQ(0, res[1]) TH_LOG("the NOP linked after a QUERY: %d", res[1]);
	io_uring_queue_exit(&ring);
}

TEST_F(rep, uring_link_after_positive_result)
{
	uring_link(_metadata, self, 0);
}

TEST_F(rep, uring_link_after_positive_result_async)
{
	uring_link(_metadata, self, IOSQE_ASYNC);
}

TEST_HARNESS_MAIN
