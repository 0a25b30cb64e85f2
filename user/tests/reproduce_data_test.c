// SPDX-License-Identifier: GPL-2.0
/*
 * The papers' own data files (user/papers/PAPER/reproduce.txt, which `ngemu
 * reproduce PAPER` runs) name workloads ngemu builds, and each paper's
 * BFS is the one it ran: DualOpt SHOC's warp-centric kernel (bfs-shoc),
 * CARVE Rodinia's on a road network (bfs-road), CODA Rodinia's on its
 * random graph (bfs). Every list counts: the experiment's, and each
 * claim's, figure's and sweep's. And every line fits the 1024 bytes
 * reproduce reads a line into (a longer one would be read as two), and
 * none repeats the title, preset, reference or systems of its plug-in.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ng_test.h"

#include "fixture_dir.h"
#include "ngemu/workloads/workload.h"

/*
 * The workloads of every list in the papers' own data file @paper (the
 * experiment's, and each claim's, figure's and sweep's after its fields):
 * each one ngemu builds, @want among them wherever a BFS is, @not never.
 * Returns the lists that name @want.
 */
static unsigned int paper_lists(struct __test_metadata *_metadata,
				const char *paper, const char *want,
				const char *not)
{
	char dir[1200], path[1300], line[1024];
	unsigned int with = 0;
	char *top;
	FILE *f;

	if (ng_fixture_dir("", dir, sizeof(dir)))
		return 0;
	top = strstr(dir, "/user/tests/fixtures");
	if (!top)
		return 0;
	*top = '\0';
	snprintf(path, sizeof(path), "%s/user/papers/%s/reproduce.txt", dir, paper);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* a line's fields; the list is the one past the kind's own */
		static const struct { const char *kind; int fields; } kinds[] = {
			{ "workloads ", 0 }, { "claim ", 6 }, { "figure ", 4 },
			{ "sweep ", 5 },
		};
		char *list = NULL, *tok, *save = NULL;
		bool bfs = false, named = false;

		/* reproduce reads lines of fewer than 1024 characters */
		EXPECT_TRUE(strchr(line, '\n') || feof(f))
			TH_LOG("%s.txt: a line over %zu characters: %.40s...", paper,
			       sizeof(line) - 2, line);
		line[strcspn(line, "\n")] = '\0';
		/* what the paper's plug-in says, the data file does not repeat */
		EXPECT_EQ(0, !strncmp(line, "title ", 6) ||
			     !strncmp(line, "preset ", 7) ||
			     !strncmp(line, "reference ", 10) ||
			     !strncmp(line, "systems ", 8))
			TH_LOG("%s: '%.40s' repeats the plug-in", paper, line);
		for (unsigned int k = 0; k < 4 && !list; k++) {
			char *p = line;
			int n = 1;

			if (strncmp(line, kinds[k].kind, strlen(kinds[k].kind)))
				continue;
			if (!kinds[k].fields) {
				list = line + strlen(kinds[k].kind);
				break;
			}
			while ((p = strstr(p, " | ")) && n < kinds[k].fields) {
				p += 3;
				n++;
			}
			if (p && n == kinds[k].fields)
				list = p + 3;
		}
		if (!list)
			continue;
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			EXPECT_NE(NULL, ng_workload_find(tok))
				TH_LOG("%s.txt names '%s'", paper, tok);
			EXPECT_STRNE(not, tok) TH_LOG("%s.txt", paper);
			bfs |= !strncmp(tok, "bfs", 3);
			named |= !strcmp(tok, want);
		}
		EXPECT_EQ(bfs, named) TH_LOG("%s.txt: a BFS but not %s", paper, want);
		with += named;
	}
	fclose(f);
	return with;
}

TEST(each_papers_data_runs_its_own_bfs)
{
	char dir[1200];

	if (ng_fixture_dir("", dir, sizeof(dir)) ||
	    !strstr(dir, "/user/tests/fixtures"))
		SKIP(return, "no user/papers beside the test's sources");
	/* the experiment, its claims, figures and sweeps */
	EXPECT_LE(12, paper_lists(_metadata, "dualopt", "bfs-shoc", "bfs"));
	EXPECT_LE(10, paper_lists(_metadata, "carve", "bfs-road", "bfs"));
	EXPECT_LE(2, paper_lists(_metadata, "coda", "bfs", "bfs-road"));
	EXPECT_LE(2, paper_lists(_metadata, "coda", "bfs", "bfs-shoc"));
	EXPECT_LE(0, paper_lists(_metadata, "rec", "bfs", "bfs-road"));
	EXPECT_LE(0, paper_lists(_metadata, "scalegpu", "bfs", "bfs-road"));
}

TEST_HARNESS_MAIN
