// lightcode._core.run, .sweep and .dataset: a scenario (a file, or YAML text from a dict) run as
// `lightcode run`, `lightcode sweep` and `lightcode dataset` run it (sim/sweep/run_scenario.hpp,
// sweep_runner.hpp, sim/dataset/dataset.hpp): analytical points in this process, event-fidelity
// points and every sweep point in forked worker processes (SystemC elaborates once per
// process). Returns where the results went.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "python/bindings/bindings.hpp"
#include "sim/core/input_file.hpp"
#include "sim/dataset/dataset.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/sweep/run_scenario.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace py = pybind11;

namespace lightcode::python {
namespace {

// `text` given: the scenario is that YAML, named `path` in errors, its relative paths against
// `dir`. Otherwise the file `path`.
sweep::Scenario load(const std::string& path, const std::optional<std::string>& text, const std::string& dir,
                     const std::vector<std::string>& sets) {
  return text ? sweep::parse_scenario(*text, path, dir, sets) : sweep::load_scenario(path, sets);
}

py::dict outcome(const std::string& out, size_t failed, const std::vector<results::PointSummary>& summaries) {
  py::dict d;
  d["out"] = out;
  d["failed"] = failed;
  py::list errors;
  for (const results::PointSummary& s : summaries) {
    if (s.status != results::Status::ok) errors.append(py::make_tuple(s.id, s.error));
  }
  d["errors"] = errors;
  return d;
}

py::dict run(const std::string& path, const std::optional<std::string>& text, const std::string& dir,
             const std::vector<std::string>& sets, const std::string& out, int threads, bool contention) {
  std::string written;
  size_t failed = 0;
  std::vector<results::PointSummary> summaries;
  {
    const py::gil_scoped_release unlocked;
    const uint64_t mark = input_mark();  // the files read from here on are the scenario's inputs
    const sweep::Scenario scenario = load(path, text, dir, sets);
    sweep::ScenarioRunOptions options;
    options.out = out;
    if (!contention) options.settings.push_back("contention=false");
    options.point.engine.contention = contention;
    options.point.threads = threads;
    sweep::ScenarioRun done = sweep::run_scenario(scenario, mark, options);
    written = done.out;
    failed = static_cast<size_t>(done.failed);
    summaries = std::move(done.summaries);
  }
  return outcome(written, failed, summaries);
}

py::dict sweep_points(const std::string& path, const std::optional<std::string>& text, const std::string& dir,
                      const std::vector<std::string>& sets, const std::string& out, int jobs, bool resume,
                      bool contention) {
  sweep::SweepOptions o;
  sweep::SweepOutcome r;
  {
    const py::gil_scoped_release unlocked;
    const uint64_t mark = input_mark();
    const sweep::Scenario scenario = load(path, text, dir, sets);
    o = sweep::sweep_options(scenario, mark, jobs, contention, out);
    o.resume = resume;
    r = sweep::run_sweep(scenario, o);
  }
  return outcome(o.output, r.failed, r.summaries);
}

py::dict dataset_of(const std::string& path, const std::optional<std::string>& text, const std::string& dir,
                   const std::vector<std::string>& sets, const std::string& out, int jobs,
                   const std::vector<std::string>& validation_families, const std::vector<std::string>& test_families) {
  dataset::DatasetSummary r;
  {
    const py::gil_scoped_release unlocked;
    const uint64_t mark = input_mark();  // the files read loading the scenario are its inputs
    const sweep::Scenario scenario = load(path, text, dir, sets);
    dataset::DatasetOptions o;
    o.out = out;
    o.jobs = jobs;
    o.validation_families = validation_families;
    o.test_families = test_families;
    o.inputs = inputs_read_since(mark);
    r = dataset::write_dataset(scenario, o);
  }
  py::dict d;
  d["out"] = r.out;
  d["points"] = r.points;
  d["failed"] = r.failed;
  d["rows"] = py::dict(py::arg("graphs") = r.graphs, py::arg("ops") = r.ops, py::arg("edges") = r.edges,
                       py::arg("placement") = r.placement, py::arg("alternatives") = r.alternatives,
                       py::arg("iterations") = r.iterations, py::arg("hardware") = r.hardware,
                       py::arg("hardware_parameters") = r.hardware_parameters, py::arg("families") = r.families);
  d["worker_processes"] = r.worker_processes;
  d["seconds"] = r.seconds;
  return d;
}

}  // namespace

void register_runs(py::module_& m) {
  m.def("run", &run, py::arg("path"), py::arg("text"), py::arg("dir"), py::arg("sets"), py::arg("out"),
        py::arg("threads"), py::arg("contention"),
        "Every point of a scenario in turn into one results file, as `lightcode run`; returns "
        "{out, failed, errors: [(id, reason)]}.");
  m.def("sweep", &sweep_points, py::arg("path"), py::arg("text"), py::arg("dir"), py::arg("sets"), py::arg("out"),
        py::arg("jobs"), py::arg("resume"), py::arg("contention"),
        "Every point of a scenario in a worker process, `jobs` at a time, as `lightcode sweep`.");
  m.def("dataset", &dataset_of, py::arg("path"), py::arg("text"), py::arg("dir"), py::arg("sets"), py::arg("out"),
        py::arg("jobs"), py::arg("validation_families"), py::arg("test_families"),
        "The runtime dataset of a scenario's points, as `lightcode dataset` writes it (docs/DATASET.md).");
  m.def("dataset_schema", &dataset::schema_markdown, "The dataset's schema as Markdown (docs/DATASET.md).");
  m.def("hardware_threads", &hardware_threads, "The threads this machine runs at once.");
}

}  // namespace lightcode::python
