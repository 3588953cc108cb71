# libFuzzer targets (tests/fuzz/): one executable per input loader, fuzz_<target>, and one
# ctest entry per target that replays its committed corpus and regressions (seconds).
# Off by default; needs clang (libFuzzer is part of clang's runtime: Debian's libfuzzer-14-dev).
#
#   make sanitize                                # what `make test` does: build-san/, clang,
#                                                # ASan + UBSan, LIGHTCODE_FUZZ=ON, all tests
#   tests/fuzz/run_fuzz.sh build-san 30          # fuzz every target for 30 s
#
# Included by the top-level CMakeLists.txt before the libraries are added: with the option on,
# every library is compiled with -fsanitize=fuzzer-no-link (coverage feedback for the code
# under test). ASan/UBSan come from the CMAKE_CXX_FLAGS the caller sets. The fuzz
# executables themselves are added at the end of the top-level CMakeLists.txt (deferred), when
# the libraries they link exist.
include_guard(GLOBAL)

option(LIGHTCODE_FUZZ "Build the libFuzzer targets under tests/fuzz (clang only)" OFF)
if(NOT LIGHTCODE_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR
    "LIGHTCODE_FUZZ=ON needs clang (libFuzzer), but the C++ compiler is "
    "${CMAKE_CXX_COMPILER_ID} (${CMAKE_CXX_COMPILER}). Configure a separate build directory with "
    "-DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 (Debian: clang-14, libfuzzer-14-dev).")
endif()

# Coverage instrumentation for everything compiled from here on (libraries, tools, tests).
# Linking with it too gives the ordinary executables (lightcode, the unit tests, which keep
# their own main) the runtime's coverage callbacks when no sanitizer is set.
add_compile_options(-fsanitize=fuzzer-no-link)
add_link_options(-fsanitize=fuzzer-no-link)

# target -> the libraries its loader lives in.
set(LIGHTCODE_FUZZ_TARGETS scenario system hardware tvm_json onnx model_config calibration_csv dispatch_table
    request_trace device_library)
set(LIGHTCODE_FUZZ_LIBS_scenario lc_sweep)
set(LIGHTCODE_FUZZ_LIBS_system lc_families)
set(LIGHTCODE_FUZZ_LIBS_hardware lc_families)
set(LIGHTCODE_FUZZ_LIBS_tvm_json lc_sched lc_families lc_frontend)
set(LIGHTCODE_FUZZ_LIBS_onnx lc_sched lc_families lc_frontend)
set(LIGHTCODE_FUZZ_LIBS_model_config lc_frontend)
set(LIGHTCODE_FUZZ_LIBS_calibration_csv lc_families)
set(LIGHTCODE_FUZZ_LIBS_dispatch_table lc_sweep)
set(LIGHTCODE_FUZZ_LIBS_request_trace lc_serve)
set(LIGHTCODE_FUZZ_LIBS_device_library lc_families)

function(lightcode_add_fuzz_targets)
  enable_testing()
  set(dir ${CMAKE_SOURCE_DIR}/tests/fuzz)
  foreach(t IN LISTS LIGHTCODE_FUZZ_TARGETS)
    add_executable(fuzz_${t} ${dir}/fuzz_${t}.cpp)
    target_link_libraries(fuzz_${t} PRIVATE ${LIGHTCODE_FUZZ_LIBS_${t}} lc_warnings)
    target_include_directories(fuzz_${t} PRIVATE ${CMAKE_SOURCE_DIR})
    target_compile_definitions(fuzz_${t} PRIVATE LIGHTCODE_FUZZ_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    set_target_properties(fuzz_${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    # Replay: every committed corpus file and regression, once each (no mutation, nothing
    # written into the source tree; a crash artifact would land in the build directory).
    add_test(NAME fuzz:${t}
             COMMAND bash ${dir}/replay.sh $<TARGET_FILE:fuzz_${t}> ${dir}/corpus/${t} ${dir}/regressions/${t}
             WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    set_tests_properties(fuzz:${t} PROPERTIES TIMEOUT 300 LABELS fuzz
                         ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1")
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL lightcode_add_fuzz_targets)
