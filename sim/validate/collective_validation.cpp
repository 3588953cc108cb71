#include "sim/validate/collective_validation.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "hw_models/interconnect/collective_cost.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/numbers.hpp"
#include "sim/ir/op_kind.hpp"

namespace lightcode::validate {
namespace {

std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  for (const char c : line) {
    if (c == ',')
      cells.emplace_back();
    else
      cells.back() += c;
  }
  return cells;
}

// The interconnect file (stem, in the hardware folder) that is a reference row's hardware.
std::string hardware_of(const CollectiveReferenceRow& r, const std::string& path) {
  if (r.device == "h100" && r.topology == "dgx") return r.scope == "inter-node" ? "infiniband_ndr" : "nvlink4_nvswitch";
  if (r.device == "h100" && r.topology == "pairwise_nvlink" && r.ranks == 2) return "nvlink4_pairwise_bridge";
  if (r.device == "h100" && r.topology == "pairwise_nvlink" && r.ranks == 4) return "pcie5_x16";
  throw Error(path + ":" + std::to_string(r.line) + ": no interconnect file models " + r.device + " " + r.topology +
              " with " + std::to_string(r.ranks) + " ranks");
}

ir::OpKind collective_kind(const CollectiveReferenceRow& r, const std::string& path) {
  if (r.collective == "all_reduce") return ir::OpKind::all_reduce;
  if (r.collective == "all_gather") return ir::OpKind::all_gather;
  if (r.collective == "reduce_scatter") return ir::OpKind::reduce_scatter;
  if (r.collective == "send_recv") return ir::OpKind::send_recv;
  throw Error(path + ":" + std::to_string(r.line) + ": unknown collective '" + r.collective + "'");
}

}  // namespace

std::vector<CollectiveReferenceRow> read_collective_reference(const std::string& path) {
  std::istringstream in(read_input_file(path, "collectives CSV", limits::kCsvFileBytes));
  std::string line;
  std::map<std::string, size_t> column;
  std::vector<CollectiveReferenceRow> rows;
  int line_no = 0;
  auto fail = [&](const std::string& why) { throw Error(path + ":" + std::to_string(line_no) + ": " + why); };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cells = csv_cells(line);
    if (column.empty()) {
      for (size_t i = 0; i < cells.size(); ++i) column[cells[i]] = i;
      for (const char* need : {"device", "topology", "collective", "num_workers", "scope", "size_bytes", "repeat",
                               "time_ms_median"}) {
        if (column.count(need) == 0) fail(std::string("no column '") + need + "'");
      }
      continue;
    }
    if (cells.size() != column.size()) fail("expected " + std::to_string(column.size()) + " cells");
    auto cell = [&](const char* name) { return cells[column.at(name)]; };
    auto integer = [&](const char* name) {
      const std::optional<double> v = parse_decimal(cell(name));
      if (!v || *v < 0.0 || *v != static_cast<double>(static_cast<int64_t>(*v)))
        fail(std::string("column '") + name + "': not a non-negative integer: '" + cell(name) + "'");
      return static_cast<int64_t>(*v);
    };
    CollectiveReferenceRow r;
    r.line = line_no;
    r.device = cell("device");
    r.topology = cell("topology");
    r.collective = cell("collective");
    r.scope = cell("scope");
    r.ranks = integer("num_workers");
    r.size_bytes = integer("size_bytes");
    r.repeat = integer("repeat");
    const std::optional<double> ms = parse_decimal(cell("time_ms_median"));
    if (!ms || !(*ms > 0.0)) fail("column 'time_ms_median': not a positive number: '" + cell("time_ms_median") + "'");
    r.measured_s = *ms * 1e-3;
    rows.push_back(std::move(r));
  }
  if (rows.empty()) throw Error(path + ": no data rows");
  return rows;
}

results::CollectiveValidationFile run_collective_validation(const CollectiveOptions& options) {
  results::CollectiveValidationFile out;
  out.reference = options.reference;
  std::map<std::string, hw::InterconnectSpec> specs;  // by file stem, each parsed once
  for (const CollectiveReferenceRow& r : read_collective_reference(options.reference)) {
    const std::string stem = hardware_of(r, options.reference);
    auto it = specs.find(stem);
    if (it == specs.end()) {
      const ConfigNode node = ConfigNode::load_file(options.hardware_dir + "/" + stem + ".yaml", "interconnect file");
      it = specs.emplace(stem, hw::parse_interconnect_spec(node)).first;
    }
    const hw::InterconnectSpec& spec = it->second;
    const hw::CollectiveCost c =
        hw::estimate_collective(spec, collective_kind(r, options.reference), r.size_bytes, r.ranks,
                                options.reference + ":" + std::to_string(r.line));
    results::CollectiveValidationRow row;
    row.collective = r.collective;
    row.system = r.device + "_" + r.topology;
    row.hardware = stem;
    row.topology = std::string(hw::topology_name(spec.topology));
    row.ranks = r.ranks;
    row.scope = r.scope;
    row.size_bytes = r.size_bytes;
    row.repeat = r.repeat;
    row.measured_s = r.measured_s;
    row.predicted_s = c.time.seconds();
    row.error = row.predicted_s / row.measured_s - 1.0;
    row.algorithm = std::string(c.algorithm->name);
    row.protocol = std::string(c.protocol->name);
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace lightcode::validate
