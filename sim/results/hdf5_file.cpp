#include "sim/results/hdf5_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <ctime>
#include <optional>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/results/hdf5_table.hpp"
#include "sim/results/parameter_value.hpp"

namespace lightcode::results {
namespace {

// A table column is a struct member. On disk a Time is int64 picoseconds (its column names
// end in _ps); every other member type is its own kind.
// A point's Status is its name ("ok", "failed").
template <class Row>
using Member = std::variant<std::string Row::*, int32_t Row::*, int64_t Row::*, double Row::*, Time Row::*, Status Row::*>;
constexpr h5::Kind kMemberKind[] = {h5::Kind::str, h5::Kind::i32, h5::Kind::i64, h5::Kind::f64, h5::Kind::i64, h5::Kind::str};
static_assert(std::size(kMemberKind) == std::variant_size_v<Member<PointSummary>>, "a kind per member type");

template <class Value>
void store_cell(unsigned char* at, const h5::FieldSpec& spec, const Value& value) {
  h5::store(at, spec, value);
}
void store_cell(unsigned char* at, const h5::FieldSpec& spec, Time value) { h5::store(at, spec, value.count_ps()); }
void store_cell(unsigned char* at, const h5::FieldSpec& spec, Status value) {
  static const std::string kOk = status_name(Status::ok), kFailed = status_name(Status::failed);
  h5::store(at, spec, value == Status::ok ? kOk : kFailed);  // static: a variable-length cell points at it
}
template <class Value>
void load_cell(const unsigned char* at, const h5::FieldSpec& spec, Value& value) {
  h5::load(at, spec, value);
}
void load_cell(const unsigned char* at, const h5::FieldSpec& spec, Time& value) {
  int64_t ps = 0;
  h5::load(at, spec, ps);
  value = Time::ps(ps);
}
void load_cell(const unsigned char* at, const h5::FieldSpec& spec, Status& value) {
  std::string text;
  h5::load(at, spec, text);
  value = parse_status(text);
}

// Summary figures of a part (SummaryPart) that a point's stage does not report are NaN on disk
// (format 6 on): their numeric columns are float64 whatever the member's type, strings empty.
uint32_t parts_of(const PointSummary& s) { return s.parts; }
template <class Row>
uint32_t parts_of(const Row&) {
  return ~0u;
}
void set_part(PointSummary& s, uint32_t part, bool applies) { s.parts = applies ? s.parts | part : s.parts & ~part; }
template <class Row>
void set_part(Row&, uint32_t, bool) {}

// A part's cell: in its member's own type when every row of the table reports the part, else
// float64 with NaN where a row does not (as parameter columns: parameter_value.hpp).
template <class Value>
void store_part(unsigned char* at, const h5::FieldSpec& spec, const Value& value, bool applies) {
  if constexpr (std::is_same_v<Value, std::string>) {
    static const std::string kEmpty;
    h5::store(at, spec, applies ? value : kEmpty);
  } else if constexpr (std::is_same_v<Value, Time> || std::is_same_v<Value, Status>) {
    throw std::logic_error("a time or status in a summary part");
  } else if (spec.kind == h5::Kind::f64) {
    h5::store(at, spec, applies ? static_cast<double>(value) : std::nan(""));
  } else {
    h5::store(at, spec, value);
  }
}
// Loads a part's cell: whether the point's stage reports the part (a number: NaN or not), or
// nothing (a string says nothing).
template <class Value>
std::optional<bool> load_part(const unsigned char* at, const h5::FieldSpec& spec, Value& value) {
  if constexpr (std::is_same_v<Value, std::string>) {
    h5::load(at, spec, value);
    return std::nullopt;
  } else if constexpr (std::is_same_v<Value, Time> || std::is_same_v<Value, Status>) {
    throw std::logic_error("a time or status in a summary part");
  } else {
    double d = 0.0;
    h5::load(at, spec, d);
    if (std::isnan(d)) return false;
    value = static_cast<Value>(d);
    return true;
  }
}

template <class Row>
struct Field {
  const char* name;
  Member<Row> member;
  int64_t since = 1;  // the format version that added it: older files lack it (left default)
  uint32_t part = 0;  // the SummaryPart it belongs to; 0: every point reports it
};

// The format version from which a summary part's numbers are float64 columns (NaN: n/a).
constexpr int64_t kPartsSince = 6;

template <class Row>
using Fields = std::vector<Field<Row>>;

const Fields<PointSummary>& summary_fields() {
  using S = PointSummary;
  static const Fields<S> fields = {
      {"id", &S::id},
      {"status", &S::status},
      {"error", &S::error},
      {"model", &S::model},
      {"stage", &S::stage},
      {"sequence_length", &S::sequence_length, 1, kGraphFigures},
      {"system", &S::system},
      {"objective", &S::objective},
      {"profile", &S::profile},
      {"scheduler", &S::scheduler, 2},
      {"fidelity", &S::fidelity},
      {"makespan_ps", &S::makespan},
      {"analytical_makespan_ps", &S::analytical_makespan},
      {"makespan_s", &S::makespan_s},
      {"energy_pj", &S::energy_pj},
      {"nodes", &S::nodes, 1, kGraphFigures},
      {"photonic_selected", &S::photonic_selected, 1, kGraphFigures},
      {"photonic_possible", &S::photonic_possible, 1, kGraphFigures},
      {"precision_bits", &S::precision_bits, 4, kGraphFigures},
      {"photonic_refused_precision", &S::photonic_refused_precision, 4, kGraphFigures},
      {"reduced_precision_products", &S::reduced_precision_products, 8, kGraphFigures},
      {"reduced_precision", &S::reduced_precision, 8, kGraphFigures},
      {"lower_bound", &S::lower_bound, 4, kGraphFigures},
      {"gap", &S::gap, 4, kGraphFigures},
      {"placement_evaluations", &S::placement_evaluations, 4, kGraphFigures},
      {"split", &S::split, 4, kGraphFigures},
      {"subgraphs", &S::subgraphs, 1, kGraphFigures},
      {"subgraphs_solved", &S::subgraphs_solved, 1, kGraphFigures},
      {"subgraphs_reused", &S::subgraphs_reused, 1, kGraphFigures},
      {"tensor_parallel", &S::tensor_parallel, 11, kGraphFigures},
      {"pipeline_parallel", &S::pipeline_parallel, 11, kGraphFigures},
      {"communication_s", &S::communication_s, 11, kGraphFigures},
      {"group_energy_pj", &S::group_energy_pj, 11, kGraphFigures},
      {"new_tokens", &S::new_tokens, 1, kGenerationFigures},
      {"ttft_s", &S::ttft_s, 1, kGenerationFigures},
      {"tpot_s", &S::tpot_s, 1, kGenerationFigures},
      {"energy_per_token_pj", &S::energy_per_token_pj, 1, kPerTokenEnergy},
      {"requests", &S::requests, 5, kServingFigures},
      {"replicas", &S::replicas, 5, kServingFigures},
      {"dispatch", &S::dispatch, 5, kServingFigures},
      {"arrival_rate_per_s", &S::arrival_rate_per_s, 5, kServingFigures},
      {"iterations", &S::iterations, 5, kServingFigures},
      {"iteration_graphs", &S::iteration_graphs, 5, kServingFigures},
      {"output_tokens", &S::output_tokens, 5, kServingFigures},
      {"ttft_p50_s", &S::ttft_p50_s, 5, kServingFigures},
      {"ttft_p90_s", &S::ttft_p90_s, 5, kServingFigures},
      {"ttft_p99_s", &S::ttft_p99_s, 5, kServingFigures},
      {"tpot_p50_s", &S::tpot_p50_s, 5, kServingFigures},
      {"tpot_p90_s", &S::tpot_p90_s, 5, kServingFigures},
      {"tpot_p99_s", &S::tpot_p99_s, 5, kServingFigures},
      {"latency_p50_s", &S::latency_p50_s, 5, kServingFigures},
      {"latency_p90_s", &S::latency_p90_s, 5, kServingFigures},
      {"latency_p99_s", &S::latency_p99_s, 5, kServingFigures},
      {"throughput_tokens_per_s", &S::throughput_tokens_per_s, 5, kServingFigures},
      {"goodput_requests_per_s", &S::goodput_requests_per_s, 5, kServingFigures},
      {"preemptions", &S::preemptions, 5, kServingFigures},
      {"rejected", &S::rejected, 7, kServingFigures},
      {"average_power_w", &S::average_power_w, 9, kServingFigures},
      {"steady_state_s", &S::steady_state_s, 9, kServingFigures},
      {"steady_output_tokens", &S::steady_output_tokens, 9, kServingFigures},
      {"steady_throughput_tokens_per_s", &S::steady_throughput_tokens_per_s, 9, kServingFigures},
      {"steady_energy_per_token_pj", &S::steady_energy_per_token_pj, 9, kServingFigures},
      {"steady_power_w", &S::steady_power_w, 9, kServingFigures},
      {"steady_iterations", &S::steady_iterations, 10, kServingFigures},
      {"steady_sequence_iterations", &S::steady_sequence_iterations, 10, kServingFigures},
  };
  return fields;
}

const Fields<TaskRecord>& task_fields() {
  using T = TaskRecord;
  static const Fields<T> fields = {
      {"id", &T::id},         {"name", &T::name},         {"op", &T::op},
      {"hardware", &T::hardware}, {"unit", &T::unit},     {"node", &T::node},
      {"subgraph", &T::subgraph}, {"start_ps", &T::start}, {"end_ps", &T::end},
      {"energy_pj", &T::energy_pj}, {"inputs", &T::inputs}, {"outputs", &T::outputs},
      {"covers", &T::covers, 3},  {"step", &T::step, 5},
  };
  return fields;
}

const Fields<UnitRecord>& unit_fields() {
  using U = UnitRecord;
  static const Fields<U> fields = {
      {"name", &U::name},
      {"kind", &U::kind},
      {"index", &U::index},
      {"busy_ps", &U::busy},
      {"utilisation", &U::utilisation},
      {"energy_pj", &U::energy_pj},
      {"static_energy_pj", &U::static_energy_pj},
      {"tasks", &U::tasks},
      {"bytes", &U::bytes},
      {"queue_delay_ps", &U::queue_delay},
      {"conversion_ps", &U::conversion},
  };
  return fields;
}

const Fields<EnergyRow>& energy_fields() {
  static const Fields<EnergyRow> fields = {
      {"hardware", &EnergyRow::hardware},
      {"category", &EnergyRow::category},
      {"energy_pj", &EnergyRow::energy_pj},
  };
  return fields;
}

const Fields<MemorySample>& memory_fields() {
  static const Fields<MemorySample> fields = {
      {"time_ps", &MemorySample::time},
      {"sram_bytes", &MemorySample::sram_bytes},
      {"hbm_bytes", &MemorySample::hbm_bytes},
  };
  return fields;
}

const Fields<ParetoRow>& pareto_fields() {
  static const Fields<ParetoRow> fields = {
      {"makespan_ps", &ParetoRow::makespan},
      {"energy_pj", &ParetoRow::energy_pj},
      {"origin", &ParetoRow::origin},
  };
  return fields;
}

const Fields<RequestRow>& request_fields() {
  using R = RequestRow;
  static const Fields<R> fields = {
      {"id", &R::id},
      {"replica", &R::replica},
      {"prompt_tokens", &R::prompt_tokens},
      {"output_tokens", &R::output_tokens},
      {"arrival_ps", &R::arrival},
      {"first_service_ps", &R::first_service},
      {"first_token_ps", &R::first_token},
      {"finish_ps", &R::finish},
      {"ttft_s", &R::ttft_s},
      {"tpot_s", &R::tpot_s},
      {"latency_s", &R::latency_s},
      {"preemptions", &R::preemptions},
      {"status", &R::status, 7},
      {"reason", &R::reason, 7},
  };
  return fields;
}

const Fields<ServeSample>& serve_series_fields() {
  static const Fields<ServeSample> fields = {
      {"replica", &ServeSample::replica},
      {"time_ps", &ServeSample::time},
      {"queue", &ServeSample::queue},
      {"running", &ServeSample::running},
  };
  return fields;
}

const Fields<InputDigest>& input_fields() {
  static const Fields<InputDigest> fields = {
      {"path", &InputDigest::path},
      {"sha256", &InputDigest::sha256},
  };
  return fields;
}

const Fields<ScenarioSource>& source_fields() {
  static const Fields<ScenarioSource> fields = {
      {"name", &ScenarioSource::name},
      {"digest", &ScenarioSource::digest},
      {"scenario", &ScenarioSource::text},
  };
  return fields;
}

constexpr const char* kParameterPrefix = "param.";

// The kind a field is read as from a file of `version`: a summary part's numbers as float64
// from kPartsSince on (NaN: the point's stage does not report it; HDF5 converts an integer
// column); else the member's own.
template <class Row>
h5::Kind read_kind(const Field<Row>& field, int64_t version) {
  const h5::Kind kind = kMemberKind[field.member.index()];
  return field.part && version >= kPartsSince && kind != h5::Kind::str ? h5::Kind::f64 : kind;
}

template <class Row>
std::vector<h5::FieldSpec> specs(const Fields<Row>& fields, int64_t version = kResultsFormatVersion) {
  std::vector<h5::FieldSpec> out;
  for (const Field<Row>& field : fields) out.push_back({field.name, read_kind(field, version)});
  return out;
}

// The summary's columns for `rows`: a part's numbers keep their type when every row reports
// the part, else float64 (NaN where a row does not).
std::vector<h5::FieldSpec> summary_write_specs(const std::vector<const PointSummary*>& rows) {
  std::vector<h5::FieldSpec> out;
  for (const Field<PointSummary>& field : summary_fields()) {
    h5::Kind kind = kMemberKind[field.member.index()];
    bool everywhere = true;
    for (const PointSummary* r : rows) everywhere = everywhere && (r->parts & field.part) == field.part;
    if (field.part && kind != h5::Kind::str && !everywhere) kind = h5::Kind::f64;
    out.push_back({field.name, kind});
  }
  return out;
}

template <class Row>
void encode(const Fields<Row>& fields, const h5::Layout& layout, const Row& row,
            unsigned char* dst) {
  for (size_t f = 0; f < fields.size(); ++f) {
    unsigned char* at = dst + layout.offset(f);
    const h5::FieldSpec& spec = layout.fields()[f];
    const uint32_t part = fields[f].part;
    std::visit(
        [&](auto member) {
          if (part) {
            store_part(at, spec, row.*member, (parts_of(row) & part) != 0);
          } else {
            store_cell(at, spec, row.*member);
          }
        },
        fields[f].member);
  }
}

// The per-point tables (tasks above all: thousands of rows per point) store strings
// fixed-width, sized to the longest entry, and compressed: HDF5 keeps each variable-length
// string as a separate global-heap object, which made 1000 GPT-2 points 450 MB instead of
// ~25 MB and several times slower to read. /summary keeps variable-length strings (few rows).
template <class Row>
void write_rows(hid_t parent, const char* name, const Fields<Row>& fields,
                const std::vector<Row>& rows) {
  std::vector<h5::FieldSpec> spec = specs(fields);
  for (size_t f = 0; f < fields.size(); ++f) {
    if (spec[f].kind != h5::Kind::str) continue;
    const auto member = std::get<std::string Row::*>(fields[f].member);
    size_t width = 1;  // HDF5 strings are at least one byte
    for (const Row& row : rows) width = std::max(width, (row.*member).size());
    spec[f].width = width;
  }
  const h5::Layout layout(std::move(spec));
  std::vector<unsigned char> buffer(rows.size() * layout.row_size(), 0);
  for (size_t r = 0; r < rows.size(); ++r) {
    encode(fields, layout, rows[r], buffer.data() + r * layout.row_size());
  }
  h5::write_table(parent, name, layout, buffer, rows.size(), true);
}

// Reads the fields a file of `version` has (those added later stay default in the rows).
template <class Row>
std::vector<Row> read_rows(hid_t parent, const char* name, const Fields<Row>& all, int64_t version = kResultsFormatVersion) {
  Fields<Row> fields;
  for (const Field<Row>& f : all) {
    if (f.since <= version) fields.push_back(f);
  }
  const std::unique_ptr<h5::TableData> data = h5::read_table(parent, name, specs(fields, version));
  std::vector<Row> rows(data->rows());
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t f = 0; f < fields.size(); ++f) {
      const unsigned char* at = data->cell(r, f);
      const h5::FieldSpec& spec = data->field(f);
      const uint32_t part = version >= kPartsSince ? fields[f].part : 0;
      std::visit(
          [&](auto member) {
            if (!part) {
              load_cell(at, spec, rows[r].*member);
            } else {
              if (const std::optional<bool> applies = load_part(at, spec, rows[r].*member)) {
                set_part(rows[r], part, *applies);
              }
            }
          },
          fields[f].member);
    }
  }
  return rows;
}

// A parameter's column: int64 when every point has an integer value, float64 when every
// present value is a number (NaN where a point lacks it), else strings ("" where missing).
struct ParameterColumn {
  std::string name;
  h5::Kind kind = h5::Kind::i64;
};

const std::string* find_parameter(const PointSummary& s, const std::string& name) {
  for (const auto& [key, text] : s.parameters) {
    if (key == name) return &text;
  }
  return nullptr;
}

std::vector<ParameterColumn> parameter_columns(const std::vector<std::string>& names, const ResultsFile& file) {
  std::vector<ParameterColumn> columns;
  for (const std::string& name : names) {
    ParameterColumn c{name, h5::Kind::i64};
    for (const PointResult& point : file.points) {
      const std::string* value = find_parameter(point.summary, name);
      const ParameterKind kind = value ? parameter_kind(*value) : ParameterKind::real;
      if (kind == ParameterKind::text) {
        c.kind = h5::Kind::str;
        break;
      }
      if (kind == ParameterKind::real) c.kind = h5::Kind::f64;
    }
    columns.push_back(std::move(c));
  }
  return columns;
}

// Summary rows: the PointSummary scalars, then one column per parameter name.
struct SummaryTable {
  std::vector<ParameterColumn> parameters;  // first seen first
  h5::Layout layout;

  SummaryTable(std::vector<ParameterColumn> columns, const std::vector<const PointSummary*>& rows)
      : parameters(std::move(columns)), layout(summary_specs(parameters, rows)) {}

  static std::vector<h5::FieldSpec> summary_specs(const std::vector<ParameterColumn>& columns,
                                                  const std::vector<const PointSummary*>& rows) {
    std::vector<h5::FieldSpec> out = summary_write_specs(rows);
    for (const ParameterColumn& c : columns) out.push_back({kParameterPrefix + c.name, c.kind});
    return out;
  }

  void encode_row(const PointSummary& summary, unsigned char* dst) const {
    static const std::string kMissing;
    encode(summary_fields(), layout, summary, dst);
    const size_t first = summary_fields().size();
    for (size_t p = 0; p < parameters.size(); ++p) {
      const std::string* value = find_parameter(summary, parameters[p].name);
      unsigned char* at = dst + layout.offset(first + p);
      const h5::FieldSpec& field = layout.fields()[first + p];
      switch (parameters[p].kind) {
        case h5::Kind::i64: h5::store(at, field, parameter_integer(*value)); break;
        case h5::Kind::f64: h5::store(at, field, value ? parameter_real(*value) : std::nan("")); break;
        default: h5::store(at, field, value ? *value : kMissing);
      }
    }
  }

  void write(hid_t parent, const std::vector<const PointSummary*>& rows) const {
    std::vector<unsigned char> buffer(rows.size() * layout.row_size(), 0);
    for (size_t r = 0; r < rows.size(); ++r) {
      encode_row(*rows[r], buffer.data() + r * layout.row_size());
    }
    h5::write_table(parent, "summary", layout, buffer, rows.size(), false);
  }
};

bool is_reserved_attribute(const std::string& name) { return name == "status" || name == "error"; }

// Rejects what HDF5 would reject later with a less helpful message, or silently mangle.
std::vector<std::string> check_and_collect_parameters(const ResultsFile& file) {
  std::set<std::string> ids;
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const PointResult& point : file.points) {
    const std::string& id = point.summary.id;
    if (id.empty() || id == "." || id.find('/') != std::string::npos) {
      throw Error("point id '" + id + "' is not a valid group name");
    }
    if (!ids.insert(id).second) throw Error("point id '" + id + "' appears twice");
    std::set<std::string> own;
    for (const auto& parameter : point.summary.parameters) {
      const std::string& name = parameter.first;
      if (name.empty() || is_reserved_attribute(name)) {
        throw Error("point '" + id + "': parameter name '" + name + "' is reserved");
      }
      if (!own.insert(name).second) {
        throw Error("point '" + id + "': parameter '" + name + "' appears twice");
      }
      if (seen.insert(name).second) names.push_back(name);
    }
  }
  return names;
}

void write_point(hid_t points, const PointResult& point) {
  const PointSummary& s = point.summary;
  h5::Id plist = h5::group_create_plist();
  h5::Id group(H5Gcreate2(points, s.id.c_str(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
               H5Gclose, "create group for point '" + s.id + "'");
  h5::write_string_attribute(group.get(), "status", status_name(s.status));
  h5::write_string_attribute(group.get(), "error", s.error);
  for (const auto& [name, value] : s.parameters) {
    switch (parameter_kind(value)) {
      case ParameterKind::integer: h5::write_int_attribute(group.get(), name.c_str(), parameter_integer(value)); break;
      case ParameterKind::real: h5::write_double_attribute(group.get(), name.c_str(), parameter_real(value)); break;
      case ParameterKind::text: h5::write_string_attribute(group.get(), name.c_str(), value); break;
    }
  }
  // The point's own summary row types its parameters by its own values.
  ResultsFile alone;
  alone.points.push_back(PointResult{s, {}, {}, {}, {}, {}, {}, {}});
  SummaryTable(parameter_columns(check_and_collect_parameters(alone), alone), {&s}).write(group.get(), {&s});
  write_rows(group.get(), "tasks", task_fields(), point.tasks);
  write_rows(group.get(), "units", unit_fields(), point.units);
  write_rows(group.get(), "energy_breakdown", energy_fields(), point.energy);
  write_rows(group.get(), "memory_profile", memory_fields(), point.memory_profile);
  if (!point.pareto.empty()) write_rows(group.get(), "pareto", pareto_fields(), point.pareto);
  if (s.parts & kServingFigures) {
    write_rows(group.get(), "requests", request_fields(), point.requests);
    write_rows(group.get(), "serve_series", serve_series_fields(), point.serve_series);
  }
  group.close();
}

// The file is built in memory (HDF5's core driver, no backing store) and returned as bytes:
// the disk is touched only by write_output_file, whose errors (a full disk) are clean, where
// HDF5 failing to flush a file on disk leaves its library in a state that crashes at exit.
std::string file_image(const ResultsFile& file, const std::string& created) {
  std::vector<const PointSummary*> rows;
  for (const PointResult& point : file.points) rows.push_back(&point.summary);
  const SummaryTable summary(parameter_columns(check_and_collect_parameters(file), file), rows);
  h5::Id fcpl = h5::file_create_plist();
  h5::Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create a file access property list");
  constexpr size_t kGrowBy = size_t{1} << 20;
  if (H5Pset_fapl_core(fapl.get(), kGrowBy, 0) < 0) throw Error("cannot select HDF5's in-memory driver");
  h5::Id out(H5Fcreate("lightcode-results.h5", H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose,
             "create the file in memory");
  {
    const hid_t root = out.get();
    h5::write_int_attribute(root, "format_version", kResultsFormatVersion);
    h5::write_string_attribute(root, "tool_version", file.tool_version);
    h5::write_string_attribute(root, "scenario", file.scenario_text);
    h5::write_string_attribute(root, "created", created);
    if (!file.scenario_name.empty()) h5::write_string_attribute(root, "scenario_name", file.scenario_name);
    if (!file.scenario_digest.empty()) {
      h5::write_string_attribute(root, "scenario_digest", file.scenario_digest);
      write_rows(root, "inputs", input_fields(), file.inputs);
    }
    if (!file.sources.empty()) write_rows(root, "sources", source_fields(), file.sources);
    summary.write(root, rows);
    h5::Id plist = h5::group_create_plist();
    h5::Id points(H5Gcreate2(root, "points", H5P_DEFAULT, plist.get(), H5P_DEFAULT), H5Gclose,
                  "create group 'points'");
    for (const PointResult& point : file.points) write_point(points.get(), point);
    points.close();
  }
  if (H5Fflush(out.get(), H5F_SCOPE_GLOBAL) < 0) throw Error("cannot flush the file in memory");
  const ssize_t size = H5Fget_file_image(out.get(), nullptr, 0);
  if (size < 0) throw Error("cannot size the file image");
  std::string image(static_cast<size_t>(size), '\0');
  if (H5Fget_file_image(out.get(), image.data(), image.size()) != size) throw Error("cannot copy the file image");
  out.close();
  return image;
}

// Files before kPartsSince wrote every figure (0 where it did not apply): the parts each stage
// of those versions reported.
uint32_t legacy_parts(const std::string& stage) {
  if (stage == "serve") return kServingFigures | kPerTokenEnergy;
  if (stage == "generate") return kGraphFigures | kGenerationFigures | kPerTokenEnergy;
  return kGraphFigures;
}

PointResult read_point(hid_t points, const std::string& id, int64_t version) {
  const htri_t exists = H5Lexists(points, id.c_str(), H5P_DEFAULT);
  if (exists <= 0) throw Error("missing group '/points/" + id + "'");
  h5::Id group(H5Gopen2(points, id.c_str(), H5P_DEFAULT), H5Gclose, "open group");
  PointResult point;
  std::vector<PointSummary> summary = read_rows(group.get(), "summary", summary_fields(), version);
  if (summary.size() != 1) throw Error("dataset 'summary' does not have exactly one row");
  point.summary = std::move(summary.front());
  if (version < kPartsSince) point.summary.parts = legacy_parts(point.summary.stage);
  for (auto& attribute : h5::read_attributes_as_text(group.get())) {
    if (!is_reserved_attribute(attribute.first)) {
      point.summary.parameters.push_back(std::move(attribute));
    }
  }
  point.tasks = read_rows(group.get(), "tasks", task_fields(), version);
  point.units = read_rows(group.get(), "units", unit_fields());
  point.energy = read_rows(group.get(), "energy_breakdown", energy_fields());
  point.memory_profile = read_rows(group.get(), "memory_profile", memory_fields());
  if (H5Lexists(group.get(), "pareto", H5P_DEFAULT) > 0) point.pareto = read_rows(group.get(), "pareto", pareto_fields());
  if (H5Lexists(group.get(), "requests", H5P_DEFAULT) > 0) point.requests = read_rows(group.get(), "requests", request_fields(), version);
  if (H5Lexists(group.get(), "serve_series", H5P_DEFAULT) > 0) {
    point.serve_series = read_rows(group.get(), "serve_series", serve_series_fields());
  }
  return point;
}

ResultsFile read_file(const std::string& path) {
  h5::Id in(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open the file");
  const hid_t root = in.get();
  if (H5Aexists(root, "format_version") <= 0) {
    throw Error("not a LightCode results file (no 'format_version' attribute)");
  }
  const int64_t version = h5::read_int_attribute(root, "format_version");
  if (version < 1 || version > kResultsFormatVersion) {
    throw Error("format_version " + std::to_string(version) + " is not supported (this build " +
                "reads 1 to " + std::to_string(kResultsFormatVersion) + ")");
  }
  ResultsFile file;
  file.tool_version = h5::read_string_attribute(root, "tool_version");
  file.scenario_text = h5::read_string_attribute(root, "scenario");
  // Provenance: absent from files written before it was recorded (and from `lightcode run`'s).
  if (H5Aexists(root, "scenario_name") > 0) file.scenario_name = h5::read_string_attribute(root, "scenario_name");
  if (H5Aexists(root, "scenario_digest") > 0) {
    file.scenario_digest = h5::read_string_attribute(root, "scenario_digest");
    file.inputs = read_rows(root, "inputs", input_fields());
  }
  if (H5Lexists(root, "sources", H5P_DEFAULT) > 0) file.sources = read_rows(root, "sources", source_fields());
  // /summary fixes the order; each point's group is the record of it.
  struct IdRow {
    std::string id;
  };
  const Fields<IdRow> id_field = {{"id", &IdRow::id}};
  const std::vector<IdRow> ids = read_rows(root, "summary", id_field);
  h5::Id points(H5Gopen2(root, "points", H5P_DEFAULT), H5Gclose, "open group 'points'");
  for (const IdRow& row : ids) {
    try {
      file.points.push_back(read_point(points.get(), row.id, version));
    } catch (const Error& e) {
      throw Error("point '" + row.id + "': " + e.what());
    }
  }
  return file;
}

}  // namespace

std::string creation_time() {
  std::time_t seconds = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(epoch, &end, 10);
    if (errno != 0 || *end != '\0' || value < 0) {
      throw Error(std::string("SOURCE_DATE_EPOCH='") + epoch +
                  "' is not a non-negative integer number of seconds");
    }
    seconds = static_cast<std::time_t>(value);
  }
  std::tm utc{};
  if (!gmtime_r(&seconds, &utc)) throw Error("cannot convert the creation time to UTC");
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void write_results(const std::string& path, const ResultsFile& file, bool durable, bool clean_stale) {
  std::string image;
  try {
    const std::string created = creation_time();
    const h5::QuietErrors quiet;
    image = file_image(file, created);
  } catch (const std::exception& e) {
    throw Error("cannot write results file '" + path + "': " + e.what());
  }
  write_output_file(path, image, durable, clean_stale);
}

ResultsFile read_results(const std::string& path) {
  try {
    const h5::QuietErrors quiet;
    return read_file(path);
  } catch (const std::exception& e) {
    throw Error("cannot read results file '" + path + "': " + e.what());
  }
}

}  // namespace lightcode::results
