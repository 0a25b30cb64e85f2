#!/bin/sh
# Tests `ngemu sweep --slurm` against a real Slurm: a single-node cluster
# on this machine (Debian's slurm-wlm and munge: munged, slurmctld and
# slurmd on their own socket, ports and folders under a generated
# slurm.conf), torn down after. A 12-point sweep through the job array and
# its collecting job gives result files identical to a local --jobs 2 run
# of the same sweep; a point with a result is not submitted again, a
# missing one is; sbatch's refusal is an error; --collect gathers a
# folder's results without running anything. Skips only when slurm-wlm
# cannot be installed. Emits TAP.
set -eu
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
ngemu=${NGEMU:-$tools/../build/ngemu}

have() {
	for c in munged slurmctld slurmd sbatch sinfo; do
		command -v "$c" >/dev/null 2>&1 || return 1
	done
}
if ! have; then
	if [ "$(id -u)" -ne 0 ] ||
	   ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends slurmctld slurmd slurm-client munge \
		>"$tmp/apt.log" 2>&1 || ! have; then
		echo "1..0 # SKIP slurm-wlm cannot be installed: $(tail -n 1 "$tmp/apt.log" 2>/dev/null)"
		exit 4
	fi
fi
echo "1..11"

c=$tmp/cluster
mkdir -p "$c/munge" "$c/state" "$c/spool"
chmod 755 "$c/munge"
head -c 1024 /dev/urandom >"$c/munge/key"
chmod 600 "$c/munge/key"
# Every daemon goes, whatever state the test or a daemon is in.
down() {
	set +e
	for d in slurmd slurmctld; do
		[ -s "$c/$d.pid" ] && kill "$(cat "$c/$d.pid")" 2>/dev/null
	done
	munged --stop --socket="$c/munge/sock" >/dev/null 2>&1
	sleep 1
	rm -rf "$tmp"
}
trap down EXIT
trap 'exit 1' INT TERM HUP

port=$((20000 + $$ % 20000))
host=$(hostname -s)
cat >"$c/slurm.conf" <<EOF
ClusterName=ngemu-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$c/munge/sock
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmctldLogFile=$c/slurmctld.log
SlurmdLogFile=$c/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ngemu Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$c/slurm.conf"
munged --force --socket="$c/munge/sock" --key-file="$c/munge/key" \
	--pid-file="$c/munge/pid" --log-file="$c/munge/log" \
	--seed-file="$c/munge/seed"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
up=no
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	if sinfo -h -o '%T' 2>/dev/null | grep -q idle; then
		up=yes
		break
	fi
	sleep 1
done
is "a single-node cluster is up" yes "$up"
if [ "$up" != yes ]; then
	diag "$(tail -n 5 "$c"/*.log)"
	exit 1
fi
# a job that never starts must not hang the suite
wait_ngemu() { timeout 240 "$ngemu" "$@"; }

cd "$tmp"
sweep="--workloads vectoradd,histogram --systems full,zero-copy --grid host-bw=8,16,32"
rc=0
# shellcheck disable=SC2086 # the sweep's options, split
"$ngemu" sweep $sweep --out local --jobs 2 >/dev/null 2>&1 || rc=$?
is "a local --jobs 2 run of the 12-point sweep" 0 "$rc"
rc=0
# shellcheck disable=SC2086
wait_ngemu sweep $sweep --out slurm --slurm --wait --partition ngemu \
	--time=10 >"$tmp/out" 2>&1 || rc=$?
is "the same sweep through a job array and its collecting job" 0 "$rc"
[ "$rc" = 0 ] || diag "$(cat "$tmp/out")"
is "one array task per point" 12 "$(ls slurm/slurm/*/point-*.log 2>/dev/null | wc -l)"
same=no
cmp -s local/results.csv slurm/results.csv &&
	cmp -s local/results.json slurm/results.json && same=yes
is "the collected results are identical to the local run's" yes "$same"

# shellcheck disable=SC2086
wait_ngemu sweep $sweep --out slurm --slurm --wait >"$tmp/out" 2>&1 || true
is "a sweep with every result is not submitted again" 0 \
	"$(grep -c 'submitted' "$tmp/out" || true)"
rm slurm/points/"$(sed -n 2p slurm/results.csv | cut -d, -f1)".json \
	slurm/points/"$(sed -n 9p slurm/results.csv | cut -d, -f1)".json \
	slurm/results.csv
rc=0
# shellcheck disable=SC2086
wait_ngemu sweep $sweep --out slurm --slurm --wait >"$tmp/out" 2>&1 || rc=$?
same=no
[ "$rc" = 0 ] && cmp -s local/results.csv slurm/results.csv &&
	grep -q ': 2 points submitted' "$tmp/out" && same=yes
is "the two missing points are run again, the results identical" yes "$same"
[ "$same" = yes ] || diag "$(cat "$tmp/out")"
is "each submission has a folder of its own" 2 \
	"$(ls -d slurm/slurm/*/points.txt 2>/dev/null | wc -l)"

rc=0
# shellcheck disable=SC2086
"$ngemu" sweep $sweep --out refused --slurm --partition no-such-partition \
	>"$tmp/out" 2>&1 || rc=$?
is "a job array sbatch refuses is an error" 1 "$rc"

rm local/results.csv local/results.json
rc=0
"$ngemu" sweep --collect local >/dev/null 2>&1 || rc=$?
same=no
[ "$rc" = 0 ] && cmp -s local/results.csv slurm/results.csv &&
	cmp -s local/results.json slurm/results.json && same=yes
is "--collect gathers a folder's results again" yes "$same"
rc=0
mkdir empty
"$ngemu" sweep --collect empty >/dev/null 2>&1 || rc=$?
is "--collect on a folder that holds no sweep is a usage error" 2 "$rc"
exit "$failed"
