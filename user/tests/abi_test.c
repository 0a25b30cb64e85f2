// SPDX-License-Identifier: GPL-2.0
/*
 * The module's interface against the snapshot of its version: every ioctl
 * number, structure size and field offset, mmap offset, mode, flag and
 * uring command of include/uapi/linux/numagpu.h, as one line each, must be
 * what user/tests/fixtures/abi/numagpu-MAJOR.MINOR.txt recorded for the
 * header's version. A change without a new version fails here: bump the
 * minor (while the major is 0 any change takes one; from 1.0 a minor may
 * only add, and every earlier minor's lines must stay as they were) and
 * record the new snapshot with `build/tests/abi_test --snapshot`.
 * Also the rule libngemu applies to a module's version.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ng_test.h"

#include "fixture_dir.h"

#include "ngemu/backend/topology.h"

struct text {
	char *buf;
	size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < t->cap - t->len) {
			t->len += (size_t)n;
			return;
		}
		t->cap = t->cap ? 2 * t->cap : 4096;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf)
			abort();
	}
}

#define C(c)	add(t, "%s = %llu\n", #c, (unsigned long long)(c))
#define S(s)	add(t, "sizeof(struct %s) = %zu\n", #s, sizeof(struct s))
#define F(s, f)	add(t, "offsetof(struct %s, %s) = %zu\n", #s, #f,	\
		    offsetof(struct s, f))

/* The interface, one line a fact, in the header's order. */
static void describe(struct text *t)
{
	C(NUMAGPU_MAX_GPUS);
	C(NUMAGPU_MAX_CPUS);
	C(NUMAGPU_MAX_NODES);
	S(numagpu_gpu_info);
	F(numagpu_gpu_info, node);
	F(numagpu_gpu_info, nr_cpus);
	F(numagpu_gpu_info, mem_total);
	F(numagpu_gpu_info, mem_free);
	F(numagpu_gpu_info, cpumask);
	S(numagpu_topology);
	F(numagpu_topology, uapi_version);
	F(numagpu_topology, ngpus);
	F(numagpu_topology, nr_cpu_ids);
	F(numagpu_topology, gpu);
	F(numagpu_topology, distance);
	C(NUMAGPU_IOC_GET_TOPOLOGY);
	C(NUMAGPU_VIEW_SHIFT);
	C(NUMAGPU_LOCTAB_OFFSET);
	C(NUMAGPU_MODE_FIRST_TOUCH);
	C(NUMAGPU_MODE_FGP);
	C(NUMAGPU_MODE_CGP);
	C(NUMAGPU_MODE_CGP_CHUNK);
	C(NUMAGPU_MODE_HOST);
	C(NUMAGPU_MODE_COUNT);
	C(NUMAGPU_HOST_AUTO);
	C(NUMAGPU_BUF_FALLBACK);
	C(NUMAGPU_BUF_FLAGS_ALL);
	S(numagpu_buf_create);
	F(numagpu_buf_create, size);
	F(numagpu_buf_create, mode);
	F(numagpu_buf_create, flags);
	F(numagpu_buf_create, target);
	F(numagpu_buf_create, chunk);
	S(numagpu_buf_mode);
	F(numagpu_buf_mode, first_page);
	F(numagpu_buf_mode, npages);
	F(numagpu_buf_mode, mode);
	F(numagpu_buf_mode, target);
	F(numagpu_buf_mode, chunk);
	S(numagpu_loc);
	F(numagpu_loc, node);
	F(numagpu_loc, flags);
	C(NUMAGPU_LOC_NO_NODE);
	C(NUMAGPU_LOC_POPULATED);
	C(NUMAGPU_LOC_FALLBACK);
	C(NUMAGPU_LOC_REPLICATED);
	C(NUMAGPU_LOC_PINNED);
	C(NUMAGPU_LOC_READ_MOSTLY);
	C(NUMAGPU_LOC_MIGRATED);
	C(NUMAGPU_LOC_MODE_SHIFT);
	C(NUMAGPU_LOC_REPLICAS_SHIFT);
	S(numagpu_loctab_header);
	F(numagpu_loctab_header, seq);
	F(numagpu_loctab_header, npages);
	F(numagpu_loctab_header, ngpus);
	F(numagpu_loctab_header, entry_size);
	F(numagpu_loctab_header, entries_offset);
	C(NUMAGPU_QUERY_MAX);
	S(numagpu_buf_query);
	F(numagpu_buf_query, first_page);
	F(numagpu_buf_query, npages);
	F(numagpu_buf_query, flags);
	F(numagpu_buf_query, entries);
	S(numagpu_buf_stats);
	F(numagpu_buf_stats, populated);
	F(numagpu_buf_stats, uring_cmds);
	F(numagpu_buf_stats, view_faults);
	F(numagpu_buf_stats, node_faults);
	F(numagpu_buf_stats, node_pages);
	S(numagpu_dev_stats);
	F(numagpu_dev_stats, pages_held);
	F(numagpu_dev_stats, auto_migrations);
	F(numagpu_dev_stats, node_pages);
	C(NUMAGPU_ADVISE_READ_MOSTLY);
	C(NUMAGPU_ADVISE_UNSET_READ_MOSTLY);
	C(NUMAGPU_ADVISE_PREFERRED);
	C(NUMAGPU_ADVISE_UNSET_PREFERRED);
	C(NUMAGPU_ADVISE_ACCESSED_BY);
	C(NUMAGPU_ADVISE_UNSET_ACCESSED_BY);
	C(NUMAGPU_ADVISE_MAX);
	S(numagpu_buf_advise);
	F(numagpu_buf_advise, first_page);
	F(numagpu_buf_advise, npages);
	F(numagpu_buf_advise, advice);
	F(numagpu_buf_advise, target);
	C(NUMAGPU_MIGRATE_GPU);
	C(NUMAGPU_MIGRATE_POPULATE);
	C(NUMAGPU_MIGRATE_FLAGS_ALL);
	S(numagpu_buf_migrate);
	F(numagpu_buf_migrate, first_page);
	F(numagpu_buf_migrate, npages);
	F(numagpu_buf_migrate, target);
	F(numagpu_buf_migrate, flags);
	F(numagpu_buf_migrate, moved);
	F(numagpu_buf_migrate, skipped);
	C(NUMAGPU_URING_PREFETCH);
	C(NUMAGPU_URING_MIGRATE);
	C(NUMAGPU_URING_ADVISE);
	C(NUMAGPU_URING_QUERY);
	S(numagpu_uring_cmd);
	F(numagpu_uring_cmd, first_page);
	F(numagpu_uring_cmd, npages);
	F(numagpu_uring_cmd, arg);
	F(numagpu_uring_cmd, arg2);
	C(NUMAGPU_IOC_BUF_CREATE);
	C(NUMAGPU_IOC_GET_STATS);
	C(NUMAGPU_BUF_IOC_SET_MODE);
	C(NUMAGPU_BUF_IOC_QUERY);
	C(NUMAGPU_BUF_IOC_STATS);
	C(NUMAGPU_BUF_IOC_ADVISE);
	C(NUMAGPU_BUF_IOC_MIGRATE);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	struct text t = { 0 };
	char line[512];

	if (!f)
		return NULL;
	add(&t, "%s", "");
	while (fgets(line, sizeof(line), f))
		add(&t, "%s", line);
	fclose(f);
	return t.buf;
}

/* The first line of @want missing from @have, or NULL. */
static const char *missing_line(const char *want, const char *have,
				char *line, size_t len)
{
	for (const char *p = want; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *h = have;
		int found = 0;

		snprintf(line, len, "%.*s", (int)n, p);
		while ((h = strstr(h, line))) {
			if ((h == have || h[-1] == '\n') && (h[n] == '\n' || !h[n])) {
				found = 1;
				break;
			}
			h++;
		}
		if (!found && n)
			return line;
		p += n + (e ? 1 : 0);
	}
	return NULL;
}

TEST(interface_is_its_versions_snapshot)
{
	struct text t = { 0 };
	char dir[1100], path[1200], line[512];
	char *want;

	describe(&t);
	ASSERT_EQ(0, ng_fixture_dir("abi", dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/numagpu-%d.%d.txt", dir,
		 NUMAGPU_VERSION_MAJOR, NUMAGPU_VERSION_MINOR);
	want = read_file(path);
	ASSERT_NE(NULL, want)
		TH_LOG("no snapshot of %d.%d (%s): record it with build/tests/abi_test --snapshot",
		       NUMAGPU_VERSION_MAJOR, NUMAGPU_VERSION_MINOR, path);
	if (strcmp(want, t.buf)) {
		const char *m = missing_line(want, t.buf, line, sizeof(line));

		TH_LOG("the interface of %d.%d changed (%s%s): a change needs a new minor (%s)",
		       NUMAGPU_VERSION_MAJOR, NUMAGPU_VERSION_MINOR,
		       m ? "gone or changed: " : "added: ",
		       m ? m : missing_line(t.buf, want, line, sizeof(line)),
		       NUMAGPU_VERSION_MAJOR ? "from 1.0, additions only" :
		       "before 1.0, any change");
	}
	EXPECT_STREQ(want, t.buf);
	free(want);
	free(t.buf);
}

/* From 1.0, a minor only adds: every earlier minor's lines stay. */
TEST(a_minor_only_adds_from_1_0)
{
	struct text t = { 0 };
	char dir[1100], path[1300], line[512];
	struct dirent *d;
	DIR *dp;

	describe(&t);
	ASSERT_EQ(0, ng_fixture_dir("abi", dir, sizeof(dir)));
	dp = opendir(dir);
	ASSERT_NE(NULL, dp);
	while ((d = readdir(dp))) {
		int major, minor;
		char *old;
		const char *m;

		if (sscanf(d->d_name, "numagpu-%d.%d.txt", &major, &minor) != 2 ||
		    major != NUMAGPU_VERSION_MAJOR || !major ||
		    minor >= NUMAGPU_VERSION_MINOR)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		old = read_file(path);
		ASSERT_NE(NULL, old);
		m = missing_line(old, t.buf, line, sizeof(line));
		EXPECT_EQ(NULL, m) TH_LOG("%d.%d's \"%s\" is gone", major,
					  minor, m);
		free(old);
	}
	closedir(dp);
	free(t.buf);
}

TEST(a_program_takes_the_modules_the_rule_allows)
{
	unsigned int v = NUMAGPU_UAPI_VERSION;

	EXPECT_TRUE(ng_uapi_compatible(v));
	EXPECT_FALSE(ng_uapi_compatible(v + (1u << 16)));
	if (NUMAGPU_VERSION_MAJOR) {
		EXPECT_TRUE(ng_uapi_compatible(v + 1));
		if (NUMAGPU_VERSION_MINOR)
			EXPECT_FALSE(ng_uapi_compatible(v - 1));
	} else {
		/* 0.x: the exact minor only (0.4 moved the views) */
		EXPECT_FALSE(ng_uapi_compatible(v + 1));
		if (NUMAGPU_VERSION_MINOR)
			EXPECT_FALSE(ng_uapi_compatible(v - 1));
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--snapshot")) {
		struct text t = { 0 };

		describe(&t);
		fputs(t.buf, stdout);
		free(t.buf);
		return fflush(stdout) ? 1 : 0;
	}
	return test_harness_run(argc, argv);
}
