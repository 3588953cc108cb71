#pragma once
// The pieces of the extension module lightcode._core (python/CMakeLists.txt), each registering
// its functions on the module. They take and return plain Python values (str, int, float,
// list, dict); python/lightcode/ turns them into DataFrames. Every call releases the GIL
// while the simulator works, and a lightcode::Error becomes lightcode.errors.Error with its
// file, line, column and key (errors.cpp).
#include <pybind11/pybind11.h>

namespace lightcode::python {

void register_errors(pybind11::module_& m);
void register_runs(pybind11::module_& m);     // run, sweep, dataset (runs.cpp)
void register_graphs(pybind11::module_& m);   // inspect (graphs.cpp)
void register_costs(pybind11::module_& m);    // cost of one op on a system's units (costs.cpp)

}  // namespace lightcode::python
