# Thin wrapper over CMake. `make demo` and `make test` install what is missing first
# (tools/install_deps.sh, idempotent), then build Release once in build/.
BUILD   ?= build
SAN_BUILD ?= build-san
JOBS    ?= $(shell nproc)
CMAKE_FLAGS ?=
# Seconds each libFuzzer target runs in `make test` (tests/fuzz/run_fuzz.sh; longer locally).
FUZZ_SECONDS ?= 10
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1
# The sanitizer build's debug info: line tables (what a report's stack needs, 15% less compile
# time than -g); both builds link with lld (a third of ld.bfd's link time); measured in
# docs/PERFORMANCE.md, "CI time".
SAN_DEBUG = -gline-tables-only
# lld is in tools/install_deps.sh; a build without it (a hand-made machine) links with ld.bfd.
LINKER = $(if $(shell command -v ld.lld 2>/dev/null),-fuse-ld=lld,)

.PHONY: deps configure build demo test check sanitize fuzz bench clean format

deps:
	@tools/install_deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLIGHTCODE_WERROR=ON \
	  "-DCMAKE_EXE_LINKER_FLAGS=$(LINKER)" $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)
	@tools/install_python.sh $(BUILD)

# The main job: the published LightCode results table, reproduced, and its plots.
demo: build
	$(BUILD)/lightcode run scenarios/seed_table.yaml
	/usr/bin/python3 tools/plot.py results/seed_table.h5 --out results/seed_table_plots

# Every test: the Release suite (one ctest entry per test case, the SLURM scale-out test
# included), then the same suite built with ASan and UBSan, then every fuzz target.
test: check sanitize fuzz

# The Release suite alone: what to run while developing.
check: build
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 600

# The suite under ASan + UBSan with clang, -fno-sanitize-recover: any report fails its test.
# Not the SLURM test (it already ran) nor the cases labelled `heavy` (cmake/tests.cmake: 25 s
# or more each under the sanitizers; the Release suite runs them), which keeps `make test`
# within 15 minutes on 2 cores (docs/PERFORMANCE.md). The same build holds the fuzz targets.
sanitize: deps
	@cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang-14 \
	  -DCMAKE_CXX_COMPILER=clang++-14 "-DCMAKE_CXX_FLAGS=$(SAN_FLAGS)" "-DCMAKE_CXX_FLAGS_DEBUG=$(SAN_DEBUG)" \
	  "-DCMAKE_EXE_LINKER_FLAGS=$(LINKER)" -DLIGHTCODE_BENCH=OFF -DLIGHTCODE_JEMALLOC=OFF -DLIGHTCODE_PYTHON=OFF \
	  -DLIGHTCODE_FUZZ=ON -DLIGHTCODE_WERROR=ON >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	@cd $(SAN_BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 900 -E '^slurm:' -LE heavy

# Every libFuzzer target for FUZZ_SECONDS from its committed corpus (FUZZ_SECONDS=300 for a
# real run); a crash, hang, leak or sanitizer report fails and prints the reproducer.
fuzz: sanitize
	@tests/fuzz/run_fuzz.sh $(SAN_BUILD) $(FUZZ_SECONDS) $(JOBS)

# Google Benchmark targets (not part of `make test`); figures go to docs/PERFORMANCE.md.
bench: build
	@for b in $(BUILD)/tests/bench/bench_*; do echo "== $$b"; $$b --benchmark_min_time=0.2; done

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf $(BUILD) $(SAN_BUILD)
