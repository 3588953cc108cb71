#!/usr/bin/env bash
# Makes `import lightcode` work after `make build`: writes lightcode.pth, naming the build's
# python/ folder, into the site-packages of Debian's /usr/bin/python3 and of the `python3`
# first on PATH when that is another interpreter of the same version (a pyenv one, say).
# As root it writes the interpreter's system site folder, otherwise the user's
# (python3 -m site --user-site); LIGHTCODE_PYTHON_SITE=<dir> writes there instead (the test
# of this script). Idempotent; prints where, and the PYTHONPATH to set elsewhere.
# Usage: tools/install_python.sh <build dir>
set -euo pipefail
build=$(cd "${1:?usage: install_python.sh <build dir>}" && pwd)
package="$build/python"
if ! ls "$package"/lightcode/_core*.so >/dev/null 2>&1; then
  echo "install_python: $package/lightcode has no compiled module (configured with -DLIGHTCODE_PYTHON=OFF?); nothing to install"
  exit 0
fi
built_for=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')

declare -A seen=()
interpreters=(/usr/bin/python3)
if command -v python3 >/dev/null 2>&1; then interpreters+=("$(command -v python3)"); fi
for py in "${interpreters[@]}"; do
  real=$("$py" -c 'import sys; print(sys.executable)' 2>/dev/null) || continue
  [[ -n "${seen[$real]:-}" ]] && continue
  seen[$real]=1
  version=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  if [[ "$version" != "$built_for" ]]; then
    echo "install_python: $real is Python $version; the module is built for $built_for (/usr/bin/python3): not installed there"
    continue
  fi
  if [[ -n "${LIGHTCODE_PYTHON_SITE:-}" ]]; then
    site=$LIGHTCODE_PYTHON_SITE
  elif [[ $(id -u) -eq 0 ]]; then
    site=$("$py" -c 'import site; print(site.getsitepackages()[0])')
  else
    site=$("$py" -m site --user-site)
  fi
  mkdir -p "$site"
  if [[ "$(cat "$site/lightcode.pth" 2>/dev/null)" != "$package" ]]; then
    echo "$package" > "$site/lightcode.pth"
  fi
  echo "install_python: import lightcode works in $real ($site/lightcode.pth -> $package)"
done
echo "install_python: elsewhere, PYTHONPATH=$package"
