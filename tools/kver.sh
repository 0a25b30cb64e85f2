#!/bin/sh
# Print the kernel release the module is built for: the running kernel when
# its build directory exists, else the newest installed Debian kernel image
# that has matching headers (the kernel the VM lane boots).
set -eu
run=$(uname -r)
if [ -f "/lib/modules/$run/build/Makefile" ]; then
	echo "$run"
	exit 0
fi
best=""
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	v=${img#/boot/vmlinuz-}
	[ -f "/lib/modules/$v/build/Makefile" ] && best="$best $v"
done
if [ -z "$best" ]; then
	echo "kver: no kernel image with headers; run tools/install-deps.sh" >&2
	exit 1
fi
printf '%s\n' $best | sort -V | tail -n 1
