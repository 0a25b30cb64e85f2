#!/bin/sh
# Tests tools/tap-summary.sh on made-up KTAP logs. Emits TAP; exit 1 if a
# check failed. NUMAGPU_TOOLS=DIR tests the tools in DIR instead (used to
# prove these tests catch a broken tool).
set -eu
. "$(dirname "$0")/lib.sh"
# summarize FILE...: sets rc, last (last stdout line), out, err
summarize() {
	rc=0
	"$tools/tap-summary.sh" "$@" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
	out=$(cat "$tmp/stdout")
	err=$(cat "$tmp/stderr")
	last=$(tail -n 1 "$tmp/stdout")
}
echo "TAP version 13"

# Nested results count one by one, deeper "# # " ones not at all.
cat >"$tmp/nested.log" <<'EOF'
TAP version 13
1..3
# timeout set to 45
# selftests: numagpu: harness
# TAP version 13
# 1..4
# # deeper level, must not be counted:
# # ok 1 inner.a
# # not ok 2 inner.b
# ok 1 global.one
# ok 2 fixture.two
# not ok 3 fixture.three
# ok 4 x.y # SKIP no device
# # Totals: pass:2 fail:1 xfail:0 xpass:0 skip:1 error:0
not ok 1 numagpu: harness
# selftests: numagpu: plain
ok 2 numagpu: plain
# selftests: numagpu: skipper
ok 3 numagpu: skipper # SKIP
EOF
summarize "$tmp/nested.log"
is "nested pass/fail/skip counted individually" "3 passed, 1 failed, 2 skipped" "$last"
is "exit 1 when something failed" 1 "$rc"
case $out in
*"FAIL: $tmp/nested.log: not ok 3 fixture.three"*) pass "failing nested result listed" ;;
*) diag "$out"; fail "failing nested result listed" ;;
esac
case $out in
*"not ok 1 numagpu: harness"*) diag "$out"; fail "parent of a counted failure not counted again" ;;
*) pass "parent of a counted failure not counted again" ;;
esac

cat >"$tmp/good.log" <<'EOF'
TAP version 13
1..2
# ok 1 a.b
# ok 2 a.c # skip not here
ok 1 numagpu: one
ok 2 numagpu: two
EOF
summarize "$tmp/good.log"
is "all passing: counts" "2 passed, 0 failed, 1 skipped" "$last"
is "all passing: exit 0" 0 "$rc"
is "all passing: summary is the only output" "$last" "$out"

# A program that crashed after printing only oks still failed, once.
cat >"$tmp/crash.log" <<'EOF'
TAP version 13
1..1
# ok 1 g.a
# ok 2 g.b
# Segmentation fault
# exit=139
not ok 1 numagpu: crasher
EOF
summarize "$tmp/crash.log"
is "crash without nested failure adds one failure" "2 passed, 1 failed, 0 skipped" "$last"
is "crash: exit 1" 1 "$rc"

cat >"$tmp/timeout.log" <<'EOF'
TAP version 13
1..2
# selftests: numagpu: slow
# ok 1 g.a
not ok 1 numagpu: slow # TIMEOUT 45 seconds
# selftests: numagpu: stuck
not ok 2 numagpu: stuck # TIMEOUT 45 seconds
EOF
summarize "$tmp/timeout.log"
is "timeout lines are failures, not skips" "1 passed, 2 failed, 0 skipped" "$last"
case $out in
*"FAIL: $tmp/timeout.log: not ok 2 numagpu: stuck # TIMEOUT 45 seconds"*) pass "timeout listed" ;;
*) diag "$out"; fail "timeout listed" ;;
esac

# The run died after two of three programs.
cat >"$tmp/short.log" <<'EOF'
TAP version 13
1..3
ok 1 numagpu: a
ok 2 numagpu: b
# selftests: numagpu: c
# ok 1 c.first
EOF
summarize "$tmp/short.log"
is "plan mismatch adds one failure" "3 passed, 1 failed, 0 skipped" "$last"
is "plan mismatch: exit 1" 1 "$rc"
case $err in
*"$tmp/short.log"*) pass "plan mismatch named on stderr" ;;
*) diag "stderr: $err"; fail "plan mismatch named on stderr" ;;
esac

printf 'TAP version 13\nok 1 numagpu: a\n' >"$tmp/noplan.log"
summarize "$tmp/noplan.log"
is "missing plan is a failure" "1 passed, 1 failed, 0 skipped" "$last"

summarize "$tmp/good.log" "$tmp/nonexistent.log"
is "missing file adds one failure" "2 passed, 1 failed, 1 skipped" "$last"
is "missing file: exit 1" 1 "$rc"
case $err in
*"$tmp/nonexistent.log"*) pass "missing file named on stderr" ;;
*) diag "stderr: $err"; fail "missing file named on stderr" ;;
esac

: >"$tmp/empty.log"
summarize "$tmp/empty.log"
is "empty file is a failure" "0 passed, 1 failed, 0 skipped" "$last"

summarize "$tmp/nested.log" "$tmp/good.log" "$tmp/crash.log"
is "several files add up" "7 passed, 2 failed, 3 skipped" "$last"

# Serial consoles leave \r behind.
sed 's/$/\r/' "$tmp/nested.log" >"$tmp/crlf.log"
summarize "$tmp/crlf.log"
is "CRLF log counts the same" "3 passed, 1 failed, 2 skipped" "$last"

# A lane log (vm.tap) is flat: each line counts, "#   " notes do not.
cat >"$tmp/vm.tap" <<'EOF'
TAP version 13
1..3
ok 1 vm: booted
#   online: 0-3 (4 nodes)
ok 2 vm: nodes
#   [    1.0] WARNING: CPU: 0 PID: 1 at x.c:1
#   ok 3 not a result
not ok 3 vm: no warnings
EOF
summarize "$tmp/vm.tap"
is "flat results with indented notes" "2 passed, 1 failed, 0 skipped" "$last"

echo "1..$n"
exit "$failed"
