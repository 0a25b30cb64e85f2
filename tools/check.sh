#!/bin/sh
# The whole test suite, as the README's test command, `make check` and CI
# run it (called directly, its last line is the summary):
#   1. build everything (module, libngemu, ngemu, tests, selftests);
#   2. user-space tests, and beside them the same under ASan + UBSan;
#   3. tests of the project's own tools (TAP runner, summary, VM log checks,
#      DKMS, ngemu sweep on a single-node Slurm cluster);
#   4. kernel coding style of kmod/ and user/ (checkpatch.pl);
#   5. the kselftests in a 4-node VM, once per supported kernel line
#      (Debian 12's 6.1 and 6.12: tools/kernels.sh), the module built for
#      each in $BUILD/kmod/KVER (tools/build-module.sh).
# Every suite writes a KTAP log under $BUILD/logs; the last line printed is
# "N passed, N failed, N skipped" over all of them, and the exit status is
# non-zero when anything failed, including a suite that could not run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
KFILES=${KFILES:-build/kernel-files}
logs="$BUILD/logs"
rm -rf "$logs"
mkdir -p "$logs"
export MAKEFLAGS="${MAKEFLAGS:-} -j$(nproc)"

# A suite that cannot even start still counts, as one failure.
broken() {
	printf 'TAP version 13\n1..1\nnot ok 1 %s\n' "$1" > "$logs/$2.tap"
}

step() { printf '\n=== %s\n' "$*"; }

step "build"
if ! make BUILD="$BUILD" all; then
	broken "build: make all failed" build
	tools/tap-summary.sh "$logs"/*.tap
	exit 1
fi

abs() { (cd "$1" && pwd); }

# Two lanes share the CPUs. Lane B builds the sanitizer (ASan + UBSan)
# binaries and runs the tests under them; lane A runs the plain tests,
# then joins lane B on the sanitizer tests (a program runs in whichever
# lane claims it first: ksft-run.sh -c), then runs the tools' tests and
# checkpatch while B finishes. One after the other they took most of the
# suite's time; each lane still runs one program at a time.
san="$BUILD/san"
san_claims="$BUILD/san-claims"
rm -rf "$san_claims" "$san/.built"
# The slowest first, so that neither lane is left with a long one at the
# end; the rest in name order.
san_tests() {
	for t in $(cat user/tests/run_first); do
		echo "$san/tests/$t"
	done
	for t in "$san"/tests/*; do
		grep -qxF "${t##*/}" user/tests/run_first || echo "$t"
	done
}
san_run() { # LOG: this lane's share of the sanitizer tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	NGEMU_CHECKED=1 \
	NGEMU="$(abs "$san")/ngemu" tools/ksft-run.sh -s user-asan -t 900 \
		-c "$san_claims" $(san_tests) > "$1"
}
san_lane() {
	if make BUILD="$san" SAN=1 user tests > "$logs/user-san-build.log" 2>&1; then
		echo ok > "$san/.built"
		san_run "$logs/user-san-b.tap"
	else
		mkdir -p "$san"
		echo failed > "$san/.built"
		broken "user-asan: sanitizer build failed" user-san
	fi
}
san_lane &
san_pid=$!

step "user-space tests"
NGEMU="$(abs "$BUILD")/ngemu" tools/ksft-run.sh -s user -t 600 "$BUILD"/tests/* \
	> "$logs/user.tap"
grep -E '^(not )?ok ' "$logs/user.tap"

step "user-space tests under ASan + UBSan (beside lane B)"
while [ ! -s "$san/.built" ]; do
	sleep 2
done
if [ "$(cat "$san/.built")" = ok ]; then
	san_run "$logs/user-san-a.tap"
	grep -E '^(not )?ok ' "$logs/user-san-a.tap"
fi

step "tool tests"
NGEMU="$(abs "$BUILD")/ngemu" tools/ksft-run.sh -s tools -t 300 tools/tests/test-*.sh \
	> "$logs/tools.tap"
grep -E '^(not )?ok ' "$logs/tools.tap"

step "kernel coding style (checkpatch)"
tools/check-style.sh "$KFILES" > "$logs/style.tap"
grep -E '^(not )?ok ' "$logs/style.tap"

step "the rest of lane B"
wait "$san_pid"
if [ -f "$logs/user-san.tap" ]; then
	tail -n 40 "$logs/user-san-build.log"
else
	grep -E '^(not )?ok ' "$logs/user-san-b.tap"
	# A sanitizer test in neither lane's log never ran: that is a failure.
	for t in $(san_tests); do
		grep -qE "^(not )?ok [0-9]+ user-asan: ${t##*/}( |\$)" \
			"$logs/user-san-a.tap" "$logs/user-san-b.tap" ||
			broken "user-asan: ${t##*/} ran in neither lane" "user-san-lost-${t##*/}"
	done
fi

step "kselftests in a 4-node VM, on each kernel line (6.1, 6.12)"
if ! kvers=$(tools/kernels.sh); then
	broken "vm: a supported kernel line has no image with headers" vm-kernels
fi
for kver in $kvers; do
	tag=vm-$kver
	if ! ko=$(tools/build-module.sh "$kver" "$BUILD/kmod/$kver"); then
		broken "$tag: numagpu.ko does not build" "$tag"
		continue
	fi
	tools/vm/run.sh --kernel "/boot/vmlinuz-$kver" --ko "$ko" \
		--tests "$BUILD/selftests/numagpu" --bin "$BUILD/ngemu" \
		--nodes 4 --out "$BUILD/vm/$kver"
	if [ -s "$BUILD/vm/$kver/ktap.log" ] && [ -s "$BUILD/vm/$kver/vm.tap" ]; then
		cp "$BUILD/vm/$kver/ktap.log" "$logs/$tag-selftests.tap"
		cp "$BUILD/vm/$kver/vm.tap" "$logs/$tag-kernel.tap"
	else
		broken "$tag: the VM lane produced no results" "$tag"
	fi
done

step "summary"
tools/tap-summary.sh "$logs"/*.tap
