#!/usr/bin/env bash
# A single-node Slurm on this machine (slurmctld + slurmd on localhost, partition `debug` with
# every core), for the opt-in test of `idabench slurm` scripts:
#
#   sudo apt-get install slurm-wlm        # Debian/Ubuntu; brings munge
#   sudo scripts/slurm-local.sh [DIR]     # config, state and logs in DIR (default /tmp/idabench-slurm)
#   export SLURM_CONF=DIR/slurm.conf
#   IDABENCH_SLURM_TEST=1 cargo test --release --test integration cli_shards::real_slurm
#
# Runs as root (munge and the daemons). Stop it with: pkill -F DIR/slurmd.pid; pkill -F
# DIR/slurmctld.pid.
set -euo pipefail
dir="${1:-/tmp/idabench-slurm}"
host="$(hostname -s)"
cpus="$(nproc)"
mkdir -p "$dir"/{state,spool,log}
cat > "$dir/slurm.conf" <<EOF
ClusterName=idabench
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
# munged wants its socket and log directories owned by its user.
mkdir -p /run/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! munge -n >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged --force
fi
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 30); do
    if sinfo -h -o %T 2>/dev/null | grep -q idle; then
        echo "Slurm is up: export SLURM_CONF=$SLURM_CONF"
        exit 0
    fi
    sleep 1
done
echo "slurm-local: the node did not come up; see $dir/log/" >&2
exit 1
