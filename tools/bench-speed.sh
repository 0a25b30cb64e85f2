#!/bin/sh
# The emulator's speed against its goals, each figure beside the figure it
# must reach (the median of N runs; the machine is noisy, so a figure is a
# ratio or a rate measured inside one run, never a timed test):
#   - the full pipeline (fgp placement, RDC, HWC), threaded: line requests
#     a second per worker thread;
#   - the same, --deterministic, on one thread;
#   - the counting model's stream-triad (no L2, no RDC), emulated / native
#     in the same run.
# Usage: tools/bench-speed.sh [NGEMU] (N=9 by default). Exit 1 if a goal
# is missed.
set -eu
ngemu=${1:-build/ngemu}
n=${N:-9}
[ -x "$ngemu" ] || { echo "bench-speed: no $ngemu (run make)" >&2; exit 2; }

# median VALUE of "key" over n runs of ngemu bench ARGS --json
median() {
	key=$1
	shift
	i=0
	while [ $i -lt "$n" ]; do
		"$ngemu" bench "$@" --json | sed -n "s/.*\"$key\": \([0-9.e+-]*\),*/\1/p"
		i=$((i + 1))
	done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

fail=0
row() { # NAME VALUE GOAL UNIT SCALE
	awk -v name="$1" -v v="$2" -v goal="$3" -v unit="$4" -v scale="$5" 'BEGIN {
		ok = v + 0 >= goal + 0
		printf "%-44s %10.2f %-10s goal >= %-6s %s\n", name, v / scale, unit,
		       goal / scale, ok ? "met" : "MISSED"
		exit !ok
	}' || fail=1
}

full="stream-triad --placement fgp --no-native"
row "full pipeline, threaded, per worker" \
	"$(median requests_per_s_per_worker $full)" 1000000 "M req/s" 1e6
row "full pipeline, deterministic, one thread" \
	"$(median requests_per_s_per_worker $full --deterministic)" 6600000 "M req/s" 1e6
row "counting-model triad, emulated / native" \
	"$(median ratio stream-triad --l2-size 0 --rdc-size 0)" 0.6 "" 1
exit $fail
