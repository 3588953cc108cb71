#include "sim/dataset/reader.hpp"

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/dataset/h5_kind.hpp"
#include "sim/results/hdf5_table.hpp"

namespace lightcode::dataset {
namespace {

namespace h5 = results::h5;

h5::Id open_dataset_file(const std::string& path) {
  check_input_file(path, "dataset file");  // a FIFO never blocks HDF5
  h5::Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open the file");
  if (H5Aexists(file.get(), std::string(attr::format).c_str()) <= 0 ||
      h5::read_string_attribute(file.get(), std::string(attr::format).c_str()) !=
          "lightcode-dataset") {
    throw Error("not a LightCode dataset (no format attribute 'lightcode-dataset')");
  }
  const int64_t version =
      h5::read_int_attribute(file.get(), std::string(attr::schema_version).c_str());
  if (version != kSchemaVersion) {
    throw Error("schema version " + std::to_string(version) + " (this build reads " +
                std::to_string(kSchemaVersion) + ")");
  }
  return file;
}

}  // namespace

Rows read_table(const std::string& path, Table table) {
  try {
    const h5::QuietErrors quiet;
    h5::Id file = open_dataset_file(path);
    const TableSchema& s = schema(table);
    std::vector<h5::FieldSpec> wanted;
    for (const Column& c : s.columns)
      wanted.push_back({std::string(c.name), h5_kind(c.type), 0});
    const auto data = h5::read_table(file.get(), std::string(s.name).c_str(), wanted);
    Rows rows(table);
    rows.reserve(data->rows());
    for (size_t r = 0; r < data->rows(); ++r) {
      const size_t row = rows.add();
      for (size_t c = 0; c < s.columns.size(); ++c) {
        const unsigned char* at = data->cell(r, c);
        switch (s.columns[c].type) {
          case Type::text: {
            std::string v;
            h5::load(at, data->field(c), v);
            rows.set_text(row, c, v);
            break;
          }
          case Type::i32: {
            int32_t v = 0;
            h5::load(at, data->field(c), v);
            rows.set_i32(row, c, v);
            break;
          }
          case Type::i64: {
            int64_t v = 0;
            h5::load(at, data->field(c), v);
            rows.set_i64(row, c, v);
            break;
          }
          case Type::f64: {
            double v = 0.0;
            h5::load(at, data->field(c), v);
            rows.set_f64(row, c, v);
            break;
          }
        }
      }
    }
    return rows;
  } catch (const std::exception& e) {
    throw Error("cannot read dataset '" + path + "': " + e.what());
  }
}

std::vector<std::pair<std::string, std::string>> read_attributes(const std::string& path) {
  try {
    const h5::QuietErrors quiet;
    h5::Id file = open_dataset_file(path);
    return h5::read_attributes_as_text(file.get());
  } catch (const std::exception& e) {
    throw Error("cannot read dataset '" + path + "': " + e.what());
  }
}

}  // namespace lightcode::dataset
