# shellcheck shell=sh disable=SC2154,SC2034
# Sourced by the paper benches (dualopt/bench.sh, coda/bench.sh): run
# `ngemu bench --compare` for each workload:class pair of $classes that is
# built, on preset $1 with the systems $2 (and ngemu options after them),
# into one CSV at $csv (header once) and the pairs run at $csv.paper.
# Uses $ngemu, $size and $name (for messages); sets rc=1 if a run fails.
bench_family() {
	preset=$1 systems=$2
	shift 2
	for wc in $classes; do
		w=${wc%%:*}
		if ! "$ngemu" bench --list | grep -q "^  $w "; then
			echo "$name: $w is not built (yet): skipped" >&2
			continue
		fi
		echo "$wc" >> "$csv.paper"
		# shellcheck disable=SC2086
		"$ngemu" bench --compare "$w" --system "$preset" $size --csv \
			--systems "$systems" "$@" > "$csv.one" || rc=1
		[ -s "$csv" ] || head -1 "$csv.one" > "$csv"
		tail -n +2 "$csv.one" >> "$csv"
	done
}
