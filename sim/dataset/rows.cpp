#include "sim/dataset/rows.hpp"

#include <cstring>
#include <stdexcept>

#include "sim/core/error.hpp"

namespace lightcode::dataset {

Rows::Rows(Table table) : table_(table), schema_(&dataset::schema(table)) {}

size_t Rows::add() {
  bytes_.resize(bytes_.size() + schema_->row_size, 0);
  return rows_++;
}

unsigned char* Rows::cell(size_t row, size_t column, Type type) {
  const Column& c = schema_->columns.at(column);
  if (c.type != type || row >= rows_) {
    throw std::logic_error("dataset table '" + std::string(schema_->name) + "': column '" +
                           std::string(c.name) + "' set with another type or past the last row");
  }
  return bytes_.data() + row * schema_->row_size + schema_->offsets[column];
}

const unsigned char* Rows::cell(size_t row, size_t column, Type type) const {
  return const_cast<Rows*>(this)->cell(row, column, type);
}

void Rows::set_text(size_t row, size_t column, std::string_view value) {
  unsigned char* at = cell(row, column, Type::text);
  const Column& c = schema_->columns[column];
  if (value.size() > c.width) {
    throw Error("dataset column " + std::string(schema_->name) + "." + std::string(c.name) +
                " holds " + std::to_string(c.width) + " bytes, and '" +
                std::string(value.substr(0, 80)) + "...' has " + std::to_string(value.size()));
  }
  if (value.find('\0') != std::string_view::npos) {
    throw Error("dataset column " + std::string(schema_->name) + "." + std::string(c.name) +
                ": a text with a NUL byte");
  }
  std::memset(at, 0, c.width);  // a cell set twice holds the second value alone
  std::memcpy(at, value.data(), value.size());
}

void Rows::set_text_cut(size_t row, size_t column, std::string_view value) {
  const size_t width = schema_->columns.at(column).width;
  if (value.size() <= width) {
    set_text(row, column, value);
    return;
  }
  std::string cut(value.substr(0, width - 3));
  // Not inside a UTF-8 sequence: drop continuation bytes and the lead byte they belong to.
  while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
  if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0x80) != 0) cut.pop_back();
  set_text(row, column, cut + "...");
}

void Rows::set_i32(size_t row, size_t column, int32_t value) {
  std::memcpy(cell(row, column, Type::i32), &value, sizeof value);
}
void Rows::set_i64(size_t row, size_t column, int64_t value) {
  std::memcpy(cell(row, column, Type::i64), &value, sizeof value);
}
void Rows::set_f64(size_t row, size_t column, double value) {
  std::memcpy(cell(row, column, Type::f64), &value, sizeof value);
}

std::string Rows::text(size_t row, size_t column) const {
  const char* at = reinterpret_cast<const char*>(cell(row, column, Type::text));
  return std::string(at, strnlen(at, schema_->columns[column].width));
}
int32_t Rows::i32(size_t row, size_t column) const {
  int32_t v = 0;
  std::memcpy(&v, cell(row, column, Type::i32), sizeof v);
  return v;
}
int64_t Rows::i64(size_t row, size_t column) const {
  int64_t v = 0;
  std::memcpy(&v, cell(row, column, Type::i64), sizeof v);
  return v;
}
double Rows::f64(size_t row, size_t column) const {
  double v = 0.0;
  std::memcpy(&v, cell(row, column, Type::f64), sizeof v);
  return v;
}

void Rows::shift_i64(size_t column, int64_t offset) {
  if (offset == 0) return;
  for (size_t r = 0; r < rows_; ++r) set_i64(r, column, i64(r, column) + offset);
}

void Rows::append(const Rows& other) {
  if (other.table_ != table_) throw std::logic_error("dataset rows of two tables appended");
  bytes_.insert(bytes_.end(), other.bytes_.begin(), other.bytes_.end());
  rows_ += other.rows_;
}

void Rows::append_row(const Rows& other, size_t row) {
  if (other.table_ != table_ || row >= other.rows_)
    throw std::logic_error("dataset rows: a row of another table");
  const size_t size = schema_->row_size;
  bytes_.insert(bytes_.end(), other.bytes_.begin() + static_cast<std::ptrdiff_t>(row * size),
                other.bytes_.begin() + static_cast<std::ptrdiff_t>((row + 1) * size));
  ++rows_;
}

void Rows::drop_front(size_t rows) {
  if (rows > rows_) throw std::logic_error("dataset rows: dropping more than held");
  bytes_.erase(bytes_.begin(),
               bytes_.begin() + static_cast<std::ptrdiff_t>(rows * schema_->row_size));
  rows_ -= rows;
}

void Rows::assign(const unsigned char* data, size_t count) {
  bytes_.assign(data, data + count * schema_->row_size);
  rows_ = count;
}

}  // namespace lightcode::dataset
