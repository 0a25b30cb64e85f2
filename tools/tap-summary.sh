#!/bin/sh
# tap-summary.sh - count results in KTAP logs written by tools/ksft-run.sh
# (and tools/vm/check-log.sh) and print one closing line:
#   N passed, N failed, N skipped
# Nested results ("# ok 3 fixture.name", one level deep) count one by one;
# a program with none counts as one result itself. Exit 1 if anything failed.
# Plain sh + POSIX awk: Debian's awk is mawk.
set -eu

case ${1-} in
-h | --help)
	echo "usage: tap-summary.sh FILE..."
	exit 0
	;;
esac
if [ $# -eq 0 ]; then
	echo "usage: tap-summary.sh FILE..." >&2
	exit 2
fi

# A missing or empty log is a failure of its own (the run never produced
# it); awk gets an empty file list entry for it so it is counted once.
missing=0
for f in "$@"; do
	if [ ! -s "$f" ]; then
		echo "tap-summary: $f: missing or empty" >&2
		echo "FAIL: $f: no results (missing or empty log)"
		missing=$((missing + 1))
	fi
done

pass=0 fail=0 skip=0
for f in "$@"; do
	[ -s "$f" ] || continue
	# One awk per file keeps per-file state (plan, counts) trivially apart.
	out=$(awk -v file="$f" '
	function is_skip(line) {
		# TAP directive after the description: "# SKIP" / "# skip reason"
		return line ~ /#[ \t]*[Ss][Kk][Ii][Pp]([^A-Za-z]|$)/
	}
	# Results of one program, flushed when its top-level line is seen.
	function flush_nested() {
		pass += np; fail += nf; skip += ns
		for (i = 1; i <= nfl; i++)
			print "FAIL: " file ": " fl[i] (toplabel != "" ? " (" toplabel ")" : "")
		np = nf = ns = nfl = 0
	}
	{ sub(/\r$/, "") }
	/^# (not )?ok [0-9]+/ {
		line = substr($0, 3)
		if (is_skip(line)) ns++
		else if (line ~ /^not ok/) { nf++; fl[++nfl] = line }
		else np++
		next
	}
	/^1\.\.[0-9]+/ {
		if (plan == "") { plan = $0; sub(/^1\.\./, "", plan); sub(/[^0-9].*/, "", plan) }
		next
	}
	/^(not )?ok [0-9]+/ {
		top++
		toplabel = $0
		sub(/^(not )?ok [0-9]+ */, "", toplabel)
		sub(/ *#.*/, "", toplabel)
		nested = np + nf + ns
		topfail = ($0 ~ /^not ok/ && !is_skip($0))
		if (nested == 0) {
			if (is_skip($0)) skip++
			else if (topfail) { fail++; print "FAIL: " file ": " $0 }
			else pass++
		} else {
			# A crash or timeout after passing subtests: the program
			# failed even though none of its own results did.
			extra = (topfail && nf == 0)
			flush_nested()
			if (extra) { fail++; print "FAIL: " file ": " $0 }
		}
		toplabel = ""
		next
	}
	END {
		# Nested results with no top-level line after them: the run
		# died inside a program; count what it printed.
		flush_nested()
		if (plan == "" || plan + 0 != top) {
			fail++
			msg = "plan " (plan == "" ? "missing" : "1.." plan) ", " top " results"
			print "FAIL: " file ": " msg
			print "tap-summary: " file ": " msg > "/dev/stderr"
		}
		print "COUNTS", pass + 0, fail + 0, skip + 0
	}' "$f")
	# Everything but the trailing COUNTS line is FAIL output for the user.
	printf '%s\n' "$out" | sed '$d'
	# shellcheck disable=SC2046 # "COUNTS p f s": split on purpose
	set -- $(printf '%s\n' "$out" | tail -n 1)
	pass=$((pass + $2)) fail=$((fail + $3)) skip=$((skip + $4))
done

fail=$((fail + missing))
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
