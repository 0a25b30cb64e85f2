#!/bin/sh
# DKMS packaging: `make dkms-source` into a scratch source tree, then DKMS
# (with its own scratch trees, nothing system-wide) adds it and builds
# numagpu.ko for each supported kernel line's headers (tools/kernels.sh);
# each module must carry that kernel's vermagic. A source tree without its
# uapi header must fail to build. Emits TAP; exit 1 if a check failed.
set -eu
. "$(dirname "$0")/lib.sh"
top=$(cd "$tools/.." && pwd)
echo "TAP version 13"

if ! command -v dkms >/dev/null; then
	fail "dkms is installed (tools/install-deps.sh)"
	exit 1
fi
ver=$(make -s -C "$top" version)
src=$tmp/src
dkmstree=$tmp/dkms
mkdir -p "$src" "$dkmstree"
d() { dkms "$@" --sourcetree "$src" --dkmstree "$dkmstree"; }

if make -s -C "$top" dkms-source DKMS_SRC="$src/numagpu-$ver" >"$tmp/src.log" 2>&1 &&
	[ -f "$src/numagpu-$ver/dkms.conf" ]; then
	pass "make dkms-source installs the sources and dkms.conf"
else
	diag "$(tail -n 20 "$tmp/src.log")"
	fail "make dkms-source installs the sources and dkms.conf"
fi
is "dkms.conf names the version" "PACKAGE_VERSION=\"$ver\"" \
	"$(grep '^PACKAGE_VERSION=' "$src/numagpu-$ver/dkms.conf")"

if d add -m numagpu -v "$ver" >"$tmp/add.log" 2>&1; then
	pass "dkms add"
else
	diag "$(cat "$tmp/add.log")"
	fail "dkms add"
fi

kvers=$("$tools/kernels.sh") || fail "every kernel line has headers"
for k in $kvers; do
	if d build -m numagpu -v "$ver" -k "$k" >"$tmp/build.log" 2>&1; then
		pass "dkms build for $k"
	else
		diag "$(tail -n 30 "$tmp/build.log")"
		fail "dkms build for $k"
		continue
	fi
	ko=$(find "$dkmstree/numagpu/$ver/$k" -name 'numagpu.ko*' | head -n 1)
	vm=""
	[ -z "$ko" ] || vm=$(modinfo -F vermagic "$ko" | cut -d ' ' -f 1)
	is "the module built for $k is for $k" "$k" "$vm"
done

# a broken source tree must not build
k=$(echo "$kvers" | head -n 1)
rm -rf "${dkmstree:?}/numagpu"
rm "$src/numagpu-$ver/include/uapi/linux/numagpu.h"
if d add -m numagpu -v "$ver" >/dev/null 2>&1 &&
	! d build -m numagpu -v "$ver" -k "$k" >"$tmp/bad.log" 2>&1; then
	pass "a source tree without the uapi header fails to build"
else
	diag "$(tail -n 10 "$tmp/bad.log" 2>/dev/null)"
	fail "a source tree without the uapi header fails to build"
fi
echo "1..$n"
exit $failed
