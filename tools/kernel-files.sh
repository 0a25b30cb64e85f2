#!/bin/sh
# Extract the kernel files the project uses but must not commit (the
# kselftest headers and checkpatch.pl) from Debian's linux-source-6.1 into
# a build directory. Re-running is cheap: the extraction happens once.
set -eu

out=${1:?usage: kernel-files.sh OUTDIR}
tarball=${LINUX_SOURCE_TAR:-/usr/src/linux-source-6.1.tar.xz}
top=linux-source-6.1
files="tools/testing/selftests/kselftest.h
tools/testing/selftests/kselftest_harness.h
scripts/checkpatch.pl
scripts/spelling.txt
scripts/const_structs.checkpatch"

stamp="$out/.extracted"
[ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && exit 0

if [ ! -f "$tarball" ]; then
	echo "kernel-files: $tarball missing; run tools/install-deps.sh" >&2
	exit 1
fi

tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
members=""
for f in $files; do members="$members $top/$f"; done
# shellcheck disable=SC2086 # one argument per member
tar -xJf "$tarball" -C "$tmp" $members
mkdir -p "$out/scripts"
for f in $files; do
	case $f in
	tools/*) cp "$tmp/$top/$f" "$out/" ;;
	*) cp "$tmp/$top/$f" "$out/scripts/" ;;
	esac
done
touch "$stamp"
