// SPDX-License-Identifier: GPL-2.0
/*
 * The sharing profile (ngemu/model/sharing.h): per line and per page of the
 * address space, which GPUs read and wrote it and how often, and how often
 * remotely. It is a measurement, not hardware: it routes nothing and costs
 * no modeled time. Atomic updates add up the same in any order, so it is
 * as deterministic as the rest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/model_impl.h"
#include "ngemu/model/model.h"
#include "ngemu/model/sharing.h"
#include "ngemu/util/err.h"
#include "util/util.h"

struct unit {
	_Atomic uint32_t who;		/* readers (low 16 bits), writers (high) */
	_Atomic uint32_t all;
	_Atomic uint32_t remote;
};

struct sharing {
	struct ng_space *sp;
	unsigned int shift[NG_NGRAIN];
	uint64_t n[NG_NGRAIN];
	struct unit *u[NG_NGRAIN];
	size_t bytes[NG_NGRAIN];
};

extern const struct ng_component ng_sharing_component;

static void sharing_destroy(void *priv)
{
	struct sharing *s = priv;

	if (!s)
		return;
	for (unsigned int g = 0; g < NG_NGRAIN; g++)
		ng_table_free(s->u[g], s->bytes[g]);
	free(s);
}

static int sharing_create(struct ng_model *m, void **priv, char *err,
			  size_t errlen)
{
	struct sharing *s = calloc(1, sizeof(*s));

	if (!s)
		goto nomem;
	s->sp = m->space;
	s->shift[NG_GRAIN_LINE] = (unsigned int)__builtin_ctz(m->cfg->line);
	s->shift[NG_GRAIN_PAGE] = m->space->page_shift;
	for (unsigned int g = 0; g < NG_NGRAIN; g++) {
		s->n[g] = m->space->size >> s->shift[g];
		s->bytes[g] = s->n[g] * sizeof(struct unit);
		s->u[g] = ng_table_alloc(s->bytes[g]);
		if (!s->u[g])
			goto nomem;
	}
	*priv = s;
	return 0;
nomem:
	sharing_destroy(s);
	ng_seterr(err, errlen, "out of memory for the sharing profile");
	return -ENOMEM;
}

static void sharing_route(void *priv, struct ng_sm *sm, struct ng_req *r)
{
	struct sharing *s = priv;
	uint64_t off = r->line - (uintptr_t)s->sp->base;
	uint32_t bit = 1u << (r->gpu + (r->op == NG_OP_LOAD ? 0 : 16));
	bool remote = r->home != r->gpu;

	(void)sm;
	for (unsigned int g = 0; g < NG_NGRAIN; g++) {
		struct unit *u = &s->u[g][off >> s->shift[g]];

		if (!(atomic_load_explicit(&u->who, memory_order_relaxed) & bit))
			atomic_fetch_or_explicit(&u->who, bit, memory_order_relaxed);
		atomic_fetch_add_explicit(&u->all, 1, memory_order_relaxed);
		if (remote)
			atomic_fetch_add_explicit(&u->remote, 1,
						  memory_order_relaxed);
	}
}

static void sharing_reset(void *priv)
{
	struct sharing *s = priv;

	/* the kernel gives zero pages back */
	for (unsigned int g = 0; g < NG_NGRAIN; g++)
		(void)madvise(s->u[g], s->bytes[g], MADV_DONTNEED);
}

static enum ng_sharing_class class_of(uint32_t who)
{
	uint32_t users = (who | who >> 16) & 0xffff;

	if (!(users & (users - 1)))
		return NG_SHARE_PRIVATE;
	return who >> 16 ? NG_SHARE_RW : NG_SHARE_READ;
}

int ng_sharing_profile(const struct ng_model *m, struct ng_sharing *out)
{
	const struct sharing *s = ng_model_priv(m, &ng_sharing_component);

	memset(out, 0, sizeof(*out));
	if (!s)
		return -ENOENT;
	for (unsigned int g = 0; g < NG_NGRAIN; g++) {
		/* buffers are allocated from the start of the space */
		uint64_t n = (s->sp->used_max + (1ULL << s->shift[g]) - 1) >>
			     s->shift[g];

		for (uint64_t i = 0; i < n && i < s->n[g]; i++) {
			const struct unit *u = &s->u[g][i];
			uint32_t all = atomic_load_explicit(&u->all,
							    memory_order_relaxed);
			enum ng_sharing_class c;

			if (!all)
				continue;
			c = class_of(atomic_load_explicit(&u->who,
							  memory_order_relaxed));
			out->all[g][c] += all;
			out->remote[g][c] += atomic_load_explicit(&u->remote,
								  memory_order_relaxed);
		}
	}
	return 0;
}

const char *ng_sharing_class_name(enum ng_sharing_class c)
{
	static const char *const names[] = { "private", "read_shared",
					     "rw_shared" };

	return (unsigned int)c < NG_SHARE_NCLASS ? names[c] : "?";
}

static bool sharing_enabled(const struct ng_config *c)
{
	return c->sharing_profile;
}

static const struct ng_key sharing_keys[] = {
	NG_KEY_NUM("sharing-profile", NG_KEY_BOOL, sharing_profile, 0, 0,
		   "keep the sharing profile (CARVE Fig. 4; slows the run)"),
	{ .name = NULL },
};

const struct ng_component ng_sharing_component = {
	.name = "sharing",
	.desc = "the sharing profile: private, read-shared, rw-shared accesses per line and page (a measurement)",
	.keys = sharing_keys,
	.enabled = sharing_enabled,
	.remote_only = false,
	.create = sharing_create,
	.destroy = sharing_destroy,
	.route = sharing_route,
	.reset = sharing_reset,
};
