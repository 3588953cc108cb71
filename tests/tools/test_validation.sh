#!/bin/bash
# `lightcode validate` on the measured H100 kernels, then tools/validation_report.py: the
# report is written, every row is in the CSV, and the must-show bound named by the third
# argument holds (gemm: mean |error| <= 10 % over the H100 GEMM rows with >= 16 tokens;
# fused: <= 15 % over the fused norm / RoPE / activation / add rows).
# Usage: test_validation.sh <lightcode binary> <source dir> gemm|fused
# Skips (exit 77) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON if set) cannot import h5py, or
# when the reference CSV (../shared relative to the source dir) is absent.
set -euo pipefail
BIN=$1
SRC=$(cd "$2" && pwd)
WHICH=$3
. "$SRC/tests/tools/test_preamble.sh"
CSV="$SRC/../shared/reference/gpu/vidur_h100_llama2_kernels.csv"
skip_unless_python "h5py, numpy" python3-h5py
skip_unless_file "$CSV"
scratch validation
"$BIN" validate "$CSV" --out "$TMP/v.h5" >"$TMP/validate.log"
"$PY" "$SRC/tools/validation_report.py" "$TMP/v.h5" --out "$TMP/VALIDATION.md" --csv "$TMP/rows.csv"
grep -q "## Must-show bounds" "$TMP/VALIDATION.md"
grep -q "## End to end" "$TMP/VALIDATION.md"
grep -q "NVIDIA A100" "$TMP/VALIDATION.md"
# One CSV row per (reference row, module with a measurement), plus the header.
rows=$(($(wc -l <"$TMP/rows.csv") - 1))
[ "$rows" -gt 18000 ] || { echo "only $rows kernel rows"; exit 1; }
"$PY" "$SRC/tools/validation_report.py" "$TMP/v.h5" --check "$WHICH"
