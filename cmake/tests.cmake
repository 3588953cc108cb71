# Unit tests: one doctest executable per layer, each test case its own ctest entry so that
# `ctest -j` spreads them over the cores (and SystemC cases run one per process).
include(doctest)

add_library(lc_test_main STATIC tests/support/doctest_main.cpp)
target_link_libraries(lc_test_main PUBLIC doctest::doctest)
target_include_directories(lc_test_main PUBLIC ${CMAKE_SOURCE_DIR})
target_compile_definitions(lc_test_main PUBLIC
  LIGHTCODE_TEST_TVM_GRAPHS="${LIGHTCODE_TVM_GRAPHS}"
  LIGHTCODE_TEST_REFERENCE="${LIGHTCODE_SHARED_REFERENCE}"
  LIGHTCODE_TEST_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
  LIGHTCODE_TEST_BINARY="$<TARGET_FILE:lightcode>")

# lightcode_unit_test(<name> SOURCES ... LIBS ... [HEAVY] [HEAVY_CASES <regex>...])
# Exit code 77 is a skip in every test here: a case that needs something absent (h5py:
# tests/support/python.hpp; ../shared: tests/support/paths.hpp) exits 77 and ctest reports it
# skipped, not passed.
# Label `heavy`: cases too slow for the sanitizer build, which runs `ctest -LE heavy` (the
# Makefile's sanitize target); the Release suite runs them. HEAVY labels every case of the
# executable, HEAVY_CASES those whose ctest name ("<name>:<case>") matches a regex. Cases are
# discovered at build time, so the label is set by a script ctest includes after them.
function(lightcode_unit_test name)
  cmake_parse_arguments(T "HEAVY" "" "SOURCES;LIBS;HEAVY_CASES" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  # One translation unit per test program (doctest and the project's headers parsed once, not per
  # file: docs/PERFORMANCE.md, "CI time"); names at namespace scope must differ between its files.
  set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  target_link_libraries(${name} PRIVATE lc_test_main lc_warnings ${T_LIBS})
  add_dependencies(${name} lightcode)
  doctest_discover_tests(${name} TEST_PREFIX "${name}:"
    PROPERTIES ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1" SKIP_RETURN_CODE 77)
  if(T_HEAVY)
    set(T_HEAVY_CASES ".")
  endif()
  if(T_HEAVY_CASES)
    set(script "${CMAKE_CURRENT_BINARY_DIR}/${name}_heavy.cmake")
    string(JOIN "|" pattern ${T_HEAVY_CASES})
    file(WRITE "${script}"
      "foreach(t IN LISTS ${name}_TESTS)\n"
      "  if(t MATCHES [==[${pattern}]==])\n"
      "    set_tests_properties(\"\${t}\" PROPERTIES LABELS heavy)\n"
      "  endif()\n"
      "endforeach()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
  endif()
endfunction()

# ONNX models exported by PyTorch into the build tree (tests/tools/export_onnx_models.py; about
# 7 s): the fixture of unit_onnx and onnx:cli. Skips (77) when /usr/bin/python3 lacks torch or onnx.
set(LIGHTCODE_ONNX_MODELS "${CMAKE_BINARY_DIR}/onnx_models")
add_test(NAME onnx:export COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/tests/tools/export_onnx_models.py
         ${LIGHTCODE_ONNX_MODELS} ${CMAKE_SOURCE_DIR})
set_tests_properties(onnx:export PROPERTIES FIXTURES_SETUP onnx_models SKIP_RETURN_CODE 77 TIMEOUT 120)
# `lightcode inspect` on ONNX files: a malformed one is exit 2 naming the file; the exported
# GPT-2 at 5 tokens prints the built-in gpt2's MACs; a scenario runs it.
add_test(NAME onnx:cli COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_onnx_cli.sh $<TARGET_FILE:lightcode>
         ${LIGHTCODE_ONNX_MODELS} ${CMAKE_SOURCE_DIR})
set_tests_properties(onnx:cli PROPERTIES FIXTURES_REQUIRED onnx_models SKIP_RETURN_CODE 77)

add_subdirectory(tests/unit)

# Regression: scenarios checked against golden figures (the seed table).
lightcode_unit_test(regression_seed
  SOURCES tests/regression/test_seed_table.cpp
  LIBS lc_sweep)
# The default profile's own golden figures (GPT-2 prefill on four systems; one event point).
lightcode_unit_test(regression_default
  SOURCES tests/regression/test_default_golden.cpp
  LIBS lc_sweep)

# SystemC: one process per test case (SystemC elaborates once per process).
lightcode_unit_test(sc_engine
  SOURCES tests/sc/test_engine.cpp
  LIBS lc_sweep)
lightcode_unit_test(sc_energy
  SOURCES tests/sc/test_energy.cpp
  LIBS lc_sweep)
lightcode_unit_test(sc_link
  SOURCES tests/sc/test_link_channel.cpp
  LIBS lc_sweep)
lightcode_unit_test(sc_stream
  SOURCES tests/sc/test_stream.cpp
  LIBS lc_sweep)
lightcode_unit_test(sc_parallel
  SOURCES tests/sc/test_parallel.cpp
  LIBS lc_sweep)

# Layering: SystemC only where DESIGN allows it, and no include of a layer above.
add_test(NAME layers:includes COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/check_layers.sh ${CMAKE_SOURCE_DIR})

# tools/plot.py: a small sweep plotted end to end, plus synthetic results files (formats 1
# and 2: PHU scaling facets, crossover brackets, hardware comparison facets, Pareto axes,
# failed points) and crossover tables (JSON).
add_test(NAME tools:plot COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_plot.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
# tools/lightcode_results.py: the pandas loader on synthetic format 1, 2, 5 and 6 files.
add_test(NAME tools:results_loader COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/python_test.sh
         ${CMAKE_SOURCE_DIR}/tests/tools/test_results_loader.py ${CMAKE_SOURCE_DIR})
# tools/plot.py's serving plots (latency_cdf, serve_load, serve_queue) on synthetic format 5
# and 6 files: two systems, a long queue series (binned), prefill and serve points mixed.
add_test(NAME tools:plot_serve COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/python_test.sh
         ${CMAKE_SOURCE_DIR}/tests/tools/test_plot_serve.py ${CMAKE_SOURCE_DIR})
# tools/plot.py's tp_scaling.png and tools/parallel_report.py on synthetic format 11 files:
# latency, communication share and group energy per TP degree, one TP value, format 6.
add_test(NAME tools:plot_parallel COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/python_test.sh
         ${CMAKE_SOURCE_DIR}/tests/tools/test_plot_parallel.py ${CMAKE_SOURCE_DIR})
# They skip (exit 77) when /usr/bin/python3 ($LIGHTCODE_TEST_PYTHON) lacks h5py, matplotlib or pandas.
set_tests_properties(tools:plot tools:results_loader tools:plot_serve tools:plot_parallel
                     PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(tools:plot tools:plot_serve PROPERTIES LABELS heavy)

# The Python module (python/): its pytest suite (run, sweep, serve, inspect, cost queries,
# errors, and examples/tour.ipynb executed by nbclient), and the .pth its install writes.
if(LIGHTCODE_PYTHON)
  add_test(NAME python:pytest COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${CMAKE_BINARY_DIR}/python
           LIGHTCODE_SOURCE_DIR=${CMAKE_SOURCE_DIR}
           bash ${CMAKE_SOURCE_DIR}/tests/tools/python_test.sh -m pytest -q -p no:cacheprovider ${CMAKE_SOURCE_DIR}/python/tests)
  add_test(NAME python:install COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_install_python.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(python:pytest python:install PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endif()

# tests/tools/minifuzz.py: every shipped scenario, system, hardware and device file and a small
# trace, mutated with a fixed seed and run through the binary: no exit but 0 or 2, no hang, no
# nan or inf reported as a success. Two runs at a time (PROCESSORS 2); Release only (heavy).
add_test(NAME tools:minifuzz COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/tests/tools/minifuzz.py
         $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR} --jobs 2)
set_tests_properties(tools:minifuzz PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 TIMEOUT 600 LABELS heavy)

# `lightcode validate` and tools/validation_report.py: the must-show bounds of docs/VALIDATION.md.
add_test(NAME validation:gemm_error COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_validation.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR} gemm)
add_test(NAME validation:fused_error COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_validation.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR} fused)
set_tests_properties(validation:gemm_error validation:fused_error PROPERTIES SKIP_RETURN_CODE 77)
# `lightcode validate-collectives` and tools/collectives_report.py: the collectives section of
# docs/VALIDATION.md (its per-size table) and its must-show bound.
add_test(NAME validation:collectives COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_collectives_validation.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
set_tests_properties(validation:collectives PROPERTIES SKIP_RETURN_CODE 77)
# `lightcode validate-photonic`, scenarios/photonic_workloads.yaml and tools/photonic_report.py:
# the photonic section of docs/VALIDATION.md and DOTA-B's must-show bounds (area, 4-bit power).
add_test(NAME validation:photonic COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_photonic_validation.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
set_tests_properties(validation:photonic PROPERTIES SKIP_RETURN_CODE 77 LABELS heavy)
# scenarios/prefill_power.yaml and tools/energy_report.py: the energy section of docs/VALIDATION.md
# and issue 25's prefill power bounds (55-100 % of the limit at 2048 and 8192 tokens, rising).
add_test(NAME validation:energy COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_energy_validation.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
set_tests_properties(validation:energy PROPERTIES SKIP_RETURN_CODE 77 LABELS heavy)

# The runtime dataset (docs/DATASET.md): tools/learned_baseline.py --check on a small dataset
# (splits disjoint by family, the replay of every graph exact, a deterministic fit; skipped
# without scikit-learn), and the doc's schema section equal to `lightcode dataset --schema`.
add_test(NAME tools:dataset_baseline COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_dataset_baseline.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
add_test(NAME tools:dataset_schema COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_dataset_schema.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
set_tests_properties(tools:dataset_baseline PROPERTIES SKIP_RETURN_CODE 77)

# docs/slurm_sweep.sh on a private single-node SLURM (installed with apt-get when root and
# missing; skipped otherwise): a job array, one task requeued mid-run, the merge byte-equal to
# a local run. Alone, since it starts daemons and its kill must land while a task runs.
add_test(NAME slurm:sweep COMMAND bash ${CMAKE_SOURCE_DIR}/tests/slurm/test_slurm_sweep.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
set_tests_properties(slurm:sweep PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
