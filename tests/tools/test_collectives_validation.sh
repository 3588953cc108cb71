#!/bin/bash
# docs/VALIDATION.md's collectives section end to end: `lightcode validate-collectives` on the
# measured NCCL times, then tools/collectives_report.py (what validation_report.py --collectives
# calls for that section): the section is written with its per-size table (one row per
# power-of-two size range and configuration, from the HDF5 file), and --check holds the
# must-show bound (H100 DGX all_reduce from 1 MB up: mean |error| <= 15 %).
# Usage: test_collectives_validation.sh <lightcode binary> <source dir>
# Skips (exit 77) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON if set) cannot import h5py, or when
# the reference CSV (../shared relative to the source dir) is absent.
set -euo pipefail
BIN=$1
SRC=$(cd "$2" && pwd)
. "$SRC/tests/tools/test_preamble.sh"
CSV="$SRC/../shared/reference/network/vidur_h100_collectives.csv"
skip_unless_python "h5py, numpy" python3-h5py
skip_unless_file "$CSV"
scratch collectives
"$BIN" validate-collectives --reference "$CSV" --out "$TMP/c.h5" >"$TMP/collectives.log"
"$PY" "$SRC/tools/collectives_report.py" "$TMP/c.h5" --out "$TMP/VALIDATION.md"
grep -q "^## Collectives: NCCL on H100" "$TMP/VALIDATION.md"
grep -q "build/lightcode validate-collectives --out results/collectives.h5" "$TMP/VALIDATION.md"
grep -q "| H100 DGX all_reduce (2, 4 and 8 GPUs), sizes >= 1 MB | .* | yes |" "$TMP/VALIDATION.md"
# The per-size table: a row per power-of-two range, e.g. the 8-GPU all_reduce at 32-64 MB.
grep -q "^| h100_dgx | all_reduce | 8 | intra-node | 32 MB-64 MB |" "$TMP/VALIDATION.md"
"$PY" "$SRC/tools/collectives_report.py" "$TMP/c.h5" --check
