#!/bin/sh
# Tests tools/ksft-run.sh with made-up test programs, under the host's sh and
# (when installed) under busybox sh with busybox applets first in PATH, as
# in the VM guest. Emits TAP; exit 1 if a check failed.
# NUMAGPU_TOOLS=DIR tests the tools in DIR.
set -eu
. "$(dirname "$0")/lib.sh"
has_line() { # DESC LINE: LINE must be a whole line of $out
	if printf '%s\n' "$out" | grep -qxF -- "$2"; then pass "$1"; else
		diag "no line: $2" "in output:" "$out"
		fail "$1"
	fi
}
echo "TAP version 13"

t=$tmp/tests
mkdir -p "$t"
cat >"$t/passer.sh" <<'EOF'
#!/bin/sh
echo "out line"
echo "err line" >&2
echo "env FOO=$FOO"
printf 'no newline at the end'
EOF
cat >"$t/failer.sh" <<'EOF'
#!/bin/sh
echo "ok 1 sub.a"
echo "not ok 2 sub.b"
exit 1
EOF
printf '#!/bin/sh\necho "cannot run here"\nexit 4\n' >"$t/skipper.sh"
# The background sleep outlives a plain kill of the script: it must not
# keep the runner waiting.
printf '#!/bin/sh\necho "about to hang"\nsleep 60 &\nsleep 60\n' >"$t/hanger.sh"
chmod +x "$t"/*.sh
# Binaries, not only scripts.
for b in true false; do
	for d in /usr/bin /bin; do
		[ -x "$d/$b" ] && cp "$d/$b" "$t/bin_$b" && break
	done
done

# run_ksft SH ARGS...: sets rc, out, secs
run_ksft() {
	sh=$1
	shift
	rc=0
	start=$(date +%s)
	out=$(cd "$t" && FOO=bar $sh "$tools/ksft-run.sh" "$@" 2>"$tmp/stderr") || rc=$?
	secs=$(($(date +%s) - start))
}

runner_checks() { # LABEL SH
	l=$1
	run_ksft "$2" -s suite -t 2 ./passer.sh failer.sh skipper.sh hanger.sh bin_true bin_false
	is "$l: exit 1 when a program failed" 1 "$rc"
	is "$l: KTAP header" "TAP version 13" "$(printf '%s\n' "$out" | head -n 1)"
	has_line "$l: plan" "1..6"
	has_line "$l: pass" "ok 1 suite: passer.sh"
	has_line "$l: fail" "not ok 2 suite: failer.sh"
	has_line "$l: skip (exit 4)" "ok 3 suite: skipper.sh # SKIP"
	has_line "$l: timeout" "not ok 4 suite: hanger.sh # TIMEOUT 2 seconds"
	has_line "$l: binary passes" "ok 5 suite: bin_true"
	has_line "$l: binary fails" "not ok 6 suite: bin_false"
	has_line "$l: stdout prefixed" "# out line"
	has_line "$l: stderr prefixed" "# err line"
	has_line "$l: environment passed through" "# env FOO=bar"
	has_line "$l: unterminated last line kept apart" "# no newline at the end"
	has_line "$l: nested results prefixed" "# not ok 2 sub.b"
	# 2 s limit, a couple of seconds to clean up: far below the 60 s sleep.
	if [ "$secs" -lt 20 ]; then pass "$l: hung program's children killed ($secs s)"; else
		fail "$l: hung program's children killed ($secs s)"
	fi
	if printf '%s\n' "$out" | grep -Ev '^(# |TAP version 13$|1\.\.[0-9]+$|(not )?ok [0-9]+ suite: )' >"$tmp/odd"; then
		diag "unexpected lines:" "$(cat "$tmp/odd")"
		fail "$l: every line is KTAP"
	else
		pass "$l: every line is KTAP"
	fi

	run_ksft "$2" ./passer.sh skipper.sh bin_true
	is "$l: exit 0 when nothing failed" 0 "$rc"
	has_line "$l: suite defaults to the directory name" "ok 1 tests: passer.sh"
	has_line "$l: default timeout 45" "# timeout set to 45"

	printf 'timeout=1\n' >"$t/settings"
	run_ksft "$2" -s s ./hanger.sh
	rm -f "$t/settings"
	has_line "$l: timeout from the settings file" "not ok 1 s: hanger.sh # TIMEOUT 1 seconds"

	run_ksft "$2" -s s ./nonexistent
	is "$l: missing program fails" "1/yes" \
		"$rc/$(printf '%s\n' "$out" | grep -qx 'not ok 1 s: nonexistent' && echo yes)"

	run_ksft "$2"
	is "$l: no programs is a usage error" 2 "$rc"
}

runner_checks host sh

# The guest runs busybox sh with busybox's timeout, which exits 143/137
# rather than 124 and kills only its child: the same results are expected.
host_sh=$(command -v sh)
if bb=$(command -v busybox); then
	mkdir -p "$tmp/bb"
	for a in sh timeout setsid awk sed head tail cut date dirname basename \
		cat sleep kill grep tr; do
		ln -s "$bb" "$tmp/bb/$a"
	done
	old_path=$PATH
	PATH=$tmp/bb:$PATH
	runner_checks busybox "$bb sh"
	# Without setsid, busybox timeout's own exit status (143) is all
	# there is to tell a timeout by. Host sh, as busybox sh may run its
	# own setsid applet whatever PATH says.
	rm "$tmp/bb/setsid"
	ln -sf "$host_sh" "$tmp/bb/sh"
	printf '#!/bin/sh\necho "hanging alone"\nexec sleep 60\n' >"$t/lone.sh"
	chmod +x "$t/lone.sh"
	# shellcheck disable=SC2123 # replacing PATH is the point here
	PATH=$tmp/bb
	run_ksft sh -s s -t 1 ./lone.sh
	has_line "busybox without setsid: timeout" "not ok 1 s: lone.sh # TIMEOUT 1 seconds"
	PATH=$old_path
else
	echo "ok $((n + 1)) busybox: not installed # SKIP"
	n=$((n + 1))
fi

# ksft-run.sh's output is what tap-summary.sh reads.
run_ksft sh -s suite -t 2 ./passer.sh failer.sh skipper.sh bin_true
printf '%s\n' "$out" >"$tmp/k.log"
is "summary of a ksft-run log" "3 passed, 1 failed, 1 skipped" \
	"$("$tools/tap-summary.sh" "$tmp/k.log" | tail -n 1 || :)"

# Two runners sharing a claim directory, side by side: each program runs in
# exactly one of them, each log's plan (last) counts what it ran, and the
# two logs sum to the whole list.
for i in 1 2 3 4 5 6; do
	printf '#!/bin/sh\necho "ran %s" >>"%s/ran"\nsleep 2\n' "$i" "$tmp" >"$t/c$i.sh"
	chmod +x "$t/c$i.sh"
done
rm -f "$tmp/ran"
(cd "$t" && sh "$tools/ksft-run.sh" -s c -t 20 -c "$tmp/claims" c1.sh c2.sh \
	c3.sh c4.sh c5.sh c6.sh >"$tmp/c-a.log") &
a_pid=$!
(cd "$t" && sh "$tools/ksft-run.sh" -s c -t 20 -c "$tmp/claims" c1.sh c2.sh \
	c3.sh c4.sh c5.sh c6.sh >"$tmp/c-b.log") || :
wait "$a_pid" || :
is "claims: every program ran once" "1 2 3 4 5 6" \
	"$(sed 's/^ran //' "$tmp/ran" | sort -n | tr '\n' ' ' | sed 's/ $//')"
is "claims: the plan comes last in each log" "1..$(grep -c '^ok ' "$tmp/c-a.log")/1..$(grep -c '^ok ' "$tmp/c-b.log")" \
	"$(tail -n 1 "$tmp/c-a.log")/$(tail -n 1 "$tmp/c-b.log")"
is "claims: the two logs sum to the list" "6 passed, 0 failed, 0 skipped" \
	"$("$tools/tap-summary.sh" "$tmp/c-a.log" "$tmp/c-b.log" | tail -n 1 || :)"
if grep -q '^ok ' "$tmp/c-a.log" && grep -q '^ok ' "$tmp/c-b.log"; then
	pass "claims: both runners ran programs"
else
	diag "$(cat "$tmp/c-a.log" "$tmp/c-b.log")"
	fail "claims: both runners ran programs"
fi

echo "1..$n"
exit "$failed"
