#!/bin/sh
# Install everything numagpu needs to build and test, from Debian's packages.
# Idempotent: packages already present are not downloaded again, and apt's
# index is refreshed only when something is missing.
set -eu

PKGS="build-essential make gcc libc6-dev binutils perl kmod cpio gzip xz-utils
busybox-static qemu-system-x86 liburing-dev libnuma-dev numactl pkgconf dkms
gcc-multilib libc6-dev-i386 flex bison bc libelf-dev libssl-dev
linux-image-amd64 linux-headers-amd64 linux-source-6.1
linux-image-6.12-amd64 linux-headers-6.12-amd64 gnuplot-nox
slurmctld slurmd slurm-client munge"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	     grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing:$missing; run as root (or with sudo)" >&2
	exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y -q --no-install-recommends $missing
