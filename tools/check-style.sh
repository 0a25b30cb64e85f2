#!/bin/sh
# Kernel coding style of kmod/ and the uapi header, as a TAP test per file:
# checkpatch.pl (extracted from linux-source-6.1 by kernel-files.sh) must
# report no errors and no warnings. kmod/numagpu_compat.h is the one file
# meant to test LINUX_VERSION_CODE (an out-of-tree module builds for several
# kernels); that warning, and the constant-on-the-left one its #if lines
# raise, are not reported there.
set -eu
kfiles=${1:?usage: check-style.sh KERNEL_FILES_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
cp="$kfiles/scripts/checkpatch.pl"
[ -f "$cp" ] || { echo "check-style: $cp missing" >&2; exit 1; }

files=$(cd "$top" && ls kmod/*.c kmod/*.h include/uapi/linux/*.h)
n=$(echo "$files" | wc -l)
echo "TAP version 13"
echo "1..$n"
i=0
fail=0
for f in $files; do
	i=$((i + 1))
	ignore=""
	[ "$f" != kmod/numagpu_compat.h ] ||
		ignore="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON"
	# shellcheck disable=SC2086 # $ignore is two words or none
	out=$(cd "$top" && perl "$cp" --no-tree --show-types $ignore -f "$f" 2>&1) || true
	echo "$out" | sed 's/^/# /'
	if echo "$out" | grep -q 'total: 0 errors, 0 warnings'; then
		echo "ok $i checkpatch: $f"
	else
		echo "not ok $i checkpatch: $f"
		fail=1
	fi
done
exit $fail
