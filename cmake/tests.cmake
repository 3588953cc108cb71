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

# lightcode_unit_test(<name> SOURCES ... LIBS ...)
function(lightcode_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE lc_test_main lc_warnings ${T_LIBS})
  add_dependencies(${name} lightcode)
  doctest_discover_tests(${name} TEST_PREFIX "${name}:"
    PROPERTIES ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1")
endfunction()

add_subdirectory(tests/unit)

# Regression: scenarios checked against golden figures (the seed table).
lightcode_unit_test(regression_seed
  SOURCES tests/regression/test_seed_table.cpp
  LIBS lc_sweep)

# SystemC: one process per test case (SystemC elaborates once per process).
lightcode_unit_test(sc_engine
  SOURCES tests/sc/test_engine.cpp
  LIBS lc_sweep)
lightcode_unit_test(sc_link
  SOURCES tests/sc/test_link_channel.cpp
  LIBS lc_sweep)

# Layering: SystemC only where DESIGN allows it, and no include of a layer above.
add_test(NAME layers:includes COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/check_layers.sh ${CMAKE_SOURCE_DIR})

# tools/plot.py: a small sweep plotted end to end, plus synthetic results files (formats 1
# and 2: PHU scaling facets, crossover brackets, failed points) and crossover tables (JSON).
add_test(NAME tools:plot COMMAND bash ${CMAKE_SOURCE_DIR}/tests/tools/test_plot.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
# tools/lightcode_results.py: the pandas loader on synthetic format 1 and 2 files (skips
# with a message when h5py or pandas is missing).
add_test(NAME tools:results_loader COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/tests/tools/test_results_loader.py ${CMAKE_SOURCE_DIR})

# docs/slurm_sweep.sh on a private single-node SLURM (installed with apt-get when root and
# missing; skipped otherwise): a job array, one task requeued mid-run, the merge byte-equal to
# a local run. Alone, since it starts daemons and its kill must land while a task runs.
add_test(NAME slurm:sweep COMMAND bash ${CMAKE_SOURCE_DIR}/tests/slurm/test_slurm_sweep.sh $<TARGET_FILE:lightcode> ${CMAKE_SOURCE_DIR})
set_tests_properties(slurm:sweep PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
