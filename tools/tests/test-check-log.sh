#!/bin/sh
# Tests tools/vm/check-log.sh on made-up VM logs (no VM needed). Emits TAP;
# exit 1 if a check failed. NUMAGPU_TOOLS=DIR tests the tools in DIR.
set -eu
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"

M='@@NUMAGPU-VM@@'
# make_run DIR: a clean 4-node run; these variables change it:
#   ONLINE TAINT INSMOD_RC END(=0 drops the end marker) DMESG_EXTRA
#   CONSOLE_EXTRA
make_run() {
	mkdir -p "$1"
	cat >"$1/guest.log" <<EOF
$M BOOT uptime=2.90
$M TOPOLOGY
kernel: 6.1.0-56-amd64
cpus: 4
online: ${ONLINE:-0-3}
has_memory: ${ONLINE:-0-3}
node0: cpus=0 mem_kB=469364 distance=10 20 30 20
node1: cpus=1 mem_kB=515672 distance=20 10 20 30
node2: cpus=2 mem_kB=515672 distance=30 20 10 20
node3: cpus=3 mem_kB=515492 distance=20 30 20 10
$M INSMOD
$M INSMOD-RC ${INSMOD_RC:-0} uptime=3.1
$M KTAP
TAP version 13
1..1
# selftests: numagpu: t
# ok 1 g.a
ok 1 numagpu: t
$M KTAP-RC 0 uptime=3.5
$M TAINT
${TAINT:-12288}
$M DMESG
[    0.000000] Linux version 6.1.0-56-amd64
[    3.292580] numagpu: loading out-of-tree module taints kernel.
${DMESG_EXTRA:-[    3.300000] numagpu: loaded}
EOF
	[ "${END:-1}" = 0 ] || echo "$M END uptime=3.9" >>"$1/guest.log"
	cat >"$1/console.log" <<EOF
[    0.000000] Linux version 6.1.0-56-amd64
numagpu-vm: booted in 2.90s, mode=test
# BUG: this is a test printing the word, not the kernel
${CONSOLE_EXTRA:-[    3.900000] reboot: Power down}
EOF
}
# check DIR [ARGS]: sets rc, out, tap (vm.tap contents)
check() {
	d=$1
	shift
	rc=0
	out=$("$tools/vm/check-log.sh" "$@" "$d" 2>&1) || rc=$?
	tap=$(cat "$d/vm.tap" 2>/dev/null || :)
}
# result_of N: the vm.tap line of check N ("ok" or "not ok")
result_of() {
	printf '%s\n' "$tap" | awk -v n="$1" '$0 ~ "^(not )?ok " n " " { sub(/ [0-9]+ .*/, ""); print }'
}

make_run "$tmp/clean"
check "$tmp/clean" -n 4
is "clean run passes" 0 "$rc"
is "clean run: six checks, all ok" 6 "$(printf '%s\n' "$tap" | grep -c '^ok ')"
is "ktap.log split out" "TAP version 13" "$(head -n 1 "$tmp/clean/ktap.log")"
is "ktap.log ends with the last result" "ok 1 numagpu: t" "$(tail -n 1 "$tmp/clean/ktap.log")"
is "dmesg.log split out" 3 "$(wc -l <"$tmp/clean/dmesg.log" | tr -d ' ')"
is "topology.txt split out" "online: 0-3" "$(grep '^online' "$tmp/clean/topology.txt")"
case $out in
*"node3: cpus=3"*) pass "node list printed" ;;
*) diag "$out"; fail "node list printed" ;;
esac
rc2=0
sout=$("$tools/tap-summary.sh" "$tmp/clean/ktap.log" "$tmp/clean/vm.tap") || rc2=$?
is "clean run summarizes as all passed" "7 passed, 0 failed, 0 skipped/0" \
	"$(printf '%s\n' "$sout" | tail -n 1)/$rc2"

DMESG_EXTRA='[    3.3] WARNING: CPU: 1 PID: 147 at hello.c:12 hello_init+0x2a/0x1000 [numagpu]' \
	make_run "$tmp/warn"
check "$tmp/warn"
is "WARNING in dmesg fails" "1/not ok" "$rc/$(result_of 5)"
case $tap in
*"#   [    3.3] WARNING: CPU: 1"*) pass "the WARNING line is quoted in vm.tap" ;;
*) diag "$tap"; fail "the WARNING line is quoted in vm.tap" ;;
esac

# The guest died before it could dump dmesg: only the console saw it.
END=0 CONSOLE_EXTRA='[    3.4] Oops: 0002 [#1] PREEMPT SMP NOPTI' make_run "$tmp/oops"
check "$tmp/oops"
is "Oops on the console fails" "1/not ok" "$rc/$(result_of 5)"
is "missing end marker fails the finish check" "not ok" "$(result_of 4)"

for pat in 'BUG: kernel NULL pointer dereference' 'general protection fault, probably' \
	'Kernel panic - not syncing: x' 'refcount_t: underflow; use-after-free.' \
	'list_add corruption. prev->next should be' 'UBSAN: shift-out-of-bounds in x.c' \
	'BUG: KASAN: slab-out-of-bounds in f+0x1' \
	'INFO: trying to register non-static key.'; do
	DMESG_EXTRA="[    3.5] $pat" make_run "$tmp/pat"
	check "$tmp/pat"
	is "dmesg '$pat' fails" "1/not ok" "$rc/$(result_of 5)"
done

for t in 1:P 512:W 4097:PO; do
	TAINT=${t%%:*} make_run "$tmp/taint"
	check "$tmp/taint"
	is "taint ${t%%:*} (${t#*:}) fails" "1/not ok" "$rc/$(result_of 6)"
done
for t in 12288 4096 8192 0; do
	TAINT=$t make_run "$tmp/taint"
	check "$tmp/taint"
	is "taint $t passes" "0/ok" "$rc/$(result_of 6)"
done

END=0 make_run "$tmp/noend"
check "$tmp/noend"
is "missing end marker fails" "1/not ok" "$rc/$(result_of 4)"

ONLINE=0-1 make_run "$tmp/nodes"
check "$tmp/nodes" -n 4
is "2 nodes when 4 expected fails" "1/not ok" "$rc/$(result_of 2)"
check "$tmp/nodes" -n 2
is "2 nodes when 2 expected passes" "0/ok" "$rc/$(result_of 2)"
ONLINE=0,2-3 make_run "$tmp/nodes"
check "$tmp/nodes" -n 3
is "node list 0,2-3 counts 3" "0/ok" "$rc/$(result_of 2)"

INSMOD_RC=1 make_run "$tmp/insmod"
check "$tmp/insmod"
is "insmod failure fails" "1/not ok" "$rc/$(result_of 3)"

# A kernel message word in plain test output on the console is not a
# kernel message (make_run always prints one); in dmesg it would be.
make_run "$tmp/plain"
check "$tmp/plain"
is "'BUG:' in test output on the console is ignored" "0/ok" "$rc/$(result_of 5)"

make_run "$tmp/crlf"
sed 's/$/\r/' "$tmp/crlf/guest.log" >"$tmp/crlf/g" && mv "$tmp/crlf/g" "$tmp/crlf/guest.log"
check "$tmp/crlf"
is "CRLF channel still parses" 0 "$rc"

# Output without a final newline runs into the next marker.
make_run "$tmp/glued"
sed "s/^ok 1 numagpu: t\$/ok 1 numagpu: t$M KTAP-RC 0/; /^$M KTAP-RC 0 uptime/d" \
	"$tmp/glued/guest.log" >"$tmp/glued/g" && mv "$tmp/glued/g" "$tmp/glued/guest.log"
check "$tmp/glued"
is "marker glued to output is still found" "0/ok 1 numagpu: t" \
	"$rc/$(tail -n 1 "$tmp/glued/ktap.log")"

mkdir -p "$tmp/nothing"
check "$tmp/nothing"
is "no logs at all fails" 1 "$rc"
is "no logs: vm.tap still has 6 results" 6 "$(printf '%s\n' "$tap" | grep -cE '^(not )?ok ')"

rc=0
"$tools/vm/check-log.sh" -n x "$tmp/clean" >/dev/null 2>&1 || rc=$?
is "bad -n is a usage error" 2 "$rc"

echo "1..$n"
exit "$failed"
