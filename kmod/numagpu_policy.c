// SPDX-License-Identifier: GPL-2.0
/*
 * Placement modes: a mode's arguments checked and resolved, and the node
 * each page of a range is allocated on (the per-page policy word).
 */
#include <linux/nodemask.h>

#include "numagpu.h"
#include "numagpu_buffer.h"

static bool numagpu_is_gpu_node(const struct numagpu_system *sys, int nid)
{
	unsigned int g;

	for (g = 0; g < sys->ngpus; g++)
		if (sys->node[g] == nid)
			return true;
	return false;
}

static int numagpu_host_node(const struct numagpu_system *sys, u32 target)
{
	int nid;

	if (target == NUMAGPU_HOST_AUTO) {
		for_each_node_state(nid, N_MEMORY)
			if (!numagpu_is_gpu_node(sys, nid))
				return nid;
		return -EINVAL;
	}
	if (target >= MAX_NUMNODES || target >= NUMAGPU_LOC_NO_NODE ||
	    !node_state(target, N_MEMORY))
		return -EINVAL;
	return target;
}

int numagpu_placement_check(const struct numagpu_system *sys,
			    u32 mode, u32 target, u64 chunk,
			    struct numagpu_placement *pl)
{
	u64 group = (u64)sys->ngpus << PAGE_SHIFT;

	pl->mode = mode;
	pl->node = NUMAGPU_LOC_NO_NODE;
	pl->chunk = 0;
	switch (mode) {
	case NUMAGPU_MODE_FIRST_TOUCH:
	case NUMAGPU_MODE_FGP:
		if (target || chunk)
			return -EINVAL;
		return 0;
	case NUMAGPU_MODE_CGP:
		if (chunk || target >= sys->ngpus)
			return -EINVAL;
		pl->node = sys->node[target];
		return 0;
	case NUMAGPU_MODE_CGP_CHUNK:
		if (target || !chunk || chunk % group)
			return -EINVAL;
		pl->chunk = chunk >> PAGE_SHIFT;
		return 0;
	case NUMAGPU_MODE_HOST:
		if (chunk)
			return -EINVAL;
		pl->node = numagpu_host_node(sys, target);
		return pl->node < 0 ? pl->node : 0;
	default:
		return -EINVAL;
	}
}

u32 numagpu_page_policy(const struct numagpu_system *sys,
			const struct numagpu_placement *pl,
			unsigned long idx)
{
	switch (pl->mode) {
	case NUMAGPU_MODE_FGP:
		return POL(pl->mode, sys->node[idx % sys->ngpus]);
	case NUMAGPU_MODE_CGP_CHUNK:
		return POL(pl->mode, sys->node[(idx / pl->chunk) % sys->ngpus]);
	case NUMAGPU_MODE_CGP:
	case NUMAGPU_MODE_HOST:
		return POL(pl->mode, pl->node);
	default:
		return POL(pl->mode, NUMAGPU_LOC_NO_NODE);
	}
}
