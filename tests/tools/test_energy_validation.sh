#!/bin/bash
# docs/VALIDATION.md's energy section end to end: `lightcode run scenarios/prefill_power.yaml`
# (Llama-2-7B prefill, 128-8192 tokens, H100 SXM and A100 SXM), then tools/energy_report.py: the
# section has its headings and a row per point, and the must-show bounds hold (--check: implied
# average power 55-100 % of the power limit at 2048 and 8192 tokens, rising from 128 to 2048).
# Then the ML.ENERGY calibration (scenarios/mlenergy_chat.yaml, mlenergy_code.yaml, when the
# reference CSV is present): a row per measured TP-1 row (27), and the bounds per GPU hold (mean
# |error| of energy per output token and of average power at most 15 %, no row above 35 %).
# Then tools/validation_report.py with --energy appends the same section to the GPU report
# (when the GPU reference CSV is present), the same bytes twice.
# Usage: test_energy_validation.sh <lightcode binary> <source dir>
# Skips (exit 77) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON if set) cannot import h5py and yaml.
set -euo pipefail
BIN=$1
SRC=$(cd "$2" && pwd)
. "$SRC/tests/tools/test_preamble.sh"
CSV="$SRC/../shared/reference/gpu/vidur_h100_llama2_kernels.csv"
ENERGY_CSV="$SRC/../shared/reference/energy/mlenergy_v2_mistral7b_codellama.csv"
skip_unless_python "h5py, numpy, yaml" "python3-h5py python3-yaml"
scratch energy
"$BIN" run "$SRC/scenarios/prefill_power.yaml" --out "$TMP/p.h5" >"$TMP/run.log"
SERVING=()
if [ -f "$ENERGY_CSV" ]; then
  # The two studies side by side (each one process on one core).
  "$BIN" run "$SRC/scenarios/mlenergy_chat.yaml" --out "$TMP/chat.h5" >"$TMP/chat.log" &
  CHAT=$!
  "$BIN" run "$SRC/scenarios/mlenergy_code.yaml" --out "$TMP/code.h5" >"$TMP/code.log"
  wait "$CHAT"
  SERVING=(--serving "$TMP/chat.h5" "$TMP/code.h5")
fi
"$PY" "$SRC/tools/energy_report.py" "$TMP/p.h5" "${SERVING[@]}" --configs "$SRC/configs" --out "$TMP/section.md"
HEADINGS=("# Validation of the electronic energy model" "## Implied average power of Llama-2-7B prefill")
[ -f "$ENERGY_CSV" ] && HEADINGS+=("## Serving energy against ML.ENERGY")
for heading in "${HEADINGS[@]}"; do
  grep -qF "$heading" "$TMP/section.md" || { echo "missing: $heading"; exit 1; }
done
[ "$(grep -cE '^\| NVIDIA (H100|A100) .* \| [0-9]+ \| ' "$TMP/section.md")" -eq 14 ]
"$PY" "$SRC/tools/energy_report.py" "$TMP/p.h5" "${SERVING[@]}" --configs "$SRC/configs" --check >"$TMP/check.txt"
cat "$TMP/check.txt"
if [ -f "$ENERGY_CSV" ]; then
  [ "$(grep -cE '^\| (A100-SXM4-40GB|H100-SXM) \| [a-z0-9-]+ \| [0-9]+ \| ' "$TMP/section.md")" -eq 27 ]
  [ "$(grep -c 'mean |error|\|max |error|' "$TMP/check.txt")" -eq 8 ]
fi
if grep -q FAILS "$TMP/check.txt"; then echo "a bound fails"; exit 1; fi
if grep -qF "| NO |" "$TMP/section.md"; then echo "a bound fails in the section"; exit 1; fi
if [ -f "$CSV" ]; then
  "$BIN" validate "$CSV" --out "$TMP/v.h5" >"$TMP/validate.log"
  for i in 1 2; do
    "$PY" "$SRC/tools/validation_report.py" "$TMP/v.h5" --energy "$TMP/p.h5" "${SERVING[@]}" \
      --configs "$SRC/configs" --out "$TMP/V$i.md"
  done
  cmp "$TMP/V1.md" "$TMP/V2.md"
  tail -n "$(wc -l <"$TMP/section.md")" "$TMP/V1.md" | cmp - "$TMP/section.md"
fi
echo "energy validation: ok"
