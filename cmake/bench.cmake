# Google Benchmark targets; built by default, never run by ctest. `make bench` runs them.
add_subdirectory(tests/bench)
