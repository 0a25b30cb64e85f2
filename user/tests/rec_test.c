// SPDX-License-Identifier: GPL-2.0
/*
 * REC's model request by request: the directory's entry sizes (REC Table 1
 * and section 4.3) and bit packing, every protocol flow with the entry
 * bits and messages it leaves, invalidated L2 lines really gone, the
 * stale read without a directory, and the L1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ng_test.h"

#include "model/directory_entry.h"
#include "ngemu/config.h"
#include "ngemu/model/dir.h"
#include "ngemu/model/model.h"
#include "ngemu/runtime/space.h"

/* ---- entry sizes ------------------------------------------------- */

static unsigned int bits_of(unsigned int gpus, enum ng_directory org,
			    uint64_t range)
{
	struct ng_config c;
	struct ng_dir_geom g;

	if (ng_config_preset(&c, "rec", NULL, 0))
		return 0;
	c.gpus = gpus;
	c.dir.kind = org;
	c.dir.rec_range = range;
	return ng_dir_geometry(&c, &g, NULL, 0) ? 0 : g.bits;
}

TEST(table1_bits_per_entry)
{
	/* REC Table 1: 4 GPUs, 64 B lines, 48-bit tags, valid bit included */
	EXPECT_EQ(52, bits_of(4, NG_DIR_LINE, 64));
	EXPECT_EQ(50, bits_of(4, NG_DIR_REC, 128));
	EXPECT_EQ(57, bits_of(4, NG_DIR_REC, 256));
	EXPECT_EQ(103, bits_of(4, NG_DIR_REC, 1024));
	EXPECT_EQ(293, bits_of(4, NG_DIR_REC, 4096));
	/* section 4.3: 8 and 16 GPUs at 1 KB, and the 8-GPU baseline */
	EXPECT_EQ(167, bits_of(8, NG_DIR_REC, 1024));
	EXPECT_EQ(295, bits_of(16, NG_DIR_REC, 1024));
	EXPECT_EQ(56, bits_of(8, NG_DIR_LINE, 64));
	/* HMG: 4 lines under one 40-bit base, one sharer field */
	EXPECT_EQ(44, bits_of(4, NG_DIR_HMG, 0));
}

TEST(bits_follow_the_formula_at_8_and_16_gpus)
{
	static const unsigned int gpus[] = { 8, 16 };
	static const uint64_t ranges[] = { 128, 256, 512, 1024, 2048, 4096 };

	for (unsigned int i = 0; i < 2; i++) {
		unsigned int n = gpus[i];

		EXPECT_EQ(48 + (n - 1) + 1, bits_of(n, NG_DIR_LINE, 64));
		for (unsigned int k = 0; k < 6; k++) {
			unsigned int p = (unsigned int)(ranges[k] / 64);
			unsigned int shift = (unsigned int)__builtin_ctzll(ranges[k]);

			/* base, then per line a position and n - 1 sharers, valid */
			EXPECT_EQ((48 - shift) + p + p * (n - 1) + 1,
				  bits_of(n, NG_DIR_REC, ranges[k]))
				TH_LOG("%u GPUs, %llu B", n,
				       (unsigned long long)ranges[k]);
		}
	}
}

TEST(configurations_that_do_not_fit_are_rejected)
{
	struct ng_config c;
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&c, "rec", NULL, 0));
	EXPECT_EQ(0, ng_config_validate(&c, err, sizeof(err))) TH_LOG("%s", err);
	c.dir.rec_range = 64;	/* one line */
	EXPECT_EQ(-EINVAL, ng_config_validate(&c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "rec-range"));
	c.dir.rec_range = 96;
	EXPECT_EQ(-EINVAL, ng_config_validate(&c, err, sizeof(err)));
	c.dir.rec_range = 8192;	/* 128 lines: more than 64 positions */
	EXPECT_EQ(-EINVAL, ng_config_validate(&c, err, sizeof(err)));
	c.dir.rec_range = 1024;
	c.dir.addr_bits = 32;	/* 16 GB of device memory needs 34 */
	EXPECT_EQ(-EINVAL, ng_config_validate(&c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "dir-addr-bits"));
	c.dir.addr_bits = 48;
	c.dir.entries = 1001;	/* not whole sets of 8 */
	EXPECT_EQ(-EINVAL, ng_config_validate(&c, err, sizeof(err)));
	c.dir.entries = 8192;
	c.rdc.size = 1 << 20;	/* an RDC is CARVE's system */
	EXPECT_EQ(-EINVAL, ng_config_validate(&c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "rdc-size 0"));
}

TEST(entries_pack_and_unpack_at_any_bit)
{
	uint64_t st[8] = { 0 }, want[8];
	uint64_t x = 0x123456789abcdefULL;

	/* fields across word boundaries keep their neighbours intact */
	for (unsigned int off = 0; off < 300; off += 37) {
		for (unsigned int n = 1; n <= 64; n += 21) {
			uint64_t v = (x = x * 6364136223846793005ULL + 1) &
				     (n == 64 ? ~0ULL : (1ULL << n) - 1);

			memcpy(want, st, sizeof(st));
			ng_dirent_put(st, off, n, v);
			EXPECT_EQ(v, ng_dirent_get(st, off, n));
			for (unsigned int b = 0; b < 448; b++) {
				if (b >= off && b < off + n)
					continue;
				ASSERT_EQ(want[b / 64] >> (b % 64) & 1,
					  st[b / 64] >> (b % 64) & 1)
					TH_LOG("bit %u moved writing %u bits at %u",
					       b, n, off);
			}
		}
	}
}

/* ---- the protocol, request by request ----------------------------- */

FIXTURE(rec) {
	struct ng_config cfg;
	struct ng_space sp;
	struct ng_model m;
	struct ng_sm sm[3];
	struct ng_sm *sms[3];
	struct ng_buf x;		/* homed on GPU 0 */
	uint32_t *p;
	enum ng_dir_policy policy;	/* set before up() */
	bool up;
};

FIXTURE_SETUP(rec)
{
	(void)self;
}

FIXTURE_TEARDOWN(rec)
{
	if (!self->up)
		return;
	for (unsigned int g = 0; g < 3; g++)
		ng_sm_fini(&self->sm[g]);
	ng_free(&self->sp, &self->x);
	ng_model_fini(&self->m);
	ng_space_fini(&self->sp);
}

/* 3 GPUs of one SM, no L1 (unless @l1), @org with @entries of @ways. */
static void up(struct __test_metadata *_metadata, FIXTURE_DATA(rec) *self,
	       enum ng_directory org, unsigned int entries, unsigned int ways,
	       uint64_t l1)
{
	struct ng_alloc_opts o = { .place = NG_PLACE_NODE, .node = 0 };
	char err[256];

	ASSERT_EQ(0, ng_config_preset(&self->cfg, "rec", NULL, 0));
	self->cfg.gpus = 3;
	self->cfg.sms = 1;
	self->cfg.sm_scale = 1;
	self->cfg.page = 4096;
	self->cfg.mem_per_gpu = 16 << 20;
	self->cfg.deterministic = true;
	self->cfg.l1.size = l1;
	self->cfg.l2.size = 64 << 10;
	self->cfg.dir.kind = org;
	self->cfg.dir.entries = entries;
	self->cfg.dir.ways = ways;
	self->cfg.dir.policy = self->policy;
	ASSERT_EQ(0, ng_config_validate(&self->cfg, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_space_init(&self->sp, &self->cfg, NULL, 1, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ng_model_init(&self->m, &self->cfg, &self->sp, err,
				   sizeof(err))) TH_LOG("%s", err);
	for (unsigned int g = 0; g < 3; g++) {
		ASSERT_EQ(0, ng_sm_init(&self->sm[g], &self->m, g, 0, g));
		self->sms[g] = &self->sm[g];
	}
	ASSERT_EQ(0, ng_malloc(&self->sp, &self->x, 64 << 10, &o, err, sizeof(err)));
	self->p = self->x.ptr;
	self->up = true;
	ng_model_kernel_begin(&self->m, self->sms, 3);
}

/* The end of an interval: every home applies, then every GPU is told. */
static void settle(FIXTURE_DATA(rec) *self)
{
	for (unsigned int ph = 0; ph < 2; ph++)
		for (unsigned int g = 0; g < 3; g++)
			ng_model_sync(&self->m, ph, g);
	for (unsigned int g = 0; g < 3; g++)
		ng_sm_resync(&self->sm[g]);
}

static void next_kernel(FIXTURE_DATA(rec) *self)
{
	settle(self);
	ng_model_kernel_end(&self->m, self->sms, 3);
	ng_model_kernel_begin(&self->m, self->sms, 3);
}

/* A counter summed over the SMs and the model, all GPUs. */
static uint64_t ctr(FIXTURE_DATA(rec) *self, unsigned int id)
{
	uint64_t v = 0;

	for (unsigned int g = 0; g < 3; g++)
		v += self->sm[g].ctr.v[id] + self->m.gctr[g].v[id];
	return v;
}

static const void *req(struct ng_sm *sm, void *addr, unsigned int op)
{
	struct ng_req r = { .line = (uintptr_t)addr & ~(uintptr_t)63,
			    .mask = 0xffff, .op = op, .gpu = sm->gpu };

	r.home = ng_home(sm->model->space, r.line, sm->gpu);
	ng_model_access(sm, &r);
	return r.src;
}

static uint32_t load(struct ng_sm *sm, const uint32_t *p)
{
	const char *src = req(sm, (void *)p, NG_OP_LOAD);

	return *(const uint32_t *)(src + ((uintptr_t)p & 63));
}

/* A store as ng_st does it: home memory first, then the model. */
static void store(struct ng_sm *sm, uint32_t *p, uint32_t v)
{
	*p = v;
	req(sm, p, NG_OP_STORE);
}

/* Word of line @l (16 words of 4 B to a 64 B line). */
#define W(l)	((l) * 16)

static struct ng_dir_entry entry(FIXTURE_DATA(rec) *self, unsigned int l)
{
	struct ng_dir_entry e;

	(void)ng_dir_lookup(&self->m, 0, (uintptr_t)&self->p[W(l)], &e);
	return e;
}

TEST_F(rec, remote_reads_coalesce_in_one_entry)
{
	struct ng_dir_entry e;

	up(_metadata, self, NG_DIR_REC, 64, 8, 0);
	self->p[W(3)] = 7;
	EXPECT_EQ(7, load(&self->sm[1], &self->p[W(3)]));
	/* nothing at the home until the interval ends */
	EXPECT_FALSE(entry(self, 3).valid);
	settle(self);
	e = entry(self, 3);
	ASSERT_TRUE(e.valid);
	EXPECT_EQ(1ULL << 3, e.pos);
	EXPECT_EQ(1u << 1, e.sharers[3]);
	/* GPU 2 reads line 5 of the same 1 KB range: the same entry */
	(void)load(&self->sm[2], &self->p[W(5)]);
	(void)load(&self->sm[2], &self->p[W(3)]);
	settle(self);
	e = entry(self, 5);
	EXPECT_EQ(1ULL << 3 | 1ULL << 5, e.pos);
	EXPECT_EQ(1u << 1 | 1u << 2, e.sharers[3]);
	EXPECT_EQ(1u << 2, e.sharers[5]);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_ALLOC));
	/* line 16 starts the next range: a second entry */
	(void)load(&self->sm[1], &self->p[W(16)]);
	settle(self);
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_ALLOC));
	EXPECT_EQ(0, ctr(self, NG_CTR_DIR_INV_WRITE) + ctr(self, NG_CTR_DIR_INV_EVICT));
}

TEST_F(rec, local_write_invalidates_its_line_only)
{
	struct ng_dir_entry e;

	up(_metadata, self, NG_DIR_REC, 64, 8, 0);
	self->p[W(3)] = 1;
	(void)load(&self->sm[1], &self->p[W(3)]);
	(void)load(&self->sm[1], &self->p[W(4)]);
	(void)load(&self->sm[2], &self->p[W(3)]);
	settle(self);
	/* a local write to a line nobody holds: no message */
	store(&self->sm[0], &self->p[W(9)], 5);
	settle(self);
	EXPECT_EQ(0, ctr(self, NG_CTR_DIR_INV_WRITE));
	/* to line 3: both sharers lose it, line 4 stays recorded */
	store(&self->sm[0], &self->p[W(3)], 2);
	settle(self);
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_INV_WRITE));
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_INV_WRITE_HIT));
	e = entry(self, 3);
	ASSERT_TRUE(e.valid);
	EXPECT_EQ(1ULL << 4, e.pos);
	EXPECT_EQ(0, e.sharers[3]);
	/* the invalidated copy is gone: the next read misses, sees the write */
	self->sm[1].ctr.v[NG_CTR_L2_MISS] = 0;
	EXPECT_EQ(2, load(&self->sm[1], &self->p[W(3)]));
	EXPECT_EQ(1, self->sm[1].ctr.v[NG_CTR_L2_MISS]);
	settle(self);
	/* the last position cleared: the entry goes invalid */
	store(&self->sm[0], &self->p[W(3)], 3);
	store(&self->sm[0], &self->p[W(4)], 3);
	settle(self);
	EXPECT_FALSE(entry(self, 4).valid);
}

TEST_F(rec, remote_write_leaves_the_writer_the_only_sharer)
{
	struct ng_dir_entry e;

	up(_metadata, self, NG_DIR_REC, 64, 8, 0);
	(void)load(&self->sm[1], &self->p[W(2)]);
	(void)load(&self->sm[2], &self->p[W(2)]);
	settle(self);
	store(&self->sm[2], &self->p[W(2)], 9);
	settle(self);
	e = entry(self, 2);
	EXPECT_EQ(1u << 2, e.sharers[2]);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_INV_WRITE));
	/* GPU 1's copy is gone; GPU 2's own took the write */
	EXPECT_EQ(9, load(&self->sm[1], &self->p[W(2)]));
	self->sm[2].ctr.v[NG_CTR_L2_HIT] = 0;
	EXPECT_EQ(9, load(&self->sm[2], &self->p[W(2)]));
	EXPECT_EQ(1, self->sm[2].ctr.v[NG_CTR_L2_HIT]);
	/* a remote write to a line not recorded is recorded as a read is */
	store(&self->sm[1], &self->p[W(7)], 4);
	settle(self);
	e = entry(self, 7);
	EXPECT_EQ(1u << 1, e.sharers[7]);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_INV_WRITE));
}

/*
 * Two GPUs write different words of one remote line in one interval, in
 * host order opposite to modeled order: the later writer's L2 took the
 * line before the earlier write reached the home, so its copy goes too.
 */
TEST_F(rec, same_interval_writers_keep_no_stale_copy)
{
	up(_metadata, self, NG_DIR_REC, 64, 8, 0);
	self->sm[1].now = 1000 * NG_TICKS_PER_NS;	/* later in modeled time */
	store(&self->sm[1], &self->p[W(6)], 1);		/* first in host time */
	store(&self->sm[2], &self->p[W(6) + 1], 2);
	settle(self);
	/* each saw the other's write in the interval */
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_RACE));
	EXPECT_EQ(1, load(&self->sm[1], &self->p[W(6)]));
	EXPECT_EQ(2, load(&self->sm[1], &self->p[W(6) + 1]));
	EXPECT_EQ(2, load(&self->sm[2], &self->p[W(6) + 1]));
	EXPECT_EQ(1, load(&self->sm[2], &self->p[W(6)]));
}

TEST_F(rec, eviction_invalidates_every_recorded_line)
{
	/* one set of one way: a second range evicts the first */
	up(_metadata, self, NG_DIR_REC, 1, 1, 0);
	(void)load(&self->sm[1], &self->p[W(0)]);
	(void)load(&self->sm[1], &self->p[W(1)]);
	(void)load(&self->sm[2], &self->p[W(1)]);
	settle(self);
	(void)load(&self->sm[1], &self->p[W(16)]);
	settle(self);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_EVICT));
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_EVICT_LINES));
	/* line 0 at GPU 1, line 1 at GPUs 1 and 2 */
	EXPECT_EQ(3, ctr(self, NG_CTR_DIR_INV_EVICT));
	EXPECT_EQ(3, ctr(self, NG_CTR_DIR_INV_EVICT_HIT));
	EXPECT_FALSE(entry(self, 0).valid);
	EXPECT_TRUE(entry(self, 16).valid);
	/* the lines really left the L2s */
	self->sm[2].ctr.v[NG_CTR_L2_MISS] = 0;
	(void)load(&self->sm[2], &self->p[W(1)]);
	EXPECT_EQ(1, self->sm[2].ctr.v[NG_CTR_L2_MISS]);
}

/*
 * A per-line directory of one set of 2 ways: lines 0 and 1, line 0 used
 * again, then line 2: LRU replaces line 1, FIFO line 0.
 */
static void replace_one(struct __test_metadata *_metadata,
			FIXTURE_DATA(rec) *self)
{
	up(_metadata, self, NG_DIR_LINE, 2, 2, 0);
	(void)load(&self->sm[1], &self->p[W(0)]);
	(void)load(&self->sm[1], &self->p[W(1)]);
	settle(self);
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_ALLOC));	/* one line each */
	(void)load(&self->sm[2], &self->p[W(0)]);
	settle(self);
	(void)load(&self->sm[1], &self->p[W(2)]);
	settle(self);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_EVICT));
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_EVICT_LINES));
}

TEST_F(rec, per_line_directory_lru)
{
	replace_one(_metadata, self);
	EXPECT_TRUE(entry(self, 0).valid);
	EXPECT_FALSE(entry(self, 1).valid);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_INV_EVICT));	/* GPU 1's line 1 */
}

TEST_F(rec, per_line_directory_fifo)
{
	self->policy = NG_DIR_FIFO;
	replace_one(_metadata, self);
	EXPECT_FALSE(entry(self, 0).valid);
	EXPECT_TRUE(entry(self, 1).valid);
	EXPECT_EQ(2, ctr(self, NG_CTR_DIR_INV_EVICT));	/* GPUs 1 and 2 */
}

TEST_F(rec, hmg_write_invalidates_all_four_lines)
{
	struct ng_dir_entry e;

	up(_metadata, self, NG_DIR_HMG, 64, 8, 0);
	for (unsigned int l = 0; l < 4; l++)
		(void)load(&self->sm[1], &self->p[W(l)]);
	settle(self);
	e = entry(self, 2);
	ASSERT_TRUE(e.valid);
	EXPECT_EQ(1u << 1, e.sharers[0]);	/* one field for the four */
	store(&self->sm[0], &self->p[W(2)], 6);
	settle(self);
	EXPECT_EQ(1, ctr(self, NG_CTR_DIR_INV_WRITE));	/* one message */
	EXPECT_FALSE(entry(self, 0).valid);
	/* every line of the region left GPU 1's L2, not only line 2 */
	self->sm[1].ctr.v[NG_CTR_L2_MISS] = 0;
	for (unsigned int l = 0; l < 4; l++)
		(void)load(&self->sm[1], &self->p[W(l)]);
	EXPECT_EQ(4, self->sm[1].ctr.v[NG_CTR_L2_MISS]);
}

TEST_F(rec, without_a_directory_the_l2_reads_stale_data)
{
	up(_metadata, self, NG_DIR_NONE, 64, 8, 0);
	self->p[W(1)] = 10;
	EXPECT_EQ(10, load(&self->sm[1], &self->p[W(1)]));
	next_kernel(self);
	store(&self->sm[0], &self->p[W(1)], 11);
	next_kernel(self);
	/* kept across kernels, never invalidated: the old value */
	EXPECT_EQ(10, load(&self->sm[1], &self->p[W(1)]));
	/* there is no directory to tell it */
	{
		struct ng_dir_entry e;

		EXPECT_EQ(-ENOENT, ng_dir_lookup(&self->m, 0,
						 (uintptr_t)self->p, &e));
	}
}

TEST_F(rec, directory_keeps_l2_lines_across_kernels)
{
	up(_metadata, self, NG_DIR_REC, 64, 8, 0);
	self->p[W(1)] = 10;
	EXPECT_EQ(10, load(&self->sm[1], &self->p[W(1)]));
	next_kernel(self);
	self->sm[1].ctr.v[NG_CTR_L2_HIT] = 0;
	EXPECT_EQ(10, load(&self->sm[1], &self->p[W(1)]));
	EXPECT_EQ(1, self->sm[1].ctr.v[NG_CTR_L2_HIT]);
	store(&self->sm[0], &self->p[W(1)], 11);
	next_kernel(self);
	EXPECT_EQ(11, load(&self->sm[1], &self->p[W(1)]));
	/* the first miss was cold, the one after the invalidation is not */
	EXPECT_EQ(2, self->sm[1].ctr.v[NG_CTR_L2_MISS]);
	EXPECT_EQ(1, self->sm[1].ctr.v[NG_CTR_L2_COLD]);
}

TEST_F(rec, l1_per_real_sm_dropped_at_kernel_boundaries)
{
	up(_metadata, self, NG_DIR_REC, 64, 8, 4096);
	self->p[W(1)] = 10;
	/* local and remote lines alike */
	(void)load(&self->sm[0], &self->p[W(1)]);
	(void)load(&self->sm[1], &self->p[W(1)]);
	EXPECT_EQ(10, load(&self->sm[1], &self->p[W(1)]));
	EXPECT_EQ(2, ctr(self, NG_CTR_L1_MISS));
	EXPECT_EQ(1, ctr(self, NG_CTR_L1_HIT));
	EXPECT_EQ(1, ctr(self, NG_CTR_L1_RHIT));
	/* write-through: GPU 1's own store refreshes its copy */
	store(&self->sm[1], &self->p[W(1)], 12);
	EXPECT_EQ(12, load(&self->sm[1], &self->p[W(1)]));
	/* another GPU's write: this kernel's L1 copy is stale (software) */
	store(&self->sm[2], &self->p[W(1)], 13);
	settle(self);
	EXPECT_EQ(12, load(&self->sm[1], &self->p[W(1)]));
	/* the kernel boundary drops it */
	next_kernel(self);
	EXPECT_EQ(13, load(&self->sm[1], &self->p[W(1)]));
}

TEST_HARNESS_MAIN
