#!/bin/sh
# DualOpt's comparison (Documentation/dualopt.rst): every workload of
# DualOpt Table 2 under baseline, page-migration, fine, coalesce,
# rdma-cache and dualopt on the dualopt preset, against the baseline, then
# the class the decision engine chose beside the paper's, and the averages
# beside the paper's (DualOpt section 6.1):
#   speed-up     geometric mean of the baseline's time / the system's
#   traffic      mean of the baseline's inter-GPU bytes / the system's
#   latency      mean of the baseline's remote-load latency / the system's
# and the memory-side L2s' and the RDMA cache's hit rates (Fig. 17).
# Then, on the cache-insensitive workloads, coalesce's speed-up at each
# transfer granularity and CoDec timeout (section 6.2).
# Usage: user/papers/dualopt/bench.sh [NGEMU] [ngemu options...]; SIZE=paper runs
# MGPUSim's problem sizes (minutes), default each workload's small size.
# SWEEPS=0 skips the sweeps. Exit 1 if a run fails to verify.
set -eu
ngemu=${1:-build/ngemu}
[ $# -gt 0 ] && shift
[ -x "$ngemu" ] || { echo "bench-dualopt: no $ngemu (run make)" >&2; exit 2; }
# DualOpt Table 2: workload and the paper's class
classes=${CLASSES:-"atax:cache-insensitive bfs-shoc:cache-insensitive
bicg:cache-insensitive pr:cache-insensitive spmv:cache-insensitive
km:cache-friendly mm:cache-friendly mt:cache-friendly st:cache-friendly
bs:cache-friendly sc:cache-friendly aes:local-dominated fir:local-dominated"}
size=${SIZE:+--size $SIZE}
csv=$(mktemp)
trap 'rm -f "$csv" "$csv.one" "$csv.paper"' EXIT
rc=0
name=bench-dualopt
# shellcheck source=user/papers/bench-family.sh
. "$(dirname "$0")/../bench-family.sh"
bench_family dualopt baseline,page-migration,fine,coalesce,rdma-cache,dualopt "$@"
awk -F, -v paper="$csv.paper" '
BEGIN { while ((getline l < paper) > 0) { split(l, p, ":"); pc[p[1]] = p[2] } }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	w = $col["workload"]; s = $col["system"]
	if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
	sp[w, s] = $col["speedup_vs_reference"]; by[w, s] = $col["link_bytes"]
	lat[w, s] = $col["remote_latency_ns"]; l2[w, s] = $col["l2_hit_rate"]
	rh[w, s] = $col["rdma_hit_rate"]
	if (s == "dualopt") {
		cls[w] = $col["class"]; rr[w] = $col["remote_ratio"]
		ut[w] = $col["utilization"]; hr[w] = $col["l1_hit_rate"]
	}
	if (!$col["verified"]) bad = bad " " w "/" s
}
function inv(a, b) { return b > 0 ? a / b : 0 }
END {
	n = split("page-migration fine coalesce rdma-cache dualopt", sys, " ")
	printf "%-8s %-17s %-17s %7s %6s %6s  %-37s %8s %8s\n", "", "", "",
	       "engine,", "GPU 0", "", "speed-up over the baseline", "traffic", "latency"
	printf "%-8s %-17s %-17s %7s %6s %6s ", "wl", "paper class", "ngemu class",
	       "remote", "util", "l1hit"
	for (j = 1; j <= n; j++) printf " %7s", substr(sys[j], 1, 7)
	printf " %8s %8s\n", "/dualopt", "/dualopt"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "%-8s %-17s %-17s %6.1f%% %6.3f %5.1f%% ", w, pc[w], cls[w],
		       100 * rr[w], ut[w], 100 * hr[w]
		for (j = 1; j <= n; j++) printf " %7.3f", sp[w, sys[j]]
		printf " %7.2fx %7.2fx\n", inv(by[w, "baseline"], by[w, "dualopt"]),
		       inv(lat[w, "baseline"], lat[w, "dualopt"])
		if (cls[w] == pc[w]) same++
	}
	printf "\nclasses: %d of %d as the paper\n", same, nw
	printf "%-13s", "average"
	for (j = 1; j <= n; j++) printf " %9s", sys[j]
	printf "   paper (DualOpt 6.1, dualopt vs baseline)\n"
	for (j = 1; j <= n; j++) {
		s = sys[j]; l = 0; k = 0; t = 0; kt = 0; a = 0; ka = 0
		for (i = 1; i <= nw; i++) {
			w = order[i]
			if (sp[w, s] > 0) { l += log(sp[w, s]); k++ }
			if (by[w, s] > 0) { t += by[w, "baseline"] / by[w, s]; kt++ }
			if (lat[w, s] > 0) { a += lat[w, "baseline"] / lat[w, s]; ka++ }
		}
		g[j] = k ? exp(l / k) : 0; tr[j] = kt ? t / kt : 0; la[j] = ka ? a / ka : 0
	}
	printf "%-13s", "speed-up"; for (j = 1; j <= n; j++) printf " %8.2fx", g[j]
	printf "   2.5x\n"
	printf "%-13s", "traffic"; for (j = 1; j <= n; j++) printf " %8.2fx", tr[j]
	printf "   4.4x less\n"
	printf "%-13s", "latency"; for (j = 1; j <= n; j++) printf " %8.2fx", la[j]
	printf "   2.4x lower\n"
	# Fig. 17: the L2s lose hits to the RDMA cache, which saves remote accesses
	for (i = 1; i <= nw; i++) {
		w = order[i]; lb += l2[w, "baseline"]; ld += l2[w, "dualopt"]
		if (cls[w] == "cache-friendly") { rs += rh[w, "dualopt"]; nf++ }
	}
	printf "\nL2 hit rate   baseline %.1f%%, dualopt %.1f%%   paper (Fig. 17): 21%% -> 13%%\n",
	       nw ? 100 * lb / nw : 0, nw ? 100 * ld / nw : 0
	printf "RDMA cache    %.1f%% of remote loads served, on the %d cache-friendly   paper: 35%%\n",
	       nf ? 100 * rs / nf : 0, nf
	if (bad != "") { printf "\nnot verified:%s\n", bad; exit 1 }
}' "$csv" || rc=1
[ "${SWEEPS:-1}" = 0 ] && exit $rc
for wc in $(cat "$csv.paper"); do
	w=${wc%%:*}
	[ "${wc#*:}" = cache-insensitive ] || continue
	for key in xfer-gran=4,8,16,32,64 codec-timeout=10,30,50; do
		echo
		echo "$w: coalesce, --sweep $key"
		# shellcheck disable=SC2086
		"$ngemu" bench --compare "$w" --system dualopt $size \
			--systems baseline,coalesce --sweep "$key" "$@" |
			awk '/^[a-z0-9-]+ +(baseline|coalesce) /' || rc=1
	done
done
exit $rc
