// SPDX-License-Identifier: GPL-2.0
/* Backend choice and the kmod backend's topology query. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ngemu/backend/topology.h"
#include "util/util.h"

static const char *const backend_names[] = {
	[NG_BACKEND_AUTO] = "auto",
	[NG_BACKEND_KMOD] = "kmod",
	[NG_BACKEND_USER] = "user",
};

const char *ng_backend_name(enum ng_backend b)
{
	if ((unsigned int)b >= sizeof(backend_names) / sizeof(backend_names[0]))
		return NULL;
	return backend_names[b];
}

int ng_backend_parse(const char *name)
{
	for (unsigned int i = 0;
	     i < sizeof(backend_names) / sizeof(backend_names[0]); i++)
		if (strcmp(name, backend_names[i]) == 0)
			return (int)i;
	return -1;
}

int ng_topology_from_kmod(struct ng_topology *topo, const char *device,
			  char *err, size_t errlen)
{
	int fd, ret = 0;

	if (!device)
		device = NUMAGPU_DEVICE_PATH;
	memset(topo, 0, sizeof(*topo));
	topo->backend = NG_BACKEND_KMOD;
	snprintf(topo->source, sizeof(topo->source), "%s", device);

	fd = open(device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ng_seterr(err, errlen, "%s: %s%s", device, strerror(errno),
			  errno == ENOENT ? " (is numagpu.ko loaded?)" : "");
		return ret;
	}
	if (ioctl(fd, NUMAGPU_IOC_GET_TOPOLOGY, &topo->hw) < 0) {
		ret = -errno;
		ng_seterr(err, errlen, "%s: topology query: %s", device,
			  strerror(errno));
	} else if (!ng_uapi_compatible(topo->hw.uapi_version)) {
		ret = -EPROTO;
		ng_seterr(err, errlen,
			  "%s: module speaks uapi %u.%u, this program %u.%u (%s)",
			  device, topo->hw.uapi_version >> 16,
			  topo->hw.uapi_version & 0xffff,
			  NUMAGPU_VERSION_MAJOR, NUMAGPU_VERSION_MINOR,
			  NUMAGPU_VERSION_MAJOR ?
			  "it needs this major, this minor or a later one" :
			  "before 1.0 it needs this exact minor");
	} else if (topo->hw.ngpus > NUMAGPU_MAX_GPUS) {
		ret = -EPROTO;
		ng_seterr(err, errlen, "%s: module reports %u GPUs", device,
			  topo->hw.ngpus);
	}
	close(fd);
	return ret;
}

int ng_topology_probe(struct ng_topology *topo,
		      const struct ng_topology_opts *opts,
		      char *err, size_t errlen)
{
	struct ng_topology_opts none = { 0 };
	int ret;

	if (!opts)
		opts = &none;
	switch (opts->backend) {
	case NG_BACKEND_KMOD:
		return ng_topology_from_kmod(topo, opts->device, err, errlen);
	case NG_BACKEND_USER:
		return ng_topology_from_sysfs(topo, opts->sysfs_root, err,
					      errlen);
	case NG_BACKEND_AUTO:
		ret = ng_topology_from_kmod(topo, opts->device, err, errlen);
		/* only a missing module means "run without it" */
		if (ret != -ENOENT)
			return ret;
		return ng_topology_from_sysfs(topo, opts->sysfs_root, err,
					      errlen);
	}
	ng_seterr(err, errlen, "unknown backend %d", (int)opts->backend);
	return -EINVAL;
}
