#pragma once
// Internal to sim/results (not part of its interface): a thin layer over the HDF5 C API for
// the results file. Owns identifiers (RAII), turns HDF5 failures into lightcode::Error with
// HDF5's own error stack in the message, and reads/writes one-dimensional compound tables
// whose fields are UTF-8 strings (variable-length, or fixed-width and NUL-padded), int32,
// int64 or float64. In memory a row is naturally aligned; on disk it is packed and
// little-endian, so files are the same bytes on every host. Creation times are never recorded
// (byte-identical files).
// Not thread-safe: Debian's serial HDF5 is not, and sweeps use processes anyway.
#include <hdf5.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lightcode::results::h5 {

// Throws lightcode::Error: `what` followed by the innermost messages of HDF5's error stack.
// `what` is a verb phrase: "create dataset 'tasks'" gives "cannot create dataset 'tasks': ...".
[[noreturn]] void fail(const std::string& what);
void check(herr_t status, const std::string& what);

// One HDF5 identifier and the function that closes it.
class Id {
 public:
  using Closer = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Closer closer, const std::string& what);  // throws when id < 0
  ~Id();
  Id(Id&& other) noexcept;
  Id& operator=(Id&& other) noexcept;
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;

  hid_t get() const { return id_; }
  void close();  // checked: closing a file is where buffered writes can fail

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Silences HDF5's automatic printing of error stacks for its lifetime: failures are reported
// once, as exceptions, instead of as a stack dump on stderr.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t saved_func_ = nullptr;
  void* saved_data_ = nullptr;
};

enum class Kind { str, i32, i64, f64 };  // order matches Member<Row> in hdf5_file.cpp

struct FieldSpec {
  std::string name;
  Kind kind = Kind::str;
  size_t width = 0;  // strings only: 0 = variable-length, else bytes per cell (NUL-padded)
};

// Where each field of a row sits in memory, and the HDF5 types for memory and disk.
class Layout {
 public:
  explicit Layout(std::vector<FieldSpec> fields);
  const std::vector<FieldSpec>& fields() const { return fields_; }
  size_t row_size() const { return row_size_; }
  size_t offset(size_t field) const { return offsets_[field]; }
  hid_t memory_type() const { return memory_type_.get(); }
  hid_t file_type() const { return file_type_.get(); }

 private:
  std::vector<FieldSpec> fields_;
  std::vector<size_t> offsets_;
  size_t row_size_ = 0;
  Id memory_type_;
  Id file_type_;
};

// Cell accessors for a zeroed row buffer laid out by Layout. A variable-length string cell
// holds a pointer into the caller's std::string (writing) or into HDF5-owned memory (reading);
// a fixed-width cell holds the bytes themselves (the writer sizes the field to fit).
inline void store(unsigned char* at, const FieldSpec& field, const std::string& value) {
  if (field.width > 0) {
    std::memcpy(at, value.data(), std::min(value.size(), field.width));
    return;
  }
  const char* text = value.c_str();
  std::memcpy(at, &text, sizeof text);
}
template <class Number>
void store(unsigned char* at, const FieldSpec& /*field*/, Number value) {
  std::memcpy(at, &value, sizeof value);
}
inline void load(const unsigned char* at, const FieldSpec& field, std::string& value) {
  if (field.width > 0) {
    const char* text = reinterpret_cast<const char*>(at);
    value.assign(text, strnlen(text, field.width));
    return;
  }
  const char* text = nullptr;
  std::memcpy(&text, at, sizeof text);
  value = text ? text : "";
}
template <class Number>
void load(const unsigned char* at, const FieldSpec& /*field*/, Number& value) {
  std::memcpy(&value, at, sizeof value);
}

// Object creation property lists with time tracking off (and, for groups, attribute and link
// creation order tracked so parameters and points read back in the order they were written).
Id file_create_plist();
Id group_create_plist();
Id dataset_create_plist();

// Writes `rows` rows from `buffer` (rows * layout.row_size() bytes) as dataset `name` under
// `parent`; zero rows give an empty dataset of the right type. With `compress`, tables over
// a few KiB are stored chunked with shuffle + deflate (pays off for fixed-width strings).
void write_table(hid_t parent, const char* name, const Layout& layout,
                 const std::vector<unsigned char>& buffer, size_t rows, bool compress);

// A table too large to build in memory, written in batches (the runtime dataset, sim/dataset):
// a chunked, extendible dataset of `chunk_rows` rows per chunk, shuffled and deflated as
// write_table's large tables are. append() extends it by `rows` rows from `buffer` (rows *
// layout.row_size() bytes); the same appends give the same bytes. Writers that append whole
// chunks (all but the last batch) never rewrite a compressed chunk. Every string field must be
// fixed-width. `layout` must outlive it.
class AppendTable {
 public:
  AppendTable(hid_t parent, const char* name, const Layout& layout, size_t chunk_rows);
  void append(const unsigned char* buffer, size_t rows);
  size_t rows() const { return rows_; }
  void close() { set_.close(); }

 private:
  const Layout* layout_;
  std::string what_;
  Id set_;
  Id transfer_;
  size_t rows_ = 0;
};

// Rows of a dataset in a Layout of the wanted fields (string widths as in the file).
// Variable-length strings stay owned by HDF5 until this object is destroyed.
class TableData {
 public:
  TableData(Layout layout, size_t rows);
  ~TableData();
  TableData(const TableData&) = delete;
  TableData& operator=(const TableData&) = delete;

  size_t rows() const { return rows_; }
  const FieldSpec& field(size_t index) const { return layout_.fields()[index]; }
  const unsigned char* cell(size_t row, size_t field) const {
    return buffer_.data() + row * layout_.row_size() + layout_.offset(field);
  }

 private:
  Layout layout_;
  size_t rows_ = 0;
  std::vector<unsigned char> buffer_;
  Id space_;             // memory dataspace, kept for reclaiming the strings
  bool filled_ = false;  // HDF5 may have allocated strings into buffer_
  friend std::unique_ptr<TableData> read_table(hid_t, const char*, std::vector<FieldSpec>);
};

// Reads the `wanted` fields (matched by name; the file may have more, in any order, with
// integers of another width) of one-dimensional compound dataset `name` under `parent`.
// Throws naming the dataset when it is missing or misshapen, or a field it lacks or holds
// with another kind.
std::unique_ptr<TableData> read_table(hid_t parent, const char* name,
                                      std::vector<FieldSpec> wanted);

// Scalar attributes. Strings are UTF-8, variable-length.
void write_string_attribute(hid_t object, const char* name, const std::string& value);
void write_int_attribute(hid_t object, const char* name, int64_t value);
void write_double_attribute(hid_t object, const char* name, double value);
std::string read_string_attribute(hid_t object, const char* name);
int64_t read_int_attribute(hid_t object, const char* name);
// Every attribute of `object` in creation order, as text: strings as they are, integers and
// reals spelled canonically (parameter_value.hpp). Other types throw.
std::vector<std::pair<std::string, std::string>> read_attributes_as_text(hid_t object);

}  // namespace lightcode::results::h5
