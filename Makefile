# Thin wrapper over CMake. `make demo` and `make test` install what is missing first
# (tools/install_deps.sh, idempotent), then build Release once in build/.
BUILD   ?= build
JOBS    ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps configure build demo test bench clean format

deps:
	@tools/install_deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLIGHTCODE_WERROR=ON $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: the published LightCode results table, reproduced, and its plots.
demo: build
	$(BUILD)/lightcode run scenarios/seed_table.yaml
	/usr/bin/python3 tools/plot.py results/seed_table.h5 --out results/seed_table_plots

# Every test, in parallel, one ctest entry per test case.
test: build
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 600

# Google Benchmark targets (not part of `make test`); figures go to docs/PERFORMANCE.md.
bench: build
	@for b in $(BUILD)/tests/bench/bench_*; do echo "== $$b"; $$b --benchmark_min_time=0.2; done

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf $(BUILD)
