// SPDX-License-Identifier: GPL-2.0
/*
 * mummergpu's CPU side: the generated reference and reads, the suffix
 * tree in Rodinia's node and children arrays, Rodinia's kernel_gold (the
 * kernel's walk, written as its sequential C++ is) and a check of the
 * walk's match lengths without the tree: every start's longest match of
 * MG_MIN bases or more, found from a sorted table of the reference's
 * MG_MIN-base words.
 *
 * Rodinia builds the tree with Ukkonen's algorithm (suffix-tree.cpp) on
 * the reference "s" + bases + "$", renumbers it (RENUMBER_TREE) and lays
 * it out in 2-D textures blocked for the texture cache (REORDER_TREE).
 * Here the tree is Ukkonen's too, on the same string, its nodes numbered
 * breadth first from the root (1; 0 is "no node") in two linear arrays.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/rodinia/mummergpu.h"

#define UK_LEAF	UINT32_MAX	/* a leaf's edge ends with the string */

struct ukk {
	const char *t;
	uint32_t *start, *end, *link, (*ch)[5];
	uint32_t n;
};

static uint32_t uk_new(struct ukk *u, uint32_t s, uint32_t e)
{
	uint32_t v = u->n++;

	u->start[v] = s;
	u->end[v] = e;
	u->link[v] = MG_ROOT;
	memset(u->ch[v], 0, sizeof(u->ch[v]));
	return v;
}

/*
 * Ukkonen's online construction over t[1..n): an active point (node,
 * edge start, length), the remaining suffixes to insert, and the suffix
 * link of the last internal node split in this phase set by the next.
 */
static void uk_build(struct ukk *u, uint32_t n)
{
	uint32_t an = MG_ROOT, ae = 0, al = 0, rem = 0;
	const char *t = u->t;

	u->n = MG_ROOT;
	uk_new(u, 0, 0);
	for (uint32_t i = 1; i < n; i++) {
		uint32_t last = 0;

		rem++;
		while (rem) {
			uint32_t v, el, s;
			unsigned int b;

			if (!al)
				ae = i;
			b = mg_base(t[ae]);
			v = u->ch[an][b];
			if (!v) {
				u->ch[an][b] = uk_new(u, i, UK_LEAF);
				if (last)
					u->link[last] = an;
				last = 0;
			} else {
				el = (u->end[v] == UK_LEAF ? i : u->end[v]) -
				     u->start[v] + 1;
				/* skip/count down to the edge the point is on */
				if (al >= el) {
					ae += el;
					al -= el;
					an = v;
					continue;
				}
				if (t[u->start[v] + al] == t[i]) {
					if (last && an != MG_ROOT)
						u->link[last] = an;
					al++;
					break;
				}
				s = uk_new(u, u->start[v], u->start[v] + al - 1);
				u->ch[an][b] = s;
				u->ch[s][mg_base(t[i])] = uk_new(u, i, UK_LEAF);
				u->start[v] += al;
				u->ch[s][mg_base(t[u->start[v]])] = v;
				if (last)
					u->link[last] = s;
				last = s;
			}
			rem--;
			if (an == MG_ROOT && al) {
				al--;
				ae = i - rem + 1;
			} else if (an != MG_ROOT) {
				an = u->link[an];
			}
		}
	}
}

/* Breadth-first ids; the '$' children get ids but no child slot (no read has one). */
static int uk_layout(struct ukk *u, struct mg_input *in, uint32_t n)
{
	uint32_t *id = calloc(u->n, sizeof(*id)), *q = malloc(u->n * 4);
	uint32_t *par = calloc(u->n, sizeof(*par)), head = 0, tail = 0;

	in->nnodes = u->n;
	in->nodes = calloc(u->n, sizeof(*in->nodes));
	in->kids = calloc(u->n, sizeof(*in->kids));
	if (!id || !q || !par || !in->nodes || !in->kids) {
		free(id);
		free(q);
		free(par);
		return -ENOMEM;
	}
	q[tail++] = MG_ROOT;
	id[MG_ROOT] = MG_ROOT;
	while (head < tail) {
		uint32_t v = q[head++];

		for (unsigned int b = 0; b < 5; b++) {
			uint32_t c = u->ch[v][b];

			if (!c)
				continue;
			id[c] = MG_ROOT + tail;
			par[c] = v;
			q[tail++] = c;
		}
	}
	for (uint32_t k = 0; k < tail; k++) {
		uint32_t v = q[k];
		struct mg_node *d = &in->nodes[id[v]];

		d->start = u->start[v];
		d->end = u->end[v] == UK_LEAF ? n - 1 : u->end[v];
		/* the root's link is no node: the walk restarts at the root */
		d->suffix = v == MG_ROOT ? 0 : id[u->link[v]];
		d->parent = v == MG_ROOT ? 0 : id[par[v]];
		for (unsigned int b = 0; b < 4; b++)
			in->kids[id[v]].c[b] = u->ch[v][b] ? id[u->ch[v][b]] : 0;
	}
	free(id);
	free(q);
	free(par);
	return 0;
}

static int mg_tree(struct mg_input *in)
{
	uint32_t n = (uint32_t)in->rlen + 2, cap = 2 * n + 2;
	struct ukk u = { .t = in->ref };
	int ret = -ENOMEM;

	u.start = malloc(cap * 4ULL);
	u.end = malloc(cap * 4ULL);
	u.link = malloc(cap * 4ULL);
	u.ch = malloc(cap * sizeof(*u.ch));
	if (u.start && u.end && u.link && u.ch) {
		uk_build(&u, n);
		ret = uk_layout(&u, in, n);
	}
	free(u.start);
	free(u.end);
	free(u.link);
	free(u.ch);
	return ret;
}

/*
 * A random reference of @nq bases and @nq reads of MG_QLEN, each from a
 * random place in it with about one base in 32 substituted.
 */
int mg_make(struct mg_input *in, uint64_t nq, uint64_t seed)
{
	static const char acgt[] = "ACGT";
	uint64_t r = nq;

	memset(in, 0, sizeof(*in));
	in->rlen = r;
	in->nq = nq;
	in->ref = malloc(r + 3);
	in->qry = malloc(nq * MG_QREC);
	in->addrs = malloc(nq * 4);
	in->lens = malloc(nq * 4);
	if (!in->ref || !in->qry || !in->addrs || !in->lens)
		return -ENOMEM;
	in->ref[0] = 's';
	for (uint64_t i = 0; i < r; i++)
		in->ref[1 + i] = acgt[wlc_hash(seed * 0x100000001ULL + i) & 3];
	in->ref[r + 1] = '$';
	in->ref[r + 2] = '\0';
	for (uint64_t k = 0; k < nq; k++) {
		uint64_t h = wlc_hash(~seed ^ (k << 20));
		uint64_t at = 1 + h % (r - MG_QLEN + 1);
		char *q = in->qry + k * MG_QREC;

		q[0] = 'q';
		for (unsigned int j = 0; j < MG_QLEN; j++) {
			uint64_t m = wlc_hash(h + j);

			q[1 + j] = in->ref[at + j];
			if (!(m & 31))
				q[1 + j] = acgt[(mg_base(q[1 + j]) + 1 +
						 (m >> 5) % 3) & 3];
		}
		q[MG_QLEN + 1] = '\0';
		in->addrs[k] = (int32_t)(k * MG_QREC);
		in->lens[k] = MG_QLEN;
	}
	return mg_tree(in);
}

void mg_input_free(struct mg_input *in)
{
	free(in->ref);
	free(in->qry);
	free(in->addrs);
	free(in->lens);
	free(in->nodes);
	free(in->kids);
	memset(in, 0, sizeof(*in));
}

/* set_result: only matches of at least MG_MIN bases are written */
static void mg_set(struct mg_coord *res, uint8_t *len, uint32_t node,
		   int64_t edge, int64_t qml)
{
	if (qml <= MG_MIN)
		return;
	res->node = node;
	res->edge = (uint32_t)edge;
	*len = (uint8_t)(qml - 1);
}

/* Rodinia's kernel_gold for every read, in its order and with its names */
void mg_gold(const struct mg_input *in, struct mg_coord *out, uint8_t *len)
{
	for (uint64_t k = 0; k < in->nq; k++) {
		const char *qs = in->qry + in->addrs[k];
		int64_t last = in->lens[k] - MG_MIN, mustmatch = 0, qml = 0;
		uint32_t cur = 0, prev = 0;

		for (int64_t s = 0; s <= last; s++) {
			uint64_t at = k * MG_NRES + (uint64_t)s;
			int64_t refpos = 0, nstart = 0, nend;
			char c;

			if (!cur || qml < 1) {
				cur = MG_ROOT;
				qml = 1;
				mustmatch = 0;
			}
			c = qs[s + qml];
			while (c) {
				unsigned int b = mg_base(c);

				prev = cur;
				cur = b < 4 ? in->kids[cur].c[b] : 0;
				if (!cur) {
					mg_set(&out[at], &len[at], prev, 0, qml);
					qml--;
					mustmatch = 0;
					goto next;
				}
				nstart = in->nodes[cur].start;
				nend = in->nodes[cur].end;
				if (mustmatch) {
					int64_t el = nend - nstart + 1;

					refpos = nstart + mustmatch < nend + 1 ?
						 nstart + mustmatch : nend + 1;
					qml += el < mustmatch ? el : mustmatch;
					mustmatch = mustmatch > el ?
						    mustmatch - el : 0;
				} else {
					qml++;
					refpos = nstart + 1;
				}
				c = qs[s + qml];
				while (refpos <= nend && c) {
					if (in->ref[refpos] != c)
						goto record;
					qml++;
					refpos++;
					c = qs[s + qml];
				}
			}
record:
			mg_set(&out[at], &len[at], cur, refpos - nstart, qml);
			mustmatch = refpos - nstart;
			qml -= mustmatch + 1;
next:
			cur = in->nodes[prev].suffix;
		}
	}
}

struct mg_word {
	uint64_t key;		/* MG_MIN bases, 2 bits each */
	uint64_t pos;
};

static int mg_word_cmp(const void *x, const void *y)
{
	const struct mg_word *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static uint64_t mg_key(const char *p)
{
	uint64_t k = 0;

	for (unsigned int j = 0; j < MG_MIN; j++)
		k = k << 2 | (mg_base(p[j]) & 3);
	return k;
}

/* The longest match of @q (@room bases) at a place in @w's list, or 0. */
static unsigned int mg_longest(const struct mg_input *in,
			       const struct mg_word *w, uint64_t nw,
			       const char *q, int room)
{
	uint64_t lo = 0, hi = nw, key = mg_key(q);
	unsigned int best = 0;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (w[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nw && w[lo].key == key; lo++) {
		const char *r = in->ref + w[lo].pos;
		int l = MG_MIN;

		while (l < room && q[l] == r[l])
			l++;
		if ((unsigned int)l > best)
			best = (unsigned int)l;
	}
	return best;
}

int mg_lengths(const struct mg_input *in, const uint8_t *len, char *msg,
	       size_t n)
{
	uint64_t nw = in->rlen - MG_MIN + 1;
	struct mg_word *w = malloc(nw * sizeof(*w));
	int ret = 0;

	if (!w) {
		snprintf(msg, n, "out of memory for the reference's words");
		return -1;
	}
	for (uint64_t p = 0; p < nw; p++)
		w[p] = (struct mg_word){ mg_key(in->ref + 1 + p), 1 + p };
	qsort(w, nw, sizeof(*w), mg_word_cmp);
	for (uint64_t k = 0; k < in->nq && !ret; k++) {
		const char *qs = in->qry + in->addrs[k] + 1;

		for (int s = 0; s <= in->lens[k] - MG_MIN; s++) {
			unsigned int got = len[k * MG_NRES + s];
			unsigned int want = mg_longest(in, w, nw, qs + s,
						       in->lens[k] - s);

			if (got == want)
				continue;
			snprintf(msg, n,
				 "read %llu from base %d: the tree's walk matches %u bases, the reference's %u-base words %u",
				 (unsigned long long)k, s, got, MG_MIN, want);
			ret = -1;
			break;
		}
	}
	free(w);
	return ret;
}
