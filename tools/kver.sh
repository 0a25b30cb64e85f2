#!/bin/sh
# Print the kernel release the module is built for: the running kernel when
# its build directory exists, else the newest of the supported kernel lines'
# installed images with headers (tools/kernels.sh; the VM lane boots them).
set -eu
run=$(uname -r)
if [ -f "/lib/modules/$run/build/Makefile" ]; then
	echo "$run"
	exit 0
fi
best=$("$(dirname "$0")/kernels.sh" 2>/dev/null | sort -V | tail -n 1) || :
if [ -z "$best" ]; then
	echo "kver: no kernel image with headers; run tools/install-deps.sh" >&2
	exit 1
fi
echo "$best"
