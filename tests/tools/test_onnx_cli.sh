#!/bin/bash
# `lightcode` on ONNX model files (frontend/onnx/): a malformed file is exit code 2 with a
# message naming it; a symbolic axis without --seq and an unsupported op are exit 2 with their
# messages; the PyTorch-exported GPT-2 at 5 tokens prints the MACs of `lightcode inspect gpt2
# --seq 5`; a scenario with `model: <file>.onnx` runs at two lengths.
# Usage: test_onnx_cli.sh <lightcode binary> <folder of exported models> <source dir>
# The folder is written by the ctest fixture onnx:export (tests/tools/export_onnx_models.py);
# skips (exit 77) when it is absent or incomplete.
set -euo pipefail
BIN=$1
DIR=$2
SRC=$(cd "$3" && pwd)
if [ ! -f "$DIR/done" ]; then
  echo "SKIP: $DIR/done is absent (run the ctest fixture onnx:export; it needs python3-torch and python3-onnx)"
  exit 77
fi
. "$SRC/tests/tools/test_preamble.sh"
scratch onnx

# <expected exit code> <text the error names> <command...>: runs it, checks both.
expect_error() {
  local want=$1 text=$2 status=0
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err" || status=$?
  if [ "$status" -ne "$want" ]; then
    echo "expected exit $want, got $status: $*"
    cat "$TMP/out" "$TMP/err"
    exit 1
  fi
  if ! grep -qF -- "$text" "$TMP/err"; then
    echo "the message does not name '$text': $*"
    cat "$TMP/err"
    exit 1
  fi
}

printf 'this is not an ONNX model\n' >"$TMP/bad.onnx"
expect_error 2 "$TMP/bad.onnx: not an ONNX model" "$BIN" inspect "$TMP/bad.onnx" --seq 5
head -c 2000 "$DIR/gpt2.onnx" >"$TMP/truncated.onnx"
expect_error 2 "$TMP/truncated.onnx: not an ONNX model" "$BIN" inspect "$TMP/truncated.onnx" --seq 5
expect_error 2 "give the sequence length (--seq" "$BIN" inspect "$DIR/gpt2.onnx"
expect_error 2 "unsupported ONNX op 'LSTM'" "$BIN" inspect "$DIR/unsupported.onnx" --seq 5
grep -qF "lonely_lstm" "$TMP/err"

onnx_macs=$("$BIN" inspect "$DIR/gpt2.onnx" --seq 5 | grep '^MACs')
builtin_macs=$("$BIN" inspect gpt2 --seq 5 | grep '^MACs')
echo "onnx:    $onnx_macs"
echo "builtin: $builtin_macs"
if [ "$onnx_macs" != "$builtin_macs" ]; then
  echo "the exported GPT-2 at 5 tokens differs from the built-in gpt2"
  exit 1
fi

# A scenario naming the file: the input check parses it once, each point infers its length.
cat >"$TMP/onnx.yaml" <<EOF
name: onnx_gpt2
model: $DIR/gpt2.onnx
stage: prefill
system: $SRC/configs/systems/cpu_phu.yaml
profile: default
fidelity: analytical
output: $TMP/onnx.h5
sweep:
  sequence_length: [5, 17]
EOF
"$BIN" run "$TMP/onnx.yaml" >"$TMP/run.log"
[ -s "$TMP/onnx.h5" ] || { echo "no results file"; cat "$TMP/run.log"; exit 1; }
grep -q "results: $TMP/onnx.h5" "$TMP/run.log"
echo "onnx cli: all checks hold"
