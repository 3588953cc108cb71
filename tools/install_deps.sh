#!/usr/bin/env bash
# Installs every Debian package LightCode needs to build, test and plot; idempotent.
# Packages already present are left alone, so a second run does nothing and needs no network.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config make git
  libsystemc-dev          # SystemC 2.3.4 (pkg-config only)
  libyaml-cpp-dev         # configs and scenarios
  libhdf5-dev             # results files (C++ API)
  nlohmann-json3-dev      # TVM graph JSON, --json output
  libcli11-dev            # command line
  libjemalloc-dev         # the lightcode program's allocator (CMakeLists.txt, LIGHTCODE_JEMALLOC)
  doctest-dev             # unit tests
  libbenchmark-dev        # tests/bench
  python3 python3-h5py python3-matplotlib python3-numpy   # tools/plot.py and HDF5 checks
  python3-pandas          # tools/lightcode_results.py (DataFrame loader) and its test
  python3-yaml            # tools/photonic_report.py reads the published photonic designs
  python3-dev pybind11-dev   # the Python module `lightcode` (python/, built by CMake)
  libonnx-dev libprotobuf-dev  # ONNX model files (frontend/onnx): the ONNX protobuf schema and shape inference
  python3-torch python3-onnx # tests: small GPT-2/Llama-style modules exported to ONNX by PyTorch
  python3-pytest python3-nbclient python3-nbformat python3-ipykernel  # the module's pytest suite, the example notebook run
  python3-sklearn         # tools/learned_baseline.py: the dataset's baseline learned cost model
  clang-14 libclang-rt-14-dev libfuzzer-14-dev   # the ASan/UBSan and libFuzzer stages of `make test`
  lld                     # ld.lld: links in a third of ld.bfd's time (both builds of `make test`)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install_deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install_deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
