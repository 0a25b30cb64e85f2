#!/bin/sh
# CODA's comparison (Documentation/coda.rst): every workload of CODA's
# Table 2 that is built, under fgp, cgp, cgp-ft, cgp-mig, coda and
# coda-uncapped on the coda preset, each against fgp; the category the
# page-access profile measured (under coda's affinity scheduling) beside
# the paper's; then the averages beside the paper's (CODA section 6):
#   speed-up   geometric mean of fgp's time / the system's
#   remote     mean of the system's remote requests / fgp's, all and by
#              the paper's category
# Usage: user/papers/coda/bench.sh [NGEMU] [ngemu options...]; SIZE=paper runs
# the paper's sizes where a workload has one. Exit 1 if a run fails to
# verify.
set -eu
ngemu=${1:-build/ngemu}
[ $# -gt 0 ] && shift
[ -x "$ngemu" ] || { echo "bench-coda: no $ngemu (run make)" >&2; exit 2; }
# CODA Table 2: workload and the paper's category
classes=${CLASSES:-"bfs:block-exclusive dc:block-exclusive pr:block-exclusive
sssp:block-exclusive bc:block-exclusive gc:block-exclusive nw:block-exclusive
km:core-exclusive ge:core-exclusive
nn:core-exclusive spmv:core-exclusive sad:core-exclusive mm:core-exclusive
cfd:core-exclusive cc:block-majority dwt:core-majority mummergpu:core-majority
tc:sharing hotspot3d:sharing hybridsort:sharing"}
size=${SIZE:+--size $SIZE}
csv=$(mktemp)
trap 'rm -f "$csv" "$csv.one" "$csv.paper"' EXIT
rc=0
name=bench-coda
# shellcheck source=user/papers/bench-family.sh
. "$(dirname "$0")/../bench-family.sh"
bench_family coda fgp,cgp,cgp-ft,cgp-mig,coda,coda-uncapped "$@"
awk -F, -v paper="$csv.paper" '
BEGIN { while ((getline l < paper) > 0) { split(l, p, ":"); pc[p[1]] = p[2] } }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	w = $col["workload"]; s = $col["system"]
	if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
	sp[w, s] = $col["speedup_vs_reference"]; rm[w, s] = $col["remote_vs_reference"]
	if (s == "coda") {
		cat[w] = $col["category"]; ob[w] = $col["one_block"]
		og[w] = $col["one_gpu"]
	}
	if (!$col["verified"]) bad = bad " " w "/" s
}
END {
	n = split("cgp cgp-ft cgp-mig coda coda-uncapped", sys, " ")
	printf "%-10s %-16s %-16s %7s %7s  %-31s %s\n", "", "", "", "pages", "pages",
	       "speed-up over fgp", "remote over fgp"
	printf "%-10s %-16s %-16s %7s %7s ", "wl", "paper category", "ngemu category",
	       "1-block", "1-GPU"
	for (j = 1; j <= n; j++) printf " %7s", substr(sys[j], 1, 7)
	for (j = 1; j <= n; j++) printf " %7s", substr(sys[j], 1, 7)
	printf "\n"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "%-10s %-16s %-16s %6.1f%% %6.1f%% ", w, pc[w], cat[w],
		       100 * ob[w], 100 * og[w]
		for (j = 1; j <= n; j++) printf " %7.3f", sp[w, sys[j]]
		for (j = 1; j <= n; j++) printf " %7.3f", rm[w, sys[j]]
		printf "\n"
		if (cat[w] == pc[w]) same++
	}
	printf "\ncategories: %d of %d as the paper\n", same, nw
	printf "%-22s", "average"
	for (j = 1; j <= n; j++) printf " %13s", sys[j]
	printf "   paper (CODA 6.1, coda vs fgp)\n"
	printf "%-22s", "speed-up"
	for (j = 1; j <= n; j++) {
		l = 0; k = 0
		for (i = 1; i <= nw; i++) if (sp[order[i], sys[j]] > 0) {
			l += log(sp[order[i], sys[j]]); k++
		}
		printf " %12.2fx", k ? exp(l / k) : 0
	}
	printf "   1.31x (first touch: 1.19x ideal, 1.07x by migration)\n"
	split("all block-exclusive core-exclusive sharing", cats, " ")
	split("-38% -47% -34% -32%", pv, " ")
	for (c = 1; c <= 4; c++) {
		printf "%-22s", "remote, " cats[c]
		for (j = 1; j <= n; j++) {
			t = 0; k = 0
			for (i = 1; i <= nw; i++) {
				w = order[i]
				if (cats[c] != "all" && pc[w] != cats[c]) continue
				t += rm[w, sys[j]]; k++
			}
			if (k) printf " %+12.0f%%", 100 * (t / k - 1)
			else printf " %13s", "-"
		}
		printf "   %s\n", pv[c]
	}
	if (bad != "") { printf "\nnot verified:%s\n", bad; exit 1 }
}' "$csv" || rc=1
exit $rc
