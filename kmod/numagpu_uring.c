// SPDX-License-Identifier: GPL-2.0
/*
 * Batches through io_uring: IORING_OP_URING_CMD on a buffer fd.
 *
 * sqe->cmd_op names the command, the first 16 bytes of sqe->cmd hold a
 * struct numagpu_uring_cmd; each command completes with its own result
 * (cqe->res), so a bad command inside a batch fails alone. Commands run
 * inline in the submitting task (they may sleep on the buffer's locks and
 * allocate memory, as the ioctls do).
 */
#include <linux/fs.h>
#include <linux/string.h>

#include "numagpu.h"
#include "numagpu_compat.h"

#define NUMAGPU_URING_SQE128_CMD	80

int numagpu_buf_uring_cmd(struct io_uring_cmd *ioucmd,
			  unsigned int issue_flags)
{
	struct numagpu_buffer *buf = ioucmd->file->private_data;
	struct numagpu_uring_cmd c;
	u64 moved, skipped;
	int err;

	/* the SQE is shared with user space: read it once */
	memcpy(&c, numagpu_uring_cmd_payload(ioucmd), sizeof(c));
	if (issue_flags & IO_URING_F_SQE128) {
		const u8 *rest = (const u8 *)numagpu_uring_cmd_payload(ioucmd) +
				   sizeof(c);

		if (memchr_inv(rest, 0, NUMAGPU_URING_SQE128_CMD - sizeof(c)))
			return -EINVAL;
	}
	numagpu_buf_count_uring(buf);
	switch (ioucmd->cmd_op) {
	case NUMAGPU_URING_PREFETCH:
		if (c.arg2)
			return -EINVAL;
		err = numagpu_buf_migrate(buf, c.first_page, c.npages, c.arg,
					  NUMAGPU_MIGRATE_PREFETCH, &moved,
					  &skipped);
		return err ? err : (int)moved;
	case NUMAGPU_URING_MIGRATE:
		if (c.arg2)
			return -EINVAL;
		err = numagpu_buf_migrate(buf, c.first_page, c.npages, c.arg, 0,
					  &moved, &skipped);
		return err ? err : (int)moved;
	case NUMAGPU_URING_ADVISE:
		return numagpu_buf_advise(buf, c.first_page, c.npages, c.arg,
					  c.arg2);
	case NUMAGPU_URING_QUERY:
		if (c.npages != 1 || c.arg || c.arg2)
			return -EINVAL;
		return numagpu_buf_query1(buf, c.first_page);
	default:
		return -EINVAL;
	}
}
