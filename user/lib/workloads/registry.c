// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads, one line each (their files are under this folder, by the
 * benchmark suite they come from), and the suites they are tagged with.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "ngemu/config.h"
#include "ngemu/util/err.h"
#include "ngemu/workloads/workload.h"

extern const struct ng_workload ng_wl_triad, ng_wl_local_stream,
	ng_wl_remote_stream, ng_wl_pointer_chase, ng_wl_rwshare,
	ng_wl_randaccess, ng_wl_hotspot, ng_wl_spmv, ng_wl_bfs, ng_wl_bfs_road,
	ng_wl_bfs_shoc;
extern const struct ng_workload ng_wl_xsbench;	/* proxy/xsbench.c */
/* REC Table 3 */
extern const struct ng_workload ng_wl_atax, ng_wl_c2d, ng_wl_fir, ng_wl_gemm,
	ng_wl_gemv, ng_wl_j2d, ng_wl_lu, ng_wl_mm2, ng_wl_mm3, ng_wl_pr, ng_wl_sc,
	ng_wl_st;
/* CODA Fig. 12: pr on a regular and an irregular graph */
extern const struct ng_workload ng_wl_pr_road, ng_wl_pr_rmat;
/* DualOpt Table 2 */
extern const struct ng_workload ng_wl_bicg, ng_wl_mm, ng_wl_mt, ng_wl_km,
	ng_wl_aes, ng_wl_bs;
/* ScaleGPU Table 2 */
extern const struct ng_workload ng_wl_vectoradd, ng_wl_histogram, ng_wl_bank,
	ng_wl_sssp;
/* CODA Table 2 */
extern const struct ng_workload ng_wl_dc, ng_wl_nn, ng_wl_cc, ng_wl_tc,
	ng_wl_hotspot3d, ng_wl_ge, ng_wl_dwt, ng_wl_nw, ng_wl_sad;
extern const struct ng_workload ng_wl_cfd, ng_wl_hybridsort, ng_wl_mummergpu;
extern const struct ng_workload ng_wl_bc, ng_wl_gc;
/* CARVE Table II: AlexNet's conv2 (dnn/alexnet_conv.c) */
extern const struct ng_workload ng_wl_alexnet_conv;
extern const struct ng_workload ng_wl_hpgmg;	/* proxy/hpgmg.c */
extern const struct ng_workload ng_wl_comd;	/* proxy/comd.c */

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
	&ng_wl_bfs_road,	/* rodinia/bfs.c */
	&ng_wl_bfs_shoc,	/* shoc/bfs.c */
	&ng_wl_xsbench,		/* proxy/xsbench.c */
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
	&ng_wl_pr_road,		/* heteromark/pr.c */
	&ng_wl_pr_rmat,		/* heteromark/pr.c */
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
	&ng_wl_bc,		/* graphbig/bc.c */
	&ng_wl_gc,		/* graphbig/gc.c */
	&ng_wl_nn,		/* rodinia/nn.c */
	&ng_wl_cc,		/* graphbig/cc.c */
	&ng_wl_tc,		/* graphbig/tc.c */
	&ng_wl_hotspot3d,	/* rodinia/hotspot3d.c */
	&ng_wl_ge,		/* rodinia/ge.c */
	&ng_wl_dwt,		/* rodinia/dwt.c */
	&ng_wl_nw,		/* rodinia/nw.c */
	&ng_wl_sad,		/* parboil/sad.c */
	&ng_wl_cfd,		/* rodinia/cfd.c */
	&ng_wl_hybridsort,	/* rodinia/hybridsort.c */
	&ng_wl_mummergpu,	/* rodinia/mummergpu.c */
	&ng_wl_alexnet_conv,	/* dnn/alexnet_conv.c */
	&ng_wl_hpgmg,		/* proxy/hpgmg.c */
	&ng_wl_comd,		/* proxy/comd.c */
	NULL,
};

/* the model's own suite, before the papers' (config/preset.h) */
static const char *const calibration[] = {
	"local-stream", "remote-stream", "pointer-chase", NULL,
};

unsigned int ng_suites(void)
{
	unsigned int n = 1;

	while (ng_config_presets[n - 1])
		n++;
	return n;
}

/* Suite @i's preset (i >= 1), or NULL. */
static const char *preset_of(unsigned int i)
{
	return i && i < ng_suites() ? ng_config_presets[i - 1] : NULL;
}

const char *ng_suite_name(unsigned int i)
{
	return !i ? "calibration" : preset_of(i);
}

const char *ng_suite_desc(unsigned int i)
{
	return !i ? "one model parameter each, measured beside the configured value" :
	       preset_of(i) ? ng_config_preset_suite(preset_of(i)) : NULL;
}

unsigned int ng_suite_bit(const char *name)
{
	for (unsigned int i = 0; ng_suite_name(i); i++)
		if (!strcmp(ng_suite_name(i), name))
			return 1u << i;
	return 0;
}

static bool listed(const char *const *names, const char *name)
{
	for (unsigned int k = 0; names && names[k]; k++)
		if (!strcmp(names[k], name))
			return true;
	return false;
}

unsigned int ng_workload_suites(const struct ng_workload *w)
{
	unsigned int bits = listed(calibration, w->name);

	for (unsigned int i = 0; ng_config_presets[i]; i++)
		if (listed(ng_config_preset_workloads(ng_config_presets[i]), w->name))
			bits |= 2u << i;
	return bits;
}

/* A program's own workloads (ng_workloads_add()), after the built-ins. */
static const struct ng_workload *const *added;
static unsigned int nadded;

const struct ng_workload *ng_workload_at(unsigned int i)
{
	/* the built-in list is above, NULL last */
	const unsigned int nbuiltin =
		sizeof(ng_workloads) / sizeof(ng_workloads[0]) - 1;

	if (i < nbuiltin)
		return ng_workloads[i];
	return i - nbuiltin < nadded ? added[i - nbuiltin] : NULL;
}

const struct ng_workload *ng_workload_find(const char *name)
{
	const struct ng_workload *w;

	for (unsigned int i = 0; (w = ng_workload_at(i)); i++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

/*
 * What the commands rely on: a name that fits a result and a file name
 * (sweep's), arrays to size it by, iterations, a run function.
 */
static int check_workload(const struct ng_workload *w, unsigned int i,
			  char *err, size_t errlen)
{
	const char *n = w->name;

	if (!n || !*n || strlen(n) >= sizeof(((struct ng_bench_result *)0)->workload) ||
	    n[strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")] ||
	    n[0] == '-') {
		ng_seterr(err, errlen,
			  "workload %u: name '%s' is not 1 to 31 letters, digits, '-', '_' or '.' (not starting with '-')",
			  i, n ? n : "(null)");
		return -EINVAL;
	}
	if (!w->run || !w->desc || !w->narrays || !w->default_iters ||
	    !w->default_size) {
		ng_seterr(err, errlen,
			  "workload '%s': run, desc, narrays, default_iters and default_size must be set",
			  n);
		return -EINVAL;
	}
	if (ng_workload_find(n)) {
		ng_seterr(err, errlen, "workload '%s': the name is taken", n);
		return -EINVAL;
	}
	return 0;
}

int ng_workloads_add(const struct ng_workload *const *list, char *err,
		     size_t errlen)
{
	unsigned int n = 0;

	if (nadded) {
		ng_seterr(err, errlen, "workloads were added already");
		return -EBUSY;
	}
	for (; list && list[n]; n++) {
		int ret = check_workload(list[n], n, err, errlen);

		if (ret) {
			added = NULL;
			nadded = 0;
			return ret;
		}
		/* the next names against this one's too */
		added = list;
		nadded = n + 1;
	}
	added = list;
	nadded = n;
	return 0;
}

uint64_t ng_workload_paper_size(const struct ng_workload *wl)
{
	uint64_t per = wl->paper_footprint / wl->narrays;

	/* whole 4-byte elements */
	return per & ~3ULL;
}
