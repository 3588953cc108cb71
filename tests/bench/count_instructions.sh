#!/usr/bin/env bash
# Instructions per run of the optimizer pipeline (tests/bench/pipeline_driver) for the five
# bench_pipeline cases, counted by valgrind's callgrind: (3 runs - 1 run) / 2, so setup is
# excluded. With two build directories, prints both and the change in percent. Repeatable to
# the instruction for the same binary and inputs, whatever else the machine is doing.
#   tests/bench/count_instructions.sh build [build-of-another-revision]
set -euo pipefail
(($# >= 1)) || { echo "usage: $0 <build dir> [other build dir]" >&2; exit 2; }
configs=$(cd "$(dirname "$0")/../../configs" && pwd)
cases=("gpt2 1400 lightcode/cpu_phu.yaml lightcode" "gpt2 1400 cpu_phu.yaml default"
       "llama-2-7b 4096 gpu_phu.yaml default" "llama-2-7b 4096 lightcode/cpu_phu.yaml lightcode"
       "llama-2-70b 8192 gpu_phu.yaml default")
count() {  # <driver> <model> <length> <system> <profile> <runs>
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$1" "$2" "$3" "$configs/systems/$4" "$5" "$6" >/dev/null 2>&1
  awk '/^(summary|totals):/ { print $2; exit }' "$out"
  rm -f "$out"
}
per_run() {  # <driver> <case...>
  local one three
  one=$(count "$1" "${@:2}" 1)
  three=$(count "$1" "${@:2}" 3)
  echo $(((three - one) / 2))
}
printf "%-42s %16s %16s %8s\n" case "$1" "${2:--}" change
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086
  a=$(per_run "$1/tests/bench/pipeline_driver" $c)
  if (($# >= 2)); then
    # shellcheck disable=SC2086
    b=$(per_run "$2/tests/bench/pipeline_driver" $c)
    printf "%-42s %16d %16d %+7.2f%%\n" "$c" "$a" "$b" "$(echo "scale=4; ($a - $b) * 100 / $b" | bc)"
  else
    printf "%-42s %16d\n" "$c" "$a"
  fi
done
