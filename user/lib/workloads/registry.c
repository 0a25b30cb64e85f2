// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads, one line each (their files are under this folder, by the
 * benchmark suite they come from), and the suites they are tagged with.
 */
#include <string.h>

#include "ngemu/workloads/workload.h"

extern const struct ng_workload ng_wl_triad, ng_wl_local_stream,
	ng_wl_remote_stream, ng_wl_pointer_chase, ng_wl_rwshare,
	ng_wl_randaccess, ng_wl_hotspot, ng_wl_spmv, ng_wl_bfs;
/* REC Table 3 */
extern const struct ng_workload ng_wl_atax, ng_wl_c2d, ng_wl_fir, ng_wl_gemm,
	ng_wl_gemv, ng_wl_j2d, ng_wl_lu, ng_wl_mm2, ng_wl_mm3, ng_wl_pr, ng_wl_sc,
	ng_wl_st;
/* DualOpt Table 2 */
extern const struct ng_workload ng_wl_bicg, ng_wl_mm, ng_wl_mt, ng_wl_km,
	ng_wl_aes, ng_wl_bs;
/* ScaleGPU Table 2 */
extern const struct ng_workload ng_wl_vectoradd, ng_wl_histogram, ng_wl_bank,
	ng_wl_sssp;
/* CODA Table 2 */
extern const struct ng_workload ng_wl_dc, ng_wl_nn, ng_wl_cc, ng_wl_tc,
	ng_wl_hotspot3d, ng_wl_ge, ng_wl_dwt, ng_wl_nw, ng_wl_sad;

const struct ng_workload *const ng_workloads[] = {
	&ng_wl_triad,		/* stream/triad.c */
	&ng_wl_local_stream,	/* micro/local_stream.c */
	&ng_wl_remote_stream,	/* micro/remote_stream.c */
	&ng_wl_pointer_chase,	/* micro/pointer_chase.c */
	&ng_wl_rwshare,		/* micro/rwshare.c */
	&ng_wl_randaccess,	/* hpcc/randaccess.c */
	&ng_wl_hotspot,		/* rodinia/hotspot.c */
	&ng_wl_spmv,		/* shoc/spmv.c */
	&ng_wl_bfs,		/* rodinia/bfs.c */
	&ng_wl_atax,		/* polybench/atax.c */
	&ng_wl_c2d,		/* polybench/c2d.c */
	&ng_wl_fir,		/* heteromark/fir.c */
	&ng_wl_gemm,		/* polybench/gemm.c */
	&ng_wl_gemv,		/* polybench/gemv.c */
	&ng_wl_j2d,		/* polybench/j2d.c */
	&ng_wl_lu,		/* polybench/lu.c */
	&ng_wl_mm2,		/* polybench/mm2.c */
	&ng_wl_mm3,		/* polybench/mm3.c */
	&ng_wl_pr,		/* heteromark/pr.c */
	&ng_wl_sc,		/* amdapp/sc.c */
	&ng_wl_st,		/* shoc/st.c */
	&ng_wl_bicg,		/* polybench/bicg.c */
	&ng_wl_mt,		/* amdapp/mt.c */
	&ng_wl_mm,		/* amdapp/mm.c */
	&ng_wl_km,		/* heteromark/km.c */
	&ng_wl_aes,		/* heteromark/aes.c */
	&ng_wl_bs,		/* amdapp/bs.c */
	&ng_wl_vectoradd,	/* nvsdk/vectoradd.c */
	&ng_wl_histogram,	/* nvsdk/histogram.c */
	&ng_wl_bank,		/* kilotm/bank.c */
	&ng_wl_sssp,		/* rodinia/sssp.c */
	&ng_wl_dc,		/* graphbig/dc.c */
	&ng_wl_nn,		/* rodinia/nn.c */
	&ng_wl_cc,		/* graphbig/cc.c */
	&ng_wl_tc,		/* graphbig/tc.c */
	&ng_wl_hotspot3d,	/* rodinia/hotspot3d.c */
	&ng_wl_ge,		/* rodinia/ge.c */
	&ng_wl_dwt,		/* rodinia/dwt.c */
	&ng_wl_nw,		/* rodinia/nw.c */
	&ng_wl_sad,		/* parboil/sad.c */
	NULL,
};

static const struct {
	const char *name, *desc;
} suites[NG_NSUITES] = {
	{ "calibration", "one model parameter each, measured beside the configured value" },
	{ "carve", "CARVE (MICRO 2018): NUMA-GPU baseline, replication, remote data cache" },
	{ "dualopt", "DualOpt: fine-grained remote transfers and remote data caching" },
	{ "rec", "REC (JSA 2025): coherence directories for remote data in the L2" },
	{ "scalegpu", "ScaleGPU (CAL 2013): device memory as a cache of host memory" },
	{ "coda", "CODA (TACO 2018): co-locating computation and data" },
};

const char *ng_suite_name(unsigned int i)
{
	return i < NG_NSUITES ? suites[i].name : NULL;
}

const char *ng_suite_desc(unsigned int i)
{
	return i < NG_NSUITES ? suites[i].desc : NULL;
}

const struct ng_workload *ng_workload_find(const char *name)
{
	for (unsigned int i = 0; ng_workloads[i]; i++)
		if (!strcmp(ng_workloads[i]->name, name))
			return ng_workloads[i];
	return NULL;
}

uint64_t ng_workload_paper_size(const struct ng_workload *wl)
{
	uint64_t per = wl->paper_footprint / wl->narrays;

	/* whole 4-byte elements */
	return per & ~3ULL;
}
