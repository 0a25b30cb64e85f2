// SPDX-License-Identifier: GPL-2.0
/*
 * Counters (numagpu.h), module-wide: by ioctl (NUMAGPU_IOC_GET_STATS) and in debugfs,
 * /sys/kernel/debug/numagpu/{stats,pages_held}; a buffer's own counters
 * (NUMAGPU_BUF_IOC_STATS).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "numagpu.h"
#include "numagpu_buffer.h"

struct numagpu_counters __percpu *numagpu_pcpu;
atomic64_t numagpu_node_pages[NUMAGPU_MAX_NODES];

static struct dentry *numagpu_debugfs_dir;

int numagpu_stats_init(void)
{
	numagpu_pcpu = alloc_percpu(struct numagpu_counters);
	return numagpu_pcpu ? 0 : -ENOMEM;
}

void numagpu_stats_exit(void)
{
	free_percpu(numagpu_pcpu);
}

/* The field at @off of @c summed over every CPU. */
s64 numagpu_sum(struct numagpu_counters __percpu *c, size_t off)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(s64 *)((char *)per_cpu_ptr(c, cpu) + off);
	return sum;
}

#define SUM(c, f)	NUMAGPU_SUM(c, f)

/* The fields numagpu_dev_stats and numagpu_buf_stats share, from @c. */
#define NUMAGPU_FILL_SHARED(st, c)					\
	do {								\
		(st)->faults = SUM(c, faults);				\
		(st)->first_touch_local = SUM(c, first_touch_local);	\
		(st)->first_touch_remote = SUM(c, first_touch_remote);	\
		(st)->fallbacks = SUM(c, fallbacks);			\
		(st)->sigbus = SUM(c, sigbus);				\
		(st)->replicas_created = SUM(c, replicas_created);	\
		(st)->collapses = SUM(c, collapses);			\
		(st)->migrations = SUM(c, migrations);			\
		(st)->pins = SUM(c, pins);				\
		(st)->replica_pages = SUM(c, replica_pages);		\
		(st)->auto_migrations = SUM(c, auto_migrations);	\
	} while (0)

void numagpu_stats_fill(struct numagpu_dev_stats *st)
{
	struct numagpu_counters __percpu *c = numagpu_pcpu;
	int i;

	memset(st, 0, sizeof(*st));
	st->buffers = SUM(c, buffers);
	st->buffers_created = SUM(c, buffers_created);
	st->pages_held = SUM(c, pages_held);
	st->pages_allocated = SUM(c, pages_allocated);
	st->pages_freed = SUM(c, pages_freed);
	NUMAGPU_FILL_SHARED(st, c);
	for (i = 0; i < NUMAGPU_MAX_NODES; i++)
		st->node_pages[i] = atomic64_read(&numagpu_node_pages[i]);
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
		   SUM(numagpu_pcpu, memlock_refusals));
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
	*val = SUM(numagpu_pcpu, pages_held);
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
	struct numagpu_counters __percpu *c = buf->ctr;
	struct numagpu_buf_stats *st;
	long ret = 0;
	int i;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->npages = buf->npages;
	st->populated = SUM(c, populated);
	NUMAGPU_FILL_SHARED(st, c);
	st->races = SUM(c, races);
	st->mode_changes = SUM(c, mode_changes);
	st->uring_cmds = SUM(c, uring_cmds);
	for (i = 0; i < NUMAGPU_MAX_GPUS; i++)
		st->view_faults[i] = SUM(c, view_faults[i]);
	for (i = 0; i < NUMAGPU_MAX_NODES; i++) {
		st->node_faults[i] = SUM(c, node_faults[i]);
		st->node_pages[i] = atomic64_read(&buf->node_pages[i]);
	}
	if (copy_to_user(arg, st, sizeof(*st)))
		ret = -EFAULT;
	kfree(st);
	return ret;
}

void numagpu_buf_count_uring(struct numagpu_buffer *buf)
{
	numagpu_buf_inc(buf, uring_cmds);
}
