#!/bin/sh
# Guest /init of the numagpu VM lane (busybox sh, PID 1), copied into the
# initramfs by tools/vm/run.sh together with /etc/numagpu-vm.conf.
#
# ttyS0 is the console (kernel messages, this script's chatter, a copy of the
# test output); ttyS1 is the results channel the host parses: lines
#   @@NUMAGPU-VM@@ NAME [ARGS]
# open sections (BOOT, TOPOLOGY, INSMOD, INSMOD-RC, KTAP, KTAP-RC, TAINT,
# DMESG, END); see tools/vm/check-log.sh for the reader.
#
# No "set -e": PID 1 must always get to the END marker and the poweroff, or
# the kernel panics and the host learns nothing.

/bin/busybox --install -s /bin
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
# run.sh puts /dev/console in the cpio; this covers an initramfs without it.
[ -t 1 ] || exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
hostname numagpu-vm

VM_MODE="test"
VM_INSMOD_ARGS=
VM_TESTS=
VM_SUITE_DIR=/selftests/numagpu
VM_NODES=
# shellcheck disable=SC1091 # written by run.sh
[ -r /etc/numagpu-vm.conf ] && . /etc/numagpu-vm.conf

KO=/lib/modules/numagpu.ko
# Tests may use these: the module path, that they run in the VM lane and
# how many NUMA nodes the host asked for.
export NUMAGPU_KO="$KO" NUMAGPU_VM=1 NUMAGPU_VM_NODES="$VM_NODES" HOME=/root \
	TERM="${TERM:-vt100}"

# Raw: no \r added to newlines, no echo of anything back into the channel.
stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3>/dev/ttyS1

uptime_s() { cut -d ' ' -f 1 /proc/uptime; }
mark() { echo "@@NUMAGPU-VM@@ $*" >&3; }
say() { echo "numagpu-vm: $*"; }

mark BOOT "uptime=$(uptime_s)"
say "booted in $(uptime_s)s, mode=$VM_MODE"

topology() {
	d=/sys/devices/system/node
	echo "kernel: $(uname -r)"
	echo "cpus: $(nproc)"
	echo "online: $(cat $d/online)"
	echo "has_memory: $(cat $d/has_memory)"
	for n in "$d"/node[0-9]*; do
		[ -d "$n" ] || continue
		mem=$(awk '/MemTotal/ { print $4 }' "$n/meminfo")
		echo "${n##*/}: cpus=$(cat "$n/cpulist") mem_kB=$mem" \
			"distance=$(cat "$n/distance")"
	done
}
mark TOPOLOGY
topology >&3

# The kernel's own modules tests need (run.sh --kmod), before numagpu.ko.
while read -r name args; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086 # module parameters are separate words
	out=$(insmod "/lib/modules/extra/$name.ko" $args 2>&1)
	say "insmod $name${args:+ $args}: rc=$?${out:+: $out}"
done </etc/numagpu-kmods 2>/dev/null

if [ -e "$KO" ]; then
	mark INSMOD
	# shellcheck disable=SC2086 # module parameters are separate words
	out=$(insmod "$KO" $VM_INSMOD_ARGS 2>&1)
	rc=$?
	[ -z "$out" ] || echo "$out" >&3
	mark INSMOD-RC "$rc" "uptime=$(uptime_s)"
	say "insmod $KO${VM_INSMOD_ARGS:+ $VM_INSMOD_ARGS}: rc=$rc at $(uptime_s)s${out:+: $out}"
else
	mark INSMOD-RC none
	say "no module in the initramfs"
fi

if [ "$VM_MODE" = shell ]; then
	topology
	say "tests are in $VM_SUITE_DIR; run them with:"
	say "  cd $VM_SUITE_DIR && ksft-run.sh -s numagpu $VM_TESTS"
	say "exit the shell to power off"
	exec 3>&-
	export PS1='numagpu-vm:\w# '
	# cttyhack makes the console our controlling tty so ^C works.
	setsid cttyhack sh -l
	poweroff -f
fi

mark KTAP
say "running tests: ${VM_TESTS:-(none)}"
cd "$VM_SUITE_DIR" 2>/dev/null || cd /
if [ -n "$VM_TESTS" ]; then
	# The test output goes to the console too, so kernel messages there
	# sit next to the test that caused them. The status outlives the pipe
	# in a file because busybox sh has no PIPESTATUS.
	# shellcheck disable=SC2086 # VM_TESTS is a list of names
	{ ksft-run.sh -s numagpu $VM_TESTS; echo $? >/tmp/ksft.rc; } 2>&1 |
		tee /dev/console >&3
	rc=$(cat /tmp/ksft.rc 2>/dev/null)
else
	printf 'TAP version 13\n1..0\n' >&3
	rc=0
fi
mark KTAP-RC "${rc:-unknown}" "uptime=$(uptime_s)"
say "tests done at $(uptime_s)s, ksft-run rc=${rc:-unknown}"

mark TAINT
cat /proc/sys/kernel/tainted >&3
mark DMESG
dmesg >&3
mark END "uptime=$(uptime_s)"
# Closing the last handle of the tty waits until its output has drained,
# so nothing is lost to the poweroff below.
exec 3>&-
sync
poweroff -f
