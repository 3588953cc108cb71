#!/usr/bin/env bash
# docs/DATASET.md's schema section (between <!-- dataset-schema:begin --> and
# <!-- dataset-schema:end -->) is exactly what `lightcode dataset --schema` prints: the schema
# is declared once (sim/dataset/schema.cpp) and the doc is generated from it
# (tools/dataset_report.py rewrites the section).
# Usage: test_dataset_schema.sh <lightcode binary> <source dir>
set -euo pipefail
bin=${1:?usage: test_dataset_schema.sh <lightcode> <source dir>}
src=${2:?usage: test_dataset_schema.sh <lightcode> <source dir>}
doc="$src/docs/DATASET.md"
section=$(awk '/<!-- dataset-schema:end -->/ {inside = 0} inside {print} /<!-- dataset-schema:begin -->/ {inside = 1}' "$doc")
if [[ -z "$section" ]]; then
  echo "FAIL: $doc has no dataset-schema section"
  exit 1
fi
schema=$("$bin" dataset --schema)  # both without their trailing blank lines
if ! diff <(printf '%s\n' "$section") <(printf '%s\n' "$schema") > /dev/null; then
  diff <(printf '%s\n' "$section") <(printf '%s\n' "$schema") | head -20
  echo "FAIL: $doc's schema section differs from 'lightcode dataset --schema' (run tools/dataset_report.py $bin)"
  exit 1
fi
echo "docs/DATASET.md's schema section is 'lightcode dataset --schema'"
