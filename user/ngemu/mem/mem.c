// SPDX-License-Identifier: GPL-2.0
/*
 * ngemu mem: create a numagpu.ko buffer with a placement mode, touch it
 * from chosen GPUs (threads pinned to the CPUs of each GPU's node, each
 * through its GPU's own view) and show where every page went: the module's
 * location table, checked against the kernel's page tables (move_pages(2)),
 * and the buffer's counters. With --read-mostly every GPU then reads every
 * page through its view (the module replicates them), with --migrate the
 * buffer moves to a GPU, and with --prefetch it is placed there first.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../commands.h"
#include "../options.h"
#include "mem.h"
#include "ngemu/util/cpulist.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/backend/kbuf.h"
#include "ngemu/backend/topology.h"

static void mem_usage(FILE *out)
{
	fprintf(out,
		"Usage: ngemu mem [OPTIONS]\n"
		"\n"
		"Create a device buffer in numagpu.ko, touch it from chosen GPUs and show\n"
		"where each page was placed. Page p is written by the p-th chosen GPU\n"
		"(round robin), from a thread pinned to that GPU's node, through the\n"
		"GPU's own view. Needs the module (" NUMAGPU_DEVICE_PATH ").\n"
		"\n"
		"Options:\n"
		"  -m, --mode MODE     first-touch (default), fgp, cgp, cgp-chunk, host\n"
		"  -p, --pages N       buffer size in pages (default 4 page groups;\n"
		"                      a page group is one page per GPU); at most %d\n"
		"  -t, --target N      cgp: the GPU (default 0); host: the NUMA node\n"
		"                      (default: the first memory node without a GPU)\n"
		"  -c, --chunk SIZE    cgp-chunk: bytes per chunk, K/M/G suffixes, a\n"
		"                      multiple of the page group (default one group)\n"
		"  -g, --gpus LIST     GPUs that touch, e.g. 0,2-3 (default: all)\n"
		"  -n, --no-touch      create and show only, touch nothing\n"
		"  -f, --fallback      when a node is full, use the nearest other node\n"
		"                      (without it, such a page kills ngemu with SIGBUS)\n"
		"  -r, --read-mostly   after the touch, hint read-mostly and read every\n"
		"                      page from every GPU: each gets a replica\n"
		"  -M, --migrate GPU   at the end, migrate the buffer to GPU\n"
		"  -P, --prefetch GPU  before the touch, prefetch the buffer to GPU\n"
		"      --device PATH   the module's device (default " NUMAGPU_DEVICE_PATH ")\n"
		"  -j, --json          machine-readable output\n"
		"  -h, --help          show this help and exit\n",
		MEM_MAX_PAGES);
}

/* A number with an optional K/M/G (binary) suffix. */
static int parse_u64(const char *s, bool suffix, uint64_t *out)
{
	unsigned int shift = 0;
	char *end;
	uint64_t v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	if (suffix && *end) {
		switch (*end) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		default:
			return -EINVAL;
		}
		end++;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

/*
 * The touchers' start, in read_all mode: open once every thread is
 * running, or abort when one could not be started (the others then return
 * before they meet at the step barrier, which counts them all).
 */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;		/* 0 closed, 1 open, -1 aborted */
};

struct toucher {
	const struct numagpu_topology *topo;
	unsigned int gpu;	/* GPU index */
	unsigned int slot;	/* its place among the chosen GPUs */
	unsigned int nchosen;
	char *view;
	size_t npages;
	long page;
	int err;
	bool read_all;	/* read every page instead of writing its own */
	pthread_barrier_t *step;	/* read_all: the GPUs' passes in step */
	struct gate *gate;		/* read_all: their start */
};

/* Wait for @g to open (true) or abort (false). */
static bool gate_wait(struct gate *g)
{
	int state;

	pthread_mutex_lock(&g->lock);
	while (!g->state)
		pthread_cond_wait(&g->cond, &g->lock);
	state = g->state;
	pthread_mutex_unlock(&g->lock);
	return state > 0;
}

static void gate_set(struct gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void *touch_thread(void *arg)
{
	struct toucher *t = arg;
	const __u64 *mask = t->topo->gpu[t->gpu].cpumask;
	cpu_set_t set;

	if (t->read_all && !gate_wait(t->gate))
		return NULL;
	CPU_ZERO(&set);
	for (unsigned int c = 0; c < NUMAGPU_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (mask[c / 64] & (1ULL << (c % 64)))
			CPU_SET(c, &set);
	if (CPU_COUNT(&set) && sched_setaffinity(0, sizeof(set), &set)) {
		t->err = -errno;
		return NULL;
	}
	if (t->read_all) {
		/*
		 * Twice, all GPUs in step: the first replica of a page written
		 * before revokes every view of it, the second pass maps again.
		 */
		for (int pass = 0; pass < 2; pass++) {
			for (size_t p = 0; p < t->npages; p++)
				(void)*(volatile char *)&t->view[p * t->page];
			pthread_barrier_wait(t->step);
		}
		return NULL;
	}
	for (size_t p = t->slot; p < t->npages; p += t->nchosen)
		t->view[p * t->page] = 1;
	return NULL;
}

/* One run of ngemu mem: its buffer, the GPUs that touch it, the result. */
struct mem_ctx {
	const struct mem_opts *o;
	const struct numagpu_topology *t;
	unsigned int chosen[NUMAGPU_MAX_GPUS], nchosen;
	long page;
	struct ng_kbuf b;
	struct mem_result r;
	struct toucher th[NUMAGPU_MAX_GPUS];
	pthread_t tid[NUMAGPU_MAX_GPUS];
};

/* The GPUs that touch (--gpus, else all). 0, or the usage error's status. */
static int mem_choose(struct mem_ctx *m)
{
	const struct mem_opts *o = m->o;

	for (unsigned int g = 0; g < NUMAGPU_MAX_GPUS; g++) {
		bool want = o->gpus_set ? (o->gpus[0] >> g) & 1 : g < m->t->ngpus;

		if (!want)
			continue;
		if (g >= m->t->ngpus)
			return usage_error("mem", "--gpus: no GPU %u (%u GPUs)",
					   g, m->t->ngpus);
		m->chosen[m->nchosen++] = g;
	}
	return 0;
}

/* The buffer, as the options ask. 0, or -1 after a message. */
static int mem_create(struct mem_ctx *m, struct mem_opts *o)
{
	struct numagpu_buf_create c = { .mode = (uint32_t)o->mode };
	const struct numagpu_topology *t = m->t;
	int dev, e;

	if (!o->pages)
		o->pages = 4ULL * t->ngpus;
	c.size = o->pages * (uint64_t)m->page;
	c.flags = o->fallback ? NUMAGPU_BUF_FALLBACK : 0;
	if (o->mode == NUMAGPU_MODE_CGP)
		c.target = o->target;
	else if (o->mode == NUMAGPU_MODE_HOST)
		c.target = o->target_set ? o->target : NUMAGPU_HOST_AUTO;
	if (o->mode == NUMAGPU_MODE_CGP_CHUNK)
		c.chunk = o->chunk ? o->chunk : (uint64_t)t->ngpus * m->page;

	dev = ng_kbuf_open_device(o->device);
	if (dev < 0) {
		fprintf(stderr, "ngemu mem: %s: %s\n",
			o->device ? o->device : NUMAGPU_DEVICE_PATH,
			strerror(-dev));
		return -1;
	}
	e = ng_kbuf_create(&m->b, dev, &c);
	close(dev);
	if (e) {
		fprintf(stderr, "ngemu mem: cannot create the buffer: %s\n",
			strerror(-e));
		return -1;
	}
	return 0;
}

/* Each chosen GPU writes its pages through its view. 0, or -1 after a message. */
static int mem_touch(struct mem_ctx *m)
{
	int e;

	for (unsigned int i = 0; i < m->nchosen; i++) {
		void *v;

		e = ng_kbuf_map_view(&m->b, m->chosen[i], &v);
		if (e) {
			fprintf(stderr, "ngemu mem: mapping GPU %u's view: %s\n",
				m->chosen[i], strerror(-e));
			return -1;
		}
		m->th[i] = (struct toucher){
			.topo = m->t,
			.gpu = m->chosen[i],
			.slot = i,
			.nchosen = m->nchosen,
			.view = v,
			.npages = m->b.npages,
			.page = m->page,
		};
	}
	for (unsigned int i = 0; i < m->nchosen; i++) {
		e = pthread_create(&m->tid[i], NULL, touch_thread, &m->th[i]);
		if (e) {
			fprintf(stderr, "ngemu mem: thread: %s\n", strerror(e));
			for (unsigned int k = 0; k < i; k++)
				pthread_join(m->tid[k], NULL);
			return -1;
		}
	}
	for (unsigned int i = 0; i < m->nchosen; i++) {
		pthread_join(m->tid[i], NULL);
		if (m->th[i].err)
			fprintf(stderr, "ngemu mem: warning: GPU %u's thread not pinned: %s\n",
				m->chosen[i], strerror(-m->th[i].err));
	}
	return 0;
}

/*
 * --read-mostly: the hint, then every touching GPU reads every page (each
 * gets a replica). 0, or -1 after a message.
 */
static int mem_read_mostly(struct mem_ctx *m)
{
	struct gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	pthread_barrier_t step;
	unsigned int started = 0;
	int e;

	e = ng_kbuf_advise(&m->b, 0, m->b.npages, NUMAGPU_ADVISE_READ_MOSTLY, 0);
	if (e) {
		fprintf(stderr, "ngemu mem: advise: %s\n", strerror(-e));
		return -1;
	}
	m->r.replicas = true;
	if (!m->o->touch || !m->nchosen)
		return 0;
	pthread_barrier_init(&step, NULL, m->nchosen);
	for (unsigned int i = 0; i < m->nchosen; i++) {
		m->th[i].read_all = true;
		m->th[i].step = &step;
		m->th[i].gate = &gate;
		if (pthread_create(&m->tid[i], NULL, touch_thread, &m->th[i]))
			break;
		started++;
	}
	/* cannot happen in practice; fail cleanly */
	gate_set(&gate, started < m->nchosen ? -1 : 1);
	for (unsigned int i = 0; i < started; i++)
		pthread_join(m->tid[i], NULL);
	pthread_barrier_destroy(&step);
	if (started < m->nchosen) {
		fprintf(stderr, "ngemu mem: thread failed\n");
		return -1;
	}
	return 0;
}

/* --migrate: the buffer to a GPU. 0, or -1 after a message. */
static int mem_migrate(struct mem_ctx *m)
{
	uint64_t moved = 0;
	int e;

	e = ng_kbuf_migrate(&m->b, 0, m->b.npages, (unsigned int)m->o->migrate,
			    NUMAGPU_MIGRATE_GPU, &moved);
	if (e) {
		fprintf(stderr, "ngemu mem: migrate: %s\n", strerror(-e));
		return -1;
	}
	m->r.moved += moved;
	/* the touchers' views map the moved pages again */
	for (size_t p = 0; p < m->b.npages; p++)
		if (m->r.toucher[p] >= 0)
			(void)*(volatile char *)((char *)
				m->b.view[m->r.toucher[p]] + p * m->page);
	return 0;
}

/*
 * Where each page is: the module's location table and counters, and the
 * kernel's own answer through the view that touched the page (@addrs, one
 * per page), and where they agree. 0, or -1 after a message.
 */
static int mem_where(struct mem_ctx *m, void **addrs)
{
	struct mem_result *r = &m->r;
	size_t n = m->b.npages;
	int e;

	e = ng_kbuf_loctab_read(&m->b, 0, n, r->loc);
	if (!e)
		e = ng_kbuf_stats(&m->b, &r->st);
	if (e) {
		fprintf(stderr, "ngemu mem: reading the placement: %s\n",
			strerror(-e));
		return -1;
	}
	for (size_t p = 0; p < n; p++) {
		int g = r->toucher[p];

		addrs[p] = g >= 0 ? (char *)m->b.view[g] + p * m->page : NULL;
		r->kernel_node[p] = -ENOENT;
	}
	if (m->o->touch && m->nchosen &&
	    syscall(SYS_move_pages, 0, n, addrs, NULL, r->kernel_node, 0))
		for (size_t p = 0; p < n; p++)
			r->kernel_node[p] = -errno;
	for (size_t p = 0; p < n; p++) {
		int want = r->loc[p].node;

		/* a view that read a replicated page maps its own copy */
		if (r->replicas && r->toucher[p] >= 0 &&
		    (r->loc[p].flags & NUMAGPU_LOC_REPLICATED))
			want = (int)m->t->gpu[r->toucher[p]].node;
		if ((r->loc[p].flags & NUMAGPU_LOC_POPULATED) &&
		    r->kernel_node[p] == want)
			r->agree++;
	}
	return 0;
}

/* Create, touch, read back, print: the command's exit status. */
static int mem_run(struct mem_opts *o)
{
	struct ng_topology topo;
	struct mem_ctx *m;
	struct mem_result *r;
	void **addrs = NULL;
	char err[512];
	int ret = NG_EXIT_FAIL, e;

	if (ng_topology_from_kmod(&topo, o->device, err, sizeof(err))) {
		fprintf(stderr, "ngemu mem: %s\n", err);
		return NG_EXIT_FAIL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		fprintf(stderr, "ngemu mem: out of memory\n");
		return NG_EXIT_FAIL;
	}
	m->o = o;
	m->t = &topo.hw;
	m->page = sysconf(_SC_PAGESIZE);
	r = &m->r;
	ret = mem_choose(m);
	if (ret)
		goto out_ctx;
	ret = NG_EXIT_FAIL;
	if (mem_create(m, o))
		goto out_ctx;

	r->loc = calloc(m->b.npages, sizeof(*r->loc));
	r->kernel_node = calloc(m->b.npages, sizeof(*r->kernel_node));
	r->toucher = calloc(m->b.npages, sizeof(*r->toucher));
	addrs = calloc(m->b.npages, sizeof(*addrs));
	if (!r->loc || !r->kernel_node || !r->toucher || !addrs) {
		fprintf(stderr, "ngemu mem: out of memory\n");
		goto out;
	}
	for (size_t p = 0; p < m->b.npages; p++)
		r->toucher[p] = o->touch && m->nchosen ?
				(int)m->chosen[p % m->nchosen] : -1;
	if (o->prefetch >= 0) {
		e = ng_kbuf_prefetch(&m->b, 0, m->b.npages,
				     (unsigned int)o->prefetch, &r->moved);
		if (e) {
			fprintf(stderr, "ngemu mem: prefetch: %s\n", strerror(-e));
			goto out;
		}
	}
	if (o->touch && mem_touch(m))
		goto out;
	if (o->read_mostly && mem_read_mostly(m))
		goto out;
	if (o->migrate >= 0 && mem_migrate(m))
		goto out;
	if (mem_where(m, addrs))
		goto out;
	if (o->json)
		mem_print_json(o, &m->b, m->t, r);
	else
		mem_print_human(o, &m->b, m->t, r);
	ret = fflush(stdout) ? NG_EXIT_FAIL : NG_EXIT_OK;
out:
	free(addrs);
	free(r->loc);
	free(r->kernel_node);
	free(r->toucher);
	ng_kbuf_destroy(&m->b);
out_ctx:
	free(m);
	return ret;
}

/*
 * Option @c of opts_next() (its value in st->val): -1 to go on, else the
 * command's exit status (--help, a usage error).
 */
static int mem_option(struct mem_opts *o, int c, const struct opts *st)
{
	const char *val = st->val;
	uint64_t v;

	switch (c) {
	case 'm':
		o->mode = ng_kbuf_mode_parse(val);
		if (o->mode < 0)
			return usage_error("mem",
				"--mode: '%s' is not first-touch, fgp, cgp, cgp-chunk or host",
				val);
		break;
	case 'p':
		if (parse_u64(val, false, &o->pages) || !o->pages ||
		    o->pages > MEM_MAX_PAGES)
			return usage_error("mem",
				"--pages: '%s' is not a number from 1 to %d",
				val, MEM_MAX_PAGES);
		break;
	case 't':
		if (parse_u64(val, false, &v) || v >= 0xffffffffULL)
			return usage_error("mem",
				"--target: '%s' is not a GPU or node number",
				val);
		o->target = (uint32_t)v;
		o->target_set = true;
		break;
	case 'c':
		if (parse_u64(val, true, &o->chunk) || !o->chunk)
			return usage_error("mem",
				"--chunk: '%s' is not a size", val);
		break;
	case 'g':
		if (ng_cpulist_parse(val, o->gpus) ||
		    !ng_cpumask_weight(o->gpus))
			return usage_error("mem",
				"--gpus: '%s' is not a GPU list", val);
		o->gpus_set = true;
		break;
	case 'n':
		o->touch = false;
		break;
	case 'f':
		o->fallback = true;
		break;
	case 'r':
		o->read_mostly = true;
		break;
	case 'M':
	case 'P':
		if (parse_u64(val, false, &v) || v >= NUMAGPU_MAX_GPUS)
			return usage_error("mem",
				"--%s: '%s' is not a GPU number",
				c == 'M' ? "migrate" : "prefetch", val);
		if (c == 'M')
			o->migrate = (int)v;
		else
			o->prefetch = (int)v;
		break;
	case 'd':
		o->device = val;
		break;
	case 'j':
		o->json = true;
		break;
	case 'h':
		mem_usage(stdout);
		return NG_EXIT_OK;
	default:
		return opts_error("mem", st, c);
	}
	return -1;
}

/* OPTS_GETOPT: the forms getopt_long() took here, -p4, -nj, "--" */
static const struct opt mem_options[] = {
	{ .name = "mode", .letter = 'm', .value = true, .id = 'm' },
	{ .name = "pages", .letter = 'p', .value = true, .id = 'p' },
	{ .name = "target", .letter = 't', .value = true, .id = 't' },
	{ .name = "chunk", .letter = 'c', .value = true, .id = 'c' },
	{ .name = "gpus", .letter = 'g', .value = true, .id = 'g' },
	{ .name = "no-touch", .letter = 'n', .id = 'n' },
	{ .name = "fallback", .letter = 'f', .id = 'f' },
	{ .name = "read-mostly", .letter = 'r', .id = 'r' },
	{ .name = "migrate", .letter = 'M', .value = true, .id = 'M' },
	{ .name = "prefetch", .letter = 'P', .value = true, .id = 'P' },
	{ .name = "device", .value = true, .id = 'd' },
	{ .name = "json", .letter = 'j', .id = 'j' },
	{ .name = "help", .letter = 'h', .id = 'h' },
	{ 0 }
};

int cmd_mem(int argc, char **argv)
{
	struct opts st = { .table = mem_options, .flags = OPTS_GETOPT,
			   .argc = argc, .argv = argv, .next = 1 };
	struct mem_opts o = { .mode = NUMAGPU_MODE_FIRST_TOUCH, .touch = true,
			      .migrate = -1, .prefetch = -1 };
	const char *extra = NULL;
	int c, ret;

	while ((c = opts_next(&st)) != OPTS_END) {
		/* as getopt did: the options' errors before an operand's */
		if (c == OPTS_OTHER && opts_operand(&st)) {
			extra = extra ? extra : st.arg;
			continue;
		}
		ret = mem_option(&o, c, &st);
		if (ret >= 0)
			return ret;
	}
	if (extra)
		return usage_error("mem", "unexpected argument '%s'", extra);
	if (o.target_set && o.mode != NUMAGPU_MODE_CGP &&
	    o.mode != NUMAGPU_MODE_HOST)
		return usage_error("mem", "--target is for cgp and host");
	if (o.chunk && o.mode != NUMAGPU_MODE_CGP_CHUNK)
		return usage_error("mem", "--chunk is for cgp-chunk");
	for (unsigned int w = 0; w < NUMAGPU_CPUMASK_WORDS; w++)
		if (o.gpus[w] & (w ? ~0ULL : ~0ULL << NUMAGPU_MAX_GPUS))
			return usage_error("mem", "--gpus: GPUs are 0 to %d",
					   NUMAGPU_MAX_GPUS - 1);
	return mem_run(&o);
}
