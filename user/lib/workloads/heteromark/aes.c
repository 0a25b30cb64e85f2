// SPDX-License-Identifier: GPL-2.0
/*
 * aes: AES encryption (ECB, in place), after Hetero-Mark's AES as MGPUSim
 * (v3.0.0) runs it (its kernel Encrypt and the benchmark's host code,
 * aes.go). Same work distribution: a 1-D grid of one work-item per 16-byte
 * block, work-groups of 64; work-item t loads block t (one 16-byte load:
 * flat_load_dwordx4 in MGPUSim's GCN3 code), and per round looks each of
 * its 16 state bytes up in the S-box (16 byte loads at data-dependent
 * addresses: a gather), shifts the rows and mixes the columns in
 * registers, and XORs the round key, loaded as one 16-byte load at an
 * address every lane shares (a broadcast); it then stores the block where
 * it was. A warp's 32 lanes read and write 512 contiguous bytes. The key
 * is expanded on the host, as Hetero-Mark does; the S-box and the expanded
 * key are copied to every GPU (aes.go allocates and fills one copy per
 * GPU), so that each block reads the tables of the GPU it runs on: local
 * gathers.
 *
 * Placement as aes.go's on several GPUs (without unified memory): the
 * data is distributed, a band of consecutive pages a GPU (the driver's
 * Distribute()), and each GPU's launch covers the same share of the
 * blocks (its global offset). Here one launch, whose scheduling gives
 * each GPU the same contiguous share (batch, and mgpusim for grids of a
 * multiple of the system's CUs, as the default size's 1024 work-groups on
 * 4 x 64 CUs), and an untimed init kernel on that grid writes each
 * block's plaintext, so first touch homes it on the block's GPU whatever
 * device placement is configured (host placement stays: MGPUSim's
 * unified memory, which is not distributed). Every access a GPU makes is
 * then to its own memory: DualOpt's local-dominated class.
 *
 * Differences: AES-128 (10 rounds) with the FIPS-197 example key 00 01
 * .. 0f, where MGPUSim's kernel is AES-256 (14 rounds, key 00 .. 1f),
 * so a block costs 10/14 of the original's rounds; the rounds' code is
 * the same. The original has no bound check (its sizes are multiples of
 * 64 blocks per GPU); here the last warp may be short. --iters encrypts
 * the buffer that many times (the original once). The plaintext is the
 * workload's random stream.
 *
 * Verified against a CPU AES: every byte of the ciphertext, after the CPU
 * implementation has itself been checked at the start of the run: its
 * S-box table (which the GPUs' copies come from too) against the
 * definition of FIPS-197 5.1.1, then the known-answer vector of FIPS-197
 * Appendix C.1. A disagreement fails the verification.
 */
#include <stdlib.h>

#include "workloads/wl.h"

#define AES_BLOCK	64	/* work-items per work-group, as aes.go */
#define AES_WARPS	(AES_BLOCK / NG_WARP)
#define AES_NK		4	/* key words: AES-128 */
#define AES_NR		(AES_NK + 6)
#define AES_KEYW	(4 * (AES_NR + 1))	/* expanded key words */
/*
 * A work-item's arithmetic, from MGPUSim's GCN3 code of the kernel: the
 * block's index and address and the first AddRoundKey (55), per round
 * the 16 S-box addresses (48), per round but the last ShiftRows (in
 * registers), MixColumns and AddRoundKey (153), then the last
 * AddRoundKey, the packing and the store (38).
 */
#define AES_INSTS_IN	55
#define AES_INSTS_SUB	48
#define AES_INSTS_MIX	153
#define AES_INSTS_OUT	38

/* What each GPU holds a copy of (16-byte aligned round keys). */
struct aes_tab {
	uint8_t sbox[256];
	uint32_t key[AES_KEYW];
};

struct aes_args {
	uint8_t *data;
	struct aes_tab *tab[NG_MAX_GPUS];
	const struct aes_tab *host;	/* what the table kernels copy */
	unsigned int tab_gpu;		/* the copy the table kernel writes */
	uint64_t n;			/* 16-byte blocks */
	uint64_t seed;
};

/* FIPS-197 Figure 7. */
static const uint8_t aes_sbox[256] = {
	0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
	0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
	0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
	0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
	0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
	0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
	0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
	0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
	0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
	0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
	0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
	0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
	0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
	0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
	0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
	0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

/* FIPS-197 Appendix C.1: AES-128. */
static const uint8_t aes_c1_key[16] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};
static const uint8_t aes_c1_pt[16] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};
static const uint8_t aes_c1_ct[16] = {
	0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
	0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a,
};

/* KeyExpansion (FIPS-197 5.2): words big-endian, as the kernel reads them. */
static void aes_expand(const uint8_t *key, unsigned int nk, uint32_t *w)
{
	unsigned int nw = 4 * (nk + 7);
	uint8_t rcon = 1;

	for (unsigned int i = 0; i < nk; i++)
		w[i] = (uint32_t)key[4 * i] << 24 | (uint32_t)key[4 * i + 1] << 16 |
		       (uint32_t)key[4 * i + 2] << 8 | key[4 * i + 3];
	for (unsigned int i = nk; i < nw; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0 || (nk > 6 && i % nk == 4)) {
			if (i % nk == 0)
				t = t << 8 | t >> 24;	/* RotWord */
			t = (uint32_t)aes_sbox[t >> 24] << 24 |
			    (uint32_t)aes_sbox[(t >> 16) & 0xff] << 16 |
			    (uint32_t)aes_sbox[(t >> 8) & 0xff] << 8 |
			    aes_sbox[t & 0xff];
		}
		if (i % nk == 0) {
			t ^= (uint32_t)rcon << 24;
			rcon = (uint8_t)(rcon << 1 ^ (rcon & 0x80 ? 0x1b : 0));
		}
		w[i] = w[i - nk] ^ t;
	}
}

/* The kernel's AddRoundKey: word i's bytes, high first, on column i. */
static void aes_add_key(uint8_t *s, const uint32_t *k)
{
	for (unsigned int i = 0; i < 4; i++)
		for (unsigned int j = 0; j < 4; j++)
			s[4 * i + j] ^= (uint8_t)(k[i] >> (24 - 8 * j));
}

/* Row r of the column-major state rotated left by r. */
static void aes_shift_rows(uint8_t *s)
{
	uint8_t t[16];

	for (unsigned int c = 0; c < 4; c++)
		for (unsigned int r = 0; r < 4; r++)
			t[4 * c + r] = s[4 * ((c + r) % 4) + r];
	memcpy(s, t, 16);
}

static uint8_t aes_xtime(uint8_t v)
{
	return (uint8_t)(v << 1 ^ (v & 0x80 ? 0x1b : 0));
}

/* The kernel's MixColumns: b = 2a, each output a sum of a's and b's. */
static void aes_mix_columns(uint8_t *s)
{
	for (unsigned int i = 0; i < 4; i++) {
		uint8_t a[4], b[4], *o = s + 4 * i;

		for (unsigned int c = 0; c < 4; c++) {
			a[c] = o[c];
			b[c] = aes_xtime(a[c]);
		}
		o[0] = b[0] ^ a[3] ^ a[2] ^ b[1] ^ a[1];
		o[1] = b[1] ^ a[0] ^ a[3] ^ b[2] ^ a[2];
		o[2] = b[2] ^ a[1] ^ a[0] ^ b[3] ^ a[3];
		o[3] = b[3] ^ a[2] ^ a[1] ^ b[0] ^ a[0];
	}
}

/* The CPU AES: one block in place with @nr rounds of the key @w. */
static void aes_encrypt(const uint32_t *w, unsigned int nr, uint8_t *s)
{
	aes_add_key(s, w);
	for (unsigned int r = 1; r <= nr; r++) {
		for (unsigned int i = 0; i < 16; i++)
			s[i] = aes_sbox[s[i]];
		aes_shift_rows(s);
		if (r < nr)
			aes_mix_columns(s);
		aes_add_key(s, w + 4 * r);
	}
}

/* Product in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1. */
static uint8_t aes_gmul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;

	for (; b; b >>= 1, a = aes_xtime(a))
		if (b & 1)
			p ^= a;
	return p;
}

/* S-box entry @x from its definition (FIPS-197 5.1.1): inverse, affine map. */
static uint8_t aes_sbox_def(uint8_t x)
{
	unsigned int inv = 0, s;

	for (unsigned int y = 1; y < 256 && x; y++)
		if (aes_gmul(x, (uint8_t)y) == 1)
			inv = y;
	s = inv ^ 0x63;
	for (unsigned int r = 1; r <= 4; r++)
		s ^= (inv << r | inv >> (8 - r)) & 0xff;
	return (uint8_t)s;
}

/*
 * The CPU AES checked, before it is the reference: its S-box against the
 * definition (a known-answer vector looks up only some of the entries),
 * then FIPS-197 C.1 (AES-128). True if both agree, else false with what
 * disagreed in @msg.
 */
static bool aes_selfcheck(char *msg, size_t len)
{
	uint32_t w[4 * 11];
	uint8_t s[16];
	char hex[33];

	for (unsigned int x = 0; x < 256; x++) {
		uint8_t d = aes_sbox_def((uint8_t)x);

		if (aes_sbox[x] == d)
			continue;
		snprintf(msg, len,
			 "the CPU AES's S-box has 0x%02x at 0x%02x, where FIPS-197 5.1.1 says 0x%02x",
			 aes_sbox[x], x, d);
		return false;
	}
	aes_expand(aes_c1_key, 4, w);
	memcpy(s, aes_c1_pt, 16);
	aes_encrypt(w, 10, s);
	if (!memcmp(s, aes_c1_ct, 16))
		return true;
	for (unsigned int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", s[i]);
	snprintf(msg, len,
		 "the CPU AES-128 gives %s for FIPS-197 C.1, which says 69c4e0d86a7b0430d8cdb78070b4c55a",
		 hex);
	return false;
}

/* Byte i of the plaintext. */
static uint8_t aes_pt(uint64_t seed, uint64_t i)
{
	return (uint8_t)(wlc_hash(seed * 0xae5 + i / 8) >> (8 * (i % 8)));
}

/* Lanes [0, w->nlanes) of @w store @n bytes of @src at @dst, a word a lane. */
static void aes_put(struct ng_warp *w, void *dst, const void *src, unsigned int n)
{
	for (unsigned int o = 0; o < n; o += NG_WARP * 4) {
		unsigned int k = (n - o) / 4 < NG_WARP ? (n - o) / 4 : NG_WARP;
		struct ng_warp t = *w;

		t.nlanes = k;
		t.active = k == NG_WARP ? ~0u : (1u << k) - 1;
		ng_st_contig(&t, (char *)dst + o, 4, (const char *)src + o);
	}
}

/* Untimed, the kernel's grid: each work-item writes its plaintext block. */
static void aes_init(struct ng_block *b, void *p)
{
	const struct aes_args *a = p;

	for (unsigned int wi = 0; wi < b->nwarps; wi++) {
		uint8_t v[NG_WARP * 16];
		struct ng_warp w;
		uint64_t t0;

		ng_warp_get(b, wi, &w);
		if (!wlc_lanes(&w, a->n, AES_BLOCK, &t0))
			break;
		for (unsigned int i = 0; i < w.nlanes * 16; i++)
			v[i] = aes_pt(a->seed, t0 * 16 + i);
		ng_st_contig(&w, a->data + t0 * 16, 16, v);
	}
}

/*
 * Untimed, one launch a GPU on that GPU: a block writes the host's tables
 * to copy tab_gpu, homed there whoever writes it (with --steal a launch's
 * blocks may run on any GPU, even those of an only_gpu launch). Written
 * from its own GPU, so that page migration, which moves a page to the
 * first GPU that reaches it remotely, leaves it there (aes.go copies the
 * tables in from the host).
 */
static void aes_init_tab(struct ng_block *b, void *p)
{
	const struct aes_args *a = p;
	struct ng_warp w;

	ng_warp_get(b, 0, &w);
	aes_put(&w, a->tab[a->tab_gpu], a->host, sizeof(*a->host));
}

/* Every lane XORs the round key at @k: one 16-byte load at one address. */
static void aes_round_key(struct ng_warp *w, const uint32_t *k,
			  uint8_t s[][16])
{
	struct ng_warp one = *w;
	uint32_t kv[4];

	one.nlanes = 1;
	one.active = 1;
	ng_ld_contig(&one, k, 16, kv);
	w->ready = one.ready;
	for (unsigned int l = 0; l < w->nlanes; l++)
		aes_add_key(s[l], kv);
}

/* SubBytes: per state byte, a gather of one byte from the S-box. */
static void aes_sub_bytes(struct ng_warp *w, const uint8_t *sbox,
			  uint8_t s[][16])
{
	for (unsigned int i = 0; i < 16; i++) {
		uintptr_t addr[NG_WARP] = { 0 };
		uint8_t v[NG_WARP];

		for (unsigned int l = 0; l < w->nlanes; l++)
			addr[l] = (uintptr_t)(sbox + s[l][i]);
		ng_ld(w, addr, 1, v);
		for (unsigned int l = 0; l < w->nlanes; l++)
			s[l][i] = v[l];
	}
}

/*
 * The block's warps go through the rounds together, as its SM issues
 * them: each round's S-box addresses are the state's bytes, so a warp
 * waits for what its state came from (its blocks and the first key, or
 * the last round's gathers and key) before it gathers; every warp has its
 * loads of a round in flight before the block's first wait for them.
 */
static void aes_kernel(struct ng_block *b, void *p)
{
	const struct aes_args *a = p;
	/* the tables of the GPU this block runs on, as aes.go's per-GPU copies */
	const struct aes_tab *tab = a->tab[b->sm->gpu];
	uint8_t s[AES_WARPS][NG_WARP][16];
	struct ng_warp w[AES_WARPS];
	uint64_t t0[AES_WARPS];
	unsigned int nw;

	for (nw = 0; nw < b->nwarps; nw++) {
		ng_warp_get(b, nw, &w[nw]);
		if (!wlc_lanes(&w[nw], a->n, AES_BLOCK, &t0[nw]))
			break;
		ng_ld_contig(&w[nw], a->data + t0[nw] * 16, 16, s[nw]);
		aes_round_key(&w[nw], tab->key, s[nw]);
	}
	for (unsigned int r = 1; r <= AES_NR; r++)
		for (unsigned int wi = 0; wi < nw; wi++) {
			struct ng_warp *x = &w[wi];

			ng_warp_wait(x);
			/*
			 * what needs the state: the first AddRoundKey, or the
			 * last round's MixColumns and AddRoundKey
			 */
			ng_warp_compute(x, r == 1 ? AES_INSTS_IN : AES_INSTS_MIX);
			ng_warp_compute(x, AES_INSTS_SUB);
			aes_sub_bytes(x, tab->sbox, s[wi]);
			for (unsigned int l = 0; l < x->nlanes; l++) {
				aes_shift_rows(s[wi][l]);
				if (r < AES_NR)
					aes_mix_columns(s[wi][l]);
			}
			aes_round_key(x, tab->key + 4 * r, s[wi]);
		}
	for (unsigned int wi = 0; wi < nw; wi++) {
		ng_warp_compute(&w[wi], AES_INSTS_OUT);
		ng_st_contig(&w[wi], a->data + t0[wi] * 16, 16, s[wi]);
	}
}

/* --corrupt-one: flip every bit of the middle byte of the ciphertext. */
static void aes_corrupt(const struct ng_bench_opts *o, uint8_t *got, uint64_t n)
{
	if (o->corrupt && n)
		got[n / 2] ^= 0xff;
}

/* The ciphertext against the CPU's, byte by byte, worded as wl_check_f32. */
static bool aes_check(struct ng_bench_result *r, const uint8_t *got,
		      const uint8_t *want, uint64_t n, const char *ok)
{
	for (uint64_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify),
			 "ciphertext[%llu] = 0x%02x, the CPU reference says 0x%02x",
			 (unsigned long long)i, got[i], want[i]);
		return false;
	}
	r->verified = true;
	snprintf(r->verify, sizeof(r->verify), "%s", ok);
	return true;
}

/* The CPU reference: the plaintext through @iters encryptions. */
static uint8_t *aes_ref(const struct aes_args *a, unsigned int iters)
{
	uint8_t *ref = malloc(a->n * 16);

	if (!ref)
		return NULL;
	for (uint64_t i = 0; i < a->n * 16; i++)
		ref[i] = aes_pt(a->seed, i);
	for (uint64_t k = 0; k < a->n; k++)
		for (unsigned int it = 0; it < iters; it++)
			aes_encrypt(a->host->key, AES_NR, ref + 16 * k);
	return ref;
}

static int aes_alloc(struct wlc *c, struct aes_args *a, struct ng_buf *bd,
		     struct ng_buf *bt)
{
	int ret = wlc_alloc_dist(c, bd, a->n * 16);

	for (unsigned int g = 0; g < c->cfg->gpus && !ret; g++) {
		ret = wlc_alloc(c, &bt[g], sizeof(struct aes_tab), (int)g);
		a->tab[g] = bt[g].ptr;
	}
	a->data = bd->ptr;
	return ret;
}

static int aes_run(struct ng_system *sys, const struct ng_bench_opts *o,
		   struct ng_bench_result *r, char *err, size_t errlen)
{
	struct wlc c;
	struct ng_buf bd = { 0 }, bt[NG_MAX_GPUS] = { { 0 } };
	struct aes_args a = { 0 };
	struct aes_tab host;
	uint8_t *ref = NULL;
	uint64_t nblocks;
	char self[160], ok[160];
	bool self_ok;
	int ret;

	wlc_init(&c, sys, o, r, err, errlen);
	/* the CPU implementation first: the reference must be AES */
	self_ok = aes_selfcheck(self, sizeof(self));
	a.n = o->size / 16;
	a.seed = c.cfg->seed;
	if (a.n < AES_BLOCK) {
		ng_seterr(err, errlen, "aes: size must hold %u blocks of 16 bytes (%u bytes) at least",
			  AES_BLOCK, AES_BLOCK * 16);
		return -EINVAL;
	}
	memcpy(host.sbox, aes_sbox, sizeof(host.sbox));
	aes_expand(aes_c1_key, AES_NK, host.key);
	a.host = &host;
	nblocks = (a.n + AES_BLOCK - 1) / AES_BLOCK;
	ret = aes_alloc(&c, &a, &bd, bt);
	if (ret)
		goto out;
	r->elements = a.n;
	/* every block read and written; the tables' reads are not counted */
	r->bytes = 32 * a.n * o->iters;
	c.total = o->iters;
	ret = wlc_launch(&c, "aes-init", aes_init, &a, nblocks, AES_BLOCK, -1, false);
	for (a.tab_gpu = 0; a.tab_gpu < c.cfg->gpus && !ret; a.tab_gpu++)
		ret = wlc_launch(&c, "aes-tables", aes_init_tab, &a, 1, NG_WARP,
				 (int)a.tab_gpu, false);
	if (ret)
		goto out;
	ng_system_reset_counters(sys);
	for (unsigned int it = 0; it < o->iters && !ret; it++)
		ret = wlc_launch(&c, "aes", aes_kernel, &a, nblocks, AES_BLOCK, -1, true);
	wl_collect(sys, r);
	if (ret)
		goto out;
	ref = aes_ref(&a, o->iters);
	if (!ref) {
		ret = -ENOMEM;
		ng_seterr(err, errlen, "aes: out of memory");
		goto out;
	}
	snprintf(ok, sizeof(ok),
		 "%llu blocks through %u AES-128 encryption(s) match the CPU AES (checked: FIPS-197 C.1, its S-box by 5.1.1)",
		 (unsigned long long)a.n, o->iters);
	aes_corrupt(o, a.data, a.n * 16);
	if (self_ok) {
		aes_check(r, a.data, ref, a.n * 16, ok);
	} else {
		/* a reference that is not AES verifies nothing */
		r->verified = false;
		snprintf(r->verify, sizeof(r->verify), "%s", self);
	}
out:
	free(ref);
	for (unsigned int g = 0; g < NG_MAX_GPUS; g++)
		ng_free(c.sp, &bt[g]);
	ng_free(c.sp, &bd);
	return ret;
}

const struct ng_workload ng_wl_aes = {
	.name = "aes",
	.desc = "Hetero-Mark AES-128: a work-item per 16-byte block, S-box gathers from per-GPU tables",
	.default_size = 1ULL << 20,
	.paper_footprint = 64ULL << 10,
	.paper_ref = "MGPUSim's default AES length, 64 KB (DualOpt gives no size)",
	.default_iters = 1,
	.narrays = 1,
	.run = aes_run,
};
