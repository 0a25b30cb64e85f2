// SPDX-License-Identifier: GPL-2.0
/*
 * CARVE's metadata: the ECC sidecar's packing at its limits and the
 * configurations whose tag does not fit, and every IMST transition.
 */
#include <errno.h>
#include <stdint.h>

#include "ng_test.h"

#include "ngemu/config.h"
#include "ngemu/model/sidecar.h"
#include "ngemu/runtime/system.h"

/* ---- sidecar ------------------------------------------------------ */

static void roundtrip(struct __test_metadata *_metadata,
		      const struct ng_sidecar *in)
{
	struct ng_sidecar out;
	uint64_t w = ng_sc_pack(in);

	EXPECT_EQ(0, w >> NG_SC_BITS);		/* within the 56 spare bits */
	ng_sc_unpack(w, &out);
	EXPECT_EQ(in->tag, out.tag);
	EXPECT_EQ(in->epoch, out.epoch);
	EXPECT_EQ(in->valid, out.valid);
	EXPECT_EQ(in->imst, out.imst);
}

TEST(sidecar_roundtrip_every_field_at_its_limits)
{
	const uint64_t tags[] = { 0, 1, NG_SC_TAG_MASK >> 1, NG_SC_TAG_MASK };
	const uint32_t epochs[] = { 0, 1, NG_SC_EPOCH_MASK - 1, NG_SC_EPOCH_MASK };

	EXPECT_EQ(33, NG_SC_TAG_MAX_BITS);
	EXPECT_EQ(NG_SC_BITS, NG_SC_TAG_SHIFT + NG_SC_TAG_MAX_BITS);
	for (unsigned int t = 0; t < 4; t++)
		for (unsigned int e = 0; e < 4; e++)
			for (unsigned int v = 0; v < 2; v++)
				for (unsigned int i = 0; i < 4; i++) {
					struct ng_sidecar s = {
						.tag = tags[t], .epoch = epochs[e],
						.valid = v, .imst = i,
					};

					roundtrip(_metadata, &s);
				}
	/* one field at its maximum leaves the others zero */
	{
		struct ng_sidecar s = { .tag = NG_SC_TAG_MASK }, o;

		ng_sc_unpack(ng_sc_pack(&s), &o);
		EXPECT_EQ(0, o.epoch);
		EXPECT_EQ(0, o.valid);
		EXPECT_EQ(0, o.imst);
		s = (struct ng_sidecar){ .epoch = NG_SC_EPOCH_MASK };
		ng_sc_unpack(ng_sc_pack(&s), &o);
		EXPECT_EQ(0, o.tag);
		EXPECT_EQ(0, o.imst);
		EXPECT_EQ(0, o.valid);
		EXPECT_EQ(NG_SC_EPOCH_MASK << NG_SC_EPOCH_SHIFT, ng_sc_pack(&s));
	}
	/* a hit needs valid, tag and epoch, whatever the IMST copy */
	EXPECT_TRUE(ng_sc_hit(ng_sc_line(5, 7, 3), 5, 7));
	EXPECT_FALSE(ng_sc_hit(ng_sc_line(5, 7, 0), 5, 8));
	EXPECT_FALSE(ng_sc_hit(ng_sc_line(5, 7, 0), 4, 7));
	EXPECT_FALSE(ng_sc_hit(0, 0, 0));
}

TEST(sidecar_tag_bits_and_configs_that_do_not_fit)
{
	struct ng_config cfg;
	struct ng_system *sys;
	char err[512];

	EXPECT_EQ(0, ng_sc_tag_bits(1024, 1024));
	EXPECT_EQ(1, ng_sc_tag_bits(2048, 1024));
	EXPECT_EQ(33, ng_sc_tag_bits(1ULL << 34, 2));
	EXPECT_EQ(-1, ng_sc_tag_bits(1ULL << 35, 2));
	EXPECT_EQ(-1, ng_sc_tag_bits(100, 0));
	/* 2 GPUs x 4 TiB, doubled for host memory: 2^37 lines; 1 line of RDC */
	ASSERT_EQ(0, ng_config_preset(&cfg, "carve", NULL, 0));
	cfg.gpus = 2;
	cfg.sms = 1;
	cfg.deterministic = true;
	cfg.mem_per_gpu = 4ULL << 40;
	ASSERT_EQ(0, ng_config_set(&cfg, "rdc-size", "128", err, sizeof(err)));
	if (ng_system_create(&sys, &cfg, err, sizeof(err)) == -ENOMEM &&
	    !strstr(err, "ECC")) {
		/* the address space could not be reserved here */
		SKIP(return, "cannot reserve the address space: %s", err);
	}
	EXPECT_EQ(-EINVAL, ng_system_create(&sys, &cfg, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "56 spare ECC bits")) TH_LOG("%s", err);
}

/* ---- IMST --------------------------------------------------------- */

TEST(imst_every_transition)
{
	/* [state][local][write] -> next, broadcast (reset not drawn) */
	static const struct { unsigned int next; bool bcast; } want[4][2][2] = {
		[NG_IMST_UNCACHED] = {
			[0] = { { NG_IMST_RSHARED, false }, { NG_IMST_RWSHARED, false } },
			[1] = { { NG_IMST_PRIVATE, false }, { NG_IMST_PRIVATE, false } },
		},
		[NG_IMST_PRIVATE] = {
			[0] = { { NG_IMST_RSHARED, false }, { NG_IMST_RWSHARED, false } },
			[1] = { { NG_IMST_PRIVATE, false }, { NG_IMST_PRIVATE, false } },
		},
		[NG_IMST_RSHARED] = {
			[0] = { { NG_IMST_RSHARED, false }, { NG_IMST_RWSHARED, true } },
			[1] = { { NG_IMST_RSHARED, false }, { NG_IMST_RWSHARED, true } },
		},
		[NG_IMST_RWSHARED] = {
			[0] = { { NG_IMST_RWSHARED, false }, { NG_IMST_RWSHARED, true } },
			[1] = { { NG_IMST_RWSHARED, false }, { NG_IMST_RWSHARED, true } },
		},
	};

	for (unsigned int s = 0; s < 4; s++)
		for (unsigned int l = 0; l < 2; l++)
			for (unsigned int w = 0; w < 2; w++) {
				bool b, b2;
				unsigned int n = ng_imst_next(s, l, w, false, &b);
				unsigned int r = ng_imst_next(s, l, w, true, &b2);

				EXPECT_EQ(want[s][l][w].next, n)
					TH_LOG("%s %s %s", ng_imst_name(s),
					       l ? "local" : "remote",
					       w ? "write" : "read");
				EXPECT_EQ(want[s][l][w].bcast, b);
				EXPECT_EQ(b, b2);
				/* the 1% draw: only a local write resets, to private */
				EXPECT_EQ(l && w ? NG_IMST_PRIVATE : n, r);
			}
}

TEST_HARNESS_MAIN
