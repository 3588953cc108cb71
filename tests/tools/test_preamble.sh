# Sourced by the shell tests under tests/tools: the interpreter they use, their skips and their
# scratch folder, one way for all. A skip is exit 77 (ctest's SKIP_RETURN_CODE) with one
# "SKIP: ..." line.
#   PY                           /usr/bin/python3, or $LIGHTCODE_TEST_PYTHON
#   skip_unless_python M PKGS    skip unless $PY imports the modules M ("h5py, numpy"); PKGS
#                                names the Debian packages that bring them
#   skip_unless_file PATH        skip unless PATH is a file (../shared references)
#   scratch NAME                 TMP: a new temporary folder, removed when the script exits
PY=${LIGHTCODE_TEST_PYTHON:-/usr/bin/python3}

skip_unless_python() {
  if ! "$PY" -c "import $1" 2>/dev/null; then
    echo "SKIP: $PY cannot import $1 (apt-get install $2)"
    exit 77
  fi
}

skip_unless_file() {
  if [ ! -f "$1" ]; then
    echo "SKIP: $1 is absent"
    exit 77
  fi
}

scratch() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/lc_test_$1.XXXXXX")
  trap 'rm -rf "$TMP"' EXIT
}
