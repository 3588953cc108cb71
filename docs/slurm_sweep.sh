#!/usr/bin/env bash
# Spread a LightCode sweep over a SLURM job array: each array task runs a deterministic 1/N of
# the scenario's points (--shard K/N), on its node's cores, into its own results file; a
# final job merges the shards. The merged file equals a single-machine run's, point for point.
#
#   sbatch --array=1-16 docs/slurm_sweep.sh scenarios/phu_scaling.yaml
#   # when all array tasks are done:
#   build/lightcode merge results/phu_scaling.shard*.h5 -o results/phu_scaling.h5
#
# Any batch system works the same way: run `lightcode sweep <scenario> --shard K/N --out <file>`
# for K = 1..N anywhere, then `lightcode merge`. An interrupted shard continues with --resume.
#SBATCH --job-name=lightcode-sweep
#SBATCH --cpus-per-task=8
#SBATCH --time=02:00:00
#SBATCH --output=results/slurm-%A_%a.log
set -euo pipefail

scenario=${1:?usage: sbatch --array=1-N docs/slurm_sweep.sh <scenario.yaml>}
k=${SLURM_ARRAY_TASK_ID:?run under sbatch --array}
n=${SLURM_ARRAY_TASK_COUNT:?run under sbatch --array}
name=$(basename "$scenario" .yaml)

build/lightcode sweep "$scenario" --shard "$k/$n" -j "${SLURM_CPUS_PER_TASK:-1}" --resume \
  --out "results/$name.shard$(printf %03d "$k").h5"
