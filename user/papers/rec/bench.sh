#!/bin/sh
# REC's comparison (Documentation/rec.rst): every workload of REC Table 3
# under dir, dir-2x, hmg and rec in REC's scaled regime, normalized to
# dir, then the averages beside the paper's (REC section 5.2):
#   performance     geometric mean of dir's time / the system's
#   l2-misses       mean of the system's non-cold L2 misses / dir's
#   unnecessary     mean of eviction-initiated invalidations that hit / dir's
#   transactions    mean of inter-GPU transactions / dir's
#   evict share     dir: eviction-initiated share of the invalidations that hit
#   addr/evict      rec: lines an evicted entry held (Fig. 12)
# Means skip a workload where dir's count is 0 (nothing to normalize).
# Usage: user/papers/rec/bench.sh [NGEMU] [ngemu options...]; SIZE=paper/8 runs at
# 1/8 of the paper's footprints (the regime's scale; minutes), default: each
# workload's own small size (seconds). Exit 1 if a run fails to verify.
set -eu
ngemu=${1:-build/ngemu}
[ $# -gt 0 ] && shift
[ -x "$ngemu" ] || { echo "bench-rec: no $ngemu (run make)" >&2; exit 2; }
workloads=${WORKLOADS:-"atax c2d fir gemm gemv j2d lu mm2 mm3 pr sc st"}
size=${SIZE:+--size $SIZE}
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
rc=0
for w in $workloads; do
	if ! "$ngemu" bench --list | grep -q "^  $w "; then
		echo "bench-rec: $w is not built (yet): skipped" >&2
		continue
	fi
	# shellcheck disable=SC2086
	"$ngemu" bench --compare "$w" --system rec $size --csv "$@" > "$csv.one" || rc=1
	if [ ! -s "$csv" ]; then
		head -1 "$csv.one" > "$csv"
	fi
	tail -n +2 "$csv.one" >> "$csv"
done
rm -f "$csv.one"
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	w = $col["workload"]; s = $col["system"]
	if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
	perf[w, s] = $col["speedup_vs_reference"]
	miss[w, s] = $col["l2_misses"]; unn[w, s] = $col["inv_evict_hits"]
	xact[w, s] = $col["transactions"]; share[w, s] = $col["evict_share_of_hits"]
	addr[w, s] = $col["addresses_per_eviction"]
	if (!$col["verified"]) bad = bad " " w "/" s
}
function ratio(a, b) { return b > 0 ? a / b : -1 }
END {
	split("dir-2x hmg rec", sys, " ")
	printf "%-6s %27s %27s %27s %7s %6s\n", "", "perf vs dir", "L2 misses vs dir",
	       "unnecessary invals vs dir", "evict%", "addr/"
	printf "%-6s", "wl"
	for (k = 0; k < 3; k++) for (j = 1; j <= 3; j++) printf " %8s", sys[j]
	printf " %7s %6s\n", "(dir)", "evict"
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "%-6s", w
		for (j = 1; j <= 3; j++) printf " %8.3f", perf[w, sys[j]]
		for (j = 1; j <= 3; j++) {
			r = ratio(miss[w, sys[j]], miss[w, "dir"])
			if (r < 0) printf " %8s", "-"; else printf " %8.3f", r
		}
		for (j = 1; j <= 3; j++) {
			r = ratio(unn[w, sys[j]], unn[w, "dir"])
			if (r < 0) printf " %8s", "-"; else printf " %8.3f", r
		}
		printf " %6.1f%% %6.2f\n", 100 * share[w, "dir"], addr[w, "rec"]
	}
	printf "\n%-13s %9s %9s %9s   %s\n", "average", "dir-2x", "hmg", "rec", "paper (REC 5.2, vs dir)"
	for (j = 1; j <= 3; j++) {
		s = sys[j]; lp = 0; np = 0; sm = 0; nm = 0; su = 0; nu = 0; sx = 0; nx = 0
		for (i = 1; i <= nw; i++) {
			w = order[i]
			if (perf[w, s] > 0) { lp += log(perf[w, s]); np++ }
			if (miss[w, "dir"] > 0) { sm += miss[w, s] / miss[w, "dir"]; nm++ }
			if (unn[w, "dir"] > 0) { su += unn[w, s] / unn[w, "dir"]; nu++ }
			if (xact[w, "dir"] > 0) { sx += xact[w, s] / xact[w, "dir"]; nx++ }
		}
		gp[j] = np ? exp(lp / np) : 0; am[j] = nm ? sm / nm : 0
		au[j] = nu ? su / nu : 0; ax[j] = nx ? sx / nx : 0
	}
	printf "%-13s %+8.1f%% %+8.1f%% %+8.1f%%   rec +32.7%%, hmg +16.7%%, dir-2x +7.3%%\n",
	       "performance", 100 * (gp[1] - 1), 100 * (gp[2] - 1), 100 * (gp[3] - 1)
	printf "%-13s %+8.1f%% %+8.1f%% %+8.1f%%   rec -53.5%%\n", "L2 misses",
	       100 * (am[1] - 1), 100 * (am[2] - 1), 100 * (am[3] - 1)
	printf "%-13s %+8.1f%% %+8.1f%% %+8.1f%%   rec -84.4%%\n", "unnecessary",
	       100 * (au[1] - 1), 100 * (au[2] - 1), 100 * (au[3] - 1)
	printf "%-13s %+8.1f%% %+8.1f%% %+8.1f%%   rec -34.9%%\n", "transactions",
	       100 * (ax[1] - 1), 100 * (ax[2] - 1), 100 * (ax[3] - 1)
	se = 0; ne = 0; sa = 0; na = 0
	for (i = 1; i <= nw; i++) {
		w = order[i]
		if (unn[w, "dir"] > 0) { se += share[w, "dir"]; ne++ }
		if (addr[w, "rec"] > 0) { sa += addr[w, "rec"]; na++ }
	}
	printf "%-13s %9.1f%%   dir: 79.5%% of the invalidations that hit are eviction-initiated (over %d workloads)\n",
	       "evict share", ne ? 100 * se / ne : 0, ne
	printf "%-13s %9.2f   rec 1 KB: 12.9 lines per evicted entry (over the %d workloads whose rec evicted)\n",
	       "addr/evict", na ? sa / na : 0, na
	if (bad != "") { printf "\nnot verified:%s\n", bad; exit 1 }
}' "$csv" || rc=1
exit $rc
