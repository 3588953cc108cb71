#pragma once
// Rows of one dataset table, packed as the HDF5 writer takes them (schema.hpp: each row is the
// table's memory row, fixed-width text inline): a point's records are plain bytes, appended to
// the file as they are, copied between threads or passed from a worker process through a pipe
// file without any conversion. Cells are set by column enum with the column's own type (a
// mismatch is a logic error). A text longer than its column is a lightcode::Error naming the
// table, column and value (the point fails, nothing is cut silently); set_text_cut() cuts
// instead, ending in "...", for the few columns documented so (/points.error, parameters).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/dataset/schema.hpp"

namespace lightcode::dataset {

class Rows {
 public:
  explicit Rows(Table table);
  Table table() const { return table_; }
  const TableSchema& schema() const { return *schema_; }
  size_t size() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  const std::vector<unsigned char>& bytes() const { return bytes_; }

  // Appends a zeroed row and returns its index; the setters below fill it.
  size_t add();
  void reserve(size_t rows) { bytes_.reserve(rows * schema_->row_size); }
  void set_text(size_t row, size_t column, std::string_view value);
  void set_text_cut(size_t row, size_t column, std::string_view value);
  void set_i32(size_t row, size_t column, int32_t value);
  void set_i64(size_t row, size_t column, int64_t value);
  void set_f64(size_t row, size_t column, double value);

  std::string text(size_t row, size_t column) const;
  int32_t i32(size_t row, size_t column) const;
  int64_t i64(size_t row, size_t column) const;
  double f64(size_t row, size_t column) const;

  // Adds `offset` to an int64 column of every row (ids made global when a point is written).
  void shift_i64(size_t column, int64_t offset);
  // Appends another table's rows (the same table), or one of them.
  void append(const Rows& other);
  void append_row(const Rows& other, size_t row);
  // Removes the first `rows` rows (written ones).
  void drop_front(size_t rows);
  // Raw access for serialisation: `count` rows of this table's row size.
  void assign(const unsigned char* data, size_t count);
  void clear() {
    bytes_.clear();
    rows_ = 0;
  }

 private:
  unsigned char* cell(size_t row, size_t column, Type type);
  const unsigned char* cell(size_t row, size_t column, Type type) const;

  Table table_;
  const TableSchema* schema_;
  std::vector<unsigned char> bytes_;
  size_t rows_ = 0;
};

}  // namespace lightcode::dataset
