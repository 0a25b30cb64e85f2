// SPDX-License-Identifier: GPL-2.0
/*
 * CODA's part of a run's report (ngemu bench): the pages of the timed
 * kernels by who touched them (one block, one GPU, several) and the
 * category that makes (CODA Table 2), the pages by how many blocks
 * touched them (CODA Fig. 5), and the B its profile found for each
 * structure.
 */
#include <stdio.h>

#include "ngemu/runtime/space.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "report.h"

static double share(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

void coda_pageacc_json(struct ng_json *j, const struct ng_pageacc *p)
{
	ng_json_object_begin(j);
	ng_json_kv_uint(j, "touched", p->pages);
	ng_json_kv_double(j, "one_block", share(p->one_block, p->pages));
	ng_json_kv_double(j, "one_gpu", share(p->one_gpu, p->pages));
	ng_json_kv_double(j, "several_gpus",
			  share(p->pages - p->one_gpu, p->pages));
	ng_json_kv_string(j, "category", ng_coda_category_name(p->category));
	if (p->blocks) {
		ng_json_key(j, "by_blocks");
		ng_json_object_begin(j);
		for (unsigned int i = 0; i < NG_PAGEACC_NBUCKET; i++)
			ng_json_kv_double(j, ng_pageacc_bucket_name(i),
					  share(p->by_blocks[i], p->pages));
		ng_json_object_end(j);
	}
	ng_json_object_end(j);
}

char *coda_page_blocks(const struct ng_pageacc *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; p->blocks && i < NG_PAGEACC_NBUCKET && n < len;
	     i++) {
		int k = snprintf(buf + n, len - n, "%s%.3f", i ? " " : "",
				 share(p->by_blocks[i], p->pages));

		if (k < 0)
			break;
		n += (size_t)k;
	}
	return buf;
}

static void pageacc_human(FILE *f, const struct ng_pageacc *p)
{
	fprintf(f, "pages      %llu touched: %.1f%% by one block, %.1f%% by one GPU, %.1f%% by several GPUs: %s (CODA Table 2)\n",
	       (unsigned long long)p->pages, 100 * share(p->one_block, p->pages),
	       100 * share(p->one_gpu, p->pages),
	       100 * share(p->pages - p->one_gpu, p->pages),
	       ng_coda_category_name(p->category));
	if (!p->blocks)
		return;
	fprintf(f, "blocks     pages by the blocks touching them (CODA Fig. 5):");
	for (unsigned int i = 0; i < NG_PAGEACC_NBUCKET; i++)
		fprintf(f, "%s %s %.1f%%", i ? "," : "",
			ng_pageacc_bucket_name(i),
			100 * share(p->by_blocks[i], p->pages));
	fprintf(f, "\n");
}

/* The structures' B from the profile, and the chunk each got. */
static void plan_human(FILE *f, const struct ng_config *cfg,
		       const struct ng_bench_result *r)
{
	char b1[32], b2[32], b3[32];

	if (!r->ncoda)
		return;
	fprintf(f, "coda       B per structure (profile), chunk (%s):",
	       ng_coda_chunk_names[cfg->coda_chunk]);
	for (unsigned int i = 0; i < r->ncoda; i++) {
		uint64_t c = ng_coda_chunk(r->coda[i].b,
					   (uint64_t)cfg->sms * cfg->blocks_per_sm,
					   cfg->page,
					   cfg->coda_chunk == NG_CODA_CHUNK_CAP);

		if (r->coda[i].b)
			fprintf(f, "%s %s: B %s, chunk %s", i ? ";" : "",
			       ng_format_bytes(r->coda[i].size, b1, sizeof(b1)),
			       ng_format_bytes(r->coda[i].b, b2, sizeof(b2)),
			       ng_format_bytes(c, b3, sizeof(b3)));
		else
			fprintf(f, "%s %s: FGP", i ? ";" : "",
			       ng_format_bytes(r->coda[i].size, b1, sizeof(b1)));
	}
	fprintf(f, "\n");
}

static void plan_json(struct ng_json *j, const struct ng_bench_result *r)
{
	if (!r->ncoda)
		return;
	ng_json_key(j, "coda_plan");
	ng_json_array_begin(j);
	for (unsigned int i = 0; i < r->ncoda; i++) {
		ng_json_object_begin(j);
		ng_json_kv_uint(j, "bytes", r->coda[i].size);
		ng_json_kv_uint(j, "block_bytes", r->coda[i].b);
		ng_json_kv_string(j, "placement", r->coda[i].b ? "chunks" : "fgp");
		ng_json_object_end(j);
	}
	ng_json_array_end(j);
}

void coda_report_human(FILE *f, const struct ng_config *cfg,
		       const struct ng_bench_result *r)
{
	if (r->has_pageacc)
		pageacc_human(f, &r->pageacc);
	plan_human(f, cfg, r);
}

void coda_report_json(struct ng_json *j, const struct ng_config *cfg,
		      const struct ng_bench_result *r)
{
	(void)cfg;
	if (r->has_pageacc) {
		ng_json_key(j, "pages");
		coda_pageacc_json(j, &r->pageacc);
	}
	plan_json(j, r);
}
