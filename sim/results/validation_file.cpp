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

// An HDF5 file in memory: `fill` writes its contents, then the image is returned.
template <class Fill>
std::string image(Fill fill) {
  h5::Id fcpl = h5::file_create_plist();
  h5::Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create a file access property list");
  constexpr size_t kGrowBy = size_t{1} << 20;
  if (H5Pset_fapl_core(fapl.get(), kGrowBy, 0) < 0)
    throw Error("cannot select HDF5's in-memory driver");
  h5::Id out(H5Fcreate("lightcode-validation.h5", H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose,
             "create the file in memory");
  const hid_t root = out.get();
  fill(root);
  if (H5Fflush(root, H5F_SCOPE_GLOBAL) < 0) throw Error("cannot flush the file in memory");
  const ssize_t size = H5Fget_file_image(root, nullptr, 0);
  if (size < 0) throw Error("cannot size the file image");
  std::string bytes(static_cast<size_t>(size), '\0');
  if (H5Fget_file_image(root, bytes.data(), bytes.size()) != size)
    throw Error("cannot copy the file image");
  out.close();
  return bytes;
}

// Builds the file in memory with `fill`, then writes it to `path` (a temporary, renamed).
template <class Fill>
void write_image_file(const std::string& path, const char* what, Fill fill) {
  std::string bytes;
  try {
    const h5::QuietErrors quiet;
    bytes = image(fill);
  } catch (const std::exception& e) {
    throw Error(std::string("cannot write ") + what + " '" + path + "': " + e.what());
  }
  write_output_file(path, bytes);
}

void fill_validation(hid_t root, const ValidationFile& file) {
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
}

using D = PhotonicDesignRow;
using B = PhotonicBreakdownRow;

void fill_designs(hid_t root, const PhotonicDesignFile& file) {
  h5::write_string_attribute(root, "format", "lightcode-photonic-designs");
  h5::write_int_attribute(root, "format_version", kValidationFormatVersion);
  h5::write_string_attribute(root, "tool_version", file.tool_version);
  write<D>(root, "designs",
           {text<D>("design", [](const D& r) { return r.design; }),
            text<D>("file", [](const D& r) { return r.file; }),
            integer<D>("tiles", [](const D& r) { return r.tiles; }),
            integer<D>("cores_per_tile", [](const D& r) { return r.cores_per_tile; }),
            integer<D>("height", [](const D& r) { return r.height; }),
            integer<D>("width", [](const D& r) { return r.width; }),
            integer<D>("wavelengths", [](const D& r) { return r.wavelengths; }),
            integer<D>("input_bits", [](const D& r) { return r.input_bits; }),
            integer<D>("weight_bits", [](const D& r) { return r.weight_bits; }),
            integer<D>("output_bits", [](const D& r) { return r.output_bits; }),
            real<D>("clock_hz", [](const D& r) { return r.clock_hz; }),
            real<D>("peak_ops_per_s", [](const D& r) { return r.peak_ops_per_s; }),
            real<D>("power_w", [](const D& r) { return r.power_w; }),
            real<D>("static_power_w", [](const D& r) { return r.static_power_w; }),
            real<D>("area_m2", [](const D& r) { return r.area_m2; })},
           file.designs);
  write<B>(root, "breakdown",
           {text<B>("design", [](const B& r) { return r.design; }),
            text<B>("quantity", [](const B& r) { return r.quantity; }),
            text<B>("item", [](const B& r) { return r.item; }),
            real<B>("value", [](const B& r) { return r.value; }),
            integer<B>("is_static", [](const B& r) { return r.is_static; })},
           file.breakdown);
}

using C = CollectiveValidationRow;

void fill_collectives(hid_t root, const CollectiveValidationFile& file) {
  h5::write_string_attribute(root, "format", "lightcode-collectives");
  h5::write_int_attribute(root, "format_version", kValidationFormatVersion);
  h5::write_string_attribute(root, "tool_version", file.tool_version);
  h5::write_string_attribute(root, "reference", file.reference);
  write<C>(root, "collectives",
           {text<C>("collective", [](const C& r) { return r.collective; }),
            text<C>("system", [](const C& r) { return r.system; }),
            text<C>("hardware", [](const C& r) { return r.hardware; }),
            text<C>("topology", [](const C& r) { return r.topology; }),
            integer<C>("ranks", [](const C& r) { return r.ranks; }),
            text<C>("scope", [](const C& r) { return r.scope; }),
            integer<C>("size_bytes", [](const C& r) { return r.size_bytes; }),
            integer<C>("repeat", [](const C& r) { return r.repeat; }),
            real<C>("measured_s", [](const C& r) { return r.measured_s; }),
            real<C>("predicted_s", [](const C& r) { return r.predicted_s; }),
            real<C>("error", [](const C& r) { return r.error; }),
            text<C>("algorithm", [](const C& r) { return r.algorithm; }),
            text<C>("protocol", [](const C& r) { return r.protocol; })},
           file.rows);
}

}  // namespace

void write_validation(const std::string& path, const ValidationFile& file) {
  write_image_file(path, "validation file", [&file](hid_t root) { fill_validation(root, file); });
}

void write_collectives(const std::string& path, const CollectiveValidationFile& file) {
  write_image_file(path, "collectives file", [&file](hid_t root) { fill_collectives(root, file); });
}

void write_photonic_designs(const std::string& path, const PhotonicDesignFile& file) {
  write_image_file(path, "photonic designs file", [&file](hid_t root) { fill_designs(root, file); });
}

}  // namespace lightcode::results
