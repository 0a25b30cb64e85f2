// SPDX-License-Identifier: GPL-2.0
/*
 * bfs-shoc: SHOC's warp-centric BFS (src/cuda/level1/bfs/bfs_kernel.cu,
 * BFS_kernel_warp, after Hong et al., "Accelerating CUDA graph algorithms
 * at maximum warp", PPoPP'11), the kernel MGPUSim's SHOC bfs launches
 * (benchmarks/shoc/bfs: bfs.go, native/kernels.cl), which DualOpt ran.
 * The graph is CSR as SHOC keeps it: edgeArray (numVertices + 1 offsets)
 * and edgeArrayAux (the edges' targets), unsigned ints; a level a vertex
 * (levels[], UINT_MAX while unreached) and an int flag. One kernel a
 * level, `curr` the level it expands: a virtual warp of W_SZ = 32 threads
 * takes a chunk of CHUNK_SZ = 32 consecutive vertices and goes through
 * them one by one, all its lanes reading levels[v]; for a vertex of level
 * curr they read its two offsets, then stride over its neighbours, lane
 * W_OFF taking neighbours W_OFF, W_OFF + 32, ...: each reads its
 * neighbour's level and, where it is UINT_MAX, stores curr + 1 there and
 * 1 in the flag. The host clears the flag before each level and stops
 * after a level that left it clear (SHOC: while (*flag); MGPUSim: up to
 * MaxDepth levels, unlimited by default).
 *
 * Work distribution as MGPUSim launches it (bfs.go, exec): work-groups of
 * 1024 work-items (maxTheadsPerCore; SHOC's CUDA version takes
 * maxThreadsPerBlock, 1024 on its GPUs), as many as cover numVertices
 * threads, W_SZ and CHUNK_SZ 32 whatever the wavefront: a thread per
 * vertex, the vertices of a virtual warp's chunk being its own threads'
 * indices. A 32-lane virtual warp is a warp of the kernel API; under
 * 64-lane wavefronts (the dualopt preset, GCN as MGPUSim's) a wavefront
 * holds two virtual warps and runs both halves' paths: each half counts
 * the instructions of the frontier branch when either half takes it, and
 * of as many neighbour trips as the half with more has.
 *
 * The loads depend on each other as in SHOC: levels[v] decides the
 * branch, the offsets bound the loop, a trip's neighbours address their
 * levels, and a level decides the stores; the next trip and the next
 * vertex come after them in the warp's program, so each waits. The
 * block's warps go through each step together, every warp's loads of a
 * step issued before the first waits for its own, as a GPU's warps
 * overlap; a warp without a frontier vertex at a step waits for the
 * block's others there, which a GPU's warps would not. Two warps (or
 * GPUs) that find one unreached vertex both store curr + 1, the same
 * value, so a run does not depend on the order: no atomics, as SHOC's.
 *
 * The input. SHOC's "random" graph (Graph.cpp, GenerateSimpleKWayGraph)
 * is a k-way tree, every vertex linked to its parent and k children;
 * MGPUSim v3.0.0's generator (graph.go, generate) makes a path of
 * `degree` edges from vertex 0 and leaves every other vertex isolated (64
 * vertices, degree 3 by default), and its bfs sample ships SNAP's
 * Slashdot0902 social network (82,168 vertices, 948,464 directed edges)
 * for -load-graph. DualOpt names no graph or size; it starts the search
 * at a vertex with the most outgoing edges, which only a graph of unequal
 * degrees makes a choice. ngemu stands in for such a graph with
 * Graph500's R-MAT (workloads/inputs, rmat, relabelled as Graph500's
 * reference does: heavy-tailed degrees, the hubs anywhere), simple and
 * symmetric, and starts at its vertex with the most edges (the lowest id
 * among equals). --size is the bytes of levels[]: size / 4 vertices; the
 * default 2^17 (512 KiB of levels) is Graph500's scale 17, the power of
 * two at or above Slashdot0902's vertex count, about 27 edges a vertex
 * (14 MiB of edges). Under MGPUSim's distribution its 128 work-groups
 * fill half of the dualopt preset's 256 CUs.
 *
 * Where ngemu differs: the graph comes from the seed (above), written by
 * an untimed kernel with the compute kernel's grid, so that first touch
 * homes a block's levels, offsets and edges with it (the dualopt preset's
 * pages are round-robin whatever touches them). The flag is on GPU 0,
 * where the host's copies go; the host writes it directly, outside the
 * model, as its cudaMemcpy does. The host stops a search after the level
 * a correct one ends with (the CPU BFS's depth): without coherence a
 * stale copy of levels[] could keep the flag set, and a search not over
 * by then fails the verification. The search runs `iters` times (once by
 * default, as MGPUSim's; SHOC's passes), each but the first after a
 * timed kernel that resets levels[] (SHOC copies them from the host).
 * levels[] must equal a CPU BFS from the same vertex (SHOC's
 * GetVertexLengths: UINT_MAX for an unreached vertex), vertex by vertex.
 */
#include <stdlib.h>

#include "workloads/inputs/graph.h"
#include "workloads/wl.h"

#define BS_BLOCK	1024	/* MGPUSim's maxTheadsPerCore */
#define BS_WARPS	(BS_BLOCK / NG_WARP)
#define BS_W_SZ		32	/* W_SZ: a virtual warp's threads */
#define BS_CHUNK	32	/* CHUNK_SZ: its vertices */
#define BS_INF		UINT32_MAX

_Static_assert(BS_W_SZ == NG_WARP, "a virtual warp is a warp of the kernel API");
_Static_assert(BS_CHUNK == BS_W_SZ, "a thread per vertex: MGPUSim's sizes");

/*
 * Warp instructions, per thread, besides the memory operations (their
 * calls count those): the GCN code MGPUSim runs (benchmarks/shoc/bfs,
 * kernels.disasm, built for fiji), block by block. The start: the
 * arguments' scalar loads, tid / W_SZ and tid % W_SZ by a runtime
 * divisor, v1 and chk_sz (53), then the loop's set-up (12) and the end
 * (1); a warp past the last vertex skips the set-up. A vertex: levels[v]'s address, the compare with curr and the
 * branch (8), the loop's step and test (6). A frontier vertex: the
 * offsets' address, num_nbr, the inner loop's set-up and end (12). A
 * neighbour trip: the edge's and the level's addresses, the compare with
 * UINT_MAX and the branch (13), i += W_SZ and the loop's test (8). A
 * neighbour found: the stores' values and the flag's address (4).
 */
#define BS_INSTS_START	66
#define BS_INSTS_NONE	54
#define BS_INSTS_VERTEX	14
#define BS_INSTS_FRONT	12
#define BS_INSTS_TRIP	21
#define BS_INSTS_FOUND	4

struct bs_args {
	uint32_t *levels, *edge, *aux;	/* edgeArray, edgeArrayAux */
	int32_t *flag;
	const uint32_t *row, *col;	/* the graph, on the host */
	uint64_t n;
	uint32_t src, curr;
	bool wide;			/* 64-lane wavefronts: warps in pairs */
};

/*
 * Lanes [0, n) of @w: those a loop's bound leaves active. Accesses go
 * through this copy; bs_back() hands its arrival time and operation
 * count to @w, so that @w's waits and a wavefront's pairing see them.
 */
static struct ng_warp bs_lanes(const struct ng_warp *w, unsigned int n)
{
	struct ng_warp t = *w;

	t.nlanes = n;
	t.active = n == NG_WARP ? ~0u : (1u << n) - 1;
	return t;
}

static void bs_back(struct ng_warp *w, const struct ng_warp *t)
{
	w->ready = t->ready;
	w->seq = t->seq;
}

/* Lanes [0, n) of @w load n words at @p (n 1: all lanes read one word). */
static const uint32_t *bs_ld(struct ng_warp *w, unsigned int n, const void *p,
			     uint32_t *buf)
{
	struct ng_warp t = bs_lanes(w, n);
	const void *v = ng_ld_contig_ref(&t, p, 4, buf);

	bs_back(w, &t);
	return v;
}

static void bs_st(struct ng_warp *w, unsigned int n, void *p,
		  const uint32_t *buf)
{
	struct ng_warp t = bs_lanes(w, n);

	ng_st_contig(&t, p, 4, buf);
	bs_back(w, &t);
}

/* The chunk of warp @wi of block @b: its first vertex, and how many. */
static unsigned int bs_chunk(const struct bs_args *a, const struct ng_block *b,
			     unsigned int wi, uint64_t *v1)
{
	*v1 = (b->id * BS_BLOCK + (uint64_t)wi * NG_WARP) / BS_W_SZ * BS_CHUNK;
	if (*v1 >= a->n)
		return 0;
	return (unsigned int)(a->n - *v1 < BS_CHUNK ? a->n - *v1 : BS_CHUNK);
}

/*
 * Warp @wi's chunk of levels[] as the host sets them, UINT_MAX but the
 * source's 0, through @w; its vertices' count (0: none) and first in *v1.
 */
static unsigned int bs_put_levels(struct ng_block *b, const struct bs_args *a,
				  unsigned int wi, struct ng_warp *w,
				  uint64_t *v1)
{
	uint32_t lv[NG_WARP];
	unsigned int nv = bs_chunk(a, b, wi, v1);

	if (!nv)
		return 0;
	ng_warp_get(b, wi, w);
	for (unsigned int l = 0; l < nv; l++)
		lv[l] = *v1 + l == a->src ? 0 : BS_INF;
	bs_st(w, nv, a->levels + *v1, lv);
	return nv;
}

/*
 * Untimed, with the kernel's grid: each warp writes its chunk's levels
 * (UINT_MAX, the source 0) and offsets (the last chunk the final one
 * too), then its vertices' edges, 32 a store.
 */
static void bs_init(struct ng_block *b, void *p)
{
	const struct bs_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t v1;
		unsigned int nv = bs_put_levels(b, a, wi, &w, &v1);

		if (!nv)
			break;
		bs_st(&w, nv, a->edge + v1, a->row + v1);
		if (v1 + nv == a->n)
			bs_st(&w, 1, a->edge + a->n, a->row + a->n);
		for (uint64_t e = a->row[v1]; e < a->row[v1 + nv]; e += NG_WARP) {
			uint64_t left = a->row[v1 + nv] - e;

			bs_st(&w, left < NG_WARP ? (unsigned int)left : NG_WARP,
			      a->aux + e, a->col + e);
		}
	}
}

/* Between searches: levels[] as the host sets them, UINT_MAX but the source. */
static void bs_reset(struct ng_block *b, void *p)
{
	const struct bs_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct ng_warp w;
		uint64_t v1;

		if (!bs_put_levels(b, a, wi, &w, &v1))
			break;
	}
}

/* A virtual warp's state at its chunk's current vertex. */
struct bs_warp {
	struct ng_warp w;
	uint64_t v1;
	unsigned int nv;	/* its chunk's vertices (0: none) */
	bool front;		/* the vertex is in the frontier */
	uint32_t beg, end;	/* its neighbours in edgeArrayAux */
	unsigned int trips;	/* its neighbour loop's trips */
	unsigned int n;		/* its lanes with a neighbour this trip */
	uint32_t d[2], nb[NG_WARP], lv[NG_WARP];
};

/* The other half of @wi's wavefront, or @wi itself with 32-lane warps. */
static unsigned int bs_pair(const struct bs_args *a, const struct ng_block *b,
			    unsigned int wi)
{
	return a->wide && (wi ^ 1) < b->nwarps ? wi ^ 1 : wi;
}

/*
 * SHOC's BFS_kernel_warp for level a->curr. Vertex step k of every warp
 * together: its levels[v] loads, then the frontier warps' offsets, then
 * their neighbour trips, each trip's edges, the neighbours' levels once
 * the edges are in, and the stores once the levels are.
 */
static void bs_kernel(struct ng_block *b, void *p)
{
	const struct bs_args *a = p;
	struct bs_warp sw[BS_WARPS];
	unsigned int nw = 0, steps = 0;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		struct bs_warp *s = &sw[wi];

		ng_warp_get(b, wi, &s->w);
		s->nv = bs_chunk(a, b, wi, &s->v1);
		ng_warp_compute(&s->w, s->nv ? BS_INSTS_START : BS_INSTS_NONE);
		if (s->nv) {
			nw = wi + 1;
			if (s->nv > steps)
				steps = s->nv;
		}
	}
	for (unsigned int k = 0; k < steps; k++) {
		unsigned int most = 0;

		for (unsigned int wi = 0; wi < nw; wi++) {
			struct bs_warp *s = &sw[wi];

			s->front = false;
			s->trips = 0;
			if (k >= s->nv)
				continue;
			ng_warp_compute(&s->w, BS_INSTS_VERTEX);
			/* levels[v]: every lane the same word */
			s->d[0] = *bs_ld(&s->w, 1, a->levels + s->v1 + k, s->d);
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct bs_warp *s = &sw[wi];
			const uint32_t *d;

			if (k >= s->nv)
				continue;
			ng_warp_wait(&s->w);
			s->front = s->d[0] == a->curr;
			if (!s->front)
				continue;
			/*
			 * edgeArray[v] and edgeArray[v + 1]: one 8-byte load
			 * (flat_load_dwordx2), the same two words every lane
			 */
			d = bs_ld(&s->w, 2, a->edge + s->v1 + k, s->d);
			s->d[0] = d[0];
			s->d[1] = d[1];
		}
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct bs_warp *s = &sw[wi];

			if (!s->front)
				continue;
			ng_warp_wait(&s->w);
			s->beg = s->d[0];
			s->end = s->d[1];
			s->trips = (s->end - s->beg + BS_W_SZ - 1) / BS_W_SZ;
		}
		/* a wavefront runs the branch and the loop while either half does */
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct bs_warp *s = &sw[wi], *o = &sw[bs_pair(a, b, wi)];
			unsigned int t = s->trips > o->trips ? s->trips : o->trips;

			if (k >= s->nv && k >= o->nv)
				continue;
			if (s->front || o->front)
				ng_warp_compute(&s->w, BS_INSTS_FRONT +
						t * BS_INSTS_TRIP);
			if (s->trips > most)
				most = s->trips;
		}
		for (unsigned int t = 0; t < most; t++) {
			for (unsigned int wi = 0; wi < nw; wi++) {
				struct bs_warp *s = &sw[wi];
				uint32_t j = s->beg + t * BS_W_SZ;
				const uint32_t *nb;

				s->n = 0;
				if (t >= s->trips)
					continue;
				s->n = s->end - j < NG_WARP ? s->end - j : NG_WARP;
				/* v = edgeArrayAux[i + nbr_off] */
				nb = bs_ld(&s->w, s->n, a->aux + j, s->nb);
				if (nb != s->nb)
					memcpy(s->nb, nb, s->n * 4);
			}
			for (unsigned int wi = 0; wi < nw; wi++) {
				struct bs_warp *s = &sw[wi];
				uintptr_t addr[NG_WARP];
				struct ng_warp u;

				if (!s->n)
					continue;
				/* levels[v] needs v */
				ng_warp_wait(&s->w);
				for (unsigned int l = 0; l < s->n; l++)
					addr[l] = (uintptr_t)(a->levels + s->nb[l]);
				u = bs_lanes(&s->w, s->n);
				ng_ld(&u, addr, 4, s->lv);
				bs_back(&s->w, &u);
			}
			for (unsigned int wi = 0; wi < nw; wi++) {
				struct bs_warp *s = &sw[wi];
				uint32_t next[NG_WARP], one[NG_WARP];
				uintptr_t addr[NG_WARP];
				struct ng_warp u;

				if (!s->n)
					continue;
				ng_warp_wait(&s->w);
				u = bs_lanes(&s->w, s->n);
				u.active = 0;
				for (unsigned int l = 0; l < s->n; l++) {
					if (s->lv[l] != BS_INF)
						continue;
					u.active |= 1u << l;
					addr[l] = (uintptr_t)(a->levels + s->nb[l]);
					next[l] = a->curr + 1;
					one[l] = 1;
				}
				if (!u.active)
					continue;
				ng_warp_compute(&u, BS_INSTS_FOUND);
				/* nothing waits for these stores: the kernel's end does */
				ng_st(&u, addr, 4, next);
				for (uint32_t m = u.active; m; m &= m - 1)
					addr[__builtin_ctz(m)] = (uintptr_t)a->flag;
				ng_st(&u, addr, 4, one);
				bs_back(&s->w, &u);
			}
		}
	}
}

/*
 * SHOC's GetVertexLengths: a queue from @src, levels in @ref (UINT_MAX
 * unreached), the deepest in *@depth; the vertices reached and, in
 * *@edges, their edges; or -ENOMEM.
 */
static int64_t bs_cpu(const struct bs_args *a, uint32_t *ref, uint32_t *depth,
		      uint64_t *edges)
{
	uint32_t *q = malloc(a->n * 4);
	uint64_t head = 0, tail = 0;

	if (!q)
		return -ENOMEM;
	for (uint64_t v = 0; v < a->n; v++)
		ref[v] = BS_INF;
	ref[a->src] = 0;
	q[tail++] = a->src;
	*edges = 0;
	while (head < tail) {
		uint32_t v = q[head++];

		*edges += a->row[v + 1] - a->row[v];
		for (uint32_t e = a->row[v]; e < a->row[v + 1]; e++) {
			uint32_t u = a->col[e];

			if (ref[u] == BS_INF) {
				ref[u] = ref[v] + 1;
				q[tail++] = u;
			}
		}
	}
	*depth = ref[q[tail - 1]];
	free(q);
	return (int64_t)tail;
}

static int bs_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bl = { 0 }, be = { 0 }, ba = { 0 }, bf = { 0 };
	struct bs_args a = { 0 };
	struct wl_graph g = { 0 };
	uint64_t nblocks, levels = 0, edges = 0;
	uint32_t *ref = NULL, depth = 0;
	bool unfinished = false;
	int64_t reached;
	struct wlc c;
	char ok[160];
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	a.n = o->size / 4;
	a.wide = c.cfg->warp_width == 64;
	if (a.n < NG_WARP || a.n > 1ULL << 26) {
		ng_seterr(err, errlen, "bfs-shoc: size must hold %u to 2^26 vertices (128 B to 256 MiB of levels)",
			  NG_WARP);
		return -EINVAL;
	}
	ret = wl_graph_make(&g, WL_GRAPH_RMAT, a.n, c.cfg->seed, WL_GRAPH_PERMUTE);
	if (ret) {
		ng_seterr(err, errlen, "bfs-shoc: out of memory");
		return ret;
	}
	a.row = g.row;
	a.col = g.col;
	/* a vertex with the most edges, as DualOpt asks */
	for (uint64_t v = 1; v < a.n; v++)
		if (g.row[v + 1] - g.row[v] > g.row[a.src + 1] - g.row[a.src])
			a.src = (uint32_t)v;
	ref = malloc(a.n * 4);
	reached = ref ? bs_cpu(&a, ref, &depth, &edges) : -ENOMEM;
	if (reached < 0) {
		ng_seterr(err, errlen, "bfs-shoc: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	nblocks = (a.n + BS_BLOCK - 1) / BS_BLOCK;
	/* in the order of SHOC's cudaMallocs */
	ret = wlc_alloc(&c, &bl, a.n * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &be, (a.n + 1) * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &ba, (g.m ? g.m : 1) * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bf, 4, 0);
	if (ret)
		goto out;
	a.levels = bl.ptr;
	a.edge = be.ptr;
	a.aux = ba.ptr;
	a.flag = bf.ptr;
	r->elements = a.n;
	c.total = 0;
	ret = wlc_launch(&c, "bfs-shoc-init", bs_init, &a, nblocks, BS_BLOCK, -1,
			 false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters; it++) {
		if (it) {
			ret = wlc_launch(&c, "bfs-shoc-reset", bs_reset, &a,
					 nblocks, BS_BLOCK, -1, true);
			if (ret)
				goto out;
		}
		/*
		 * A correct search's level depth finds nothing and leaves the
		 * flag clear. A stale copy of levels[] could keep it set: the
		 * host stops there.
		 */
		for (a.curr = 0; a.curr <= depth; a.curr++) {
			/* the host's cudaMemcpy of the flag, outside the model */
			*a.flag = 0;
			ret = wlc_launch(&c, "bfs-shoc", bs_kernel, &a, nblocks,
					 BS_BLOCK, -1, true);
			if (ret)
				goto out;
			levels++;
			if (!*a.flag)
				break;
		}
		unfinished |= *a.flag != 0;
	}
	wl_collect(sys, r);
	r->iters = o->iters;
	/*
	 * Every level reads levels[] once; a search reads each reached
	 * vertex's two offsets, its edges and their levels, and stores its
	 * own level at least once.
	 */
	r->bytes = levels * a.n * 4 +
		   o->iters * ((uint64_t)reached * (8 + 4) + edges * 8);
	snprintf(ok, sizeof(ok),
		 "levels of all %llu vertices match the CPU BFS from vertex %u (%llu levels)",
		 (unsigned long long)a.n, a.src, (unsigned long long)levels);
	wl_corrupt_u32(o, a.levels, a.n);
	if (wl_check_u32(r, "levels", a.levels, ref, a.n, 0, ok) && unfinished) {
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "flag = 1 after level %u, the CPU reference says the search ends there",
			 depth);
	}
out:
	free(ref);
	wl_graph_free(&g);
	ng_free(c.sp, &bf);
	ng_free(c.sp, &ba);
	ng_free(c.sp, &be);
	ng_free(c.sp, &bl);
	return ret;
}

const struct ng_workload ng_wl_bfs_shoc = {
	.name = "bfs-shoc",
	.desc = "SHOC's warp-centric BFS (BFS_kernel_warp): a warp per 32 vertices, its lanes over a vertex's neighbours, one kernel a level",
	.input = "rmat: Graph500's R-MAT, heavy-tailed, from its biggest hub; DualOpt names none (MGPUSim's sample: SNAP Slashdot0902)",
	.default_size = 1ULL << 20,
	.default_iters = 1,
	/* size x 31: levels 1, edgeArray 1, edgeArrayAux 29 (scale 18) */
	.narrays = 31,
	.run = bs_run,
};
