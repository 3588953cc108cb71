#!/bin/bash
# docs/VALIDATION.md's energy section end to end: `lightcode run scenarios/prefill_power.yaml`
# (Llama-2-7B prefill, 128-8192 tokens, H100 SXM and A100 SXM), then tools/energy_report.py: the
# section has its headings and a row per point, and the must-show bounds hold (--check: implied
# average power 55-100 % of the power limit at 2048 and 8192 tokens, rising from 128 to 2048).
# Then tools/validation_report.py with --energy appends the same section to the GPU report
# (when the GPU reference CSV is present), the same bytes twice.
# Usage: test_energy_validation.sh <lightcode binary> <source dir>
# Skips (exit 77) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON if set) cannot import h5py and yaml.
set -euo pipefail
BIN=$1
SRC=$(cd "$2" && pwd)
PY=${LIGHTCODE_TEST_PYTHON:-/usr/bin/python3}
CSV="$SRC/../shared/reference/gpu/vidur_h100_llama2_kernels.csv"
if ! "$PY" -c 'import h5py, numpy, yaml' 2>/dev/null; then
  echo "SKIP: $PY cannot import h5py, numpy and yaml (apt-get install python3-h5py python3-yaml)"
  exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/lc_test_energy.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
"$BIN" run "$SRC/scenarios/prefill_power.yaml" --out "$TMP/p.h5" >"$TMP/run.log"
"$PY" "$SRC/tools/energy_report.py" "$TMP/p.h5" --configs "$SRC/configs" --out "$TMP/section.md"
for heading in "# Validation of the electronic energy model" "## Implied average power of Llama-2-7B prefill" \
  "## Serving energy against ML.ENERGY"; do
  grep -qF "$heading" "$TMP/section.md" || { echo "missing: $heading"; exit 1; }
done
[ "$(grep -cE '^\| NVIDIA (H100|A100) .* \| [0-9]+ \| ' "$TMP/section.md")" -eq 14 ]
if grep -qF "| NO |" "$TMP/section.md"; then echo "a bound fails in the section"; exit 1; fi
"$PY" "$SRC/tools/energy_report.py" "$TMP/p.h5" --configs "$SRC/configs" --check
if [ -f "$CSV" ]; then
  "$BIN" validate "$CSV" --out "$TMP/v.h5" >"$TMP/validate.log"
  for i in 1 2; do
    "$PY" "$SRC/tools/validation_report.py" "$TMP/v.h5" --energy "$TMP/p.h5" --configs "$SRC/configs" \
      --out "$TMP/V$i.md"
  done
  cmp "$TMP/V1.md" "$TMP/V2.md"
  tail -n "$(wc -l <"$TMP/section.md")" "$TMP/V1.md" | cmp - "$TMP/section.md"
fi
echo "energy validation: ok"
