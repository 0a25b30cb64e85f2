// SPDX-License-Identifier: GPL-2.0
/*
 * alexnet-conv: AlexNet's second convolutional layer (Krizhevsky et al.
 * 2012, as Caffe's bvlc_alexnet defines it: conv2, 96 x 27 x 27 input
 * channels and pixels -> 256 x 27 x 27, 5 x 5 filters, stride 1, padding
 * 2, two groups of 48 input and 128 output channels, a bias per output
 * channel), forward, over a batch of N images. CARVE's Table II runs
 * "AlexNet-ConvNet2" at a 96 MB footprint and says nothing more of it; we
 * read the name as this layer (cuda-convnet2's AlexNet has its conv2 too),
 * whose input, filters and output at a batch of 96 come to 95 MiB.
 *
 * The formulation: a direct tiled convolution, as CUDA code without
 * cuDNN writes it, not Caffe's im2col + GEMM, because im2col writes and
 * re-reads a 25x larger matrix of input patches that cuDNN-era kernels
 * do not, and because the direct kernel keeps the two arrays CARVE's
 * sharing is about apart: the activations, each image's read by its own
 * blocks only, and the filters, read whole by every GPU. A block of 256
 * threads computes TM = 16 output channels over an image's whole 27 x 27
 * output plane; thread t owns pixels t, t + 256 and t + 512 (< 729) of
 * those 16 planes, 48 sums. For each chunk of CC = 4 of its group's input
 * channels the block stages the chunk's 4 input planes (contiguous in
 * NCHW: one flat loop over 2916 floats, block-wide contiguous loads)
 * into a zero-padded 4 x 31 x 31 tile in shared memory and the 16
 * filters' slices of that chunk (16 runs of 100 floats, 1200 floats
 * apart: one flat loop, a warp's 32 addresses as the runs fall) into
 * shared memory as [c][ky][kx][m], so that a thread reads a step's 16
 * weights with four 16-byte broadcast loads; the barrier; each thread
 * adds in_pixel * w for its 3 pixels x 16 channels over the chunk's
 * 4 x 5 x 5 taps; the barrier. Then the bias (16 floats, loaded by
 * threads 0-15 into shared memory before the first barrier) and the
 * block's 16 planes stored, coalesced. 21.8 KB of shared memory: two
 * blocks on an SM of 64 KB. No load's address depends on loaded data,
 * so no warp waits but at the barriers, which wait for the staged loads.
 *
 * Work distribution: the grid is 16 channel tiles (x) by N images (y), so
 * that block ids run image after image and batch scheduling gives each
 * GPU a contiguous slice of the batch, as data-parallel inference splits
 * it. A NUMA-GPU runs the unmodified single-GPU program, so there is one
 * copy of the filters, not one per GPU: an untimed init kernel on GPU 0
 * writes them, as the host's copy of the model to the first device would
 * place them, and every other GPU reads them remotely in every kernel.
 * A second untimed init kernel with the compute grid writes each image's
 * input (a sixteenth per block) and zeroes its output planes where the
 * blocks that use them run (first touch), so activations are local but
 * for pages that straddle two GPUs' slices. The timed kernels are forward
 * passes over the same batch, as `caffe time` measures a layer: the
 * filters' reuse from one kernel to the next is what an RDC keeps and an
 * L2 (smaller than the filters at the scaled regime) does not.
 *
 * Differences: the other layers (conv1's 11 x 11 stride 4, conv3-5's
 * 3 x 3 on 13 x 13) are not built, nor the ReLU (Caffe runs it as a layer
 * of its own, in place) that would hide the sums below zero from the
 * check. Values from the workload's random stream: inputs in [0, 1) as
 * after a ReLU, filters and biases in [-0.5, 0.5). --size is a third of
 * the footprint (input, filters, output); the batch is the images that
 * fit beside the filters. Every output is checked for equality with a CPU
 * reference that sums in the kernel's order (chunks, channels, rows,
 * columns of the filter, ascending; the bias last) with the same float
 * operations.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define CV_C		96	/* input channels */
#define CV_G		2	/* groups */
#define CV_CG		(CV_C / CV_G)
#define CV_M		256	/* output channels */
#define CV_MG		(CV_M / CV_G)
#define CV_H		27	/* input and output side (stride 1, padding 2) */
#define CV_HW		(CV_H * CV_H)
#define CV_K		5
#define CV_KK		(CV_K * CV_K)
#define CV_PAD		2
#define CV_HP		(CV_H + 2 * CV_PAD)	/* padded side: 31 */
#define CV_PLANE	(CV_HP * CV_HP)
/*
 * The sums of one output channel as the host computes them, row stride
 * CV_HP: columns 27-30 of each row are junk, never stored, so that one
 * flat loop of a multiple of 8 covers all the plane's pixels.
 */
#define CV_SPAN		(((CV_H - 1) * CV_HP + CV_H + 7) / 8 * 8)

#define CV_TM		16	/* output channels a block */
#define CV_CC		4	/* input channels a chunk */
#define CV_BLOCK	256
#define CV_WARPS	(CV_BLOCK / NG_WARP)
#define CV_NCHUNK	(CV_CG / CV_CC)
#define CV_TILES	(CV_M / CV_TM)
/* shared: input tile (and the flat loop's overrun), filters, bias */
#define CV_SIN		(CV_CC * CV_PLANE + CV_SPAN)
#define CV_SW		(CV_CC * CV_KK * CV_TM)
#define CV_SHARED	((CV_SIN + CV_SW + CV_TM) * 4)

#define CV_NW		((uint64_t)CV_M * CV_CG * CV_KK)	/* filter weights */
#define CV_WBYTES	((CV_NW + CV_M) * 4)	/* and the biases after them */
#define CV_IN_IMG	((uint64_t)CV_C * CV_HW)
#define CV_OUT_IMG	((uint64_t)CV_M * CV_HW)

/*
 * A thread's arithmetic, in warp instructions (nvcc unrolls the filter's
 * rows and columns, K being a constant). Setup: ids, group and base
 * pointers (12), the 48 sums zeroed (48), the shared tile's zero border
 * (15 stores of a flat loop, 5), the bias's load and store for threads
 * 0-15 (5). A staged input element: channel, row and column from the flat
 * index by two multiply-shift divisions (8), the global and padded shared
 * addresses (3), the load and the store (2), the loop (1). A staged
 * weight: filter and offset (4), the global and transposed shared
 * addresses (4), the load and the store (2), the loop (2). A tap (c, ky,
 * kx) for a thread of px pixels: px shared loads of input (addresses are
 * constant offsets from the thread's base), 4 broadcast 16-byte loads of
 * the 16 weights, px x 16 multiply-adds; 2 more per channel for its loop.
 * An output: the bias's add, the address, the store.
 */
#define CV_INSTS_SETUP	85
#define CV_INSTS_LD_IN	14
#define CV_INSTS_LD_W	12
#define CV_INSTS_CHAN	2
#define CV_INSTS_OUT	3

struct cv_args {
	float *in, *w, *out;	/* w: the filters, then the biases */
	uint64_t n;		/* images */
	uint64_t seed;
};

static float cv_val(uint64_t seed, unsigned int tag, uint64_t i)
{
	return (float)(wlc_hash(wlc_hash(seed * 4 + tag) + i) >> 40) *
	       (1.0f / 16777216.0f);
}

static float cv_in0(uint64_t seed, uint64_t i)
{
	return cv_val(seed, 0, i);
}

/* filters at 0 .. CV_NW - 1, the biases after them */
static float cv_w0(uint64_t seed, uint64_t i)
{
	return cv_val(seed, 1, i) - 0.5f;
}

/*
 * One tap of a filter over an output plane: acc[i] += w * in[i] for the
 * plane's pixels at row stride CV_HP, @in at the tap's offset in the
 * padded input plane. The kernel and the CPU reference both call it, so
 * each sum sees the same operations in the same order.
 */
static inline void cv_tap(float *restrict acc, const float *restrict in,
			  float w)
{
	for (unsigned int i = 0; i < CV_SPAN; i++)
		acc[i] += w * in[i];
}

/* Pixels of the plane a warp's threads own: 3 for most, 2 for the last. */
static unsigned int cv_px(unsigned int wi)
{
	unsigned int px = 0;

	for (unsigned int t = wi * NG_WARP; t < CV_HW; t += CV_BLOCK)
		px++;
	return px;
}

/*
 * Block-wide: @n floats from @v stored at @dst, rounds of 256, thread t
 * element t of each (the init kernels).
 */
static void cv_fill(struct ng_block *b, float *dst, uint64_t n,
		    const struct cv_args *a, float (*gen)(uint64_t, uint64_t),
		    uint64_t i0)
{
	for (uint64_t r = 0; r < n; r += CV_BLOCK)
		for (unsigned int wi = 0; wi < b->nwarps; wi++) {
			uint64_t e = r + (uint64_t)wi * NG_WARP;
			float v[NG_WARP];
			struct ng_warp w;

			if (e >= n)
				break;
			ng_warp_get(b, wi, &w);
			if (n - e < w.nlanes) {
				w.nlanes = (unsigned int)(n - e);
				w.active = (1u << w.nlanes) - 1;
			}
			for (unsigned int l = 0; l < w.nlanes; l++)
				v[l] = gen ? gen(a->seed, i0 + e + l) : 0.0f;
			ng_st_contig(&w, dst + e, 4, v);
		}
}

/*
 * Untimed, the compute grid: block (mt, n) writes a sixteenth of image
 * n's input and zeroes output planes 16 mt .. of image n.
 */
static void cv_init_act(struct ng_block *b, void *p)
{
	const struct cv_args *a = p;
	uint64_t n = b->idx.y, mt = b->idx.x;
	uint64_t part = (CV_IN_IMG + CV_TILES - 1) / CV_TILES;
	uint64_t i0 = n * CV_IN_IMG + mt * part;
	uint64_t cnt = mt * part >= CV_IN_IMG ? 0 :
		       CV_IN_IMG - mt * part < part ? CV_IN_IMG - mt * part : part;

	cv_fill(b, a->in + i0, cnt, a, cv_in0, i0);
	cv_fill(b, a->out + (n * CV_M + mt * CV_TM) * CV_HW,
		(uint64_t)CV_TM * CV_HW, a, NULL, 0);
}

/* Untimed, on GPU 0 alone: 256 of the filters' and biases' floats a block. */
static void cv_init_w(struct ng_block *b, void *p)
{
	const struct cv_args *a = p;
	uint64_t i0 = b->id * CV_BLOCK, nall = CV_NW + CV_M;

	cv_fill(b, a->w + i0, nall - i0 < CV_BLOCK ? nall - i0 : CV_BLOCK, a,
		cv_w0, i0);
}

/*
 * Stage chunk @c0 of the block's group: the 4 input planes into the
 * padded tile, the 16 filters' 100 weights each as [c][ky][kx][m].
 */
static void cv_stage(struct ng_block *b, struct ng_warp *w,
		     const struct cv_args *a, uint64_t n, unsigned int m0,
		     unsigned int c0, float *tin, float *sw)
{
	const unsigned int cb = m0 / CV_MG * CV_CG + c0;
	const float *src = a->in + (n * CV_C + cb) * CV_HW;
	float buf[CV_BLOCK];

	for (unsigned int r = 0; r < CV_CC * CV_HW; r += CV_BLOCK) {
		unsigned int cnt = CV_CC * CV_HW - r < CV_BLOCK ?
				   CV_CC * CV_HW - r : CV_BLOCK;
		const float *v = ng_block_ld_contig_ref(b, src + r, cnt, 4, buf);

		for (unsigned int i = 0; i < cnt; i++) {
			unsigned int e = r + i, c = e / CV_HW, q = e % CV_HW;

			tin[c * CV_PLANE + (q / CV_H + CV_PAD) * CV_HP +
			    q % CV_H + CV_PAD] = v[i];
		}
		for (unsigned int wi = 0; wi * NG_WARP < cnt; wi++)
			ng_warp_compute(&w[wi], CV_INSTS_LD_IN);
	}
	for (unsigned int r = 0; r < CV_SW; r += CV_BLOCK)
		for (unsigned int wi = 0; wi < CV_WARPS; wi++) {
			unsigned int e0 = r + wi * NG_WARP;
			uintptr_t addr[NG_WARP];
			float v[NG_WARP];

			if (e0 >= CV_SW)
				break;
			for (unsigned int l = 0; l < NG_WARP; l++) {
				unsigned int e = e0 + l, m = e / (CV_CC * CV_KK);

				addr[l] = (uintptr_t)(a->w +
					((uint64_t)(m0 + m) * CV_CG + c0) * CV_KK +
					e % (CV_CC * CV_KK));
			}
			ng_ld(&w[wi], addr, 4, v);
			for (unsigned int l = 0; l < NG_WARP; l++) {
				unsigned int e = e0 + l, m = e / (CV_CC * CV_KK);

				sw[e % (CV_CC * CV_KK) * CV_TM + m] = v[l];
			}
			ng_warp_compute(&w[wi], CV_INSTS_LD_W);
		}
}

static void cv_kernel(struct ng_block *b, void *p)
{
	const struct cv_args *a = p;
	const uint64_t n = b->idx.y;
	const unsigned int m0 = b->idx.x * CV_TM;
	float *tin = b->shared, *sw = tin + CV_SIN, *sb = sw + CV_SW;
	/* the block's 48 sums a thread, at the host's row stride */
	float acc[CV_TM][CV_SPAN];
	struct ng_warp w[CV_WARPS];
	float *out = a->out + (n * CV_M + m0) * CV_HW;

	memset(acc, 0, sizeof(acc));
	memset(tin, 0, CV_SIN * 4);
	for (unsigned int wi = 0; wi < CV_WARPS; wi++) {
		ng_warp_get(b, wi, &w[wi]);
		ng_warp_compute(&w[wi], CV_INSTS_SETUP);
	}
	{
		struct ng_warp t = w[0];

		t.nlanes = CV_TM;
		t.active = (1u << CV_TM) - 1;
		ng_ld_contig(&t, a->w + CV_NW + m0, 4, sb);
		w[0].ready = t.ready;
		w[0].seq = t.seq;
	}
	for (unsigned int c0 = 0; c0 < CV_CG; c0 += CV_CC) {
		cv_stage(b, w, a, n, m0, c0, tin, sw);
		ng_block_sync(b);
		/*
		 * Every thread's taps, done here plane by plane: a sum's
		 * operations are the same, in the same order, as its thread's
		 */
		for (unsigned int c = 0; c < CV_CC; c++)
			for (unsigned int k = 0; k < CV_KK; k++)
				for (unsigned int m = 0; m < CV_TM; m++)
					cv_tap(acc[m], tin + c * CV_PLANE +
					       k / CV_K * CV_HP + k % CV_K,
					       sw[(c * CV_KK + k) * CV_TM + m]);
		for (unsigned int wi = 0; wi < CV_WARPS; wi++) {
			unsigned int px = cv_px(wi);

			ng_warp_compute(&w[wi], CV_CC * (CV_KK * (px + CV_TM / 4 +
						px * CV_TM) + CV_INSTS_CHAN));
		}
		ng_block_sync(b);
	}
	for (unsigned int m = 0; m < CV_TM; m++)
		for (unsigned int r = 0; r < CV_HW; r += CV_BLOCK) {
			unsigned int cnt = CV_HW - r < CV_BLOCK ? CV_HW - r : CV_BLOCK;
			float *dst = out + m * CV_HW + r;
			float *view = (float *)((uintptr_t)dst + b->sm->view_delta);

			for (unsigned int i = 0; i < cnt; i++) {
				unsigned int q = r + i;

				view[i] = acc[m][q / CV_H * CV_HP + q % CV_H] + sb[m];
			}
			ng_block_st_contig_done(b, dst, cnt, 4);
		}
	for (unsigned int wi = 0; wi < CV_WARPS; wi++)
		ng_warp_compute(&w[wi], cv_px(wi) * CV_TM * CV_INSTS_OUT);
}

/*
 * The CPU reference, image by image and channel by channel: the padded
 * input plane of each input channel, the taps in the kernel's order.
 */
static int cv_ref(const struct cv_args *a, float *ref)
{
	float *in = calloc(CV_C * CV_PLANE + CV_SPAN, 4);
	float *wt = malloc(CV_WBYTES), acc[CV_SPAN];

	if (!in || !wt) {
		free(in);
		free(wt);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < CV_NW + CV_M; i++)
		wt[i] = cv_w0(a->seed, i);
	for (uint64_t n = 0; n < a->n; n++) {
		for (unsigned int q = 0; q < CV_C * CV_HW; q++)
			in[q / CV_HW * CV_PLANE + (q % CV_HW / CV_H + CV_PAD) * CV_HP +
			   q % CV_H + CV_PAD] = cv_in0(a->seed, n * CV_IN_IMG + q);
		for (unsigned int m = 0; m < CV_M; m++) {
			const float *wm = wt + (uint64_t)m * CV_CG * CV_KK;
			const float *im = in + m / CV_MG * CV_CG * CV_PLANE;
			float *o = ref + (n * CV_M + m) * CV_HW;

			memset(acc, 0, sizeof(acc));
			for (unsigned int c = 0; c < CV_CG; c++)
				for (unsigned int k = 0; k < CV_KK; k++)
					cv_tap(acc, im + c * CV_PLANE +
					       k / CV_K * CV_HP + k % CV_K,
					       wm[c * CV_KK + k]);
			for (unsigned int q = 0; q < CV_HW; q++)
				o[q] = acc[q / CV_H * CV_HP + q % CV_H] + wt[CV_NW + m];
		}
	}
	free(in);
	free(wt);
	return 0;
}

static int cv_verify(struct wlc *c, const struct cv_args *a)
{
	uint64_t total = a->n * CV_OUT_IMG;
	float *ref = malloc(total * 4);

	if (!ref || cv_ref(a, ref)) {
		free(ref);
		ng_seterr(c->err, c->errlen, "alexnet-conv: out of memory");
		return -ENOMEM;
	}
	wl_corrupt_f32(c->o, a->out, total);
	c->r->verified = true;
	snprintf(c->r->verify, sizeof(c->r->verify),
		 "conv2 of %llu images (96x27x27 -> 256x27x27, 5x5, 2 groups) equals the CPU reference",
		 (unsigned long long)a->n);
	for (uint64_t i = 0; i < total; i++) {
		uint64_t q = i % CV_HW, nm = i / CV_HW;

		/* exact: the same operations in the same order */
		if (a->out[i] == ref[i])
			continue;
		c->r->verified = false;
		snprintf(c->r->verify, sizeof(c->r->verify),
			 "out[%llu][%llu][%llu][%llu] = %g, the CPU reference says %g",
			 (unsigned long long)(nm / CV_M),
			 (unsigned long long)(nm % CV_M),
			 (unsigned long long)(q / CV_H),
			 (unsigned long long)(q % CV_H), (double)a->out[i],
			 (double)ref[i]);
		break;
	}
	free(ref);
	return 0;
}

/* The timed kernel, with its shared memory (which bounds resident blocks). */
static int cv_launch(struct wlc *c, struct cv_args *a)
{
	struct ng_launch l = {
		.name = "alexnet-conv", .fn = cv_kernel, .args = a,
		.grid = { CV_TILES, (unsigned int)a->n },
		.block = { CV_BLOCK, 1 }, .only_gpu = -1, .shared = CV_SHARED,
	};
	struct ng_launch_result lr;
	int ret = ng_launch(c->sys, &l, &lr);

	if (ret) {
		ng_seterr(c->err, c->errlen, "alexnet-conv: launch failed: %s",
			  strerror(-ret));
		return ret;
	}
	wl_add_time(c->r, &lr);
	wl_progress(c->o, ++c->done, c->total);
	return 0;
}

static int cv_run(struct ng_system *sys, const struct ng_bench_opts *o,
		  struct ng_bench_result *r, char *err, size_t errlen)
{
	struct ng_buf bi = { 0 }, bw = { 0 }, bo = { 0 };
	struct cv_args a = { 0 };
	struct wlc c;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	if (o->size > UINT64_MAX / 3 ||
	    3 * o->size < CV_WBYTES + 4 * (CV_IN_IMG + CV_OUT_IMG)) {
		ng_seterr(err, errlen,
			  "alexnet-conv: size must hold a third of the filters (%llu bytes) and one image's input and output (%llu bytes)",
			  (unsigned long long)CV_WBYTES,
			  (unsigned long long)(4 * (CV_IN_IMG + CV_OUT_IMG)));
		return -EINVAL;
	}
	a.n = (3 * o->size - CV_WBYTES) / (4 * (CV_IN_IMG + CV_OUT_IMG));
	if (a.n > UINT32_MAX) {
		ng_seterr(err, errlen, "alexnet-conv: a batch of at most %u images",
			  UINT32_MAX);
		return -EINVAL;
	}
	if (c.cfg->shared_bytes < CV_SHARED) {
		ng_seterr(err, errlen,
			  "alexnet-conv: a block needs %u bytes of shared memory (shared = %llu)",
			  CV_SHARED, (unsigned long long)c.cfg->shared_bytes);
		return -EINVAL;
	}
	a.seed = c.cfg->seed;
	ret = wlc_alloc(&c, &bi, a.n * CV_IN_IMG * 4, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bw, CV_WBYTES, -1);
	if (!ret)
		ret = wlc_alloc(&c, &bo, a.n * CV_OUT_IMG * 4, -1);
	if (ret)
		goto out;
	a.in = bi.ptr;
	a.w = bw.ptr;
	a.out = bo.ptr;
	r->elements = a.n * CV_OUT_IMG;
	/* a block: its group's input planes, its filters, its output planes */
	r->bytes = 4ULL * a.n * CV_TILES *
		   (CV_CG * CV_HW + CV_TM * CV_CG * CV_KK + CV_TM + CV_TM * CV_HW) *
		   o->iters;
	c.total = o->iters;
	ret = wlc_launch_2d(&c, "alexnet-conv-init", cv_init_act, &a,
			    (struct ng_dim){ CV_TILES, (unsigned int)a.n },
			    (struct ng_dim){ CV_BLOCK, 1 }, -1, false);
	if (!ret)
		ret = wlc_launch(&c, "alexnet-conv-weights", cv_init_w, &a,
				 (CV_NW + CV_M + CV_BLOCK - 1) / CV_BLOCK,
				 CV_BLOCK, 0, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = cv_launch(&c, &a);
	if (ret)
		goto out;
	wl_collect(sys, r);
	ret = cv_verify(&c, &a);
out:
	ng_free(c.sp, &bo);
	ng_free(c.sp, &bw);
	ng_free(c.sp, &bi);
	return ret;
}

const struct ng_workload ng_wl_alexnet_conv = {
	.name = "alexnet-conv",
	.desc = "AlexNet's conv2 layer (5x5, 96 -> 256 channels, 27x27): direct tiled convolution, filters shared by every GPU, batch split",
	.default_size = 2ULL << 20,	/* a batch of 4: one image a GPU */
	.paper_footprint = 96ULL << 20,	/* a batch of 96 */
	.paper_ref = "CARVE Table II: AlexNet-ConvNet2 96 MB (read as conv2; no batch given)",
	.default_iters = 4,
	.narrays = 3,
	.run = cv_run,
};
