// SPDX-License-Identifier: GPL-2.0
/*
 * mummergpu: Rodinia's MUMmerGPU (mummergpu/src/mummergpu_kernel.cu,
 * Schatz et al.), its mummergpuKernel with Rodinia's defaults: a thread
 * per read, in blocks of 256 (BLOCKSIZE). The reads are 'q' + bases +
 * '\0' records in one array (queryAddrs, queryLengths beside it), the
 * reference "s" + bases + "$", the suffix tree two arrays of 16-byte
 * pixels (_PixelOfNode: the edge's start and end, the suffix link;
 * _PixelOfChildren: the A, C, G, T children). Each thread walks the tree
 * from the root for its read's first start, comparing the read with the
 * reference along each edge, and writes a _MatchCoord (the node, the
 * bases matched on its edge) for every start of a match of at least
 * min_match_len (20, mummergpu's default); then it follows the suffix
 * link of the last node and skips down as many bases as it had matched
 * on that edge (mustmatch) for the next start, as Rodinia's does, in its
 * order of loads: the children pixel, the node pixel, a read base, a
 * reference base, each compared before the next is loaded. The lane
 * waits for every load before its next (each address or branch depends
 * on it). Rodinia's host prints the maximal matches from the coordinates
 * afterwards (printKernel when it aligns them on the GPU): not built,
 * the coordinates are the result.
 *
 * The warp: its lanes diverge, so each step issues one load per place in
 * the code that some lane is at (a divergent branch's paths one after
 * the other), the block's warps issue before any waits, then each lane
 * goes on until it needs its next load.
 *
 * Where it differs: the tree's pixels are read as global loads (Rodinia
 * binds them to textures, its reference and reads are global, as here),
 * 32-bit fields where Rodinia packs 24-bit ones (parent where it has
 * depth; no '$' child or leaf character, which the walk never reads),
 * numbered breadth first (mummergpu_ref.c). Rodinia reads a genome and
 * its reads from FASTA files (NC_003997 and 100-base reads); here the
 * reference is random bases and the reads are 30 bases from random
 * places in it, about one base in 32 substituted (splitmix64 of the
 * seed). Verified exactly against Rodinia's kernel_gold on the CPU, and
 * the gold walk's match length at every start against the longest match
 * found from the reference's 20-base words, which checks the tree too.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/rodinia/mummergpu.h"

/* a step's branch, index and address arithmetic in the walk (~8) */
#define MG_INSTS	8

/* Where a lane is in mummergpuKernel: each value after a load. */
enum mg_at {
	MG_END,		/* past its last start */
	MG_C0,		/* the first read base of a start */
	MG_KIDS,	/* the children pixel of cur */
	MG_NODE,	/* the node pixel of cur */
	MG_C1,		/* the read base after the edge's first */
	MG_REF,		/* a reference base on the edge */
	MG_C2,		/* the read base after a matching one */
	MG_SUF,		/* prev's node pixel, for its suffix link */
	MG_NAT
};

struct mg_args {
	const char *ref, *qry;
	const int32_t *addrs, *lens;
	const struct mg_node *nodes;
	const struct mg_kids *kids;
	struct mg_coord *coords;
	uint64_t nq;
};

/* One thread's registers in mummergpuKernel. */
struct mg_lane {
	enum mg_at at;
	uintptr_t addr;			/* its pending load */
	uint32_t v[4];			/* what it loaded */
	int64_t qaddr, last, s, qml, mustmatch, refpos, nstart, nend;
	uint32_t cur, prev, res;
	char c;
	bool st;			/* a coordinate to store */
	struct mg_coord out;
};

static const unsigned int mg_size[MG_NAT] = {
	[MG_C0] = 1, [MG_KIDS] = 16, [MG_NODE] = 16, [MG_C1] = 1,
	[MG_REF] = 1, [MG_C2] = 1, [MG_SUF] = 16,
};

static void mg_need(struct mg_lane *l, enum mg_at at, const void *p)
{
	l->at = at;
	l->addr = (uintptr_t)p;
}

static void mg_result(struct mg_lane *l, uint32_t node, int64_t edge)
{
	if (l->qml <= MG_MIN)
		return;
	l->st = true;
	l->out.node = node;
	l->out.edge = (uint32_t)edge;
}

/* The next start, or the end: a read base from the root or the link. */
static void mg_start(const struct mg_args *a, struct mg_lane *l)
{
	if (l->s > l->last) {
		l->at = MG_END;
		return;
	}
	if (!l->cur || l->qml < 1) {
		l->cur = MG_ROOT;
		l->qml = 1;
		l->mustmatch = 0;
	}
	mg_need(l, MG_C0, a->qry + l->qaddr + l->s + l->qml);
}

/*
 * RECORD_RESULT: the match ends on cur's edge; the next start skips down
 * the bases matched on it from prev's suffix link (NEXT_SUBSTRING's load).
 */
static void mg_record(const struct mg_args *a, struct mg_lane *l)
{
	mg_result(l, l->cur, l->refpos - l->nstart);
	l->mustmatch = l->refpos - l->nstart;
	l->qml -= l->mustmatch + 1;
	mg_need(l, MG_SUF, &a->nodes[l->prev]);
}

/* The while loop's test: a base left, the children of cur. */
static void mg_down(const struct mg_args *a, struct mg_lane *l)
{
	if (l->c) {
		mg_need(l, MG_KIDS, &a->kids[l->cur]);
		return;
	}
	mg_record(a, l);
}

/* The edge loop's test: compare the next reference base, or go down. */
static void mg_edge(const struct mg_args *a, struct mg_lane *l)
{
	if (l->refpos <= l->nend && l->c)
		mg_need(l, MG_REF, a->ref + l->refpos);
	else
		mg_down(a, l);
}

/* The lane has its load: run on to its next one. */
static void mg_advance(const struct mg_args *a, struct mg_lane *l)
{
	unsigned int b;

	switch (l->at) {
	case MG_C0:
		l->c = (char)l->v[0];
		l->refpos = 0;
		mg_down(a, l);
		break;
	case MG_KIDS:
		b = mg_base(l->c);
		l->prev = l->cur;
		l->cur = b < 4 ? l->v[b] : 0;
		if (!l->cur) {
			/* no edge out of the node */
			mg_result(l, l->prev, 0);
			l->qml--;
			l->mustmatch = 0;
			mg_need(l, MG_SUF, &a->nodes[l->prev]);
			break;
		}
		mg_need(l, MG_NODE, &a->nodes[l->cur]);
		break;
	case MG_NODE:
		l->nstart = l->v[0];
		l->nend = l->v[1];
		if (l->mustmatch) {
			int64_t el = l->nend - l->nstart + 1;

			l->refpos = l->nstart + l->mustmatch < l->nend + 1 ?
				    l->nstart + l->mustmatch : l->nend + 1;
			l->qml += el < l->mustmatch ? el : l->mustmatch;
			l->mustmatch = l->mustmatch > el ? l->mustmatch - el : 0;
		} else {
			/* the edge's first base is the one that chose it */
			l->qml++;
			l->refpos = l->nstart + 1;
		}
		mg_need(l, MG_C1, a->qry + l->qaddr + l->s + l->qml);
		break;
	case MG_C1:
	case MG_C2:
		l->c = (char)l->v[0];
		mg_edge(a, l);
		break;
	case MG_REF:
		if ((char)l->v[0] != l->c) {
			/* mismatch on the edge */
			mg_record(a, l);
			break;
		}
		l->qml++;
		l->refpos++;
		mg_need(l, MG_C2, a->qry + l->qaddr + l->s + l->qml);
		break;
	case MG_SUF:
		l->cur = l->v[2];
		l->s++;
		l->res++;
		mg_start(a, l);
		break;
	default:
		break;
	}
}

/* Warp @w's loads of this step, one for each place its lanes are at. */
static bool mg_issue(struct ng_warp *w, struct mg_lane *ln)
{
	uint32_t mask = w->active;
	bool any = false;

	for (unsigned int at = MG_C0; at < MG_NAT; at++) {
		uintptr_t addr[NG_WARP] = { 0 };
		uint8_t buf[NG_WARP * 16];
		uint32_t act = 0;

		for (unsigned int l = 0; l < w->nlanes; l++)
			if (ln[l].at == at) {
				act |= 1u << l;
				addr[l] = ln[l].addr;
			}
		if (!act)
			continue;
		ng_warp_compute(w, MG_INSTS);
		w->active = act;
		ng_ld(w, addr, mg_size[at], buf);
		for (unsigned int l = 0; l < w->nlanes; l++) {
			if (!(act & (1u << l)))
				continue;
			memset(ln[l].v, 0, sizeof(ln[l].v));
			memcpy(ln[l].v, buf + l * mg_size[at], mg_size[at]);
		}
		any = true;
	}
	w->active = mask;
	return any;
}

/* The coordinates the warp's lanes set in this step. */
static void mg_store(struct ng_warp *w, const struct mg_args *a,
		     struct mg_lane *ln)
{
	struct mg_coord val[NG_WARP];
	uintptr_t addr[NG_WARP] = { 0 };
	uint32_t mask = w->active, act = 0;

	for (unsigned int l = 0; l < w->nlanes; l++) {
		if (!ln[l].st)
			continue;
		act |= 1u << l;
		addr[l] = (uintptr_t)&a->coords[ln[l].res];
		val[l] = ln[l].out;
		ln[l].st = false;
	}
	if (!act)
		return;
	w->active = act;
	ng_st(w, addr, sizeof(val[0]), val);
	w->active = mask;
}

static void mg_kernel(struct ng_block *b, void *p)
{
	const struct mg_args *a = p;
	struct mg_lane ln[MG_WARPS][NG_WARP];
	struct ng_warp w[MG_WARPS];
	int32_t qa[MG_WARPS][NG_WARP], ql[MG_WARPS][NG_WARP];
	unsigned int nw = 0;
	bool more = true;

	/* qlen = queryLengths[qryid]; qryAddr = queryAddrs[qryid] */
	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint64_t i0;

		ng_warp_get(b, wi, &w[wi]);
		if (!wlc_lanes(&w[wi], a->nq, MG_BLOCK, &i0))
			break;
		ng_ld_contig(&w[wi], a->lens + i0, 4, ql[wi]);
		ng_ld_contig(&w[wi], a->addrs + i0, 4, qa[wi]);
		nw++;
	}
	for (unsigned int wi = 0; wi < nw; wi++) {
		uint64_t i0 = b->id * MG_BLOCK + w[wi].tid0;

		ng_warp_wait(&w[wi]);
		for (unsigned int l = 0; l < w[wi].nlanes; l++) {
			struct mg_lane *x = &ln[wi][l];

			memset(x, 0, sizeof(*x));
			x->qaddr = qa[wi][l];
			x->last = ql[wi][l] - MG_MIN;
			/* MATCH_BASE: qryAddr - qryid * (min_match_len + 1) */
			x->res = (uint32_t)(qa[wi][l] - (int64_t)(i0 + l) *
					    (MG_MIN + 1));
			mg_start(a, x);
		}
	}
	while (more) {
		more = false;
		for (unsigned int wi = 0; wi < nw; wi++)
			more |= mg_issue(&w[wi], ln[wi]);
		for (unsigned int wi = 0; wi < nw && more; wi++) {
			ng_warp_wait(&w[wi]);
			for (unsigned int l = 0; l < w[wi].nlanes; l++)
				mg_advance(a, &ln[wi][l]);
			mg_store(&w[wi], a, ln[wi]);
		}
	}
}

struct mg_fill {
	uint32_t *dst;
	const uint32_t *src;
	uint64_t words;
};

/* Untimed: an input array from the host, a thread per word. */
static void mg_fill(struct ng_block *b, void *p)
{
	const struct mg_fill *f = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t i0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, f->words, MG_BLOCK, &i0))
			break;
		ng_st_contig(&w, f->dst + i0, 4, f->src + i0);
	}
}

/* A device array of @bytes (a multiple of 4) holding @src. */
static int mg_put(struct wlc *c, struct ng_buf *b, const void *src,
		  uint64_t bytes)
{
	struct mg_fill f = { .src = src, .words = bytes / 4 };
	int ret = wlc_alloc(c, b, bytes, -1);

	f.dst = b->ptr;
	if (!ret && src)
		ret = wlc_launch(c, "mummergpu-init", mg_fill, &f,
				 (f.words + MG_BLOCK - 1) / MG_BLOCK, MG_BLOCK,
				 -1, false);
	return ret;
}

static int mg_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bb[7] = { 0 };
	struct mg_input in = { 0 };
	struct mg_args a = { 0 };
	struct mg_coord *want = NULL;
	uint8_t *len = NULL;
	char *ref = NULL, ok[128], msg[160];
	uint64_t nq = o->size / MG_QREC, n, rb;
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	if (nq < 2 * MG_QLEN || nq > (1ULL << 26)) {
		ng_seterr(err, errlen,
			  "mummergpu: size must hold %u to 2^26 reads of %u bytes",
			  2 * MG_QLEN, MG_QREC);
		return -EINVAL;
	}
	n = nq * MG_NRES;
	ret = mg_make(&in, nq, c.cfg->seed);
	rb = (in.rlen + 3 + 3) / 4 * 4;
	ref = calloc(1, rb);
	want = calloc(n, sizeof(*want));
	len = calloc(n, 1);
	if (ret || !ref || !want || !len) {
		ng_seterr(err, errlen, "mummergpu: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	memcpy(ref, in.ref, in.rlen + 3);
	ret = mg_put(&c, &bb[0], ref, rb);
	if (!ret)
		ret = mg_put(&c, &bb[1], in.qry, nq * MG_QREC);
	if (!ret)
		ret = mg_put(&c, &bb[2], in.addrs, nq * 4);
	if (!ret)
		ret = mg_put(&c, &bb[3], in.lens, nq * 4);
	if (!ret)
		ret = mg_put(&c, &bb[4], in.nodes, in.nnodes * 16);
	if (!ret)
		ret = mg_put(&c, &bb[5], in.kids, in.nnodes * 16);
	if (!ret)
		ret = mg_put(&c, &bb[6], NULL, n * sizeof(struct mg_coord));
	if (ret)
		goto out;
	a = (struct mg_args){ .ref = bb[0].ptr, .qry = bb[1].ptr,
			      .addrs = bb[2].ptr, .lens = bb[3].ptr,
			      .nodes = bb[4].ptr, .kids = bb[5].ptr,
			      .coords = bb[6].ptr, .nq = nq };
	r->elements = nq;
	/* the reads in, their coordinates out */
	r->bytes = (nq * MG_QREC + n * sizeof(struct mg_coord)) * o->iters;
	c.total = o->iters;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "mummergpuKernel", mg_kernel, &a,
				 (nq + MG_BLOCK - 1) / MG_BLOCK, MG_BLOCK, -1,
				 true);
	if (ret)
		goto out;
	wl_collect(sys, r);
	mg_gold(&in, want, len);
	snprintf(ok, sizeof(ok),
		 "%llu reads' match coordinates against a %llu-node suffix tree match the CPU's",
		 (unsigned long long)nq, (unsigned long long)in.nnodes - 1);
	wl_corrupt_u32(o, (uint32_t *)a.coords, 2 * n);
	if (wl_check_u32(r, "coords", (const uint32_t *)a.coords,
			 (const uint32_t *)want, 2 * n, 2 * MG_NRES, ok) &&
	    mg_lengths(&in, len, msg, sizeof(msg))) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify), "%s", msg);
	}
out:
	free(want);
	free(len);
	free(ref);
	for (int i = 6; i >= 0; i--)
		ng_free(c.sp, &bb[i]);
	mg_input_free(&in);
	return ret;
}

const struct ng_workload ng_wl_mummergpu = {
	.name = "mummergpu",
	.desc = "MUMmerGPU (Rodinia mummergpu): a thread per read walks a suffix tree of the reference, suffix links between starts",
	/* 32 Ki reads of 30 bases; a 32 Ki-base reference, ~56 Ki nodes */
	.default_size = 1ULL << 20,
	.default_iters = 1,
	/* reads, coordinates (2.75 per read byte), nodes and children */
	.narrays = 6,
	.run = mg_run,
};
