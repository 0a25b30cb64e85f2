/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * numagpu user/kernel interface.
 *
 * This is the one header shared by numagpu.ko, libngemu and the selftests.
 * It is also the single source of the project's version: the module's
 * MODULE_VERSION, `ngemu --version` and packaging all read NUMAGPU_VERSION_*.
 *
 * All structures have fixed layouts with explicit padding so that 32-bit and
 * 64-bit user space see the same ABI; reserved fields must be zero.
 */
#ifndef _UAPI_LINUX_NUMAGPU_H
#define _UAPI_LINUX_NUMAGPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define NUMAGPU_VERSION_MAJOR	0
#define NUMAGPU_VERSION_MINOR	1
#define NUMAGPU_VERSION_PATCH	0

#define NUMAGPU_STR_(x)		#x
#define NUMAGPU_STR(x)		NUMAGPU_STR_(x)
/* "MAJOR.MINOR.PATCH", e.g. "0.1.0" */
#define NUMAGPU_VERSION_STRING						\
	NUMAGPU_STR(NUMAGPU_VERSION_MAJOR) "."				\
	NUMAGPU_STR(NUMAGPU_VERSION_MINOR) "."				\
	NUMAGPU_STR(NUMAGPU_VERSION_PATCH)

/*
 * Version of the ioctl interface as one number: (major << 16) | minor.
 * A change of major breaks compatibility; minor only adds.
 */
#define NUMAGPU_UAPI_VERSION						\
	((NUMAGPU_VERSION_MAJOR << 16) | NUMAGPU_VERSION_MINOR)

/* Device node created by the module (a misc device, mode 0660). */
#define NUMAGPU_DEVICE_PATH	"/dev/numagpu"

/* Most emulated GPUs one system may have (one per NUMA node with memory). */
#define NUMAGPU_MAX_GPUS	16

/* CPUs representable in a GPU's CPU mask. */
#define NUMAGPU_MAX_CPUS	1024
#define NUMAGPU_CPUMASK_WORDS	(NUMAGPU_MAX_CPUS / 64)

/**
 * struct numagpu_gpu_info - one emulated GPU
 * @node:      NUMA node that plays this GPU (its memory is the GPU's memory)
 * @nr_cpus:   number of online CPUs of @node (bits set in @cpumask)
 * @mem_total: bytes of memory managed on @node
 * @mem_free:  bytes of @node's memory free when the ioctl ran
 * @cpumask:   online CPUs of @node; bit c of word c / 64 is CPU c
 */
struct numagpu_gpu_info {
	__u32 node;
	__u32 nr_cpus;
	__u64 mem_total;
	__u64 mem_free;
	__u64 cpumask[NUMAGPU_CPUMASK_WORDS];
};

/**
 * struct numagpu_topology - answer of NUMAGPU_IOC_GET_TOPOLOGY
 * @uapi_version: NUMAGPU_UAPI_VERSION of the running module
 * @ngpus:        number of emulated GPUs; GPU i is @gpu[i]
 * @nr_cpu_ids:   highest possible CPU number + 1 in the running kernel
 * @reserved:     zero
 * @gpu:          per-GPU description, entries past @ngpus are zero
 * @distance:     SLIT distance between the nodes of GPU i and GPU j
 *                (10 = local), entries outside @ngpus x @ngpus are zero
 */
struct numagpu_topology {
	__u32 uapi_version;
	__u32 ngpus;
	__u32 nr_cpu_ids;
	__u32 reserved;
	struct numagpu_gpu_info gpu[NUMAGPU_MAX_GPUS];
	__u8 distance[NUMAGPU_MAX_GPUS][NUMAGPU_MAX_GPUS];
};

#define NUMAGPU_IOC_MAGIC	'N'

/* Fill a struct numagpu_topology. Errors: EFAULT (bad pointer). */
#define NUMAGPU_IOC_GET_TOPOLOGY					\
	_IOR(NUMAGPU_IOC_MAGIC, 0x00, struct numagpu_topology)

#endif /* _UAPI_LINUX_NUMAGPU_H */
