#!/bin/bash
# tools/plot.py end to end: a small sweep (gpt2 prefill at 16, 64 and 256 tokens on the seed
# CPU and CPU/PHU systems, analytical, lightcode profile) run by the lightcode binary, then
# plotted; the hardware comparison, crossover, Gantt and energy PNGs must exist, be larger
# than 10 KB and carry the PNG signature, no point failed (exit 0, no failures.csv), and
# tp_scaling.png is skipped with a note (every point at tensor_parallel 1). A second sweep
# (Llama-2-7B batch-1 decode at tensor_parallel 1 and 2 on the DGX H100, analytical) must draw
# tp_scaling.png (one row of three panels). Then the
# synthetic-file checks (tests/tools/test_plot_synthetic.py: format 1 and 2 files, PHU scaling
# facets, crossover brackets, hardware comparison facets, Pareto axes, crossover tables (JSON),
# failed points, error exits).
# Usage: test_plot.sh <lightcode binary> <source dir>
# Skips (exit 77, ctest's SKIP_RETURN_CODE) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON if set)
# cannot import h5py and matplotlib.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <lightcode binary> <source dir>" >&2
  exit 2
fi
BIN=$1
SRC=$(cd "$2" && pwd)
. "$SRC/tests/tools/test_preamble.sh"
skip_unless_python "h5py, matplotlib" "python3-h5py python3-matplotlib"
scratch plot

cat >"$TMP/scenario.yaml" <<EOF
name: plot_test
model: gpt2
stage: prefill
objective: time
profile: lightcode
fidelity: analytical
sweep:
  system: [$SRC/configs/systems/lightcode/cpu.yaml, $SRC/configs/systems/lightcode/cpu_phu.yaml]
  sequence_length: [16, 64, 256]
EOF

"$BIN" run "$TMP/scenario.yaml" --out "$TMP/r.h5"
"$PY" "$SRC/tools/plot.py" "$TMP/r.h5" --out "$TMP/plots" | tee "$TMP/plot.log"
# (set -e: a non-zero exit of plot.py, e.g. 3 for failed points, fails the test here)

fail=0
check_png() {  # <path>: exists, > 10 KB, PNG signature
  local f=$1 size sig
  if [ ! -f "$f" ]; then
    echo "FAIL $f: missing"; fail=1; return
  fi
  size=$(stat -c %s "$f")
  sig=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
  if [ "$size" -le 10240 ] || [ "$sig" != "89504e470d0a1a0a" ]; then
    echo "FAIL $f: $size bytes, signature $sig"; fail=1; return
  fi
  echo "ok   $(basename "$f") ($size bytes)"
}

check_png "$TMP/plots/hardware_comparison.png"
check_png "$TMP/plots/crossover.png"
shopt -s nullglob
gantt=("$TMP"/plots/gantt_*.png)
energy=("$TMP"/plots/energy_*.png)
if [ ${#gantt[@]} -eq 0 ]; then echo "FAIL no gantt_*.png"; fail=1; else check_png "${gantt[0]}"; fi
if [ ${#energy[@]} -eq 0 ]; then echo "FAIL no energy_*.png"; fail=1; else check_png "${energy[0]}"; fi
if [ -e "$TMP/plots/failures.csv" ]; then echo "FAIL failures.csv written: no point failed"; fail=1; fi
# one "wrote" line per file written
wrote=$(grep -c '^wrote ' "$TMP/plot.log" || true)
files=$(find "$TMP/plots" -type f | wc -l)
if [ "$wrote" -ne "$files" ]; then
  echo "FAIL $wrote 'wrote' lines for $files files"; fail=1
fi

if ! grep -q '^skip: tp_scaling.png: one tensor_parallel value (1)' "$TMP/plot.log"; then
  echo "FAIL one tensor_parallel value: no skip note for tp_scaling.png"; fail=1
fi

cat >"$TMP/tp.yaml" <<EOF
name: plot_tp_test
model: llama-2-7b
stage: decode
sequence_length: 128
fidelity: analytical
system: $SRC/configs/systems/dgx_h100.yaml
sweep:
  tensor_parallel: [1, 2]
EOF
"$BIN" run "$TMP/tp.yaml" --out "$TMP/tp.h5"
"$PY" "$SRC/tools/plot.py" "$TMP/tp.h5" --out "$TMP/tp_plots" | tee "$TMP/tp_plot.log"
check_png "$TMP/tp_plots/tp_scaling.png"
if ! grep -q 'tp scaling: 1 row (stage x model) x latency, communication share, group energy = 3 axes' \
    "$TMP/tp_plot.log"; then
  echo "FAIL tp_scaling.png: no 'tp scaling: 1 row ... = 3 axes' line"; fail=1
fi

"$PY" "$SRC/tests/tools/test_plot_synthetic.py" "$SRC" || fail=1

if [ "$fail" -ne 0 ]; then
  echo "test_plot: FAILED"
  exit 1
fi
echo "test_plot: passed"
