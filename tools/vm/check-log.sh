#!/bin/sh
# check-log.sh - judge one VM lane run from its logs.
#
# usage: check-log.sh [-n NODES] OUTDIR
#
# Reads OUTDIR/guest.log (the guest's results channel, ttyS1; see
# tools/vm/init.sh for its markers) and OUTDIR/console.log (ttyS0), splits
# the former into OUTDIR/ktap.log, dmesg.log, topology.txt and insmod.log, and
# writes OUTDIR/vm.tap: KTAP of the lane's own checks. Prints the guest's
# NUMA topology and vm.tap. Exit 0 if every check passed, 1 if not, 2 on
# usage error. Kept apart from run.sh so it can be tested on made-up logs.
set -eu

usage() {
	echo "usage: check-log.sh [-n NODES] OUTDIR" >&2
	exit 2
}
nodes=4
while getopts n: opt; do
	case $opt in
	n) nodes=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
out=$1
case $nodes in '' | *[!0-9]*) usage ;; esac
[ -d "$out" ] || { echo "check-log.sh: $out: not a directory" >&2; exit 2; }

guest=$out/guest.log
console=$out/console.log

# Kernel messages that fail the run. Matched on all of dmesg, and on the
# console only on printk-timestamped lines, since the console also carries
# a copy of the test output, which may legitimately say "BUG:". KASAN
# reports ("BUG: KASAN: ...") and lockdep's splats ("WARNING: possible
# circular locking dependency detected", "[ BUG: Invalid wait context ]")
# match BUG:/WARNING:; lockdep's report of a lock that was never
# initialized says only "INFO: trying to register non-static key".
bad_re='WARNING:|BUG:|Oops|general protection fault|Kernel panic|kernel BUG at|refcount_t:|list_add corruption|list_del corruption|UBSAN:|KASAN:|INFO: trying to register non-static key'

for f in ktap.log dmesg.log topology.txt insmod.log; do
	: >"$out/$f"
done

# Split the channel into its sections; the facts (markers and their
# arguments) go to stdout as shell-safe key=value lines.
facts=$(
	[ -r "$guest" ] || exit 0
	awk -v out="$out" '
	function mark(m,   n, a) {
		n = split(m, a, " ")
		sec = a[2]
		seen[sec] = 1
		if (sec == "INSMOD-RC") insmod_rc = a[3]
		if (sec == "KTAP-RC") ktap_rc = a[3]
	}
	{
		sub(/\r$/, "")
		# A marker may follow output that lacked its final newline.
		i = index($0, "@@NUMAGPU-VM@@ ")
		if (i > 1) { body(substr($0, 1, i - 1)); $0 = substr($0, i) }
		if (i > 0) { mark($0); next }
		body($0)
	}
	function body(l) {
		if (sec == "KTAP") print l > (out "/ktap.log")
		else if (sec == "DMESG") print l > (out "/dmesg.log")
		else if (sec == "TOPOLOGY") print l > (out "/topology.txt")
		else if (sec == "INSMOD") print l > (out "/insmod.log")
		else if (sec == "TAINT" && taint == "" && l ~ /^[0-9]+$/) taint = l
	}
	END {
		printf "booted=%d ktap=%d end=%d\n", seen["BOOT"], seen["KTAP"], seen["END"]
		# Only digits reach the shell: these come from the guest.
		if (insmod_rc ~ /^[0-9]+$|^none$/) print "insmod_rc=" insmod_rc
		if (ktap_rc ~ /^[0-9]+$/) print "ktap_rc=" ktap_rc
		if (taint != "") print "taint=" taint
	}' "$guest"
)
booted=0 ktap=0 end=0 insmod_rc="" taint=""
eval "$facts"

online=$(sed -n 's/^online: *//p' "$out/topology.txt")
# Count the nodes in a sysfs list such as "0-3" or "0,2-3".
nonline=$(echo "$online" | awk -F, '
	NF { for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += (n == 2 ? r[2] - r[1] + 1 : 1) } }
	END { print c + 0 }')

echo "guest NUMA topology (expected $nodes nodes):"
if [ -s "$out/topology.txt" ]; then
	sed 's/^/  /' "$out/topology.txt"
else
	echo "  (none reported)"
fi

# Taint flag letters, bit by bit, as in Documentation/admin-guide/tainted-kernels.
taint_letters() {
	t=$1 b=0 s=""
	for l in P F S R M B U D A W C I O E L K X T; do
		[ $(((t >> b) & 1)) -eq 0 ] || s="$s$l"
		b=$((b + 1))
	done
	echo "${s:-none}"
}

tap=$out/vm.tap
n=0
failed=0
result() { # OK? DESCRIPTION [DIAGNOSTIC...]
	n=$((n + 1))
	ok=$1 desc=$2
	shift 2
	# "#   " and not "# ": a diagnostic must never look like a nested
	# result to tap-summary.sh.
	for d in "$@"; do
		[ -z "$d" ] || printf '%s\n' "$d" | sed 's/^/#   /'
	done
	if [ "$ok" = 1 ]; then
		echo "ok $n vm: $desc"
	else
		echo "not ok $n vm: $desc"
		failed=1
	fi
}

{
	echo "TAP version 13"
	echo "1..6"

	ok=0
	[ "$booted" = 1 ] && [ "$ktap" = 1 ] && ok=1
	result $ok "guest booted and reached the tests" \
		"$([ "$booted" = 1 ] || echo "no BOOT marker in $guest")"

	ok=0
	[ "$nonline" -eq "$nodes" ] && ok=1
	result $ok "guest reports $nodes online NUMA nodes" \
		"online: ${online:-?} ($nonline nodes)"

	ok=0
	[ "$insmod_rc" = 0 ] && ok=1
	result $ok "module loaded" \
		"$([ "$ok" = 1 ] || echo "insmod rc=${insmod_rc:-?}")" \
		"$([ "$ok" = 1 ] || cat "$out/insmod.log")"

	ok=0
	[ "$end" = 1 ] && ok=1
	result $ok "run finished before the timeout" \
		"$([ "$ok" = 1 ] || echo "no END marker: the guest hung, crashed or was killed")"

	hits=$(
		{
			cat "$out/dmesg.log"
			[ ! -r "$console" ] ||
				tr -d '\r' <"$console" | grep -E '^\[ *[0-9]+\.[0-9]+\]' || :
		} | grep -E "$bad_re" | awk '!seen[$0]++' | head -n 20 || :
	)
	ok=0
	[ -z "$hits" ] && ok=1
	result $ok "no kernel warnings, BUGs or oopses" "$hits"

	ok=0
	diag="tainted: ${taint:-not reported}"
	if [ -n "$taint" ]; then
		diag="$diag ($(taint_letters "$taint"))"
		# Only O (out-of-tree, 4096) and E (unsigned, 8192) are expected.
		[ $((taint & ~12288)) -ne 0 ] || ok=1
	fi
	result $ok "kernel taint only O/E" "$diag"

	[ "$failed" = 0 ]
} >"$tap" && rc=0 || rc=1

cat "$tap"
exit "$rc"
