#!/usr/bin/env bash
# tools/learned_baseline.py --check on a small dataset made here: four families (gpt2 and bert
# train, opt validation, llama test) on CPU/PHU and GPU. The script verifies that the splits are
# disjoint by family, that replaying every graph with the simulator's own op times gives its
# makespan exactly, and that the fit is deterministic; it reports the baseline's errors.
# Exits 77 (skipped) when /usr/bin/python3 lacks h5py or scikit-learn.
# Usage: test_dataset_baseline.sh <lightcode binary> <source dir>
set -euo pipefail
bin=${1:?usage: test_dataset_baseline.sh <lightcode> <source dir>}
src=${2:?usage: test_dataset_baseline.sh <lightcode> <source dir>}
. "$src/tests/tools/test_preamble.sh"
scratch dataset_baseline
dir=$TMP
cat > "$dir/small.yaml" <<YAML
name: dataset_small
objective: time
profile: default
fidelity: analytical
sequence_length: 32
placement_evaluations: 8
sweep:
  zip:
    model: [gpt2, gpt2, bert-base, opt-1.3b, llama-2-7b]
    stage: [prefill, decode, prefill, prefill, prefill]
  system: [$src/configs/systems/cpu_phu.yaml, $src/configs/systems/gpu.yaml]
YAML
"$bin" dataset "$dir/small.yaml" --out "$dir/small.h5" -j 2 -q
bash "$src/tests/tools/python_test.sh" "$src/tools/learned_baseline.py" "$dir/small.h5" --check
