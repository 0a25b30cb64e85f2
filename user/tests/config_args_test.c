// SPDX-License-Identifier: GPL-2.0
/*
 * ng_config_from_args() fills @rest no further than its capacity: the
 * arguments that are not config options past it are an error naming the
 * problem, not a write past the caller's array.
 */
#include <errno.h>
#include <string.h>

#include "ng_test.h"

#include "ngemu/config.h"

TEST(rest_within_capacity)
{
	char *argv[] = { "prog", "a", "--gpus", "2", "b", "--other", NULL };
	char *rest[3] = { NULL, NULL, NULL };
	struct ng_config cfg;
	char err[256];
	int n = -1;

	ASSERT_EQ(0, ng_config_from_args(&cfg, 6, argv, rest, 3, &n, err,
					 sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(3, n);
	EXPECT_STREQ("a", rest[0]);
	EXPECT_STREQ("b", rest[1]);
	EXPECT_STREQ("--other", rest[2]);
	EXPECT_EQ(2, cfg.gpus);
}

TEST(rest_over_capacity_refused)
{
	char *argv[] = { "prog", "a", "b", "--", "c", "d", NULL };
	/* a guard entry after the two the call may use */
	char *rest[3] = { NULL, NULL, "guard" };
	struct ng_config cfg;
	char err[256] = "";
	int n = 0;

	EXPECT_EQ(-EINVAL, ng_config_from_args(&cfg, 3, argv, rest, 1, &n, err,
					       sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "more than 1 that are not config options"))
		TH_LOG("%s", err);
	/* after "--" too */
	EXPECT_EQ(-EINVAL, ng_config_from_args(&cfg, 6, argv, rest, 2, &n, err,
					       sizeof(err)));
	EXPECT_STREQ("guard", rest[2]);
	/* config options alone need no room */
	{
		char *opts[] = { "prog", "--gpus", "2", "--deterministic", NULL };

		EXPECT_EQ(0, ng_config_from_args(&cfg, 4, opts, rest, 0, &n,
						 err, sizeof(err))) TH_LOG("%s", err);
		EXPECT_EQ(0, n);
	}
}

TEST_HARNESS_MAIN
