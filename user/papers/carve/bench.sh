#!/bin/sh
# CARVE (Documentation/carve.rst): every CARVE workload side by side under
# NUMA-GPU, replication, CARVE-SWC/HWC/none and the ideal. carve-none's
# stale data on rwshare and bfs-road is expected and does not fail a run;
# any other failure stops it.
# Usage: user/papers/carve/bench.sh [NGEMU] [ngemu options...]
set -u
ngemu=${1:-build/ngemu}
[ $# -gt 0 ] && shift
for w in hotspot spmv bfs-road randaccess rwshare xsbench alexnet-conv; do
	"$ngemu" bench --compare "$w" "$@" || exit 1
	echo
done
