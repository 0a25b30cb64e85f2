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
#define NUMAGPU_VERSION_MINOR	5
#define NUMAGPU_VERSION_PATCH	0

#define NUMAGPU_STR_(x)		#x
#define NUMAGPU_STR(x)		NUMAGPU_STR_(x)
/* "MAJOR.MINOR.PATCH", e.g. "0.1.0" */
#define NUMAGPU_VERSION_STRING						\
	NUMAGPU_STR(NUMAGPU_VERSION_MAJOR) "."				\
	NUMAGPU_STR(NUMAGPU_VERSION_MINOR) "."				\
	NUMAGPU_STR(NUMAGPU_VERSION_PATCH)

/*
 * Version of the interface (ioctls, structures, mmap offsets, uring
 * commands) as one number: (major << 16) | minor. From major 1 on, a new
 * minor only adds, and a program runs on a module of its major with its
 * minor or a later one; a new major breaks compatibility. While the major
 * is 0 any minor may change the interface (0.4 moved every view's mmap
 * offset), so a program needs a module of its exact minor
 * (ng_uapi_compatible() in libngemu). user/tests/abi_test.c holds every
 * minor's interface to its snapshot.
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

/*
 * Device memory: buffers, views and the location table.
 *
 * NUMAGPU_IOC_BUF_CREATE on /dev/numagpu returns a new file descriptor (the
 * ioctl's return value, close-on-exec) for one buffer; the buffer lives as
 * long as that file, i.e. until the fd is closed and every mapping of it is
 * gone. Pages are allocated on first access, zero-filled, on the node the
 * page's placement mode chooses, and charged to the faulting task's memory
 * cgroup and, as locked memory, to the creating user's RLIMIT_MEMLOCK
 * (unless the creator has CAP_IPC_LOCK): past either, the fault gets
 * SIGBUS.
 *
 * mmap offsets of a buffer file:
 *   NUMAGPU_VIEW_OFFSET(gpu) + byte offset   GPU @gpu's view of the buffer
 *                                            (MAP_SHARED only; a mapping
 *                                            lies inside one view)
 *   NUMAGPU_LOCTAB_OFFSET                    the location table: MAP_SHARED,
 *                                            PROT_READ only (no write, no
 *                                            exec), at most
 *                                            NUMAGPU_LOCTAB_SIZE(npages)
 *                                            bytes
 * Every view of a page maps the same physical page.
 */
/*
 * A view spans 512 GiB (the largest buffer), so that every offset, the
 * table's included, fits 32-bit mmap2()'s page offset (below 16 TiB).
 * 0.3 had 1 TiB views, which put the table out of 32-bit reach.
 */
#define NUMAGPU_VIEW_SHIFT	39
#define NUMAGPU_VIEW_OFFSET(gpu)	((__u64)(gpu) << NUMAGPU_VIEW_SHIFT)
#define NUMAGPU_LOCTAB_OFFSET	NUMAGPU_VIEW_OFFSET(NUMAGPU_MAX_GPUS)

/* Nodes representable in per-node counters (node ids from 64 on are not). */
#define NUMAGPU_MAX_NODES	64

/* Placement modes (of a buffer at creation, of a page range later). */
#define NUMAGPU_MODE_FIRST_TOUCH 0	/* node of the GPU whose view faults */
#define NUMAGPU_MODE_FGP	1	/* page i of each group on GPU i */
#define NUMAGPU_MODE_CGP	2	/* every page on GPU @target */
#define NUMAGPU_MODE_CGP_CHUNK	3	/* GPU (offset / @chunk) % ngpus */
/* NUMA node @target, or the first memory node without a GPU when @target
 * is NUMAGPU_HOST_AUTO
 */
#define NUMAGPU_MODE_HOST	4
#define NUMAGPU_MODE_COUNT	5

#define NUMAGPU_HOST_AUTO	0xffffffffu

/*
 * Buffer flags. NUMAGPU_BUF_FALLBACK: when the chosen node is full, take
 * the nearest node by distance (counted, NUMAGPU_LOC_FALLBACK); without it
 * the faulting task gets SIGBUS.
 */
#define NUMAGPU_BUF_FALLBACK	(1u << 0)
#define NUMAGPU_BUF_FLAGS_ALL	NUMAGPU_BUF_FALLBACK

/**
 * struct numagpu_buf_create - argument of NUMAGPU_IOC_BUF_CREATE
 * @size:     bytes, a non-zero multiple of the page size, at most the
 *            module parameter max_buffer_pages pages (else E2BIG)
 * @mode:     NUMAGPU_MODE_* of every page
 * @flags:    NUMAGPU_BUF_*
 * @target:   CGP: GPU index; HOST: NUMA node id or NUMAGPU_HOST_AUTO;
 *            other modes: 0
 * @reserved: zero
 * @chunk:    CGP_CHUNK: bytes, a non-zero multiple of the page group size
 *            (ngpus pages); other modes: 0
 * @reserved2: zero
 */
struct numagpu_buf_create {
	__u64 size;
	__u32 mode;
	__u32 flags;
	__u32 target;
	__u32 reserved;
	__u64 chunk;
	__u64 reserved2[2];
};

/**
 * struct numagpu_buf_mode - argument of NUMAGPU_BUF_IOC_SET_MODE
 * @first_page: first page of the range; a multiple of ngpus (a page group
 *              is ngpus consecutive pages, starting at page 0)
 * @npages:     pages; a multiple of ngpus unless the range ends at the end
 *              of the buffer
 * @mode, @target, @chunk: as in struct numagpu_buf_create; CGP_CHUNK's
 *              offsets are counted from the start of the buffer
 * @reserved:   zero
 *
 * Fails with EBUSY, changing nothing, when any page of the range is
 * populated.
 */
struct numagpu_buf_mode {
	__u64 first_page;
	__u64 npages;
	__u32 mode;
	__u32 target;
	__u64 chunk;
	__u64 reserved[2];
};

/* One location table / query entry: where a page is. */
struct numagpu_loc {
	__u16 node;	/* NUMA node of the page, NUMAGPU_LOC_NO_NODE if none */
	__u16 flags;	/* NUMAGPU_LOC_* and the page's mode */
};

#define NUMAGPU_LOC_NO_NODE	0xffff
#define NUMAGPU_LOC_POPULATED	(1u << 0)	/* the page exists */
#define NUMAGPU_LOC_FALLBACK	(1u << 1)	/* not on its mode's node */
#define NUMAGPU_LOC_REPLICATED	(1u << 2)	/* has read-only replicas */
#define NUMAGPU_LOC_PINNED	(1u << 3)	/* pinned: thrashing control */
#define NUMAGPU_LOC_READ_MOSTLY	(1u << 4)	/* hint: replicate on read */
#define NUMAGPU_LOC_MIGRATED	(1u << 5)	/* moved since it was placed */
#define NUMAGPU_LOC_MODE_SHIFT	8
#define NUMAGPU_LOC_MODE(flags)	(((flags) >> NUMAGPU_LOC_MODE_SHIFT) & 0xf)
/* Replicas of the page (saturates at 15), bits 12..15 (since 0.3). */
#define NUMAGPU_LOC_REPLICAS_SHIFT 12
#define NUMAGPU_LOC_REPLICAS(flags) (((flags) >> NUMAGPU_LOC_REPLICAS_SHIFT) & 0xf)

/**
 * struct numagpu_loctab_header - start of the location table mapping
 * @seq:       even when stable; odd while the kernel updates entries. Read
 *             @seq, the entries, then @seq again; retry if it was odd or
 *             changed.
 * @npages:    entries in the table
 * @ngpus:     GPUs of the module (the page group size)
 * @entry_size: sizeof(struct numagpu_loc)
 * @entries_offset: bytes from the start of the mapping to entry 0
 * @reserved:  zero
 */
struct numagpu_loctab_header {
	__u32 seq;
	__u32 npages;
	__u32 ngpus;
	__u32 entry_size;
	__u32 entries_offset;
	__u32 reserved[11];
};

/* Bytes of the location table of a buffer of @npages pages (unrounded). */
#define NUMAGPU_LOCTAB_SIZE(npages)					\
	(sizeof(struct numagpu_loctab_header) +				\
	 (__u64)(npages) * sizeof(struct numagpu_loc))

/* Most pages one NUMAGPU_BUF_IOC_QUERY may ask for (else E2BIG). */
#define NUMAGPU_QUERY_MAX	65536

/**
 * struct numagpu_buf_query - argument of NUMAGPU_BUF_IOC_QUERY
 * @first_page: first page
 * @npages:     pages, 1..NUMAGPU_QUERY_MAX, inside the buffer
 * @flags:      zero
 * @entries:    user pointer to @npages struct numagpu_loc
 */
struct numagpu_buf_query {
	__u64 first_page;
	__u32 npages;
	__u32 flags;
	__u64 entries;
};

/**
 * struct numagpu_buf_stats - answer of NUMAGPU_BUF_IOC_STATS
 * @npages:          size of the buffer in pages
 * @populated:       pages allocated
 * @faults:          page faults handled (every view)
 * @first_touch_local:  pages allocated on the node of the faulting CPU
 * @first_touch_remote: pages allocated on another node
 * @fallbacks:       pages placed on another node than the mode's because
 *                   that one was full
 * @sigbus:          faults refused because no node could take the page
 * @races:           allocations lost to a concurrent fault and freed
 * @mode_changes:    successful NUMAGPU_BUF_IOC_SET_MODE calls
 * @replicas_created: read replicas made (since 0.3; zero before)
 * @collapses:       replicated pages collapsed by a write or an unset hint
 * @migrations:      pages moved (explicit, prefetch and automatic)
 * @pins:            pages pinned by thrashing control
 * @replica_pages:   replica pages held now
 * @auto_migrations: pages moved by automatic migration (part of @migrations)
 * @uring_cmds:      io_uring commands handled
 * @view_faults:     faults per view (GPU index)
 * @node_faults:     faults per node of the faulting CPU
 * @node_pages:      pages held per node
 */
struct numagpu_buf_stats {
	__u64 npages;
	__u64 populated;
	__u64 faults;
	__u64 first_touch_local;
	__u64 first_touch_remote;
	__u64 fallbacks;
	__u64 sigbus;
	__u64 races;
	__u64 mode_changes;
	__u64 replicas_created;
	__u64 collapses;
	__u64 migrations;
	__u64 pins;
	__u64 replica_pages;
	__u64 auto_migrations;
	__u64 uring_cmds;
	__u64 view_faults[NUMAGPU_MAX_GPUS];
	__u64 node_faults[NUMAGPU_MAX_NODES];
	__u64 node_pages[NUMAGPU_MAX_NODES];
};

/**
 * struct numagpu_dev_stats - answer of NUMAGPU_IOC_GET_STATS (module-wide)
 * @buffers:         buffers alive
 * @buffers_created: buffers created since load
 * @pages_held:      pages held by all buffers, replicas included; 0 when
 *                   none exists
 * @pages_allocated: pages allocated since load (including freed losers)
 * @pages_freed:     pages freed since load
 * @faults, @first_touch_local, @first_touch_remote, @fallbacks, @sigbus:
 *                   sums over all buffers since load
 * @replicas_created, @collapses, @migrations, @pins, @auto_migrations:
 *                   sums over all buffers since load (since 0.3)
 * @replica_pages:   replica pages held now (part of @pages_held)
 * @node_pages:      pages held per node, replicas included
 */
struct numagpu_dev_stats {
	__u64 buffers;
	__u64 buffers_created;
	__u64 pages_held;
	__u64 pages_allocated;
	__u64 pages_freed;
	__u64 faults;
	__u64 first_touch_local;
	__u64 first_touch_remote;
	__u64 fallbacks;
	__u64 sigbus;
	__u64 replicas_created;
	__u64 collapses;
	__u64 migrations;
	__u64 pins;
	__u64 replica_pages;
	__u64 auto_migrations;
	__u64 node_pages[NUMAGPU_MAX_NODES];
};

/*
 * Hints (since 0.3), per page range, by NUMAGPU_BUF_IOC_ADVISE:
 *   READ_MOSTLY   a read fault in view G of a page homed on another node
 *                 maps a read-only copy (a replica) on G's node; the first
 *                 write through any view drops every replica first
 *   PREFERRED     first touch allocates on GPU @target's node, and
 *                 automatic migration does not move the page away from it
 *   ACCESSED_BY   view @target maps the home page (no replica, no
 *                 automatic migration for its touches)
 * and UNSET_* clears each (UNSET_READ_MOSTLY drops the replicas).
 */
#define NUMAGPU_ADVISE_READ_MOSTLY		1
#define NUMAGPU_ADVISE_UNSET_READ_MOSTLY	2
#define NUMAGPU_ADVISE_PREFERRED		3
#define NUMAGPU_ADVISE_UNSET_PREFERRED		4
#define NUMAGPU_ADVISE_ACCESSED_BY		5
#define NUMAGPU_ADVISE_UNSET_ACCESSED_BY	6
#define NUMAGPU_ADVISE_MAX			6

/**
 * struct numagpu_buf_advise - argument of NUMAGPU_BUF_IOC_ADVISE
 * @first_page: first page of the range
 * @npages:     pages, non-zero, inside the buffer
 * @advice:     NUMAGPU_ADVISE_*
 * @target:     GPU index for PREFERRED and ACCESSED_BY (and their UNSET
 *              for ACCESSED_BY); zero otherwise
 * @reserved:   zero
 */
struct numagpu_buf_advise {
	__u64 first_page;
	__u64 npages;
	__u32 advice;
	__u32 target;
	__u64 reserved[2];
};

/* Flags of struct numagpu_buf_migrate. */
#define NUMAGPU_MIGRATE_GPU	(1u << 0)	/* @target is a GPU index */
#define NUMAGPU_MIGRATE_POPULATE (1u << 1)	/* allocate absent pages there */
/* Prefetch: "to the GPU that will use it" = GPU | POPULATE. */
#define NUMAGPU_MIGRATE_PREFETCH (NUMAGPU_MIGRATE_GPU | NUMAGPU_MIGRATE_POPULATE)
#define NUMAGPU_MIGRATE_FLAGS_ALL (NUMAGPU_MIGRATE_GPU | NUMAGPU_MIGRATE_POPULATE)

/**
 * struct numagpu_buf_migrate - argument of NUMAGPU_BUF_IOC_MIGRATE
 * @first_page: first page of the range
 * @npages:     pages, non-zero, inside the buffer
 * @target:     NUMA node with memory, or with NUMAGPU_MIGRATE_GPU a GPU index
 * @flags:      NUMAGPU_MIGRATE_*
 * @moved:      out: pages moved (or allocated, with POPULATE) to @target
 * @skipped:    out: pages left where they are (pinned, absent, no memory)
 * @reserved:   zero
 *
 * Pages already on @target are neither moved nor skipped. A page with
 * replicas loses them first. A moved page stays charged to the memory
 * cgroup of the page it replaces. Errors: EINVAL (arguments), EFAULT,
 * EINTR, EACCES (@target's node is outside the caller's cpuset, since 0.5).
 */
struct numagpu_buf_migrate {
	__u64 first_page;
	__u64 npages;
	__u32 target;
	__u32 flags;
	__u64 moved;
	__u64 skipped;
	__u64 reserved[2];
};

/*
 * io_uring (since 0.3): IORING_OP_URING_CMD on a buffer fd. sqe->cmd_op is
 * NUMAGPU_URING_*, the first 16 bytes of sqe->cmd are a struct
 * numagpu_uring_cmd (the rest, with IORING_SETUP_SQE128, must be zero).
 * Each command completes on its own: cqe->res is its result or -errno.
 *   PREFETCH  @arg = GPU; migrate/populate the range there; res = pages moved
 *   MIGRATE   @arg = NUMA node; res = pages moved
 *   ADVISE    @arg = NUMAGPU_ADVISE_*, @arg2 = its GPU; res = 0
 *   QUERY     @npages = 1; res = (loc.flags << 16) | loc.node, the
 *             replica count saturated at 7 (res stays positive)
 */
#define NUMAGPU_URING_PREFETCH	1
#define NUMAGPU_URING_MIGRATE	2
#define NUMAGPU_URING_ADVISE	3
#define NUMAGPU_URING_QUERY	4

struct numagpu_uring_cmd {
	__u64 first_page;
	__u32 npages;
	__u16 arg;
	__u16 arg2;
};


/* On /dev/numagpu: create a buffer; returns its fd. */
#define NUMAGPU_IOC_BUF_CREATE						\
	_IOW(NUMAGPU_IOC_MAGIC, 0x01, struct numagpu_buf_create)
/* On /dev/numagpu: module-wide counters. */
#define NUMAGPU_IOC_GET_STATS						\
	_IOR(NUMAGPU_IOC_MAGIC, 0x02, struct numagpu_dev_stats)

/* On a buffer fd: change the mode of a range of empty page groups. */
#define NUMAGPU_BUF_IOC_SET_MODE					\
	_IOW(NUMAGPU_IOC_MAGIC, 0x10, struct numagpu_buf_mode)
/* On a buffer fd: node and flags of each page of a range. */
#define NUMAGPU_BUF_IOC_QUERY						\
	_IOW(NUMAGPU_IOC_MAGIC, 0x11, struct numagpu_buf_query)
/* On a buffer fd: the buffer's counters. */
#define NUMAGPU_BUF_IOC_STATS						\
	_IOR(NUMAGPU_IOC_MAGIC, 0x12, struct numagpu_buf_stats)

/* On a buffer fd: set or clear a hint on a range (since 0.3). */
#define NUMAGPU_BUF_IOC_ADVISE						\
	_IOW(NUMAGPU_IOC_MAGIC, 0x13, struct numagpu_buf_advise)
/* On a buffer fd: move a range to a node or GPU (since 0.3). */
#define NUMAGPU_BUF_IOC_MIGRATE						\
	_IOWR(NUMAGPU_IOC_MAGIC, 0x14, struct numagpu_buf_migrate)

#endif /* _UAPI_LINUX_NUMAGPU_H */
