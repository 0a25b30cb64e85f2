// SPDX-License-Identifier: GPL-2.0
/*
 * Real-time injection (--inject): modeled remote costs become real delays
 * of the SM's thread, owed as they arise and spun off in batches.
 */
#include <time.h>

#include "ngemu/model/model.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void ng_inject_settle(struct ng_sm *sm, bool force)
{
	double owed = sm->inj_owed_ns, until;

	if (owed <= 0 || (!force && owed < sm->model->cfg->inject_batch_us * 1e3))
		return;
	/* one spin per batch keeps clock reads rare */
	until = now_ns() + owed;
	while (now_ns() < until)
		;
	sm->inj_owed_ns = 0;
	sm->ctr.v[NG_CTR_INJ_NS] += (uint64_t)owed;
	sm->ctr.v[NG_CTR_INJ_SPINS]++;
}
