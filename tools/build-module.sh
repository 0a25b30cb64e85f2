#!/bin/sh
# Build numagpu.ko for kernel release KVER in OUT (a copy of the module's
# sources, so that builds for several kernels live side by side: Kbuild of
# an external module writes its objects next to its sources). Incremental:
# files are copied only when they changed. Prints the module's path.
# Usage: tools/build-module.sh [-k KDIR] KVER OUT [make args...]
# -k: build against the kernel tree KDIR instead of /lib/modules/KVER/build
# (tools/debug-kernel.sh).
set -eu
kdir=""
if [ "${1-}" = -k ]; then
	kdir=${2:?usage: build-module.sh [-k KDIR] KVER OUT [make args...]}
	shift 2
fi
kver=${1:?usage: build-module.sh [-k KDIR] KVER OUT [make args...]}
out=${2:?usage: build-module.sh [-k KDIR] KVER OUT [make args...]}
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$kdir" ]; then
	kdir=/lib/modules/$kver/build
	if [ ! -f "$kdir/Makefile" ]; then
		echo "build-module: no headers for $kver at $kdir (tools/install-deps.sh)" >&2
		exit 1
	fi
elif [ ! -f "$kdir/Makefile" ]; then
	echo "build-module: no kernel tree at $kdir" >&2
	exit 1
fi
mkdir -p "$out/kmod" "$out/include/uapi/linux"
copy() { cmp -s "$1" "$2" || cp "$1" "$2"; }
copy "$top/Kbuild" "$out/Kbuild"
copy "$top/include/uapi/linux/numagpu.h" "$out/include/uapi/linux/numagpu.h"
for f in "$top"/kmod/*.[ch]; do copy "$f" "$out/kmod/${f##*/}"; done
# sources removed from the tree must not linger in the copy
for f in "$out"/kmod/*.[ch]; do
	[ -e "$top/kmod/${f##*/}" ] || rm -f "$f"
done
make -C "$kdir" M="$(cd "$out" && pwd)" "$@" modules >&2
echo "$out/numagpu.ko"
