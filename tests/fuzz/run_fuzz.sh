#!/usr/bin/env bash
# Fuzz every libFuzzer target (tests/fuzz/fuzz_*.cpp) for a fixed time, `jobs` targets at a
# time, each from a scratch copy of its committed corpus and regressions (the source tree is
# never written). Prints per target the executions, exec/s, final coverage (cov/ft), corpus
# size and findings; exits 1 on any crash, sanitizer report, timeout (a hang: -timeout=10),
# leak or out-of-memory, printing the reproducer paths. CI runs it with ~20-30 s per target.
#
#   tests/fuzz/run_fuzz.sh <build dir> <seconds per target> [jobs (2)] [target...]
#
# The build directory is one configured with -DLIGHTCODE_FUZZ=ON (see cmake/fuzz.cmake).
# Environment: FUZZ_OUT=<dir> where the scratch corpora, logs and artifacts go (default
# <build dir>/fuzz-run, emptied first); FUZZ_ARGS="..." extra libFuzzer flags (e.g.
# "-fork=1 -ignore_crashes=1" to keep going after a crash in a long local run).
set -uo pipefail

usage() {
  echo "usage: $0 <build dir> <seconds per target> [jobs] [target...]" >&2
  exit 2
}
(($# >= 2)) || usage
build=$(cd "$1" && pwd) || usage
seconds=$2
jobs=${3:-2}
shift $(($# >= 3 ? 3 : 2))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
all_targets=(scenario system hardware tvm_json onnx model_config calibration_csv dispatch_table request_trace
  device_library)
targets=("${@:-${all_targets[@]}}")
[[ $seconds =~ ^[0-9]+$ && $jobs =~ ^[0-9]+$ && $jobs -ge 1 ]] || usage

# Longest input per target: a little above the largest realistic file of that kind.
max_len() {
  case $1 in
    tvm_json | onnx) echo 65536 ;;
    dispatch_table | calibration_csv | request_trace) echo 32768 ;;
    *) echo 16384 ;;
  esac
}

out=${FUZZ_OUT:-$build/fuzz-run}
rm -rf "$out"
mkdir -p "$out"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}

for t in "${targets[@]}"; do
  if [[ ! -x $build/fuzz/fuzz_$t ]]; then
    echo "run_fuzz: $build/fuzz/fuzz_$t is missing (configure with -DLIGHTCODE_FUZZ=ON and build)" >&2
    exit 2
  fi
done

run_one() {
  local t=$1 dir=$out/$1
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -r "$here/corpus/$t/." "$dir/corpus/"
  [[ -d $here/regressions/$t ]] && cp -r "$here/regressions/$t/." "$dir/corpus/"
  local dict=()
  [[ -f $here/dict/$t.dict ]] && dict=(-dict="$here/dict/$t.dict")
  # shellcheck disable=SC2086
  (cd "$dir" && "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$(max_len "$t")" "${dict[@]}" -print_final_stats=1 -artifact_prefix="$dir/artifacts/" \
    ${FUZZ_ARGS:-} "$dir/corpus" >"$dir/log" 2>&1)
  echo $? >"$dir/status"
}

echo "run_fuzz: ${#targets[@]} targets x ${seconds} s, $jobs at a time; scratch in $out"
start=$SECONDS
running=0
for t in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n
    running=$((running - 1))
  fi
  run_one "$t" &
  running=$((running + 1))
done
wait

stat_of() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }

failed=0
printf '\n%-16s %12s %8s %7s %8s %7s  %s\n' target executions exec/s cov ft corpus findings
for t in "${targets[@]}"; do
  dir=$out/$t
  log=$dir/log
  execs=$(stat_of "$log" number_of_executed_units)
  rate=$(stat_of "$log" average_exec_per_sec)
  last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(find "$dir/corpus" -type f | wc -l)
  mapfile -t found < <(find "$dir/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' \
    -o -name 'oom-*' \) | sort)
  status=$(cat "$dir/status" 2>/dev/null || echo 1)
  verdict=none
  if ((${#found[@]} > 0 || status != 0)); then
    verdict="${#found[@]} (exit $status)"
    failed=1
  fi
  printf '%-16s %12s %8s %7s %8s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "$corpus" "$verdict"
done
echo "run_fuzz: $((SECONDS - start)) s in all"

if ((failed)); then
  echo
  for t in "${targets[@]}"; do
    dir=$out/$t
    status=$(cat "$dir/status" 2>/dev/null || echo 1)
    mapfile -t found < <(find "$dir/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' \
      -o -name 'oom-*' \) | sort)
    ((${#found[@]} > 0 || status != 0)) || continue
    echo "== $t: finding (exit $status), log $dir/log"
    grep -E '==== FUZZ FINDING|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY:|ALARM:|out-of-memory' \
      "$dir/log" | head -8 | sed 's/^/   /'
    for f in "${found[@]}"; do
      echo "   reproducer: $f"
      echo "   replay:     $build/fuzz/fuzz_$t $f"
      echo "   minimise:   $build/fuzz/fuzz_$t -minimize_crash=1 -runs=20000 -artifact_prefix=$dir/artifacts/min- $f"
    done
  done
  echo
  echo "run_fuzz: FINDINGS: save each minimised reproducer under tests/fuzz/regressions/<target>/ (ctest replays them)"
  exit 1
fi
echo "run_fuzz: no findings"
