/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated system's topology: which NUMA node plays each GPU, its CPUs
 * and memory, and the distances between GPUs.
 *
 * Two backends answer the same question: "kmod" asks numagpu.ko through
 * /dev/numagpu, "user" reads sysfs (/sys/devices/system/node) the way the
 * module would decide: one GPU per node with memory, in node order.
 */
#ifndef NGEMU_TOPOLOGY_H
#define NGEMU_TOPOLOGY_H

#include <stddef.h>

#include <linux/numagpu.h>

enum ng_backend {
	NG_BACKEND_AUTO,	/* kmod when /dev/numagpu exists, else user */
	NG_BACKEND_KMOD,	/* numagpu.ko through its device */
	NG_BACKEND_USER,	/* sysfs and libnuma, no module */
};

/**
 * struct ng_topology - a probed topology
 * @backend: NG_BACKEND_KMOD or NG_BACKEND_USER, whichever answered
 * @source:  device path or sysfs root the answer came from
 * @hw:      the answer, in the module's own layout; for the user backend
 *           @hw.uapi_version is this library's NUMAGPU_UAPI_VERSION
 */
struct ng_topology {
	enum ng_backend backend;
	char source[256];
	struct numagpu_topology hw;
};

/* Where to look; NULL members mean the defaults. */
struct ng_topology_opts {
	enum ng_backend backend;
	const char *device;	/* default NUMAGPU_DEVICE_PATH */
	const char *sysfs_root;	/* default "/sys" */
};

/*
 * Probe the topology. Returns 0, or a negative errno with a message naming
 * the problem in @err (at most @errlen bytes, always terminated).
 * AUTO falls back to the user backend only when the device does not exist.
 */
int ng_topology_probe(struct ng_topology *topo,
		      const struct ng_topology_opts *opts,
		      char *err, size_t errlen);

/* The two backends, callable directly (tests compare them). */
int ng_topology_from_kmod(struct ng_topology *topo, const char *device,
			  char *err, size_t errlen);
int ng_topology_from_sysfs(struct ng_topology *topo, const char *root,
			   char *err, size_t errlen);

/*
 * Whether a program built against this header (NUMAGPU_UAPI_VERSION) may
 * use a module that reports @module_version: the same major, and the same
 * minor while the major is 0, a later or the same one after.
 */
static inline int ng_uapi_compatible(unsigned int module_version)
{
	unsigned int mmaj = module_version >> 16, mmin = module_version & 0xffff;

	if (mmaj != NUMAGPU_VERSION_MAJOR)
		return 0;
	return NUMAGPU_VERSION_MAJOR ? mmin >= NUMAGPU_VERSION_MINOR
				     : mmin == NUMAGPU_VERSION_MINOR;
}

/* "auto", "kmod" or "user"; NULL for an unknown value. */
const char *ng_backend_name(enum ng_backend b);
/* Parse a backend name; returns -1 when @name is none of them. */
int ng_backend_parse(const char *name);

#endif /* NGEMU_TOPOLOGY_H */
