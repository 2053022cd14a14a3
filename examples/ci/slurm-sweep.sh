#!/usr/bin/env bash
# A sweep split across a Slurm job array: task I of N runs shard I/N; a second job, started
# only when every task succeeded, merges the shards.
#
#   sbatch --array=1-3 examples/ci/slurm-sweep.sh sweeps/bundled.yaml
#
#SBATCH --job-name=pressurelab-sweep
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=01:00:00
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail

SWEEP_FILE="${1:-sweeps/bundled.yaml}"
PRESSURELAB="${PRESSURELAB:-pressurelab}"
RESULTS="${RESULTS:-results}"
: "${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array=1-N}"
COUNT="${SLURM_ARRAY_TASK_COUNT:?run this script with sbatch --array=1-N}"

# --jobs: the CPUs Slurm gave this task; --resume: a requeued task finishes its shard.
"$PRESSURELAB" sweep "$SWEEP_FILE" --shard "${SLURM_ARRAY_TASK_ID}/${COUNT}" \
  --output "$RESULTS/shard-${SLURM_ARRAY_TASK_ID}" --jobs "${SLURM_CPUS_PER_TASK:-1}" --resume

# The last task to start queues the merge, to run once every task of the array succeeded.
if [ "$SLURM_ARRAY_TASK_ID" -eq "${SLURM_ARRAY_TASK_MAX:-$COUNT}" ]; then
  shards=()
  for i in $(seq 1 "$COUNT"); do shards+=("$RESULTS/shard-$i"); done
  sbatch --dependency="afterok:${SLURM_ARRAY_JOB_ID}" --job-name=pressurelab-merge \
    --wrap="$PRESSURELAB merge ${shards[*]} --output $RESULTS/sweep.json --database $RESULTS/sweep.sqlite"
fi
