// SPDX-License-Identifier: GPL-2.0
/*
 * Module-wide counters: by ioctl (NUMAGPU_IOC_GET_STATS) and in debugfs,
 * /sys/kernel/debug/numagpu/{stats,pages_held}; a buffer's own counters
 * (NUMAGPU_BUF_IOC_STATS).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "numagpu.h"
#include "numagpu_buffer.h"

struct numagpu_dev_counters numagpu_dev;

static struct dentry *numagpu_debugfs_dir;

void numagpu_stats_fill(struct numagpu_dev_stats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	st->buffers = atomic64_read(&numagpu_dev.buffers);
	st->buffers_created = atomic64_read(&numagpu_dev.buffers_created);
	st->pages_held = atomic64_read(&numagpu_dev.pages_held);
	st->pages_allocated = atomic64_read(&numagpu_dev.pages_allocated);
	st->pages_freed = atomic64_read(&numagpu_dev.pages_freed);
	st->faults = atomic64_read(&numagpu_dev.faults);
	st->first_touch_local = atomic64_read(&numagpu_dev.first_touch_local);
	st->first_touch_remote = atomic64_read(&numagpu_dev.first_touch_remote);
	st->fallbacks = atomic64_read(&numagpu_dev.fallbacks);
	st->sigbus = atomic64_read(&numagpu_dev.sigbus);
	st->replicas_created = atomic64_read(&numagpu_dev.replicas_created);
	st->collapses = atomic64_read(&numagpu_dev.collapses);
	st->migrations = atomic64_read(&numagpu_dev.migrations);
	st->pins = atomic64_read(&numagpu_dev.pins);
	st->replica_pages = atomic64_read(&numagpu_dev.replica_pages);
	st->auto_migrations = atomic64_read(&numagpu_dev.auto_migrations);
	for (i = 0; i < NUMAGPU_MAX_NODES; i++)
		st->node_pages[i] = atomic64_read(&numagpu_dev.node_pages[i]);
}

static int numagpu_stats_show(struct seq_file *m, void *v)
{
	struct numagpu_dev_stats st;
	int i;

	numagpu_stats_fill(&st);
	seq_printf(m, "buffers %llu\n", st.buffers);
	seq_printf(m, "buffers_created %llu\n", st.buffers_created);
	seq_printf(m, "pages_held %llu\n", st.pages_held);
	seq_printf(m, "pages_allocated %llu\n", st.pages_allocated);
	seq_printf(m, "memlock_refusals %lld\n",
		   atomic64_read(&numagpu_dev.memlock_refusals));
	seq_printf(m, "pages_freed %llu\n", st.pages_freed);
	seq_printf(m, "faults %llu\n", st.faults);
	seq_printf(m, "first_touch_local %llu\n", st.first_touch_local);
	seq_printf(m, "first_touch_remote %llu\n", st.first_touch_remote);
	seq_printf(m, "fallbacks %llu\n", st.fallbacks);
	seq_printf(m, "sigbus %llu\n", st.sigbus);
	seq_printf(m, "replicas_created %llu\n", st.replicas_created);
	seq_printf(m, "collapses %llu\n", st.collapses);
	seq_printf(m, "migrations %llu\n", st.migrations);
	seq_printf(m, "pins %llu\n", st.pins);
	seq_printf(m, "replica_pages %llu\n", st.replica_pages);
	seq_printf(m, "auto_migrations %llu\n", st.auto_migrations);
	for (i = 0; i < NUMAGPU_MAX_NODES; i++)
		if (st.node_pages[i])
			seq_printf(m, "node%d_pages %llu\n", i,
				   st.node_pages[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(numagpu_stats);

static int numagpu_pages_held_get(void *data, u64 *val)
{
	*val = atomic64_read(&numagpu_dev.pages_held);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(numagpu_pages_held_fops, numagpu_pages_held_get,
			 NULL, "%llu\n");

/* debugfs is optional: its failures are not errors */
void numagpu_debugfs_init(void)
{
	numagpu_debugfs_dir = debugfs_create_dir("numagpu", NULL);
	debugfs_create_file("stats", 0444, numagpu_debugfs_dir, NULL,
			    &numagpu_stats_fops);
	debugfs_create_file_unsafe("pages_held", 0444, numagpu_debugfs_dir,
				   NULL, &numagpu_pages_held_fops);
}

void numagpu_debugfs_exit(void)
{
	debugfs_remove_recursive(numagpu_debugfs_dir);
}

long numagpu_buf_stats(struct numagpu_buffer *buf, void __user *arg)
{
	struct numagpu_buf_stats *st;
	long ret = 0;
	int i;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->npages = buf->npages;
	st->populated = atomic64_read(&buf->populated);
	st->faults = atomic64_read(&buf->faults);
	st->first_touch_local = atomic64_read(&buf->first_touch_local);
	st->first_touch_remote = atomic64_read(&buf->first_touch_remote);
	st->fallbacks = atomic64_read(&buf->fallbacks);
	st->sigbus = atomic64_read(&buf->sigbus);
	st->races = atomic64_read(&buf->races);
	st->mode_changes = atomic64_read(&buf->mode_changes);
	st->replicas_created = atomic64_read(&buf->replicas_created);
	st->collapses = atomic64_read(&buf->collapses);
	st->migrations = atomic64_read(&buf->migrations);
	st->pins = atomic64_read(&buf->pins);
	st->replica_pages = atomic64_read(&buf->replica_pages);
	st->auto_migrations = atomic64_read(&buf->auto_migrations);
	st->uring_cmds = atomic64_read(&buf->uring_cmds);
	for (i = 0; i < NUMAGPU_MAX_GPUS; i++)
		st->view_faults[i] = atomic64_read(&buf->view_faults[i]);
	for (i = 0; i < NUMAGPU_MAX_NODES; i++) {
		st->node_faults[i] = atomic64_read(&buf->node_faults[i]);
		st->node_pages[i] = atomic64_read(&buf->node_pages[i]);
	}
	if (copy_to_user(arg, st, sizeof(*st)))
		ret = -EFAULT;
	kfree(st);
	return ret;
}

void numagpu_buf_count_uring(struct numagpu_buffer *buf)
{
	atomic64_inc(&buf->uring_cmds);
}
