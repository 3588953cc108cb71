#!/usr/bin/env bash
# Regression replay for ctest: runs every file under the given folders (those that exist)
# through a libFuzzer binary once each, without mutation and without writing into them.
#   replay.sh <fuzz binary> <folder>...
set -euo pipefail
fuzzer=$1
shift
files=()
for dir in "$@"; do
  [[ -d $dir ]] || continue
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$dir" -type f ! -name '*.md' -print0 | sort -z)
done
if ((${#files[@]} == 0)); then
  echo "replay: no inputs under $*" >&2
  exit 1
fi
echo "replay: ${#files[@]} inputs through $(basename "$fuzzer")"
exec "$fuzzer" -timeout=10 -rss_limit_mb=2048 "${files[@]}"
