#include "sim/dataset/writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/dataset/h5_kind.hpp"
#include "sim/results/hdf5_table.hpp"

namespace lightcode::dataset {
namespace {

namespace h5 = results::h5;

// Chunks of about this many bytes: large enough for deflate to find the repeats of a column,
// small enough for HDF5's 1 MiB chunk cache and for a reader that wants a few rows.
constexpr size_t kChunkBytes = 256 * 1024;

// The HDF5 layout of a table, which must lay rows out as the packed rows do (schema.cpp).
h5::Layout layout_of(const TableSchema& s) {
  std::vector<h5::FieldSpec> fields;
  for (const Column& c : s.columns)
    fields.push_back({std::string(c.name), h5_kind(c.type), c.width});
  h5::Layout layout(std::move(fields));
  bool same = layout.row_size() == s.row_size;
  for (size_t i = 0; same && i < s.columns.size(); ++i) same = layout.offset(i) == s.offsets[i];
  if (!same)
    throw std::logic_error("dataset table '" + std::string(s.name) +
                           "': packed rows differ from the HDF5 layout");
  return layout;
}

std::string joined(const std::set<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ",") + i;
  return s;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : separator) + i;
  return s;
}

void sync_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw Error("cannot sync the dataset file '" + path + "': " + why);
  }
  ::close(fd);
}

}  // namespace

// Not in the anonymous namespace: DatasetWriter::Impl holds them.
struct StreamedTable {
  StreamedTable(hid_t root, Table t)
      : layout(layout_of(schema(t))),
        chunk_rows(std::max<size_t>(1, kChunkBytes / schema(t).row_size)),
        table(root, std::string(schema(t).name).c_str(), layout, chunk_rows),
        pending(t) {}
  h5::Layout layout;
  size_t chunk_rows;
  h5::AppendTable table;
  Rows pending;
};

struct FamilyFacts {
  std::string split;
  std::set<std::string> models;
  int64_t points = 0;
};

struct DatasetWriter::Impl {
  std::string out;
  OutputTemporary temporary;
  h5::QuietErrors quiet;
  h5::Id file;
  std::vector<std::unique_ptr<StreamedTable>> tables;
  std::set<std::string> hardware_rows;  // id|system|file|unit written
  std::set<std::string> hardware_ids;   // whose parameters are written
  std::set<std::string> fidelities, seeds;
  std::map<std::string, FamilyFacts> families;

  explicit Impl(const std::string& path) : out(path), temporary(path) {
    h5::Id fcpl = h5::file_create_plist();
    file = h5::Id(H5Fcreate(temporary.path().c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT),
                  H5Fclose, "create the dataset file");
    for (size_t t = 0; t < kStreamedTables; ++t) {
      tables.push_back(std::make_unique<StreamedTable>(file.get(), static_cast<Table>(t)));
    }
  }

  // Appends `rows` to table `t`: whole chunks now, the rest kept for later.
  void append(size_t t, const Rows& rows, bool all) {
    StreamedTable& s = *tables[t];
    s.pending.append(rows);
    const size_t whole = all ? s.pending.size() : s.pending.size() / s.chunk_rows * s.chunk_rows;
    if (whole == 0) return;
    s.table.append(s.pending.bytes().data(), whole);
    s.pending.drop_front(whole);
  }
};

DatasetWriter::DatasetWriter(const std::string& out) {
  try {
    impl_ = std::make_unique<Impl>(out);
  } catch (const std::exception& e) {
    throw Error("cannot write dataset '" + out + "': " + e.what());
  }
}

DatasetWriter::~DatasetWriter() = default;

void DatasetWriter::add(PointRecords r) {
  Impl& w = *impl_;
  ++points_;
  // Ids become the file's: rows of the tables before this point.
  const auto graphs_before = static_cast<int64_t>(rows_[static_cast<size_t>(Table::graphs)]);
  r.at(Table::graphs).shift_i64(graphs_col::graph_id, graphs_before);
  r.at(Table::ops).shift_i64(ops_col::graph_id, graphs_before);
  r.at(Table::ops)
      .shift_i64(ops_col::record_id, static_cast<int64_t>(rows_[static_cast<size_t>(Table::ops)]));
  r.at(Table::edges).shift_i64(edges_col::graph_id, graphs_before);
  r.at(Table::placement).shift_i64(placement_col::graph_id, graphs_before);
  r.at(Table::alternatives).shift_i64(alternatives_col::graph_id, graphs_before);
  // Hardware rows: the first of each (unit of a system), parameters once per id.
  Rows hardware(Table::hardware), parameters(Table::hardware_parameters);
  const Rows& h = r.at(Table::hardware);
  for (size_t i = 0; i < h.size(); ++i) {
    namespace k = hardware_col;
    const std::string key = h.text(i, k::hardware_id) + "|" + h.text(i, k::system) + "|" +
                            h.text(i, k::system_file) + "|" + h.text(i, k::unit);
    if (!w.hardware_rows.insert(key).second) continue;
    hardware.append_row(h, i);
  }
  const Rows& p = r.at(Table::hardware_parameters);
  std::string group;
  bool keep = false;
  for (size_t i = 0; i < p.size(); ++i) {
    const std::string id = p.text(i, hardware_parameters_col::hardware_id);
    // A unit's parameters are consecutive rows: a group whose id is written already is dropped.
    if (i == 0 || id != group) keep = w.hardware_ids.insert(id).second;
    group = id;
    if (keep) parameters.append_row(p, i);
  }
  r.at(Table::hardware) = std::move(hardware);
  r.at(Table::hardware_parameters) = std::move(parameters);
  // What the root attributes and /families summarise.
  const Rows& point = r.at(Table::points);
  namespace k = points_col;
  if (point.text(0, k::status) != "ok") ++failed_;
  w.fidelities.insert(point.text(0, k::fidelity));
  if (const std::string seed = point.text(0, k::seed); !seed.empty()) w.seeds.insert(seed);
  if (const std::string family = point.text(0, k::family); !family.empty()) {
    FamilyFacts& f = w.families[family];
    f.split = point.text(0, k::split);
    f.models.insert(point.text(0, k::model));
    ++f.points;
  }
  try {
    for (size_t t = 0; t < kStreamedTables; ++t) {
      rows_[t] += r.tables[t].size();
      w.append(t, r.tables[t], false);
    }
  } catch (const std::exception& e) {
    throw Error("cannot write dataset '" + w.out + "': " + e.what());
  }
}

void DatasetWriter::finish(const Provenance& provenance) {
  Impl& w = *impl_;
  try {
    for (size_t t = 0; t < kStreamedTables; ++t) {
      w.append(t, Rows(static_cast<Table>(t)), true);
      w.tables[t]->table.close();
    }
    Rows families(Table::families);
    for (const auto& [name, f] : w.families) {
      namespace k = families_col;
      bool named = false;
      split_of(name, provenance.split, &named);
      const size_t r = families.add();
      families.set_text_cut(r, k::family, name);
      families.set_text(r, k::split, f.split);
      families.set_text(r, k::rule, named ? "explicit" : "hash");
      families.set_f64(r, k::hash, family_hash(name));
      families.set_text_cut(r, k::models, joined(f.models));
      families.set_i64(r, k::points, f.points);
    }
    Rows inputs(Table::inputs);
    for (const results::InputDigest& input : provenance.header.inputs) {
      const size_t r = inputs.add();
      inputs.set_text(r, inputs_col::path, input.path);
      inputs.set_text(r, inputs_col::sha256, input.sha256);
    }
    const hid_t root = w.file.get();
    for (const Rows* rows : {&families, &inputs}) {
      h5::write_table(root, std::string(rows->schema().name).c_str(), layout_of(rows->schema()),
                      rows->bytes(), rows->size(), true);
      rows_[static_cast<size_t>(rows->table())] = rows->size();
    }
    const auto text = [root](std::string_view name, const std::string& value) {
      h5::write_string_attribute(root, std::string(name).c_str(), value);
    };
    const auto number = [root](std::string_view name, int64_t value) {
      h5::write_int_attribute(root, std::string(name).c_str(), value);
    };
    text(attr::format, "lightcode-dataset");
    number(attr::schema_version, kSchemaVersion);
    text(attr::tool_version, provenance.header.tool_version);
    text(attr::scenario_name, provenance.header.scenario_name);
    text(attr::scenario, provenance.header.scenario_text);
    text(attr::settings, joined(provenance.settings, "\n"));
    text(attr::scenario_digest, provenance.header.scenario_digest);
    text(attr::fidelity, joined(w.fidelities));
    text(attr::seeds, joined(w.seeds));
    text(attr::split_rule, split_rule_text(provenance.split));
    text(attr::validation_families, joined(provenance.split.validation, ","));
    text(attr::test_families, joined(provenance.split.test, ","));
    number(attr::points, static_cast<int64_t>(points_));
    number(attr::failed_points, static_cast<int64_t>(failed_));
    w.tables.clear();
    w.file.close();
  } catch (const std::exception& e) {
    throw Error("cannot write dataset '" + w.out + "': " + e.what());
  }
  sync_file(w.temporary.path());
  w.temporary.commit();
}

}  // namespace lightcode::dataset
