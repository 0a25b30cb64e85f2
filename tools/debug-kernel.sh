#!/bin/bash
# tools/debug-kernel.sh - the debug-kernel lane (`make check-debug`): build a
# 6.1 kernel with KASAN, lockdep and the VM/list/sleep checks from Debian's
# linux-source-6.1 (once; cached), build numagpu.ko against it, and run the
# kselftests on it in the VM lane (tools/vm/run.sh), which fails on any KASAN
# report, lockdep splat, BUG or WARNING. See usage().
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")

usage() {
	cat <<'EOF'
usage: tools/debug-kernel.sh [options]

Builds, once, a 6.1 kernel from Debian's linux-source-6.1: `make ARCH=x86_64
tinyconfig`, then selftests/numagpu/config and tools/debug-kernel.config
merged onto it (scripts/kconfig/merge_config.sh -m; the latter wins), then
`make olddefconfig` and `make bzImage modules`. Every option the two
fragments set must end up so in .config, or it stops and lists those that
did not. The tree is reused while the tarball, both fragments, the compiler
and this recipe are unchanged. Then it builds numagpu.ko against the tree
(tools/build-module.sh -k) and boots it in the VM lane with the kselftests
(tools/vm/run.sh --no-kmods: brd is built in).

  --out DIR       everything goes here (default build/debug-kernel of the
                  checkout): linux-source-6.1/ (the tree), kernel-build.log,
                  kmod/ (the module), vm/ (run.sh's output)
  --src TARBALL   kernel source (default /usr/src/linux-source-6.1.tar.xz)
  --jobs N        parallel kernel build jobs (default: nproc)
  --rebuild       extract and build the kernel again even if it is cached
  --build-only    build the kernel and the module; do not boot
  --tests DIR     selftests (default build/selftests/numagpu)
  --bin FILE      executable for the guest's /bin (default build/ngemu;
                  repeatable; the first one replaces the default)
  --only "NAME..."  run only these tests
  --nodes N       NUMA nodes of the VM (default 4)
  --timeout S     limit for the whole VM run, seconds (default 3600)
  --append STR    more kernel command line (default kasan_multi_shot, so
                  that every KASAN report is printed, not only the first)
  --shell         an interactive shell in the VM instead of the tests
  -h, --help      this text

Needs flex, bison, bc and libelf-dev besides what tools/install-deps.sh
installs (apt-get install flex bison bc libelf-dev). Here (2 cores, qemu
TCG) the kernel takes 6-7 minutes to build the first time and the suite
about 3 minutes to run under it; the tree needs about 1.8 GB.
Exit: 0 all passed, 1 a test or lane check failed (or numagpu.ko does not
build against the debug kernel), 2 usage, 3 setup error (missing tools or
tarball, the kernel does not configure or build).
EOF
}

die_usage() { echo "debug-kernel: $*" >&2; echo "try: tools/debug-kernel.sh --help" >&2; exit 2; }
die_setup() { echo "debug-kernel: $*" >&2; exit 3; }
say() { echo "debug-kernel: $*"; }
need_uint() { [[ $2 =~ ^[0-9]+$ ]] || die_usage "$1 needs a number, got '$2'"; }

out=$top/build/debug-kernel
src=/usr/src/linux-source-6.1.tar.xz
jobs=$(nproc)
rebuild=0 build_only=0 shell=0
tests=$top/build/selftests/numagpu
bins=() only="" nodes=4 run_timeout=3600 append="kasan_multi_shot"

while [ $# -gt 0 ]; do
	opt=$1
	if [[ $opt == --*=* ]]; then
		set -- "${opt%%=*}" "${opt#*=}" "${@:2}"
		opt=$1
	fi
	case $opt in
	--out | --src | --jobs | --tests | --bin | --only | --nodes | --timeout | --append)
		[ $# -ge 2 ] || die_usage "$opt needs an argument"
		val=$2
		shift 2
		;;
	--rebuild | --build-only | --shell | -h | --help) shift ;;
	*) die_usage "unknown option '$opt'" ;;
	esac
	case $opt in
	--out) out=$val ;;
	--src) src=$val ;;
	--jobs) need_uint "$opt" "$val"; jobs=$val ;;
	--tests) tests=$val ;;
	--bin) bins+=("$val") ;;
	--only) only=$val ;;
	--nodes) need_uint "$opt" "$val"; nodes=$val ;;
	--timeout) need_uint "$opt" "$val"; run_timeout=$val ;;
	--append) append=$val ;;
	--rebuild) rebuild=1 ;;
	--build-only) build_only=1 ;;
	--shell) shell=1 ;;
	-h | --help) usage; exit 0 ;;
	esac
done
((jobs > 0)) || die_usage "--jobs must be > 0"
[ ${#bins[@]} -gt 0 ] || bins=("$top/build/ngemu")

fragment=$here/debug-kernel.config
ksft_config=$top/selftests/numagpu/config
[ -r "$fragment" ] || die_setup "missing $fragment"
[ -r "$src" ] || die_setup "cannot read $src (apt-get install linux-source-6.1)"
if [ "$build_only" = 0 ]; then
	[ "$shell" = 1 ] || [ -d "$tests" ] || die_setup "no selftests in $tests (run make first)"
	for b in "${bins[@]}"; do
		[ -x "$b" ] || die_setup "--bin: not an executable: $b (run make first)"
	done
fi
missing=""
for t in make gcc flex bison bc perl tar xz sha256sum flock; do
	command -v "$t" >/dev/null || missing="$missing $t"
done
[ -r /usr/include/gelf.h ] || missing="$missing libelf-dev"
[ -z "$missing" ] || die_setup "missing:$missing (apt-get install flex bison bc libelf-dev)"

mkdir -p "$out"
out=$(cd "$out" && pwd)
exec 9>"$out/.lock"
flock -n 9 || die_setup "another tools/debug-kernel.sh is using $out"

tree=$out/linux-source-6.1
blog=$out/kernel-build.log
# The kernel's make must not see the caller's (e.g. `make V=1 BUILD=...
# check-debug`) variables and jobserver.
kmake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$tree" ARCH=x86_64 "$@"; }

# Everything the tree's contents depend on; the tree is reused while equal.
recipe="tinyconfig; merge_config.sh -m ksft-config fragment; olddefconfig; bzImage modules; v1"
key=$(
	{
		echo "$recipe"
		sha256sum <"$src"
		cat "$ksft_config" 2>/dev/null || :
		echo "--"
		cat "$fragment"
		gcc --version | head -n 1
	} | sha256sum | cut -d' ' -f1
)

# wanted: CONFIG_X=VALUE or "CONFIG_X is not set", one a line, from both
# fragments, the debug fragment's value winning.
wanted() {
	cat "$ksft_config" "$fragment" 2>/dev/null | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { n = $0; sub(/=.*/, "", n); v[n] = $0; if (!(n in o)) o[n] = ++k; next }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { n = $2; v[n] = n " is not set"; if (!(n in o)) o[n] = ++k }
		END { for (n in o) order[o[n]] = n; for (i = 1; i <= k; i++) print v[order[i]] }'
}

# check_config: every wanted option as wanted in $tree/.config; prints the
# misses and returns 1 if any.
check_config() {
	local w name have bad=""
	while IFS= read -r w; do
		case $w in
		*" is not set")
			name=${w%% *}
			if grep -q "^$name=" "$tree/.config"; then
				bad="$bad  $name: wanted off, is $(grep "^$name=" "$tree/.config")"$'\n'
			fi
			;;
		*)
			name=${w%%=*}
			grep -qxF "$w" "$tree/.config" && continue
			have=$(grep -E "^$name=|^# $name is not set" "$tree/.config" || :)
			bad="$bad  $w: is ${have:-absent (a dependency is off)}"$'\n'
			;;
		esac
	done < <(wanted)
	[ -z "$bad" ] && return 0
	echo "debug-kernel: these options did not end up as wanted in $tree/.config:" >&2
	printf '%s' "$bad" >&2
	echo "debug-kernel: fix their dependencies in $fragment" >&2
	return 1
}

bzimage=$tree/arch/x86/boot/bzImage
cached=0
if [ "$rebuild" = 0 ] && [ -f "$out/kernel.stamp" ] &&
	[ "$(cat "$out/kernel.stamp")" = "$key" ] &&
	[ -f "$bzimage" ] && [ -f "$tree/Module.symvers" ]; then
	cached=1
fi

if [ "$cached" = 1 ]; then
	check_config || die_setup "the cached tree's .config is not as wanted"
	say "reusing the kernel in $tree ($(cat "$out/kernel.time" 2>/dev/null || echo '?')s to build)"
else
	rm -f "$out/kernel.stamp" "$out/kernel.time"
	start=$SECONDS
	# The source is extracted again only when it changed; a changed
	# fragment rebuilds the same tree incrementally.
	src_id=$(sha256sum <"$src" | cut -d' ' -f1)
	if [ "$rebuild" = 1 ] || [ ! -f "$tree/Makefile" ] ||
		[ "$(cat "$out/source.id" 2>/dev/null)" != "$src_id" ]; then
		say "extracting $src into $tree"
		rm -rf "$tree" "$out/src.tmp" "$out/source.id"
		mkdir -p "$out/src.tmp"
		tar -xf "$src" -C "$out/src.tmp" || die_setup "cannot extract $src"
		d=$(find "$out/src.tmp" -mindepth 1 -maxdepth 1 -type d)
		[ -f "$d/Makefile" ] || die_setup "$src: no kernel tree inside"
		mv "$d" "$tree"
		rm -rf "$out/src.tmp"
		echo "$src_id" >"$out/source.id"
	fi
	frags=("$fragment")
	[ ! -r "$ksft_config" ] || frags=("$ksft_config" "$fragment")
	say "configuring: tinyconfig + ${frags[*]#"$top"/}"
	{
		kmake tinyconfig &&
			(cd "$tree" && scripts/kconfig/merge_config.sh -m .config "${frags[@]}") &&
			kmake olddefconfig
	} >"$blog" 2>&1 || {
		tail -n 30 "$blog" >&2
		die_setup "kernel configuration failed (log: $blog)"
	}
	check_config || die_setup "kernel configuration is not as wanted (log: $blog)"
	say "building bzImage and modules with -j$jobs (log: $blog)"
	if ! kmake -j"$jobs" bzImage modules >>"$blog" 2>&1; then
		grep -E 'error|Error' "$blog" | tail -n 20 >&2 || :
		tail -n 20 "$blog" >&2
		die_setup "kernel build failed (log: $blog)"
	fi
	if [ ! -f "$bzimage" ] || [ ! -f "$tree/Module.symvers" ]; then
		die_setup "kernel build left no bzImage or Module.symvers (log: $blog)"
	fi
	echo $((SECONDS - start)) >"$out/kernel.time"
	echo "$key" >"$out/kernel.stamp"
	say "kernel built in $((SECONDS - start))s: $bzimage"
fi
kernelrelease=$(kmake -s kernelrelease)

say "building numagpu.ko against $kernelrelease"
start=$SECONDS
if ! ko=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	"$top/tools/build-module.sh" -k "$tree" "$kernelrelease" "$out/kmod" ARCH=x86_64); then
	echo "debug-kernel: numagpu.ko does not build against the debug kernel" >&2
	exit 1
fi
say "module built in $((SECONDS - start))s: $ko"

[ "$build_only" = 0 ] || exit 0

vm=(--kernel "$bzimage" --ko "$ko" --nodes "$nodes" --out "$out/vm"
	--timeout "$run_timeout" --no-kmods --append "$append")
[ "$shell" = 1 ] || vm+=(--tests "$tests")
for b in "${bins[@]}"; do vm+=(--bin "$b"); done
[ -z "$only" ] || vm+=(--only "$only")
if [ "$shell" = 1 ]; then
	[ ! -d "$tests" ] || vm+=(--tests "$tests")
	exec "$top/tools/vm/run.sh" "${vm[@]}" --shell
fi

start=$SECONDS
rc=0
"$top/tools/vm/run.sh" "${vm[@]}" || rc=$?
say "VM run took $((SECONDS - start))s; logs in $out/vm"
exit "$rc"
