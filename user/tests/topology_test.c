// SPDX-License-Identifier: GPL-2.0
/*
 * The user backend's topology against fabricated sysfs trees, and the
 * small parsers and writers it relies on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ng_test.h"

#include "fake_sysfs.h"
#include "ngemu/util/cpulist.h"
#include "ngemu/util/format.h"
#include "ngemu/util/json.h"
#include "ngemu/backend/topology.h"

FIXTURE(sysfs) {
	struct fake_sysfs fs;
	struct ng_topology topo;
	char err[512];
};

FIXTURE_SETUP(sysfs)
{
	ASSERT_EQ(0, fake_sysfs_create(&self->fs));
	self->err[0] = '\0';
}

FIXTURE_TEARDOWN(sysfs)
{
	fake_sysfs_destroy(&self->fs);
}

static int probe(struct _test_data_sysfs *self)
{
	return ng_topology_from_sysfs(&self->topo, self->fs.root, self->err,
				      sizeof(self->err));
}

TEST_F(sysfs, four_nodes)
{
	const struct numagpu_topology *hw = &self->topo.hw;

	ASSERT_EQ(0, fake_uniform(&self->fs, 4));
	ASSERT_EQ(0, probe(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(NG_BACKEND_USER, self->topo.backend);
	EXPECT_STREQ(self->fs.root, self->topo.source);
	EXPECT_EQ(NUMAGPU_UAPI_VERSION, hw->uapi_version);
	EXPECT_EQ(4u, hw->nr_cpu_ids);
	ASSERT_EQ(4u, hw->ngpus);
	for (unsigned int g = 0; g < 4; g++) {
		EXPECT_EQ(g, hw->gpu[g].node);
		EXPECT_EQ(1u, hw->gpu[g].nr_cpus);
		EXPECT_EQ(1ULL << g, hw->gpu[g].cpumask[0]);
		EXPECT_EQ((g + 1) * 1024ULL * 1024 * 1024, hw->gpu[g].mem_total);
		EXPECT_EQ((g + 1) * 512ULL * 1024 * 1024, hw->gpu[g].mem_free);
		for (unsigned int h = 0; h < 4; h++)
			EXPECT_EQ(g == h ? 10 : 10 + 10 * abs((int)g - (int)h),
				  hw->distance[g][h]);
	}
	/* entries beyond ngpus stay zero */
	EXPECT_EQ(0, hw->distance[0][4]);
	EXPECT_EQ(0u, hw->gpu[4].node);
}

/* A node without memory is online but plays no GPU. */
TEST_F(sysfs, memoryless_node_skipped)
{
	const struct numagpu_topology *hw = &self->topo.hw;
	struct fake_sysfs *fs = &self->fs;

	ASSERT_EQ(0, fake_write(fs, "devices/system/node/online", "0-2\n"));
	ASSERT_EQ(0, fake_write(fs, "devices/system/node/has_memory", "0,2\n"));
	ASSERT_EQ(0, fake_write(fs, "devices/system/cpu/possible", "0-7\n"));
	ASSERT_EQ(0, fake_node(fs, 0, "0-3", 4096, 1024, "10 21 31"));
	ASSERT_EQ(0, fake_node(fs, 1, "4-5", 0, 0, "21 10 21"));
	ASSERT_EQ(0, fake_node(fs, 2, "6-7", 8192, 4096, "31 21 10"));
	ASSERT_EQ(0, probe(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(2u, hw->ngpus);
	EXPECT_EQ(0u, hw->gpu[0].node);
	EXPECT_EQ(2u, hw->gpu[1].node);
	EXPECT_EQ(4u, hw->gpu[0].nr_cpus);
	EXPECT_EQ(0xc0ULL, hw->gpu[1].cpumask[0]);
	EXPECT_EQ(8u, hw->nr_cpu_ids);
	/* node 1's column is skipped, not shifted into GPU 1 */
	EXPECT_EQ(10, hw->distance[0][0]);
	EXPECT_EQ(31, hw->distance[0][1]);
	EXPECT_EQ(31, hw->distance[1][0]);
	EXPECT_EQ(10, hw->distance[1][1]);
}

TEST_F(sysfs, sparse_node_ids)
{
	const struct numagpu_topology *hw = &self->topo.hw;
	struct fake_sysfs *fs = &self->fs;

	ASSERT_EQ(0, fake_write(fs, "devices/system/node/online", "0,4\n"));
	ASSERT_EQ(0, fake_write(fs, "devices/system/node/has_memory", "0,4\n"));
	ASSERT_EQ(0, fake_write(fs, "devices/system/cpu/possible", "0-127\n"));
	ASSERT_EQ(0, fake_node(fs, 0, "0-63", 4096, 1024, "10 40"));
	ASSERT_EQ(0, fake_node(fs, 4, "64-127", 4096, 1024, "40 10"));
	ASSERT_EQ(0, probe(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(2u, hw->ngpus);
	EXPECT_EQ(4u, hw->gpu[1].node);
	EXPECT_EQ(64u, hw->gpu[1].nr_cpus);
	EXPECT_EQ(~0ULL, hw->gpu[1].cpumask[1]);
	EXPECT_EQ(0ULL, hw->gpu[1].cpumask[0]);
	EXPECT_EQ(40, hw->distance[0][1]);
	EXPECT_EQ(128u, hw->nr_cpu_ids);
}

TEST_F(sysfs, cpuless_node)
{
	struct fake_sysfs *fs = &self->fs;

	ASSERT_EQ(0, fake_uniform(fs, 2));
	ASSERT_EQ(0, fake_node(fs, 1, "", 4096, 1024, "20 10"));
	ASSERT_EQ(0, probe(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(0u, self->topo.hw.gpu[1].nr_cpus);
}

TEST_F(sysfs, missing_root)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/nonexistent", self->fs.root);
	EXPECT_EQ(-ENOENT, ng_topology_from_sysfs(&self->topo, path, self->err,
						  sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "has_memory"));
}

TEST_F(sysfs, bad_cpulist)
{
	ASSERT_EQ(0, fake_uniform(&self->fs, 2));
	ASSERT_EQ(0, fake_write(&self->fs, "devices/system/node/node1/cpulist",
				"0-x\n"));
	EXPECT_EQ(-EINVAL, probe(self));
	EXPECT_NE(NULL, strstr(self->err, "node1/cpulist: bad list"))
		TH_LOG("%s", self->err);
}

TEST_F(sysfs, short_distance_row)
{
	ASSERT_EQ(0, fake_uniform(&self->fs, 3));
	ASSERT_EQ(0, fake_write(&self->fs, "devices/system/node/node2/distance",
				"30 20\n"));
	EXPECT_EQ(-EINVAL, probe(self));
	EXPECT_NE(NULL, strstr(self->err, "node2/distance"));
}

TEST_F(sysfs, meminfo_without_total)
{
	ASSERT_EQ(0, fake_uniform(&self->fs, 2));
	ASSERT_EQ(0, fake_write(&self->fs, "devices/system/node/node0/meminfo",
				"Node 0 MemFree: 12 kB\n"));
	EXPECT_EQ(-EINVAL, probe(self));
	EXPECT_NE(NULL, strstr(self->err, "no MemTotal"));
}

TEST_F(sysfs, no_memory_node)
{
	ASSERT_EQ(0, fake_uniform(&self->fs, 2));
	ASSERT_EQ(0, fake_write(&self->fs, "devices/system/node/has_memory",
				"\n"));
	EXPECT_EQ(-ENODEV, probe(self));
}

TEST_F(sysfs, too_many_gpus)
{
	ASSERT_EQ(0, fake_uniform(&self->fs, NUMAGPU_MAX_GPUS + 1));
	EXPECT_EQ(-E2BIG, probe(self));
	ASSERT_EQ(0, fake_uniform(&self->fs, NUMAGPU_MAX_GPUS));
	EXPECT_EQ(0, probe(self)) TH_LOG("%s", self->err);
	EXPECT_EQ((unsigned int)NUMAGPU_MAX_GPUS, self->topo.hw.ngpus);
}

TEST(cpulist_parse)
{
	__u64 m[NUMAGPU_CPUMASK_WORDS];

	ASSERT_EQ(0, ng_cpulist_parse("0-3,8,10-11\n", m));
	EXPECT_EQ(0xd0fULL, m[0]);
	EXPECT_EQ(7u, ng_cpumask_weight(m));
	EXPECT_EQ(0, ng_cpulist_parse("", m));
	EXPECT_EQ(0u, ng_cpumask_weight(m));
	EXPECT_EQ(0, ng_cpulist_parse("\n", m));
	EXPECT_EQ(0, ng_cpulist_parse("0-1023", m));
	EXPECT_EQ(1024u, ng_cpumask_weight(m));
	EXPECT_EQ(0, ng_cpulist_parse("1023", m));
	EXPECT_EQ(1ULL << 63, m[15]);
	EXPECT_EQ(-ERANGE, ng_cpulist_parse("1024", m));
	EXPECT_EQ(-ERANGE, ng_cpulist_parse("0-99999999999999999999", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse("3-1", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse("a", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse("1,,2", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse("-1", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse("1,", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse(" 1", m));
	EXPECT_EQ(-EINVAL, ng_cpulist_parse("1\n2", m));
}

TEST(cpulist_format)
{
	__u64 m[NUMAGPU_CPUMASK_WORDS];
	char buf[64], tiny[4];

	ASSERT_EQ(0, ng_cpulist_parse("0-3,8,10-11,63-64,1023", m));
	EXPECT_EQ(strlen("0-3,8,10-11,63-64,1023"),
		  ng_cpulist_format(m, buf, sizeof(buf)));
	EXPECT_STREQ("0-3,8,10-11,63-64,1023", buf);
	/* truncation keeps the buffer terminated and reports the need */
	EXPECT_EQ(strlen("0-3,8,10-11,63-64,1023"),
		  ng_cpulist_format(m, tiny, sizeof(tiny)));
	EXPECT_EQ('\0', tiny[3]);
	memset(m, 0, sizeof(m));
	EXPECT_EQ(0u, ng_cpulist_format(m, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
}

static char *json_doc(bool pretty, void (*build)(struct ng_json *j))
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct ng_json j;

	ng_json_init(&j, f, pretty);
	build(&j);
	ng_json_finish(&j);
	fclose(f);
	return out;
}

static void json_sample(struct ng_json *j)
{
	ng_json_object_begin(j);
	ng_json_key(j, "s");
	ng_json_string(j, "a\"b\\c\n\x01");
	ng_json_key(j, "n");
	ng_json_array_begin(j);
	ng_json_uint(j, 18446744073709551615ULL);
	ng_json_int(j, -5);
	ng_json_double(j, 0.5);
	ng_json_double(j, 1.0 / 0.0);
	ng_json_bool(j, true);
	ng_json_array_end(j);
	ng_json_key(j, "e");
	ng_json_object_begin(j);
	ng_json_object_end(j);
	ng_json_object_end(j);
}

TEST(json_writer)
{
	char *doc = json_doc(false, json_sample);

	EXPECT_STREQ("{\"s\":\"a\\\"b\\\\c\\n\\u0001\","
		     "\"n\":[18446744073709551615,-5,0.5,null,true],"
		     "\"e\":{}}\n", doc);
	free(doc);
	doc = json_doc(true, json_sample);
	EXPECT_STREQ("{\n  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n  \"n\": [\n"
		     "    18446744073709551615,\n    -5,\n    0.5,\n    null,\n"
		     "    true\n  ],\n  \"e\": {}\n}\n", doc);
	free(doc);
}

static void json_pairs(struct ng_json *j)
{
	ng_json_object_begin(j);
	ng_json_kv_string(j, "s", "x");
	ng_json_kv_uint(j, "u", 7);
	ng_json_kv_int(j, "i", -7);
	ng_json_kv_double(j, "d", 0.25);
	ng_json_kv_bool(j, "b", false);
	ng_json_object_end(j);
}

TEST(json_key_value_pairs)
{
	char *doc = json_doc(false, json_pairs);

	EXPECT_STREQ("{\"s\":\"x\",\"u\":7,\"i\":-7,\"d\":0.25,\"b\":false}\n",
		     doc);
	free(doc);
}

static void json_value_without_key(struct ng_json *j)
{
	ng_json_object_begin(j);
	ng_json_uint(j, 1);
}

/*
 * Misuse is a bug in the caller: it must stop, not write bad JSON. (The
 * harness takes SIGABRT for its own assertions, hence the fork.)
 */
TEST(json_misuse_aborts)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* keep the expected message out of the test log */
		freopen("/dev/null", "w", stderr);
		free(json_doc(false, json_value_without_key));
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGABRT, WTERMSIG(status));
}

TEST(backend_names)
{
	EXPECT_EQ(NG_BACKEND_AUTO, ng_backend_parse("auto"));
	EXPECT_EQ(NG_BACKEND_KMOD, ng_backend_parse("kmod"));
	EXPECT_EQ(NG_BACKEND_USER, ng_backend_parse("user"));
	EXPECT_EQ(-1, ng_backend_parse("KMOD"));
	EXPECT_EQ(-1, ng_backend_parse(""));
	EXPECT_STREQ("kmod", ng_backend_name(NG_BACKEND_KMOD));
	EXPECT_EQ(NULL, ng_backend_name((enum ng_backend)7));
}

TEST(format_bytes)
{
	char b[32];

	EXPECT_STREQ("0 B", ng_format_bytes(0, b, sizeof(b)));
	EXPECT_STREQ("1023 B", ng_format_bytes(1023, b, sizeof(b)));
	EXPECT_STREQ("1.0 KiB", ng_format_bytes(1024, b, sizeof(b)));
	EXPECT_STREQ("1.5 GiB", ng_format_bytes(3ULL << 29, b, sizeof(b)));
	EXPECT_STREQ("16.0 EiB", ng_format_bytes(~0ULL, b, sizeof(b)));
}

/* The kmod backend names the device and the likely cause. */
TEST(kmod_missing_device)
{
	struct ng_topology t;
	char err[256];

	EXPECT_EQ(-ENOENT, ng_topology_from_kmod(&t, "/nonexistent/numagpu",
						 err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "/nonexistent/numagpu"));
	EXPECT_NE(NULL, strstr(err, "numagpu.ko"));
	/* a file that is not the device: the ioctl fails cleanly */
	EXPECT_EQ(-ENOTTY, ng_topology_from_kmod(&t, "/dev/null", err,
						 sizeof(err)));
}

TEST_HARNESS_MAIN
