// SPDX-License-Identifier: GPL-2.0
/* The counter registry's names (the list lives in ngemu/counters.h). */
#include "ngemu/util/counters.h"

const struct ng_counter_info ng_counter_info[NG_CTR_MAX] = {
#define NG_CTR_INFO(id, comp, name, help) [NG_CTR_##id] = { comp, name, help },
	NG_COUNTERS(NG_CTR_INFO)
#undef NG_CTR_INFO
};
