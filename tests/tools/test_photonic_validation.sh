#!/bin/bash
# docs/VALIDATION.md's photonic section end to end: `lightcode validate-photonic` on the shipped
# DOTA designs and `lightcode run scenarios/photonic_workloads.yaml`, then
# tools/photonic_report.py: the section is written with every heading, a row for each of the
# three workloads on both systems, every published DOTA-B component compared, and the
# must-show bounds hold (--check: area and 4-bit power within 5 %, components within 10 %,
# peak exact). Then tools/validation_report.py with the photonic options appends the same
# section to the GPU report (when the GPU reference CSV is present), and a second run of the
# report on the same files gives the same bytes. A per-number PHU file is refused by name.
# Usage: test_photonic_validation.sh <lightcode binary> <source dir>
# Skips (exit 77) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON if set) cannot import h5py and
# yaml, or when ../shared/reference/photonic/designs.yaml (beside the source dir) is absent.
set -euo pipefail
BIN=$1
SRC=$(cd "$2" && pwd)
. "$SRC/tests/tools/test_preamble.sh"
PUBLISHED="$SRC/../shared/reference/photonic/designs.yaml"
CSV="$SRC/../shared/reference/gpu/vidur_h100_llama2_kernels.csv"
skip_unless_python "h5py, numpy, yaml" "python3-h5py python3-yaml"
skip_unless_file "$PUBLISHED"
scratch photonic
"$BIN" validate-photonic --out "$TMP/d.h5" >"$TMP/designs.log"
grep -q "phu_dota_b " "$TMP/designs.log"
if "$BIN" validate-photonic "$SRC/configs/hardware/phu_lightning.yaml" --out "$TMP/x.h5" \
  2>"$TMP/refused.log"; then
  echo "a per-number PHU was accepted"; exit 1
fi
grep -q "phu_lightning.yaml: not a device-built PHU" "$TMP/refused.log"
[ ! -e "$TMP/x.h5" ]
"$BIN" run "$SRC/scenarios/photonic_workloads.yaml" --out "$TMP/w.h5" >"$TMP/run.log"
"$PY" "$SRC/tools/photonic_report.py" "$TMP/d.h5" "$TMP/w.h5" --published "$PUBLISHED" \
  --out "$TMP/section.md"
for heading in "# Validation of the photonic model" "## DOTA-B: published vs ours" \
  "## Predictions: every shipped design" "## DOTA-B 4-bit on its published workloads" \
  "### Xeon/DOTA-B" "### H100-SXM/DOTA-B"; do
  grep -qF "$heading" "$TMP/section.md" || { echo "missing: $heading"; exit 1; }
done
if grep -q "not in the results file" "$TMP/section.md"; then echo "a workload is missing"; exit 1; fi
if grep -qF "| NO |" "$TMP/section.md"; then echo "a bound fails in the section"; exit 1; fi
# 3 workloads x 2 systems; 9 area and 8 power components plus peak and the two totals.
[ "$(grep -cE '^\| (deit-base \| 197|bert-base \| 128|bert-base \| 384) \|' "$TMP/section.md")" -eq 6 ]
[ "$(grep -cE '^\| (peak|total|area|power) ' "$TMP/section.md")" -eq 20 ]
grep -qF "| phu_dota_b_8bit |" "$TMP/section.md"
grep -qF "| phu_dota_l |" "$TMP/section.md"
"$PY" "$SRC/tools/photonic_report.py" "$TMP/d.h5" "$TMP/w.h5" --published "$PUBLISHED" --check
if [ -f "$CSV" ]; then
  "$BIN" validate "$CSV" --out "$TMP/v.h5" >"$TMP/validate.log"
  for i in 1 2; do
    "$PY" "$SRC/tools/validation_report.py" "$TMP/v.h5" --photonic-designs "$TMP/d.h5" \
      --photonic-workloads "$TMP/w.h5" --published "$PUBLISHED" --out "$TMP/V$i.md"
  done
  cmp "$TMP/V1.md" "$TMP/V2.md"
  grep -qF "# Validation of the GPU model" "$TMP/V1.md"
  # The photonic section is the report's tail, as photonic_report.py writes it.
  tail -n "$(wc -l <"$TMP/section.md")" "$TMP/V1.md" | cmp - "$TMP/section.md"
fi
echo "photonic validation: ok"
