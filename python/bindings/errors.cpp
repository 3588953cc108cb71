// lightcode::Error -> lightcode.errors.Error(message, file, line, column, key): the place a
// user must fix travels as attributes, not only inside the message (bindings.hpp).
#include <pybind11/pybind11.h>

#include "python/bindings/bindings.hpp"
#include "sim/core/error.hpp"

namespace py = pybind11;

namespace lightcode::python {

void register_errors(py::module_& m) {
  (void)m;
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const Error& e) {
      // The class lives in Python (python/lightcode/errors.py) so that it pickles and documents
      // like any Python exception; the package is imported before any call can throw.
      const py::object error_class = py::module_::import("lightcode.errors").attr("Error");
      const SourcePlace& at = e.where();
      const py::object error = error_class(e.what(), at.file, at.line, at.column, at.path);
      PyErr_SetObject(error_class.ptr(), error.ptr());
    }
  });
}

}  // namespace lightcode::python
