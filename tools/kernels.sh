#!/bin/sh
# Print the kernel releases `make check` builds and boots the module on,
# one a line: for each kernel line the project supports (Debian 12's 6.1
# and 6.12 LTS), the newest installed image that has matching headers.
# KVERS="REL..." overrides. Exit 1 if a line has no such kernel.
set -eu
if [ -n "${KVERS:-}" ]; then
	printf '%s\n' $KVERS
	exit 0
fi
fail=0
for line in 6.1 6.12; do
	best=""
	for img in /boot/vmlinuz-"$line".*; do
		[ -e "$img" ] || continue
		v=${img#/boot/vmlinuz-}
		[ -f "/lib/modules/$v/build/Makefile" ] && best="$best $v"
	done
	if [ -z "$best" ]; then
		echo "kernels: no $line kernel image with headers; run tools/install-deps.sh" >&2
		fail=1
		continue
	fi
	printf '%s\n' $best | sort -V | tail -n 1
done
exit $fail
