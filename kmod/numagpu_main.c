// SPDX-License-Identifier: GPL-2.0
/*
 * numagpu.ko: device memory for emulated GPUs on CPU NUMA nodes.
 *
 * This file owns the module's life cycle and the /dev/numagpu character
 * device; each capability lives in a file of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "numagpu.h"

static char *nodes;
module_param(nodes, charp, 0444);
MODULE_PARM_DESC(nodes, "NUMA nodes that play GPUs, e.g. \"0,2-3\" (default: every node with memory)");

struct numagpu_system numagpu_sys;

static long numagpu_ioctl_get_topology(void __user *arg)
{
	struct numagpu_topology *topo;
	long ret = 0;

	/* 2.7 KiB: too large for the kernel stack */
	topo = kmalloc(sizeof(*topo), GFP_KERNEL);
	if (!topo)
		return -ENOMEM;
	numagpu_topology_fill(&numagpu_sys, topo);
	if (copy_to_user(arg, topo, sizeof(*topo)))
		ret = -EFAULT;
	kfree(topo);
	return ret;
}

static long numagpu_ioctl_get_stats(void __user *arg)
{
	struct numagpu_dev_stats *st;
	long ret = 0;

	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	numagpu_stats_fill(st);
	if (copy_to_user(arg, st, sizeof(*st)))
		ret = -EFAULT;
	kfree(st);
	return ret;
}

static long numagpu_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	switch (cmd) {
	case NUMAGPU_IOC_GET_TOPOLOGY:
		return numagpu_ioctl_get_topology((void __user *)arg);
	case NUMAGPU_IOC_BUF_CREATE:
		return numagpu_buf_create(&numagpu_sys, (void __user *)arg);
	case NUMAGPU_IOC_GET_STATS:
		return numagpu_ioctl_get_stats((void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations numagpu_fops = {
	/* an open file pins the module, so rmmod fails while one exists */
	.owner = THIS_MODULE,
	.unlocked_ioctl = numagpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice numagpu_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "numagpu",
	.fops = &numagpu_fops,
	.mode = 0660,
};

static int __init numagpu_init(void)
{
	int err;

	err = numagpu_system_init(&numagpu_sys, nodes);
	if (err)
		return err;
	err = numagpu_stats_init();
	if (err)
		return err;
	numagpu_debugfs_init();
	err = misc_register(&numagpu_miscdev);
	if (err)
		goto out_debugfs;
	pr_info("version %s, %u GPUs\n", NUMAGPU_VERSION_STRING,
		numagpu_sys.ngpus);
	return 0;

out_debugfs:
	numagpu_debugfs_exit();
	numagpu_stats_exit();
	return err;
}

static void __exit numagpu_exit(void)
{
	misc_deregister(&numagpu_miscdev);
	numagpu_debugfs_exit();
	numagpu_stats_exit();
}

module_init(numagpu_init);
module_exit(numagpu_exit);

MODULE_DESCRIPTION("Emulated multi-GPU NUMA device memory");
MODULE_AUTHOR("numagpu developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(NUMAGPU_VERSION_STRING);
