#!/bin/sh
# Threaded against deterministic modeled time (Documentation/runtime.rst):
# for every preset and every workload of its suite (ngemu bench --list),
#   - at the preset's own configuration and the workload's default size:
#     one --deterministic run, N threaded runs and one threaded run under
#     --stress 50 (the host's threads perturbed), and
#   - in the preset's compare regime, every system of the preset:
#     ngemu bench --compare W --system P --agreement N;
# each threaded modeled time must be within 1% of the deterministic one
# and the threaded runs within 1% of each other (the design's bound is 2%;
# everything but --steal and the kernels that race across GPUs on
# their data, bfs-shoc and bc (Documentation/runtime.rst), is expected to
# agree exactly).
# Usage: tools/bench-agreement.sh [NGEMU] (N=2 by default; PRESETS to
# restrict, e.g. PRESETS="carve rec"). About 15 minutes here (2 CPUs).
# Exit 1 if any run disagrees or fails to verify where it should.
set -eu
ngemu=${1:-build/ngemu}
n=${N:-2}
presets=${PRESETS:-"carve dualopt rec scalegpu coda"}
[ -x "$ngemu" ] || { echo "bench-agreement: no $ngemu (run make)" >&2; exit 2; }

# the workloads of suite $1, from the registry
workloads() {
	"$ngemu" bench --list --json | awk -v suite="$1" '
		/"name":/ { gsub(/[",]/, "", $2); name = $2 }
		/"suites":/ { insuite = 1; found = 0; next }
		insuite && /\]/ { insuite = 0; if (found) print name; next }
		insuite { gsub(/[",[:space:]]/, ""); if ($0 == suite) found = 1 }'
}

modeled() { # ARGS -> modeled_s of the run (its first, the kernel total)
	"$ngemu" bench "$@" --no-native --json 2>/dev/null |
		sed -n 's/.*"modeled_s": \([0-9.e+-]*\),*/\1/p' | head -n 1
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail=0
printf '%-9s %-13s %14s %14s %9s %9s  %s\n' preset workload deterministic \
	"threaded mean" spread diff "compare systems"
for p in $presets; do
	for w in $(workloads "$p"); do
		det=$(modeled "$w" --system "$p" --deterministic)
		runs=""
		i=0
		while [ $i -lt "$n" ]; do
			runs="$runs $(modeled "$w" --system "$p")"
			i=$((i + 1))
		done
		runs="$runs $(modeled "$w" --system "$p" --stress 50)"
		# exit 1: a threaded mean or spread past 1% (a run that fails to
		# verify, as without coherence by design, does not count here)
		if "$ngemu" bench --compare "$w" --system "$p" --agreement "$n" \
			> "$out" 2>&1; then
			cmp=agree
		else
			cmp=DISAGREE
		fi
		line=$(echo "$det $runs" | awk -v p="$p" -v w="$w" -v cmp="$cmp" '{
			det = $1; lo = hi = $2; s = 0
			for (i = 2; i <= NF; i++) {
				s += $i
				if ($i < lo) lo = $i
				if ($i > hi) hi = $i
			}
			mean = s / (NF - 1)
			spread = mean > 0 ? (hi - lo) / mean * 100 : 0
			diff = det > 0 ? (mean - det) / det * 100 : 0
			ok = det > 0 && spread <= 1 && diff <= 1 && diff >= -1 &&
			     cmp == "agree"
			printf "%-9s %-13s %11.3f us %11.3f us %8.2f%% %+8.2f%%  %s%s\n",
			       p, w, det * 1e6, mean * 1e6, spread, diff, cmp,
			       ok ? "" : "  MISSED"
		}')
		echo "$line"
		case $line in *MISSED*)
			fail=1
			sed 's/^/    /' "$out" ;;
		esac
	done
done
exit $fail
