#!/bin/sh
# Tests user/papers/rec/bench.sh on a stand-in ngemu whose compare tables are
# made up: the averages it prints (geometric mean of performance, means of
# the ratios to dir, skipping workloads where dir counted nothing), the
# workloads it skips, and exit 1 when a run did not verify. Emits TAP.
set -eu
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"

# ngemu bench --list / --compare W --system rec --csv, from $tmp/W.csv
cat >"$tmp/ngemu" <<EOF
#!/bin/sh
case "\$2" in
--list) printf '  aa   1 MiB\n  bb   1 MiB\n' ;;
--compare) cat "$tmp/\$3.csv" ;;
esac
EOF
chmod +x "$tmp/ngemu"
head='workload,sweep,system,verified,modeled_s,speedup_vs_reference,l2_misses,l2_cold_misses,l2_misses_vs_reference,inv_write,inv_evict,inv_write_hits,inv_evict_hits,unnecessary_vs_reference,evict_share_of_hits,transactions,transactions_vs_reference,dir_evictions,addresses_per_eviction,entry_bits,dir_storage_bytes'
# perf 2 and 0.5 for rec: geometric mean 1 (+0.0%); misses 0.5 and 0.3:
# mean 0.4 (-60%); unnecessary only in aa (bb's dir has none): 0.1 (-90%)
cat >"$tmp/aa.csv" <<EOF
$head
aa,,dir,1,1,1,100,0,1,0,10,0,10,1,0.8,1000,1,5,1,52,1
aa,,dir-2x,1,1,1,100,0,1,0,10,0,10,1,0.8,1000,1,5,1,52,1
aa,,hmg,1,1,1,100,0,1,0,10,0,10,1,0.8,1000,1,5,1,44,1
aa,,rec,1,1,2,50,0,0.5,0,1,0,1,0.1,0.5,500,0.5,1,12,103,1
EOF
cat >"$tmp/bb.csv" <<EOF
$head
bb,,dir,1,1,1,10,0,1,0,0,0,0,0,0,100,1,0,0,52,1
bb,,dir-2x,1,1,1,10,0,1,0,0,0,0,0,0,100,1,0,0,52,1
bb,,hmg,1,1,1,10,0,1,0,0,0,0,0,0,100,1,0,0,44,1
bb,,rec,1,1,0.5,3,0,0.3,0,0,0,0,0,0,50,0.5,0,0,103,1
EOF
rc=0
WORKLOADS="aa bb cc" "$tools/../user/papers/rec/bench.sh" "$tmp/ngemu" >"$tmp/out" 2>"$tmp/err" || rc=$?
is "all verified: exit 0" 0 "$rc"
is "performance is a geometric mean" \
	"performance       +0.0%     +0.0%     +0.0%   rec +32.7%, hmg +16.7%, dir-2x +7.3%" \
	"$(grep '^performance' "$tmp/out")"
is "L2 misses are a mean of ratios" "-60.0%" \
	"$(awk '/^L2 misses/ { print $5 }' "$tmp/out")"
is "unnecessary skips a workload where dir has none" "-90.0%" \
	"$(awk '/^unnecessary/ { print $4 }' "$tmp/out")"
is "addresses per eviction over the workloads whose rec evicted" "12.00" \
	"$(awk '/^addr\/evict/ { print $2 }' "$tmp/out")"
if grep -q "cc is not built" "$tmp/err"; then pass "an unknown workload is skipped, said"; else
	diag "$(cat "$tmp/err")"; fail "an unknown workload is skipped, said"; fi
sed -i 's/^bb,,hmg,1/bb,,hmg,0/' "$tmp/bb.csv"
rc=0
WORKLOADS="aa bb" "$tools/../user/papers/rec/bench.sh" "$tmp/ngemu" >"$tmp/out" 2>&1 || rc=$?
is "a run that did not verify: exit 1" 1 "$rc"
if grep -q "not verified: bb/hmg" "$tmp/out"; then pass "it is named"; else
	diag "$(cat "$tmp/out")"; fail "it is named"; fi
echo "1..$n"
exit $failed
