#!/bin/sh
# ksft-run.sh - run test programs and emit KTAP, in the manner of the kernel's
# tools/testing/selftests/run_kselftest.sh.
#
# Plain POSIX sh on purpose: the same file runs under busybox sh inside the
# VM guest and under dash/bash on the host.
set -eu

usage() {
	cat <<'EOF'
usage: ksft-run.sh [-s SUITE] [-t TIMEOUT_SECONDS] [-c CLAIM_DIR] PROG...

Runs each PROG (from its own directory, stdin from /dev/null) and prints KTAP:
  TAP version 13 / 1..N / "# "-prefixed program output /
  ok K SUITE: NAME                       exit 0
  ok K SUITE: NAME # SKIP                exit 4 (KSFT_SKIP)
  not ok K SUITE: NAME # TIMEOUT S seconds
  not ok K SUITE: NAME                   anything else
-t defaults to timeout=N from a "settings" file next to the first PROG, else 45;
0 means no limit. SUITE defaults to the name of the first PROG's directory.
-c shares PROG... with other runners given the same CLAIM_DIR: each program
runs in the first runner to create CLAIM_DIR/NAME, and the plan comes last,
counting the programs this runner ran.
Exit status: 0 if nothing failed, 1 if something failed, 2 on usage error.
EOF
}

case ${1-} in --help | -h) usage; exit 0 ;; esac

suite=""
tmo=""
claims=""
while getopts s:t:c: opt; do
	case $opt in
	s) suite=$OPTARG ;;
	t) tmo=$OPTARG ;;
	c) claims=$OPTARG ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	echo "ksft-run.sh: no test programs given" >&2
	usage >&2
	exit 2
fi

first_dir=$(dirname "$1")
if [ -z "$tmo" ]; then
	tmo=45
	if [ -r "$first_dir/settings" ]; then
		# Last timeout= wins, as in the kernel's settings parsing.
		v=$(sed -n 's/^timeout=\([0-9][0-9]*\)[[:space:]]*$/\1/p' \
			"$first_dir/settings" | tail -n 1)
		[ -z "$v" ] || tmo=$v
	fi
fi
case $tmo in
'' | *[!0-9]*) echo "ksft-run.sh: bad timeout '$tmo'" >&2; exit 2 ;;
esac
if [ -z "$suite" ]; then
	suite=$(cd "$first_dir" 2>/dev/null && basename "$(pwd)") || suite=selftests
fi

# Prefix every output line with "# "; awk (not sed) so that a last line
# without a newline still ends in one and cannot swallow the result line.
prefix() {
	awk '{ print "# " $0; fflush() }'
}

# run_one NUM PATH: prints the program's output and its result line;
# returns 1 if it counts as a failure.
run_one() {
	num=$1
	prog=$2
	name=${prog##*/}
	dir=$(dirname "$prog")
	hdr="$suite: $name"
	echo "# selftests: $hdr"
	if [ ! -e "$prog" ]; then
		echo "# Warning: file $prog is missing!"
		echo "not ok $num $hdr"
		return 1
	fi
	if [ -x "$prog" ] && [ ! -d "$prog" ]; then
		set -- "./$name"
	elif [ "$(head -c 2 "$prog" 2>/dev/null)" = "#!" ]; then
		# Like the kernel runner: a script that lost its x bit still runs.
		echo "# Warning: file $prog is not executable"
		interp=$(head -n 1 "$prog" | cut -c 3-)
		# shellcheck disable=SC2086 # the interpreter line may hold arguments
		set -- $interp "./$name"
	else
		echo "# Warning: file $prog is not executable"
		echo "not ok $num $hdr"
		return 1
	fi
	if [ "$tmo" -gt 0 ]; then
		if command -v setsid >/dev/null 2>&1; then
			# Run the program in a session of its own whose shell, on
			# SIGTERM from timeout (or ^C), kills the whole session:
			# busybox timeout only kills its direct child, and a
			# surviving grandchild would hold the output pipe open
			# for ever. (The program runs as an async list, so it
			# starts with SIGINT and SIGQUIT ignored.)
			set -- setsid sh -c 'trap "trap \"\" TERM; kill -TERM 0
				sleep 2; kill -KILL 0" TERM INT HUP
				"$@" & wait $!' ksft-prog "$@"
		fi
		# -k: a test that ignores SIGTERM must not hang the whole run.
		set -- timeout -k 5 "$tmo" "$@"
	fi
	start=$(date +%s)
	# The exit status comes back on fd 4 so the output can stream through
	# the prefixer live; the program gets neither fd 3 nor fd 4, so a
	# stray child of it cannot hold the status pipe open.
	rc=$( { { st=0
		  (cd "$dir" && exec "$@") </dev/null 3>&- 4>&- || st=$?
		  echo "$st" >&4; } 2>&1 | prefix >&3 4>&-; } 4>&1 )
	elapsed=$(( $(date +%s) - start ))
	# the margin under the limit, in the log: a limit is set from these
	echo "# $hdr took $elapsed s (limit $tmo s)"
	timed_out=0
	case $rc in
	124) timed_out=1 ;;
	# busybox timeout does not exit 124: it kills the program, which then
	# dies of SIGTERM/SIGKILL; the elapsed time tells it from a plain crash.
	137 | 143) [ "$tmo" -gt 0 ] && [ "$elapsed" -ge "$tmo" ] && timed_out=1 ;;
	esac
	if [ "$timed_out" = 1 ]; then
		echo "not ok $num $hdr # TIMEOUT $tmo seconds"
		return 1
	fi
	case $rc in
	0) echo "ok $num $hdr" ;;
	4) echo "ok $num $hdr # SKIP" ;;
	*)
		echo "# exit=$rc"
		echo "not ok $num $hdr"
		return 1
		;;
	esac
}

if [ -n "$claims" ] && ! mkdir -p "$claims"; then
	echo "ksft-run.sh: cannot create claim directory '$claims'" >&2
	exit 2
fi

exec 3>&1
echo "TAP version 13"
[ -n "$claims" ] || echo "1..$#"
echo "# timeout set to $tmo"
failed=0
num=0
for prog in "$@"; do
	# mkdir is atomic: of the runners sharing $claims, one gets each name.
	if [ -n "$claims" ] && ! mkdir "$claims/${prog##*/}" 2>/dev/null; then
		continue
	fi
	num=$((num + 1))
	run_one "$num" "$prog" || failed=1
done
[ -z "$claims" ] || echo "1..$num"
exit "$failed"
