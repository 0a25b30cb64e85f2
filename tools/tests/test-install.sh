#!/bin/sh
# `make install` into a scratch prefix, then the example workloads built
# outside the tree as a user builds them (pkg-config --cflags --libs ngemu,
# installed headers only) must verify, and fail when one element is wrong;
# mykernels, a workload of its own under ng_main(), must run through
# bench, bench --compare and sweep. Emits TAP; exit 1 if a check failed.
set -eu
. "$(dirname "$0")/lib.sh"
top=$(cd "$tools/.." && pwd)
build=${BUILD:-build}
prefix=$tmp/prefix
echo "TAP version 13"

if make -s -C "$top" BUILD="$build" install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
	pass "make install PREFIX=... succeeds"
else
	diag "$(tail -n 20 "$tmp/install.log")"
	fail "make install PREFIX=... succeeds"
fi
missing=""
for f in bin/ngemu lib/libngemu.a lib/libngemu-cli.a lib/pkgconfig/ngemu.pc \
	include/ngemu/ngemu.h include/ngemu/cli.h \
	include/ngemu/runtime/kernel.h include/ngemu/model/model.h \
	include/linux/numagpu.h share/man/man1/ngemu.1 \
	share/ngemu/reproduce/dualopt.txt; do
	[ -f "$prefix/$f" ] || missing="$missing $f"
done
is "every installed file is there" "" "$missing"
ver=$("$prefix/bin/ngemu" --version 2>&1 | head -n 1)
case $ver in "ngemu $(make -s -C "$top" version)"*) pass "installed ngemu runs" ;;
*) diag "$ver"; fail "installed ngemu runs" ;; esac

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs ngemu 2>&1) || flags="pkg-config failed: $flags"
case $flags in *"-I$prefix/include"*"-lngemu-cli"*"-lngemu "*) pass "pkg-config knows ngemu" ;;
*) diag "$flags"; fail "pkg-config knows ngemu" ;; esac

# outside the tree: a copy of examples/, the installed headers only
mkdir -p "$tmp/examples"
cp "$top/examples/Makefile" "$top"/examples/*.c "$tmp/examples/"
if make -s -C "$tmp/examples" >"$tmp/build.log" 2>&1; then
	pass "the examples build against the installed library"
else
	diag "$(tail -n 20 "$tmp/build.log")"
	fail "the examples build against the installed library"
fi
saxpy=$tmp/examples/saxpy
rc=0
out=$("$saxpy" --n 100000 --deterministic 2>&1) || rc=$?
case "$rc:$out" in 0:*"saxpy: verified (100000 elements)"*) pass "the example verifies" ;;
*) diag "exit $rc" "$out"; fail "the example verifies" ;; esac
rc=0
out=$("$saxpy" --n 100000 --placement fgp --gpus 2 2>&1) || rc=$?
case "$rc:$out" in 0:*"verified"*"50.0% remote"*) pass "the example takes ngemu's options (fgp on 2 GPUs: half remote)" ;;
*) diag "exit $rc" "$out"; fail "the example takes ngemu's options (fgp on 2 GPUs: half remote)" ;; esac
rc=0
out=$("$saxpy" --n 100000 --corrupt --deterministic 2>&1) || rc=$?
case "$rc:$out" in 1:*"FAILED: y[50000]"*) pass "one wrong element fails the example's check" ;;
*) diag "exit $rc" "$out"; fail "one wrong element fails the example's check" ;; esac
rc=0
out=$("$saxpy" --gpus 0 2>&1) || rc=$?
is "a bad option is a usage error" 2 "$rc"

# a workload of one's own in the harness: ng_main() with my-saxpy added
my=$tmp/examples/mykernels
rc=0
out=$("$my" bench --list 2>&1) || rc=$?
case "$rc:$out" in 0:*"stream-triad"*"other: in no suite"*"my-saxpy"*) pass "the program lists the built-in workloads and its own" ;;
*) diag "exit $rc" "$out"; fail "the program lists the built-in workloads and its own" ;; esac
rc=0
out=$("$my" bench my-saxpy --size 256K --deterministic 2>&1) || rc=$?
case "$rc:$out" in 0:*"ngemu bench my-saxpy: verified (y = 2.5 x + y, 2 times, for all 65536 elements)"*) pass "bench runs and verifies the program's workload" ;;
*) diag "exit $rc" "$out"; fail "bench runs and verifies the program's workload" ;; esac
rc=0
out=$("$my" bench my-saxpy --size 256K --deterministic --corrupt-one 2>&1) || rc=$?
case "$rc:$out" in 1:*"FAILED (y[32768] is"*) pass "one wrong element fails the program's workload" ;;
*) diag "exit $rc" "$out"; fail "one wrong element fails the program's workload" ;; esac
rc=0
out=$("$my" bench --compare my-saxpy --size 256K --deterministic 2>&1) || rc=$?
rows=$(printf '%s\n' "$out" | grep -cE '^(numa-gpu|repl-ro|carve-swc|carve-hwc|carve-none|ideal) +yes ')
case "$rc:$rows" in 0:6) pass "bench --compare runs the program's workload under every CARVE system" ;;
*) diag "exit $rc, $rows verified rows" "$out"; fail "bench --compare runs the program's workload under every CARVE system" ;; esac
rc=0
out=$("$my" sweep -w my-saxpy -g gpus=2,4 --size 64K --deterministic --out "$tmp/sweep" 2>&1) || rc=$?
got=$(cut -d, -f2-5 "$tmp/sweep/results.csv" 2>/dev/null | sort | tr '\n' ' ')
case "$rc:$got" in "0:my-saxpy,numa-gpu,2,true my-saxpy,numa-gpu,4,true "*) pass "sweep runs each point of the program's workload as a child of the program" ;;
*) diag "exit $rc, results: $got" "$out"; fail "sweep runs each point of the program's workload as a child of the program" ;; esac
rc=0
out=$("$my" bench no-such-workload 2>&1) || rc=$?
case "$rc:$out" in 2:*"unknown workload 'no-such-workload'"*) pass "an unknown workload is a usage error" ;;
*) diag "exit $rc" "$out"; fail "an unknown workload is a usage error" ;; esac

# packagers: DESTDIR stages, the .pc file names the final prefix
make -s -C "$top" BUILD="$build" install PREFIX=/usr DESTDIR="$tmp/stage" >/dev/null 2>&1 || true
pc=$(sed -n 's/^prefix=//p' "$tmp/stage/usr/lib/pkgconfig/ngemu.pc" 2>/dev/null)
is "DESTDIR stages under the final prefix" "/usr" "$pc"

echo "1..$n"
exit $failed
