#!/bin/bash
# tools/vm/run.sh - the VM lane: boot the distro kernel under qemu (TCG) as an
# N-node NUMA machine, insmod numagpu.ko, run the selftests with
# tools/ksft-run.sh and judge the run (tools/vm/check-log.sh).
# See usage() for options; the last line printed is the tap-summary line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tools=$(dirname "$here")

usage() {
	cat <<'EOF'
usage: tools/vm/run.sh --ko PATH [options]
       tools/vm/run.sh --shell [--ko PATH] [options]

  --ko PATH           module to insmod in the guest (required unless --shell)
  --insmod-args STR   module parameters, e.g. "nodes=4 debug=1"
  --tests DIR         test programs; DIR/run_order (names, one a line) sets
                      which run and in what order, else every executable in
                      DIR, sorted; DIR/settings may hold timeout=N (per test);
                      DIR/kmods lists kernel modules as --kmod takes them
  --only "NAME..."    run only these tests (overrides run_order)
  --bin FILE          extra executable for the guest's /bin (repeatable)
  --kmod "NAME ARGS"  load the booted kernel's own module NAME (from
                      /lib/modules/VER of this host, without dependencies)
                      with ARGS before numagpu.ko (repeatable), e.g.
                      --kmod "brd rd_nr=1 rd_size=16384"
  --no-kmods          load no kernel modules but numagpu.ko: ignore DIR/kmods
                      and --kmod, for a kernel that has them built in
                      (tools/debug-kernel.sh); their parameters are then the
                      kernel's config defaults, or give them with --append
                      as NAME.PARAM=VALUE
  --nodes N           NUMA nodes, 2..8 (default 4)
  --cpus N            vCPUs, >= nodes (default: nodes)
  --mem MiB           guest memory, split evenly across nodes (default 2048)
  --kernel PATH       kernel image (default /boot/vmlinuz-VER for the newest
                      /usr/src/linux-headers-*-amd64)
  --kver VER          use /boot/vmlinuz-VER
  --append STR        more kernel command line, e.g. "kasan_multi_shot"
  --timeout S         limit for the whole run, seconds (default 900)
  --out DIR           output directory (default build/vm of the checkout)
  --shell             interactive: console on this terminal, busybox shell
                      after loading the module; tests are not run
  --verbose           echo the guest console here while it runs
  -h, --help          this text

Output in OUT: console.log (ttyS0), guest.log (results channel, ttyS1),
ktap.log (selftest KTAP), dmesg.log, topology.txt, insmod.log, vm.tap (lane
checks), summary.txt, qemu.log, initramfs.cpio.gz, vmlinux-* (the kernel
unpacked for a faster PVH boot, reused while newer than the kernel; a
bzImage whose vmlinux has no PVH note, e.g. CONFIG_PVH=n, is booted as is).
Exit: 0 all passed, 1 a test or lane check failed, 2 usage, 3 setup error.
EOF
}

die_usage() { echo "run.sh: $*" >&2; echo "try: tools/vm/run.sh --help" >&2; exit 2; }
die_setup() { echo "run.sh: $*" >&2; exit 3; }
need_uint() { [[ $2 =~ ^[0-9]+$ ]] || die_usage "$1 needs a number, got '$2'"; }

ko="" insmod_args="" tests="" only="" bins=() kmods=() no_kmods=0 nodes=4 cpus="" mem=2048
append=""
# OUT defaults to build/vm of this checkout, wherever we are run from.
kernel="" kver="" run_timeout=900 out=$(dirname "$tools")/build/vm shell=0 verbose=0

while [ $# -gt 0 ]; do
	opt=$1
	# Accept both "--opt VAL" and "--opt=VAL".
	if [[ $opt == --*=* ]]; then
		set -- "${opt%%=*}" "${opt#*=}" "${@:2}"
		opt=$1
	fi
	case $opt in
	--ko | --insmod-args | --tests | --only | --bin | --kmod | --nodes | --cpus | \
		--mem | --kernel | --kver | --timeout | --out | --append)
		[ $# -ge 2 ] || die_usage "$opt needs an argument"
		val=$2
		shift 2
		;;
	--shell | --verbose | --no-kmods | -h | --help) shift ;;
	*) die_usage "unknown option '$opt'" ;;
	esac
	case $opt in
	--ko) ko=$val ;;
	--insmod-args) insmod_args=$val ;;
	--tests) tests=$val ;;
	--only) only=$val ;;
	--bin) bins+=("$val") ;;
	--kmod) kmods+=("$val") ;;
	--no-kmods) no_kmods=1 ;;
	--nodes) need_uint "$opt" "$val"; nodes=$val ;;
	--cpus) need_uint "$opt" "$val"; cpus=$val ;;
	--mem) need_uint "$opt" "$val"; mem=$val ;;
	--kernel) kernel=$val ;;
	--kver) kver=$val ;;
	--timeout) need_uint "$opt" "$val"; run_timeout=$val ;;
	--out) out=$val ;;
	--append) append=$val ;;
	--shell) shell=1 ;;
	--verbose) verbose=1 ;;
	-h | --help) usage; exit 0 ;;
	esac
done

# Results of an earlier run must not outlive a run that stops early (bad
# option, missing kernel): a caller could take them for this run's.
results="console.log guest.log ktap.log dmesg.log topology.txt insmod.log vm.tap qemu.log summary.txt"
for f in $results; do rm -f "$out/$f"; done

((nodes >= 2 && nodes <= 8)) || die_usage "--nodes must be 2..8"
cpus=${cpus:-$nodes}
((cpus >= nodes)) || die_usage "--cpus ($cpus) must be >= --nodes ($nodes)"
((cpus <= 64)) || die_usage "--cpus must be <= 64"
node_mem=$((mem / nodes))
((node_mem >= 64)) || die_usage "--mem gives $node_mem MiB a node; need >= 64"
((run_timeout > 0)) || die_usage "--timeout must be > 0"
if [ -z "$ko" ] && [ "$shell" = 0 ]; then
	die_usage "--ko PATH is required (or use --shell)"
fi
[ -z "$ko" ] || [ -f "$ko" ] || die_usage "--ko: no such file: $ko"
[ -z "$tests" ] || [ -d "$tests" ] || die_usage "--tests: no such directory: $tests"
for b in ${bins[@]+"${bins[@]}"}; do
	if [ ! -f "$b" ] || [ ! -x "$b" ]; then
		die_usage "--bin: not an executable file: $b"
	fi
done
[ -z "$kernel" ] || [ -z "$kver" ] || die_usage "give --kernel or --kver, not both"

if [ -z "$kernel" ]; then
	if [ -z "$kver" ]; then
		# The newest headers are what kmod/ builds against by default.
		kver=$(find /usr/src -maxdepth 1 -name 'linux-headers-*-amd64' \
			-printf '%f\n' 2>/dev/null | sed 's/^linux-headers-//' |
			sort -V | tail -n 1)
		[ -n "$kver" ] || die_setup "no /usr/src/linux-headers-*-amd64; give --kernel"
	fi
	kernel=/boot/vmlinuz-$kver
fi
# the release of a /boot/vmlinuz-VER kernel names its modules' directory
[ -n "$kver" ] || case ${kernel##*/} in vmlinuz-*) kver=${kernel##*/vmlinuz-} ;; esac
[ -r "$kernel" ] || die_setup "cannot read kernel $kernel (missing, or not readable by $(id -un))"

for t in qemu-system-x86_64 cpio gzip timeout tail; do
	command -v "$t" >/dev/null || die_setup "$t not found (apt-get install qemu-system-x86 cpio)"
done
busybox=$(command -v busybox || :)
[ -n "$busybox" ] || die_setup "busybox not found (apt-get install busybox-static)"

mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$out/initramfs
initrd=$out/initramfs.cpio.gz

# --- initramfs ---------------------------------------------------------

rm -rf "$root"
mkdir -p "$root"/{bin,dev,etc,lib/modules,proc,root,sys,tmp,selftests/numagpu}
ln -s bin "$root/sbin"
mkdir -p "$root/usr"
ln -s ../bin "$root/usr/bin"
ln -s ../bin "$root/usr/sbin"

# copy_exe FILE DEST: copy an executable and, if it is dynamically linked,
# the libraries ldd names (the project's binaries are static; this is for
# everything else).
copy_exe() {
	cp "$1" "$2"
	local lib
	{ ldd "$1" 2>/dev/null || :; } | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
		while read -r lib; do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
}

copy_exe "$busybox" "$root/bin/busybox"
# /init needs /bin/sh; it installs the other applet links itself, which is
# cheaper in the guest than ~270 ln(1) runs here.
ln -s busybox "$root/bin/sh"
install -m 0755 "$here/init.sh" "$root/init"
install -m 0755 "$tools/ksft-run.sh" "$root/bin/ksft-run.sh"
[ -z "$ko" ] || cp "$ko" "$root/lib/modules/numagpu.ko"
for b in ${bins[@]+"${bins[@]}"}; do
	copy_exe "$b" "$root/bin/$(basename "$b")"
done

# Modules of the booted kernel, decompressed (busybox insmod reads plain
# ELF), listed with their arguments in /etc/numagpu-kmods for /init.
if [ "$no_kmods" = 1 ]; then
	kmods=()
elif [ -n "$tests" ] && [ -f "$tests/kmods" ]; then
	while IFS= read -r line; do
		line=${line%%#*}
		line=$(echo "$line" | sed 's/[[:space:]]*$//')
		[ -z "$line" ] || kmods+=("$line")
	done <"$tests/kmods"
fi
mkdir -p "$root/lib/modules/extra"
: >"$root/etc/numagpu-kmods"
for km in ${kmods[@]+"${kmods[@]}"}; do
	name=${km%% *}
	args=""
	[ "$name" = "$km" ] || args=${km#* }
	[ -n "$kver" ] || die_usage "--kmod $name: give --kver (or a /boot/vmlinuz-VER kernel)"
	src=$(find "/lib/modules/$kver/kernel" -name "$name.ko*" 2>/dev/null | head -n 1)
	[ -n "$src" ] || die_setup "--kmod: no $name.ko* under /lib/modules/$kver/kernel"
	case $src in
	*.xz) xz -dc "$src" >"$root/lib/modules/extra/$name.ko" ;;
	*.zst) zstd -dcq "$src" >"$root/lib/modules/extra/$name.ko" ;;
	*.gz) gzip -dc "$src" >"$root/lib/modules/extra/$name.ko" ;;
	*) cp "$src" "$root/lib/modules/extra/$name.ko" ;;
	esac
	echo "$name $args" >>"$root/etc/numagpu-kmods"
done

test_list=""
if [ -n "$tests" ]; then
	dst=$root/selftests/numagpu
	# Every top-level file but build leftovers: tests may read data files
	# or call helpers next to them.
	find "$tests" -maxdepth 1 -type f ! -name '*.[choda]' ! -name '*.cmd' \
		! -name 'Makefile*' ! -name '*.mk' -print0 |
		while IFS= read -r -d '' f; do
			if [ -x "$f" ]; then copy_exe "$f" "$dst/"; else cp "$f" "$dst/"; fi
		done
	if [ -n "$only" ]; then
		test_list=$only
	elif [ -f "$tests/run_order" ]; then
		test_list=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$tests/run_order")
	else
		test_list=$(find "$dst" -maxdepth 1 -type f -perm -u+x -printf '%f\n' |
			grep -vx -e settings -e run_order | LC_ALL=C sort)
	fi
	test_list=$(echo "$test_list" | tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//')
	[ -n "$test_list" ] || echo "run.sh: warning: no test programs found in $tests" >&2
fi

# Settings for /init. printf %q output is valid for busybox sh here as the
# values are plain words or words with spaces.
{
	echo "VM_MODE=$([ "$shell" = 1 ] && echo shell || echo test)"
	printf 'VM_INSMOD_ARGS=%q\n' "$insmod_args"
	printf 'VM_TESTS=%q\n' "$test_list"
	printf 'VM_NODES=%q\n' "$nodes"
} >"$root/etc/numagpu-vm.conf"

# newc entries for /dev and /dev/console written by hand: cpio(1) can only
# archive real device nodes, and making one needs root. The kernel accepts
# concatenated archives, so this one just follows the main one.
cpio_entry() { # NAME MODE(octal) RDEVMAJOR RDEVMINOR
	local name=$1 namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%s\0' \
		0 $((8#$2)) 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0 "$name"
	# Header (110 bytes) + name + NUL is padded to a multiple of 4.
	local pad=$(((4 - (110 + namesize) % 4) % 4))
	head -c "$pad" /dev/zero
}

(
	cd "$root"
	find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet
	cpio_entry dev 040755 0 0
	cpio_entry dev/console 020600 5 1
	cpio_entry TRAILER!!! 0 0 0
) | gzip -1 >"$initrd"

# --- kernel image ------------------------------------------------------

# is_pvh_elf FILE: an ELF vmlinux with a Xen PVH entry note (type 0x12),
# which qemu can boot directly.
is_pvh_elf() {
	[ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] &&
		readelf -n "$1" 2>/dev/null | grep -q 'Xen.*(0x00000012)'
}

# boot_image KERNEL: prints what to give -kernel. A bzImage's own XZ
# decompressor takes about 4 s under TCG, more than the rest of the boot,
# so the vmlinux inside is unpacked once on the host (cached in OUT) and
# booted through its PVH entry point. Anything else is used as it is.
boot_image() {
	local k=$1 cache fmt magic off
	cache=$out/vmlinux-$(basename "$k")
	if [ "$(od -An -c -j 514 -N 4 "$k" | tr -d ' ')" != HdrS ] ||
		! command -v readelf >/dev/null; then
		echo "$k"
		return
	fi
	if [ -s "$cache" ] && [ "$cache" -nt "$k" ]; then
		echo "$cache"
		return
	fi
	for fmt in xz gzip zstd; do
		case $fmt in
		xz) magic='\xFD7zXZ\x00' ;;
		gzip) magic='\x1F\x8B\x08' ;;
		zstd) magic='\x28\xB5\x2F\xFD' ;;
		esac
		command -v "$fmt" >/dev/null || continue
		for off in $(LC_ALL=C grep -obUaP "$magic" "$k" 2>/dev/null |
			cut -d: -f1 | head -n 3); do
			tail -c +$((off + 1)) "$k" | "$fmt" -dcq >"$cache.tmp" 2>/dev/null || :
			if is_pvh_elf "$cache.tmp"; then
				mv "$cache.tmp" "$cache"
				echo "$cache"
				return
			fi
		done
	done
	rm -f "$cache.tmp"
	echo "$k"
}
boot_kernel=$(boot_image "$kernel")

# --- qemu --------------------------------------------------------------

qemu=(qemu-system-x86_64 -accel tcg -machine pc -nodefaults -no-user-config
	-m "$((node_mem * nodes))" -no-reboot -kernel "$boot_kernel" -initrd "$initrd")
# One socket per node where the CPUs divide evenly, else one per CPU: CPUs
# that share a socket (and LLC) but not a node make the guest WARN in
# topology_sane().
if ((cpus % nodes == 0)); then
	qemu+=(-smp "$cpus,sockets=$nodes,cores=$((cpus / nodes)),threads=1")
else
	qemu+=(-smp "$cpus,sockets=$cpus,cores=1,threads=1")
fi
for ((i = 0; i < nodes; i++)); do
	lo=$((i * cpus / nodes)) hi=$(((i + 1) * cpus / nodes - 1))
	qemu+=(-object "memory-backend-ram,id=m$i,size=${node_mem}M"
		-numa "node,nodeid=$i,memdev=m$i,cpus=$lo-$hi")
done
# SLIT: nodes sit on a ring; 10 local, +10 per hop (neighbours 20).
for ((i = 0; i < nodes; i++)); do
	for ((j = 0; j < nodes; j++)); do
		((i != j)) || continue
		d=$((i > j ? i - j : j - i))
		d=$((d < nodes - d ? d : nodes - d))
		qemu+=(-numa "dist,src=$i,dst=$j,val=$((10 + 10 * d))")
	done
done

# mitigations=off: nothing to protect in a throwaway guest, and TCG is slow.
cmdline="console=ttyS0 panic=-1 printk.devkmsg=on mitigations=off"
cmdline+=" i8042.noaux i8042.nokbd i8042.nopnp"
[ -z "$append" ] || cmdline+=" $append"

console=$out/console.log
guest=$out/guest.log

if [ "$shell" = 1 ]; then
	qemu+=(-nographic -serial mon:stdio -serial "file:$guest")
	echo "run.sh: interactive guest ($nodes nodes, $cpus cpus, ${node_mem}M/node); exit the shell or press Ctrl-A x to quit"
	rc=0
	"${qemu[@]}" -append "$cmdline" || rc=$?
	exit "$rc"
fi

qemu+=(-display none -monitor none -serial "file:$console" -serial "file:$guest")
: >"$console"
: >"$guest"

shown=$kernel
[ "$boot_kernel" = "$kernel" ] || shown="$kernel (via $boot_kernel)"
echo "run.sh: booting $shown: $nodes nodes, $cpus cpus, ${node_mem} MiB/node, tests: ${test_list:-none}"
echo "run.sh: logs in $out"

qpid="" spid=""
# shellcheck disable=SC2317 # called from the trap
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || :
	[ -z "$spid" ] || kill "$spid" 2>/dev/null || :
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ms() { echo $(($(date +%s%N) / 1000000)); }
start=$(ms)
# -k: qemu gets SIGTERM at the limit and SIGKILL 10 s later.
timeout -k 10 "$run_timeout" "${qemu[@]}" -append "$cmdline" \
	</dev/null >"$out/qemu.log" 2>&1 &
qpid=$!

# Follow the run live: the console when --verbose, else the guest's KTAP and
# progress (the dmesg dump is left for the logs).
if [ "$verbose" = 1 ]; then
	tail -n +1 -s 0.3 -F --pid="$qpid" "$console" 2>/dev/null | tr -d '\r' &
else
	tail -n +1 -s 0.3 -F --pid="$qpid" "$guest" 2>/dev/null | awk '
		{ sub(/\r$/, "") }
		/^@@NUMAGPU-VM@@ / {
			sec = $2
			if (sec == "BOOT") print "vm: guest up, " $3
			else if (sec == "INSMOD-RC") print "vm: insmod rc=" $3 ", " $4
			else if (sec == "KTAP-RC") print "vm: tests done, ksft-run rc=" $3 ", " $4
			else if (sec == "END") print "vm: guest done, " $3
			fflush()
			next
		}
		sec == "KTAP" || sec == "INSMOD" { print; fflush() }' &
fi
spid=$!

qrc=0
wait "$qpid" || qrc=$?
qpid=""
wait "$spid" 2>/dev/null || :
spid=""
elapsed=$(($(ms) - start))

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	echo "run.sh: qemu killed after the --timeout of ${run_timeout}s"
elif [ "$qrc" != 0 ]; then
	echo "run.sh: qemu exited with status $qrc"
fi
[ ! -s "$out/qemu.log" ] || sed 's/^/qemu: /' "$out/qemu.log"
printf 'run.sh: qemu ran for %d.%01ds\n' $((elapsed / 1000)) $((elapsed % 1000 / 100))

lane_rc=0
"$here/check-log.sh" -n "$nodes" "$out" || lane_rc=$?

src=0
"$tools/tap-summary.sh" "$out/ktap.log" "$out/vm.tap" >"$out/summary.txt" 2>&1 || src=$?
if [ "$src" != 0 ] || [ "$lane_rc" != 0 ]; then
	echo "---- last lines of $console ----"
	tr -d '\r' <"$console" | tail -n 40
	echo "----"
fi
cat "$out/summary.txt"
[ "$lane_rc" = 0 ] || [ "$src" != 0 ] || src=1
exit "$src"
