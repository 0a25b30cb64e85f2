# shellcheck shell=sh
# Sourced by the tests in this folder: the tools under test, a scratch
# directory removed on exit, and TAP helpers. NUMAGPU_TOOLS=DIR tests the
# tools in DIR instead of this checkout's.
tools=${NUMAGPU_TOOLS:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=0 failed=0
pass() { n=$((n + 1)); echo "ok $n $1"; }
fail() { n=$((n + 1)); echo "not ok $n $1"; failed=1; }
# Diagnostics always start with "# " so that, under ksft-run.sh, they sit
# one level deeper than our own results.
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
is() { # DESC EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then pass "$1"; else
		diag "expected: $2" "got:      $3"
		fail "$1"
	fi
}
