#!/bin/sh
# Documentation/index.rst's table of the papers' states against
# Documentation/status.rst, so that they cannot drift apart. A section of
# status.rst whose table has a "paper" column is a paper's; its state,
# read from the words of the table's "state" column only, is
#   done     the column says done and nowhere partial or not yet (a row
#            "done: ...; partial: ..." makes its paper partial),
#   not yet  the column says neither done nor partial,
#   partial  otherwise. index.rst's table has the
# columns "paper" (status.rst's section title) and "state". Emits TAP, one
# check per paper naming it; exit 1 if a check failed. NUMAGPU_TOP=DIR
# checks another tree (used to prove a changed word fails).
set -eu
. "$(dirname "$0")/lib.sh"
top=${NUMAGPU_TOP:-$(cd "$tools/.." && pwd)}
doc=$top/Documentation
echo "TAP version 13"

# paper_states FILE: "TITLE<TAB>STATE" for each section with a paper column
paper_states() {
	awk '
	function word(text, w) {
		return text ~ ("(^|[^[:alpha:]])" w "([^[:alpha:]]|$)")
	}
	function flush() {
		if (title != "" && papercol && n > 0) {
			d = word(text, "done"); p = word(text, "partial")
			y = word(text, "not yet")
			if (d && !p && !y) s = "done"
			else if (!d && !p) s = "not yet"
			else s = "partial"
			printf "%s\t%s\n", title, s
		}
		papercol = 0; statecol = 0; borders = 0; n = 0; text = ""
	}
	# column starts of a table border: where each run of "=" begins
	function columns(line, starts,   i, k, c, prev) {
		k = 0; prev = " "
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "=" && prev == " ")
				starts[++k] = i
			prev = c
		}
		return k
	}
	/^=+$/ && prev !~ /^=*$/ && prev !~ /^ / {
		flush(); title = prev; prev = $0; next
	}
	/^=+( +=+)+$/ {
		borders++
		if (borders == 1)
			ncol = columns($0, start)
		if (borders == 3)
			borders = 0
		prev = $0; next
	}
	borders == 1 {
		# the header: which columns are "paper" and "state"
		for (i = 1; i <= ncol; i++) {
			end = i < ncol ? start[i + 1] - start[i] : length($0)
			name = substr($0, start[i], end)
			gsub(/^ +| +$/, "", name)
			if (name == "paper") papercol = i
			if (name == "state") statecol = start[i]
		}
	}
	borders == 2 && statecol {
		text = text " " substr($0, statecol); n++
	}
	{ prev = $0 }
	END { flush() }
	' "$1"
}

# index_states FILE: "PAPER<TAB>STATE" from the table headed paper, state
index_states() {
	awk '
	/^=+( +=+)+$/ {
		borders++
		if (borders == 1) {
			statecol = 0
			# the second column: after the first run of "=" and spaces
			match($0, /^=+ +/)
			col = RLENGTH + 1
		}
		if (borders == 3) { borders = 0; want = 0 }
		next
	}
	borders == 1 {
		name = substr($0, 1, col - 1); state = substr($0, col)
		gsub(/^ +| +$/, "", name); gsub(/^ +| +$/, "", state)
		want = name == "paper" && state == "state"
	}
	borders == 2 && want && $0 !~ /^ *$/ {
		name = substr($0, 1, col - 1); state = substr($0, col)
		gsub(/^ +| +$/, "", name); gsub(/^ +| +$/, "", state)
		printf "%s\t%s\n", name, state
	}
	' "$1"
}

paper_states "$doc/status.rst" >"$tmp/status"
index_states "$doc/index.rst" >"$tmp/index"

# 1. both files have the tables (the comparison is not empty)
is "status.rst has papers' tables" yes \
	"$([ -s "$tmp/status" ] && echo yes || echo no)"
is "index.rst has a table of paper and state" yes \
	"$([ -s "$tmp/index" ] && echo yes || echo no)"

# 2. each paper of status.rst: index.rst gives it the same state
tab=$(printf '\t')
while IFS="$tab" read -r paper state; do
	got=$(awk -F "$tab" -v p="$paper" '$1 == p { print $2 }' "$tmp/index")
	[ -n "$got" ] || got="(no row)"
	if [ "$got" != "$state" ]; then
		diag "$paper: status.rst's rows say $state, index.rst says $got"
	fi
	is "$paper: index.rst's state is status.rst's" "$state" "$got"
done <"$tmp/status"

# 3. index.rst names no paper status.rst lacks
extra=""
while IFS="$tab" read -r paper state; do
	awk -F "$tab" -v p="$paper" '$1 == p { f = 1 } END { exit !f }' \
		"$tmp/status" || extra="$extra [$paper]"
done <"$tmp/index"
is "index.rst names only papers of status.rst" "" "$extra"

# 4. a changed word fails, naming the paper: a copy of the tree whose
#    index.rst says done for a partial paper, or whose status.rst says
#    partial in a done paper's row
if [ -z "${NUMAGPU_TOP:-}" ]; then
	partial=$(awk -F "$tab" '$2 == "partial" { print $1; exit }' "$tmp/status")
	done_one=$(awk -F "$tab" '$2 == "done" { print $1; exit }' "$tmp/status")
	for change in index status; do
		bad=$tmp/bad-$change
		mkdir -p "$bad/Documentation"
		cp "$doc/index.rst" "$doc/status.rst" "$bad/Documentation/"
		if [ $change = index ] && [ -n "$partial" ]; then
			victim=$partial
			awk -v p="$partial" '
			index($0, p) == 1 && /partial *$/ { sub(/partial *$/, "done") }
			{ print }' "$doc/index.rst" >"$bad/Documentation/index.rst"
		elif [ $change = status ] && [ -n "$done_one" ]; then
			victim=$done_one
			# the first "done" in that section's state column
			awk -v p="$done_one" '
			$0 == p { in_p = 1 }
			in_p && !hit && / done/ && !/^=/ {
				sub(/ done/, " partial"); hit = 1
			}
			{ print }' "$doc/status.rst" >"$bad/Documentation/status.rst"
		else
			fail "a changed word in $change.rst fails (no paper to change)"
			continue
		fi
		out=$(NUMAGPU_TOP=$bad "$0" 2>&1 || true)
		named=$(echo "$out" | grep '^not ok ' | grep -c -F "$victim: " || true)
		is "a changed word in $change.rst fails, naming $victim" 1 "$named"
	done
fi

echo "1..$n"
exit $failed
