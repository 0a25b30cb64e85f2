#!/bin/sh
# Rewrite the golden outputs of compare_fixture_test from the ngemu at hand
# (default build/ngemu): one `ngemu bench --compare W --json ARGS` per line
# of user/tests/fixtures/compare/cases. Run it only when a change of the
# model's results is intended, and say in the commit why they changed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ngemu=${NGEMU:-$top/build/ngemu}
dir=$top/user/tests/fixtures/compare
[ -x "$ngemu" ] || { echo "update-fixtures: no $ngemu (run make)" >&2; exit 1; }
grep -v '^#' "$dir/cases" | while read -r wl want args; do
	[ -n "$wl" ] || continue
	# shellcheck disable=SC2086
	set +e
	"$ngemu" bench --compare "$wl" --json $args > "$dir/$wl.json" 2>/dev/null
	rc=$?
	set -e
	if [ "$rc" != "$want" ]; then
		echo "update-fixtures: $wl exited $rc, the case says $want" >&2
		exit 1
	fi
	echo "$wl: $(wc -c < "$dir/$wl.json") bytes"
done
