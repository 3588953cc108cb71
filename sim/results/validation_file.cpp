#include "sim/results/validation_file.hpp"

#include <algorithm>
#include <exception>

#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/results/hdf5_table.hpp"

namespace lightcode::results {
namespace {

constexpr int64_t kValidationFormatVersion = 1;

// One column: its name, and how a row gives its value.
template <class Row>
struct Column {
  const char* name;
  h5::Kind kind;
  std::string (*text)(const Row&);
  int64_t (*integer)(const Row&);
  double (*real)(const Row&);
};

template <class Row>
Column<Row> text(const char* name, std::string (*f)(const Row&)) {
  return {name, h5::Kind::str, f, nullptr, nullptr};
}
template <class Row>
Column<Row> integer(const char* name, int64_t (*f)(const Row&)) {
  return {name, h5::Kind::i64, nullptr, f, nullptr};
}
template <class Row>
Column<Row> real(const char* name, double (*f)(const Row&)) {
  return {name, h5::Kind::f64, nullptr, nullptr, f};
}

// Strings fixed-width (sized to the longest entry), as the results file's per-point tables.
template <class Row>
void write(hid_t parent, const char* name, const std::vector<Column<Row>>& columns,
           const std::vector<Row>& rows) {
  std::vector<h5::FieldSpec> spec;
  for (const Column<Row>& c : columns) {
    size_t width = 0;
    if (c.kind == h5::Kind::str) {
      width = 1;
      for (const Row& r : rows) width = std::max(width, c.text(r).size());
    }
    spec.push_back({c.name, c.kind, width});
  }
  const h5::Layout layout(std::move(spec));
  std::vector<unsigned char> buffer(rows.size() * layout.row_size(), 0);
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t f = 0; f < columns.size(); ++f) {
      unsigned char* at = buffer.data() + r * layout.row_size() + layout.offset(f);
      const Column<Row>& c = columns[f];
      if (c.kind == h5::Kind::str) h5::store(at, layout.fields()[f], c.text(rows[r]));
      if (c.kind == h5::Kind::i64) h5::store(at, layout.fields()[f], c.integer(rows[r]));
      if (c.kind == h5::Kind::f64) h5::store(at, layout.fields()[f], c.real(rows[r]));
    }
  }
  h5::write_table(parent, name, layout, buffer, rows.size(), true);
}

using K = KernelValidationRow;
using E = EndToEndRow;

std::string image_of(const ValidationFile& file) {
  h5::Id fcpl = h5::file_create_plist();
  h5::Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create a file access property list");
  constexpr size_t kGrowBy = size_t{1} << 20;
  if (H5Pset_fapl_core(fapl.get(), kGrowBy, 0) < 0)
    throw Error("cannot select HDF5's in-memory driver");
  h5::Id out(H5Fcreate("lightcode-validation.h5", H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose,
             "create the file in memory");
  const hid_t root = out.get();
  h5::write_string_attribute(root, "format", "lightcode-validation");
  h5::write_int_attribute(root, "format_version", kValidationFormatVersion);
  h5::write_string_attribute(root, "tool_version", file.tool_version);
  h5::write_string_attribute(root, "reference", file.reference);
  h5::write_string_attribute(root, "gpu_system", file.gpu_system);
  h5::write_string_attribute(root, "a100_system", file.a100_system);
  write<K>(root, "kernels",
           {text<K>("gpu", [](const K& r) { return r.gpu; }),
            text<K>("model", [](const K& r) { return r.model; }),
            integer<K>("tensor_parallel", [](const K& r) { return r.tensor_parallel; }),
            integer<K>("tokens", [](const K& r) { return r.tokens; }),
            text<K>("module", [](const K& r) { return r.module; }),
            text<K>("kernel_class", [](const K& r) { return r.kernel_class; }),
            real<K>("measured_s", [](const K& r) { return r.measured_s; }),
            real<K>("predicted_s", [](const K& r) { return r.predicted_s; }),
            real<K>("fused_model_s", [](const K& r) { return r.fused_model_s; }),
            integer<K>("kernels", [](const K& r) { return r.kernels; })},
           file.kernels);
  write<E>(root, "end_to_end",
           {text<E>("system", [](const E& r) { return r.system; }),
            text<E>("gpu", [](const E& r) { return r.gpu; }),
            text<E>("model", [](const E& r) { return r.model; }),
            integer<E>("tokens", [](const E& r) { return r.tokens; }),
            real<E>("makespan_s", [](const E& r) { return r.makespan_s; }),
            real<E>("gemm_s", [](const E& r) { return r.gemm_s; }),
            real<E>("attention_s", [](const E& r) { return r.attention_s; }),
            real<E>("elementwise_s", [](const E& r) { return r.elementwise_s; }),
            real<E>("gaps_s", [](const E& r) { return r.gaps_s; }),
            integer<E>("kernels", [](const E& r) { return r.kernels; })},
           file.end_to_end);
  if (H5Fflush(root, H5F_SCOPE_GLOBAL) < 0) throw Error("cannot flush the file in memory");
  const ssize_t size = H5Fget_file_image(root, nullptr, 0);
  if (size < 0) throw Error("cannot size the file image");
  std::string image(static_cast<size_t>(size), '\0');
  if (H5Fget_file_image(root, image.data(), image.size()) != size)
    throw Error("cannot copy the file image");
  out.close();
  return image;
}

}  // namespace

void write_validation(const std::string& path, const ValidationFile& file) {
  std::string image;
  try {
    const h5::QuietErrors quiet;
    image = image_of(file);
  } catch (const std::exception& e) {
    throw Error("cannot write validation file '" + path + "': " + e.what());
  }
  write_output_file(path, image);
}

}  // namespace lightcode::results
