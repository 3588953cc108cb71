#include "sim/ir/shape.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/core/checked.hpp"

namespace lightcode::ir {

Shape::Shape(std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) push_back(d);
}

void Shape::push_back(int64_t d) {
  if (rank_ == kMaxRank) {
    throw std::length_error("tensor rank above " + std::to_string(kMaxRank));
  }
  dims_[static_cast<size_t>(rank_++)] = d;
}

void Shape::overflow() const { throw_overflow("the element count of tensor " + str()); }

bool Shape::operator==(const Shape& o) const {
  return rank_ == o.rank_ && std::equal(begin(), end(), o.begin());
}

bool Shape::operator<(const Shape& o) const {
  return std::lexicographical_compare(begin(), end(), o.begin(), o.end());
}

std::string Shape::str() const {
  std::string s = "[";
  for (int i = 0; i < rank_; ++i) {
    if (i) s += ", ";
    s += std::to_string(dims_[static_cast<size_t>(i)]);
  }
  return s + "]";
}

}  // namespace lightcode::ir
