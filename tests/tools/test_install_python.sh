#!/bin/bash
# tools/install_python.sh: the .pth file it writes makes `import lightcode` load this build's
# module (into a temporary site folder here, LIGHTCODE_PYTHON_SITE, not the machine's).
# Usage: test_install_python.sh <build dir> <source dir>
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$2
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
LIGHTCODE_PYTHON_SITE="$site" "$source_dir/tools/install_python.sh" "$build" > "$site/log"
cat "$site/log"
grep -q "import lightcode works in /usr/bin/python3" "$site/log"
test "$(cat "$site/lightcode.pth")" = "$build/python"
# -S: not the machine's own site folders (an earlier install may name another build there).
loaded=$(cd "$site" && env -u PYTHONPATH /usr/bin/python3 -S -c "import site; site.addsitedir('$site'); import lightcode; print(lightcode.__file__)")
test "$loaded" = "$build/python/lightcode/__init__.py"
echo "install_python: the .pth loads $loaded"
