// lightcode._core: the simulator's entry points for Python (bindings.hpp).
#include <pybind11/pybind11.h>

#include "python/bindings/bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "LightCode's simulator, for the Python package lightcode (use that package, not this module).";
  m.attr("__version__") = LIGHTCODE_VERSION;
  lightcode::python::register_errors(m);
  lightcode::python::register_runs(m);
  lightcode::python::register_graphs(m);
  lightcode::python::register_costs(m);
}
