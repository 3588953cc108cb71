#include "sim/results/console_table.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace lightcode::results {
namespace {

enum class Align { left, right };

// Columns padded to their widest cell. A row may end in a "spanning" cell (a failure
// message) that is printed as is and does not widen its column.
class TextTable {
 public:
  explicit TextTable(std::vector<Align> align) : align_(std::move(align)) {}

  void add(std::vector<std::string> cells, bool last_spans = false) {
    rows_.push_back({std::move(cells), last_spans});
  }

  std::string str() const {
    std::vector<size_t> width(align_.size(), 0);
    for (const Row& row : rows_) {
      const size_t counted = row.cells.size() - (row.last_spans ? 1 : 0);
      for (size_t c = 0; c < counted && c < width.size(); ++c) {
        width[c] = std::max(width[c], row.cells[c].size());
      }
    }
    std::string out;
    for (const Row& row : rows_) {
      std::string line;
      for (size_t c = 0; c < row.cells.size(); ++c) {
        const std::string& cell = row.cells[c];
        if (c > 0) line += "  ";
        const bool spans = row.last_spans && c + 1 == row.cells.size();
        const size_t pad = spans || c >= width.size() ? 0 : width[c] - cell.size();
        const bool right = c < align_.size() && align_[c] == Align::right && !spans;
        if (right) line.append(pad, ' ');
        line += cell;
        if (!right) line.append(pad, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + '\n';
    }
    return out;
  }

 private:
  struct Row {
    std::vector<std::string> cells;
    bool last_spans = false;
  };
  std::vector<Align> align_;
  std::vector<Row> rows_;
};

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string one_line(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

// Categories in the order a reader expects; any others follow in the order they appear.
const std::vector<std::string>& known_categories() {
  static const std::vector<std::string> order = {
      "compute", "laser", "modulation", "detection", "data_movement", "memory", "conversion",
      "static"};
  return order;
}

void add_unique(std::vector<std::string>& list, const std::string& value) {
  for (const std::string& v : list) {
    if (v == value) return;
  }
  list.push_back(value);
}

std::string energy_table(const std::vector<EnergyRow>& rows) {
  std::vector<std::string> hardware;
  std::vector<std::string> categories;
  std::map<std::pair<std::string, std::string>, double> cell;
  for (const std::string& known : known_categories()) {
    for (const EnergyRow& row : rows) {
      if (row.category == known) add_unique(categories, known);
    }
  }
  for (const EnergyRow& row : rows) {
    add_unique(hardware, row.hardware);
    add_unique(categories, row.category);
    cell[{row.hardware, row.category}] += row.energy_pj;
  }
  std::vector<Align> align(categories.size() + 2, Align::right);
  align[0] = Align::left;
  TextTable table(align);
  std::vector<std::string> heading = {"energy[pj]"};
  for (const std::string& c : categories) heading.push_back(c);
  heading.push_back("total");
  table.add(heading);
  std::vector<double> column_total(categories.size(), 0.0);
  for (const std::string& h : hardware) {
    std::vector<std::string> line = {h};
    double total = 0.0;
    for (size_t c = 0; c < categories.size(); ++c) {
      const auto found = cell.find({h, categories[c]});
      if (found == cell.end()) {
        line.push_back("-");
        continue;
      }
      line.push_back(fixed(found->second, 1));
      total += found->second;
      column_total[c] += found->second;
    }
    line.push_back(fixed(total, 1));
    table.add(line);
  }
  std::vector<std::string> last = {"total"};
  double grand = 0.0;
  for (double v : column_total) {
    last.push_back(fixed(v, 1));
    grand += v;
  }
  last.push_back(fixed(grand, 1));
  table.add(last);
  return table.str();
}

std::string unit_table(const std::vector<UnitRecord>& units) {
  TextTable table({Align::left, Align::left, Align::right, Align::right, Align::right,
                   Align::right, Align::right, Align::right, Align::right, Align::right,
                   Align::right});
  table.add({"unit", "kind", "index", "busy[s]", "utilisation[%]", "tasks", "energy[pj]",
             "static[pj]", "bytes", "queue[s]", "conversion[s]"});
  for (const UnitRecord& u : units) {
    // Link-only and unit-only figures show "-" on the other kind rather than a misleading 0.
    const bool link = u.kind == "link";
    table.add({u.name, u.kind, std::to_string(u.index), format_seconds(u.busy, 9),
               fixed(100.0 * u.utilisation, 2), std::to_string(u.tasks), fixed(u.energy_pj, 1),
               fixed(u.static_energy_pj, 1), link ? std::to_string(u.bytes) : "-",
               link ? format_seconds(u.queue_delay, 9) : "-",
               link ? "-" : format_seconds(u.conversion, 9)});
  }
  return table.str();
}

}  // namespace

std::string format_seconds(Time t, int decimals) {
  const int64_t ps = t.count_ps();
  if (decimals < 0) decimals = 0;
  if (decimals > 12) decimals = 12;
  uint64_t scale = 1;  // picoseconds per last printed digit
  for (int i = decimals; i < 12; ++i) scale *= 10;
  uint64_t digits = 1;  // 10^decimals
  for (int i = 0; i < decimals; ++i) digits *= 10;
  // Integer arithmetic so 9 decimals of a 30 s makespan are exact (a double has ~16 digits).
  const bool negative = ps < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(ps) : static_cast<uint64_t>(ps);
  const uint64_t rounded = (magnitude + scale / 2) / scale;
  std::string out = (negative && rounded != 0 ? "-" : "") + std::to_string(rounded / digits);
  if (decimals > 0) {
    std::string fraction = std::to_string(rounded % digits);
    out += "." + std::string(static_cast<size_t>(decimals) - fraction.size(), '0') + fraction;
  }
  return out;
}

namespace {

// Why photonic-capable products were not candidates: the precision they require.
std::string refusal_note(const PointSummary& p) {
  return std::to_string(p.photonic_refused_precision) + " matrix products need more bits (" +
         (p.precision_bits != 0 ? std::to_string(p.precision_bits) + ", the scenario's precision"
                                : std::string("their dtype's")) +
         ") than the photonic unit computes at: not candidates there\n";
}

// Products a photonic unit ran at fewer bits than their dtype holds.
std::string reduced_note(const PointSummary& p) {
  return std::to_string(p.reduced_precision_products) + " matrix products ran at fewer bits than their dtype holds (" +
         p.reduced_precision + (p.reduced_precision_products > 1 ? ", the first" : "") + ")" +
         (p.precision_bits != 0 ? ", the " + std::to_string(p.precision_bits) + " bits the scenario's precision requires\n"
                                : std::string("; `precision:` in the scenario sets the bits they require\n"));
}

}  // namespace

std::string format_seed_table(const std::vector<PointSummary>& all) {
  // Points of one placed graph or more (not serving points: format_serve_table).
  std::vector<PointSummary> points;
  for (const PointSummary& p : all) {
    if (p.parts & kGraphFigures) points.push_back(p);
  }
  if (points.empty()) return "";
  // The original's headings, "posiable" included, so scripts that parsed its output keep
  // working; after the first two, the objective and every swept parameter the first two do
  // not show, so that the rows of a sweep over them can be told apart.
  std::vector<std::string> swept;
  for (const PointSummary& p : points) {
    for (const auto& parameter : p.parameters) {
      const std::string& name = parameter.first;
      if (name != "system" && name != "sequence_length" && name != "objective") add_unique(swept, name);
    }
  }
  // Generation's own figures follow when a point generates (stage generate), "-" elsewhere.
  bool generation = false;
  for (const PointSummary& p : points) generation = generation || (p.parts & kGenerationFigures) != 0;
  std::vector<Align> align{Align::left, Align::right, Align::left};
  align.insert(align.end(), swept.size(), Align::right);
  align.insert(align.end(), generation ? 8 : 5, Align::right);
  TextTable table(align);
  std::vector<std::string> heading{"Hardware", "moc_sequence_length[tok]", "objective"};
  heading.insert(heading.end(), swept.begin(), swept.end());
  for (const char* h : {"Makespan[s]", "num_nodes", "total_energy[pj]", "num_photonic", "posiable_photonic"}) {
    heading.push_back(h);
  }
  if (generation) {
    for (const char* h : {"TTFT[s]", "TPOT[s]", "energy_per_token[pj]"}) heading.push_back(h);
  }
  table.add(heading);
  for (const PointSummary& p : points) {
    std::vector<std::string> row{p.system, std::to_string(p.sequence_length), p.objective};
    for (const std::string& name : swept) {
      std::string value = "-";
      for (const auto& [key, text] : p.parameters) {
        if (key == name) value = text;
      }
      row.push_back(value);
    }
    if (p.status != Status::ok) {
      row.push_back(std::string(status_name(p.status)) + (p.error.empty() ? "" : ": " + one_line(p.error)));
      table.add(row, true);
      continue;
    }
    for (std::string cell : {fixed(p.makespan_s, 5), std::to_string(p.nodes), fixed(p.energy_pj, 1),
                             std::to_string(p.photonic_selected), std::to_string(p.photonic_possible)}) {
      row.push_back(std::move(cell));
    }
    if (generation) {
      const bool generates = (p.parts & kGenerationFigures) != 0;
      row.push_back(generates ? fixed(p.ttft_s, 6) : "-");
      row.push_back(generates ? fixed(p.tpot_s, 6) : "-");
      row.push_back(generates ? fixed(p.energy_per_token_pj, 1) : "-");
    }
    table.add(row);
  }
  std::string notes;
  for (const PointSummary& p : points) {
    if (p.status == Status::ok && p.photonic_refused_precision != 0) notes += "note: " + p.id + ": " + refusal_note(p);
    if (p.status == Status::ok && p.reduced_precision_products != 0) notes += "note: " + p.id + ": " + reduced_note(p);
  }
  return table.str() + notes;
}

std::string format_serve_table(const std::vector<PointSummary>& points) {
  std::vector<const PointSummary*> served;
  std::vector<std::string> swept;
  for (const PointSummary& p : points) {
    if (!(p.parts & kServingFigures)) continue;
    served.push_back(&p);
    for (const auto& parameter : p.parameters) {
      // The dispatch column shows the policy, however it was swept.
      if (parameter.first != "dispatch" && parameter.first != "dispatch.policy") add_unique(swept, parameter.first);
    }
  }
  if (served.empty()) return "";
  std::vector<Align> align{Align::left, Align::left, Align::left};
  align.insert(align.end(), swept.size() + 12, Align::right);
  TextTable table(align);
  std::vector<std::string> heading{"point", "system", "dispatch"};
  heading.insert(heading.end(), swept.begin(), swept.end());
  for (const char* h : {"requests", "rejected", "TTFT_p50[s]", "TTFT_p99[s]", "TPOT_p50[s]", "TPOT_p99[s]", "latency_p99[s]",
                        "throughput[tok/s]", "goodput[req/s]", "energy_per_token[pj]", "preemptions", "run[s]"}) {
    heading.push_back(h);
  }
  table.add(heading);
  for (const PointSummary* p : served) {
    std::vector<std::string> row{p->id, p->system.empty() ? "-" : p->system, p->dispatch.empty() ? "-" : p->dispatch};
    for (const std::string& name : swept) {
      std::string value = "-";
      for (const auto& [key, text] : p->parameters) {
        if (key == name) value = text;
      }
      row.push_back(value);
    }
    if (p->status != Status::ok) {
      row.push_back(std::string(status_name(p->status)) + (p->error.empty() ? "" : ": " + one_line(p->error)));
      table.add(row, true);
      continue;
    }
    for (std::string cell : {std::to_string(p->requests), std::to_string(p->rejected), fixed(p->ttft_p50_s, 6), fixed(p->ttft_p99_s, 6),
                             fixed(p->tpot_p50_s, 6), fixed(p->tpot_p99_s, 6), fixed(p->latency_p99_s, 6),
                             fixed(p->throughput_tokens_per_s, 1), fixed(p->goodput_requests_per_s, 3),
                             fixed(p->energy_per_token_pj, 1), std::to_string(p->preemptions), fixed(p->makespan_s, 3)}) {
      row.push_back(std::move(cell));
    }
    table.add(row);
  }
  return "serving:\n" + table.str();
}

std::string format_point_details(const PointResult& point) {
  const PointSummary& s = point.summary;
  std::ostringstream out;
  out << "point " << s.id << " (" << status_name(s.status) << ")";
  if (!s.error.empty()) out << ": " << one_line(s.error);
  out << "\n";
  out << "  model " << s.model << ", stage " << s.stage;
  if (s.parts & kGraphFigures) out << ", sequence " << s.sequence_length << " tok";
  out << ", system " << s.system << "\n";
  out << "  objective " << s.objective << ", profile " << s.profile << ", fidelity " << s.fidelity
      << "\n";
  if (!s.parameters.empty()) {
    out << "  parameters:";
    for (const auto& [name, value] : s.parameters) out << " " << name << "=" << value;
    out << "\n";
  }
  if (s.status != Status::ok) return out.str();
  out << "  makespan " << format_seconds(s.makespan, 9) << " s (" << s.makespan.count_ps()
      << " ps)";
  if (s.analytical_makespan != Time::zero() && s.analytical_makespan != s.makespan) {
    out << ", analytical " << format_seconds(s.analytical_makespan, 9) << " s";
  }
  out << ", energy " << fixed(s.energy_pj, 1) << " pJ\n";
  if (s.parts & kServingFigures) {
    out << "  serving: " << s.requests << " requests on " << s.replicas << " replicas (dispatch " << s.dispatch
        << "), " << s.iterations << " iterations, " << s.output_tokens << " output tokens, energy per output token "
        << fixed(s.energy_per_token_pj, 1) << " pJ, average power " << fixed(s.average_power_w, 1) << " W\n";
    if (s.steady_state_s > 0.0 && s.steady_output_tokens > 0) {
      out << "  steady state (until the waiting queue first empties): " << fixed(s.steady_state_s, 6) << " s, "
          << s.steady_output_tokens << " output tokens, " << fixed(s.steady_throughput_tokens_per_s, 1)
          << " tokens/s, energy per output token " << fixed(s.steady_energy_per_token_pj, 1) << " pJ, average power "
          << fixed(s.steady_power_w, 1) << " W, " << s.steady_iterations << " iterations of "
          << s.steady_sequence_iterations << " sequences in all\n";
    }
  }
  if (s.parts & kGenerationFigures) {
    out << "  generation: " << s.new_tokens << " tokens, time to first token " << fixed(s.ttft_s, 9)
        << " s, time per output token " << fixed(s.tpot_s, 9) << " s, energy per token "
        << fixed(s.energy_per_token_pj, 1) << " pJ\n";
  }
  if (!(s.parts & kGraphFigures)) {
    if (!point.energy.empty()) out << "\n" << energy_table(point.energy);
    if (!point.units.empty()) out << "\n" << unit_table(point.units);
    return out.str();
  }
  out << "  nodes " << s.nodes << ", photonic " << s.photonic_selected << " of "
      << s.photonic_possible << " possible\n";
  if (s.precision_bits != 0) out << "  precision " << s.precision_bits << " bits on every matrix product\n";
  if (s.photonic_refused_precision != 0) out << "  " << refusal_note(s);
  if (s.reduced_precision_products != 0) out << "  " << reduced_note(s);
  if (s.placement_evaluations != 0) {
    out << "  placement: " << s.placement_evaluations << " placements scheduled; " << s.objective
        << " at most " << fixed(100.0 * s.gap, 2) << " % above its lower bound " << s.lower_bound
        << " (s, pJ or s*pJ)\n";
  }
  if (!s.split.empty()) out << "  split " << s.split << "\n";
  if (s.tensor_parallel * s.pipeline_parallel > 1) {
    out << "  devices: tensor_parallel " << s.tensor_parallel << " x pipeline_parallel " << s.pipeline_parallel
        << "; collectives " << fixed(s.communication_s, 9) << " s ("
        << fixed(s.makespan_s > 0.0 ? 100.0 * s.communication_s / s.makespan_s : 0.0, 1)
        << " % of the makespan); energy of every device " << s.group_energy_pj << " pJ\n";
  }
  out << "  subgraphs " << s.subgraphs << ": " << s.subgraphs_solved << " solved, "
      << s.subgraphs_reused << " reused\n";
  if (!point.energy.empty()) out << "\n" << energy_table(point.energy);
  if (!point.units.empty()) out << "\n" << unit_table(point.units);
  return out.str();
}

}  // namespace lightcode::results
