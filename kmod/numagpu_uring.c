// SPDX-License-Identifier: GPL-2.0
/*
 * Batches through io_uring: IORING_OP_URING_CMD on a buffer fd.
 *
 * sqe->cmd_op names the command, the first 16 bytes of sqe->cmd hold a
 * struct numagpu_uring_cmd; each command completes with its own result
 * (cqe->res), so a bad command inside a batch fails alone. Issued without
 * blocking (IO_URING_F_NONBLOCK: inline submission, an SQPOLL thread),
 * MIGRATE and PREFETCH with pages to move and ADVISE, which sleep on page
 * locks and allocate, return -EAGAIN, and io_uring runs them again from a
 * worker that may block; QUERY stays inline unless the buffer's lock is
 * taken.
 */
#include <linux/fs.h>
#include <linux/string.h>

#include "numagpu.h"
#include "numagpu_compat.h"

#define NUMAGPU_URING_SQE128_CMD	80

/* Run command @c; -EAGAIN if it would block and @nowait. */
static int numagpu_uring_run(struct numagpu_buffer *buf, u32 op,
			     const struct numagpu_uring_cmd *c, bool nowait)
{
	u64 moved, skipped;
	int err;

	switch (op) {
	case NUMAGPU_URING_PREFETCH:
	case NUMAGPU_URING_MIGRATE:
		if (c->arg2)
			return -EINVAL;
		/* inline only when nothing is to move: -EAGAIN otherwise */
		err = numagpu_buf_migrate(buf, c->first_page, c->npages, c->arg,
					  op == NUMAGPU_URING_PREFETCH ?
					  NUMAGPU_MIGRATE_PREFETCH : 0,
					  nowait, &moved, &skipped);
		return err ? err : (int)moved;
	case NUMAGPU_URING_ADVISE:
		if (nowait)
			return -EAGAIN;
		return numagpu_buf_advise(buf, c->first_page, c->npages, c->arg,
					  c->arg2);
	case NUMAGPU_URING_QUERY:
		if (c->npages != 1 || c->arg || c->arg2)
			return -EINVAL;
		return numagpu_buf_query1(buf, c->first_page, nowait);
	default:
		return -EINVAL;
	}
}

int numagpu_buf_uring_cmd(struct io_uring_cmd *ioucmd,
			  unsigned int issue_flags)
{
	struct numagpu_buffer *buf = ioucmd->file->private_data;
	struct numagpu_uring_cmd c;
	int ret;

	/* the SQE is shared with user space: read it once */
	memcpy(&c, numagpu_uring_cmd_payload(ioucmd), sizeof(c));
	if (issue_flags & IO_URING_F_SQE128) {
		const u8 *rest = (const u8 *)numagpu_uring_cmd_payload(ioucmd) +
				   sizeof(c);

		if (memchr_inv(rest, 0, NUMAGPU_URING_SQE128_CMD - sizeof(c)))
			return -EINVAL;
	}
	ret = numagpu_uring_run(buf, ioucmd->cmd_op, &c,
				issue_flags & IO_URING_F_NONBLOCK);
	/* io_uring issues it again from a worker: count it then */
	if (ret == -EAGAIN)
		return ret;
	numagpu_buf_count_uring(buf);
	if (ret < 0)
		return ret;
	return numagpu_uring_cmd_complete(ioucmd, ret, issue_flags);
}
