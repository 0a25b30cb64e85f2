// SPDX-License-Identifier: GPL-2.0
/*
 * saxpy: y = a * x + y on the emulated GPUs, written as a user of libngemu
 * writes a workload: its own main(), only the installed public headers,
 * built with `pkg-config --cflags --libs ngemu`, and verified against the
 * CPU. Every option ngemu takes for a system works here too (--system,
 * --gpus, --placement fgp, --rdc-size 4M, --deterministic, ...).
 *
 *   saxpy [--n N] [--corrupt] [ngemu config options]
 *
 * --corrupt flips one element of y before the check, to show that the
 * check catches it. Exit status: 0 verified, 1 wrong result, 2 bad usage.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ngemu/ngemu.h>

#define BLOCK	256
#define A	2.5f

struct saxpy {
	const float *x;
	float *y;
	uint64_t n;
};

static float x0(uint64_t i)
{
	return (float)(i % 1000) * 0.001f;
}

static float y0(uint64_t i)
{
	return (float)(i % 7);
}

/* Warp @wi of block @b, its lanes cut at the end of y; false past it. */
static bool warp_at(struct ng_block *b, unsigned int wi, uint64_t n,
		    struct ng_warp *w, uint64_t *i0)
{
	*i0 = b->id * BLOCK + wi * NG_WARP;
	if (*i0 >= n)
		return false;
	ng_warp_get(b, wi, w);
	if (n - *i0 < w->nlanes) {
		w->nlanes = (unsigned int)(n - *i0);
		w->active = (1u << w->nlanes) - 1;
	}
	return true;
}

/* One block: BLOCK threads, warp by warp, each lane one element. */
static void saxpy_kernel(struct ng_block *b, void *p)
{
	struct saxpy *s = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float x[NG_WARP], y[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		if (!warp_at(b, wi, s->n, &w, &i0))
			break;
		ng_ld_contig(&w, s->x + i0, 4, x);
		ng_ld_contig(&w, s->y + i0, 4, y);
		for (unsigned int l = 0; l < w.nlanes; l++)
			y[l] = A * x[l] + y[l];
		ng_st_contig(&w, s->y + i0, 4, y);
	}
}

/* The initial values, written by the GPUs (first touch homes the pages). */
static void init_kernel(struct ng_block *b, void *p)
{
	struct saxpy *s = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		float x[NG_WARP], y[NG_WARP];
		struct ng_warp w;
		uint64_t i0;

		if (!warp_at(b, wi, s->n, &w, &i0))
			break;
		for (unsigned int l = 0; l < w.nlanes; l++) {
			x[l] = x0(i0 + l);
			y[l] = y0(i0 + l);
		}
		ng_st_contig(&w, (void *)(s->x + i0), 4, x);
		ng_st_contig(&w, s->y + i0, 4, y);
	}
}

static int usage(const char *msg)
{
	fprintf(stderr, "saxpy: %s\nusage: saxpy [--n N] [--corrupt] [ngemu config options]\n",
		msg);
	return 2;
}

int main(int argc, char **argv)
{
	char *rest[64], err[512];
	struct ng_config cfg;
	struct ng_system *sys;
	struct ng_buf bx, by;
	struct saxpy s = { .n = 1u << 20 };
	struct ng_alloc_opts ao;
	struct ng_launch l = { .name = "saxpy", .block = { BLOCK, 1 },
			       .only_gpu = -1, .args = &s };
	struct ng_launch_result lr;
	struct ng_counters c;
	int nrest = 0, ret = 1;
	bool corrupt = false;

	if (argc > 64)
		return usage("too many arguments");
	if (ng_config_from_args(&cfg, argc, argv, rest,
				(int)(sizeof(rest) / sizeof(rest[0])), &nrest,
				err, sizeof(err)))
		return usage(err);
	for (int i = 0; i < nrest; i++) {
		if (!strcmp(rest[i], "--corrupt")) {
			corrupt = true;
		} else if (!strcmp(rest[i], "--n") && i + 1 < nrest) {
			char *end;

			s.n = strtoull(rest[++i], &end, 10);
			if (*end || !s.n || s.n > (1ULL << 30))
				return usage("--n: not a count (1 to 2^30)");
		} else {
			return usage("unknown argument");
		}
	}
	if (ng_system_create(&sys, &cfg, err, sizeof(err))) {
		fprintf(stderr, "saxpy: %s\n", err);
		return 2;
	}
	ao = (struct ng_alloc_opts){ .place = cfg.placement, .node = cfg.place_node };
	if (ng_malloc(ng_system_space(sys), &bx, s.n * 4, &ao, err, sizeof(err)) ||
	    ng_malloc(ng_system_space(sys), &by, s.n * 4, &ao, err, sizeof(err))) {
		fprintf(stderr, "saxpy: %s\n", err);
		ng_system_destroy(sys);
		return 2;
	}
	s.x = bx.ptr;
	s.y = by.ptr;
	l.grid.x = (unsigned int)((s.n + BLOCK - 1) / BLOCK);
	l.fn = init_kernel;
	if (ng_launch(sys, &l, &lr))
		goto out;
	ng_system_reset_counters(sys);
	l.fn = saxpy_kernel;
	if (ng_launch(sys, &l, &lr))
		goto out;
	ng_system_counters(sys, -1, &c);
	if (corrupt)
		s.y[s.n / 2] += 1.0f;
	ret = 0;
	for (uint64_t i = 0; i < s.n; i++) {
		float want = A * x0(i) + y0(i);

		if (fabsf(s.y[i] - want) > 1e-5f * (fabsf(want) + 1)) {
			printf("saxpy: FAILED: y[%llu] = %g, the CPU says %g\n",
			       (unsigned long long)i, (double)s.y[i], (double)want);
			ret = 1;
			break;
		}
	}
	if (!ret)
		printf("saxpy: verified (%llu elements), modeled %.3f us, %llu line requests, %.1f%% remote\n",
		       (unsigned long long)s.n,
		       (double)lr.modeled / NG_TICKS_PER_NS / 1e3,
		       (unsigned long long)c.v[NG_CTR_REQ],
		       c.v[NG_CTR_REQ] ? 100.0 * (double)c.v[NG_CTR_REMOTE] /
					 (double)c.v[NG_CTR_REQ] : 0);
out:
	ng_free(ng_system_space(sys), &by);
	ng_free(ng_system_space(sys), &bx);
	ng_system_destroy(sys);
	return ret;
}
