/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page-access tracking (CODA section 5.2 and Table 2): which thread
 * blocks and GPUs touch each page, and each line's block in the first
 * timed kernel that touches it. From it come CODA's categories of a
 * workload (pages accessed by one block, by one GPU, by several) and, for
 * CODA's placement, the bytes each block touches of a data structure
 * (`B`). The model keeps it when the configuration says page-profile =
 * yes (lib/model/page_access.c), from the last counter reset (the timed
 * kernels); a block is known by its id in its launch's grid.
 */
#ifndef NGEMU_MODEL_PAGE_ACCESS_H
#define NGEMU_MODEL_PAGE_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

struct ng_model;

enum ng_coda_category {
	NG_CODA_BLOCK_EXCLUSIVE,	/* > 90% of pages: one block */
	NG_CODA_CORE_EXCLUSIVE,		/* > 90%: one GPU */
	NG_CODA_BLOCK_MAJORITY,		/* > 60%: one block */
	NG_CODA_CORE_MAJORITY,		/* > 60%: one GPU */
	NG_CODA_SHARING,
	NG_CODA_NCATEGORY,
};

/*
 * CODA Fig. 5: the pages by how many blocks touched them, in buckets of
 * powers of two: 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, more than 64.
 */
#define NG_PAGEACC_NBUCKET	8
#define NG_PAGEACC_MAX_COUNTED	64	/* more: the last bucket */

struct ng_pageacc {
	uint64_t pages;			/* touched */
	uint64_t one_block;		/* of them, by one block only */
	uint64_t one_gpu;		/* by one GPU only */
	uint64_t by_blocks[NG_PAGEACC_NBUCKET];	/* by bucket, as above */
	bool blocks;			/* by_blocks counted: page-profile on */
	enum ng_coda_category category;
};

/* Bucket @i's name: "1", "2", "3-4", ... ">64". */
const char *ng_pageacc_bucket_name(unsigned int i);
/* The bucket of a page touched by @blocks distinct blocks (>= 1). */
unsigned int ng_pageacc_bucket(uint64_t blocks);

/* The categories' thresholds (CODA Table 2): fractions of the pages. */
#define NG_CODA_EXCLUSIVE	0.9
#define NG_CODA_MAJORITY	0.6

/*
 * What host copies would move (ScaleGPU's baselines): the pages the timed
 * kernels first read (copied in once) and wrote (copied out once), and
 * summed over the kernels, each kernel's read and written pages (a split
 * program copies its data in and out around each kernel).
 */
struct ng_copies {
	uint64_t in_pages, out_pages;
	uint64_t split_in_pages, split_out_pages;
	uint64_t kernels;
};

/* The copies so far; -ENOENT when the model keeps no profile. */
int ng_pageacc_copies(const struct ng_model *m, struct ng_copies *out);

/* The profile so far; -ENOENT when the model keeps none. */
int ng_pageacc_report(const struct ng_model *m, struct ng_pageacc *out);

/* The category of @one_block and @one_gpu pages of @pages. */
enum ng_coda_category ng_coda_classify(uint64_t pages, uint64_t one_block,
				       uint64_t one_gpu);
const char *ng_coda_category_name(enum ng_coda_category c);

/*
 * CODA's B of the structure at [@start, @start + @len): the bytes each
 * block touches, when the first timed kernel that touched it gave each
 * block its own contiguous run of lines, in block order (row-wise
 * access); 0 when the lines are shared by blocks or not in block order
 * (column-wise, irregular or shared: the structure stays FGP), or when
 * no timed kernel touched it. -ENOENT when the model keeps no profile.
 */
int ng_pageacc_block_bytes(const struct ng_model *m, uintptr_t start,
			   uint64_t len, uint64_t *b);

#endif /* NGEMU_MODEL_PAGE_ACCESS_H */
