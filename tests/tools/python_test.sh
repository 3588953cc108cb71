#!/bin/bash
# Runs a Python test script with the interpreter the tests use: /usr/bin/python3 (Debian's
# python3-h5py is for it) or $LIGHTCODE_TEST_PYTHON. Exits 77 (ctest: skipped, see
# SKIP_RETURN_CODE in cmake/tests.cmake) with one "SKIP: ..." line when that interpreter
# cannot import h5py, a missing interpreter included; otherwise exits with the script's status
# (the scripts exit 77 themselves when another module they need is missing).
# Usage: python_test.sh <script.py> [args...]
PY=${LIGHTCODE_TEST_PYTHON:-/usr/bin/python3}
if ! "$PY" -c 'import h5py' 2>/dev/null; then
  echo "SKIP: $PY cannot import h5py (apt-get install python3-h5py)"
  exit 77
fi
exec "$PY" "$@"
