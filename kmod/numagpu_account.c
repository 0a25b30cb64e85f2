// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting: a buffer's pages (home pages and replicas) are locked memory
 * of the user who created it, as io_uring's registered buffers are. They
 * are off the LRU and never reclaimed, so they count against that user's
 * RLIMIT_MEMLOCK (the creator's limit when it created the buffer), shared
 * with everything else the user has locked (user->locked_vm); a creator
 * with CAP_IPC_LOCK is exempt. The charge is taken before a page is
 * allocated, so a fault past the limit gets SIGBUS (a replica past it is
 * simply not made), and what a buffer still holds is returned at release.
 * Memory cgroups charge the pages themselves (__GFP_ACCOUNT) and the
 * buffer's metadata, the location table included (GFP_KERNEL_ACCOUNT).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>

#include "numagpu.h"
#include "numagpu_buffer.h"

/* At creation, in the creating task: whom to charge, and up to what. */
void numagpu_account_init(struct numagpu_buffer *buf)
{
	atomic_long_set(&buf->charged, 0);
	/* a question, not a request: no audit record of a denial each time */
	if (ns_capable_noaudit(&init_user_ns, CAP_IPC_LOCK))
		return;
	buf->user = get_uid(current_user());
	buf->memlock_pages = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
}

/* Charge @n pages about to be allocated; -ENOMEM past the limit. */
int numagpu_charge(struct numagpu_buffer *buf, unsigned long n)
{
	unsigned long cur, next;

	if (buf->user) {
		cur = atomic_long_read(&buf->user->locked_vm);
		do {
			next = cur + n;
			if (next > buf->memlock_pages || next < cur) {
				numagpu_dev_inc(memlock_refusals);
				return -ENOMEM;
			}
		} while (!atomic_long_try_cmpxchg(&buf->user->locked_vm, &cur,
						  next));
	}
	atomic_long_add(n, &buf->charged);
	return 0;
}

void numagpu_uncharge(struct numagpu_buffer *buf, unsigned long n)
{
	if (buf->user)
		atomic_long_sub(n, &buf->user->locked_vm);
	atomic_long_sub(n, &buf->charged);
}

/* Release: return what the buffer still holds, and the user. */
void numagpu_account_release(struct numagpu_buffer *buf)
{
	numagpu_uncharge(buf, atomic_long_read(&buf->charged));
	if (buf->user)
		free_uid(buf->user);
}
