#pragma once
// Tensor shape with its dimensions stored inline (no heap): graphs of thousands of nodes are
// built in microseconds per node. Rank is at most kMaxRank (TVM's NCHWc kernels use 6).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "sim/core/limits.hpp"

namespace lightcode::ir {

class Shape {
 public:
  static constexpr int kMaxRank = 8;
  static_assert(kMaxRank == limits::kTensorRank.value, "the documented rank limit");

  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);

  int rank() const { return rank_; }
  int64_t operator[](int i) const { return dims_[static_cast<size_t>(i)]; }
  int64_t& operator[](int i) { return dims_[static_cast<size_t>(i)]; }
  int64_t back() const { return rank_ ? dims_[static_cast<size_t>(rank_ - 1)] : 1; }
  // Dimension counted from the end: from_back(1) is the last, from_back(2) the one before;
  // 1 when the rank is too small (a scalar broadcasts).
  int64_t from_back(int k) const { return rank_ >= k ? dims_[static_cast<size_t>(rank_ - k)] : 1; }
  // Throws std::length_error past kMaxRank; importers turn that into a placed error.
  void push_back(int64_t d);
  // Product of dims; 1 for a scalar. A product int64 cannot hold throws lightcode::Error
  // (Graph::validate checks every tensor once, naming its node). Inline: cost models call it
  // millions of times.
  int64_t elements() const {
    int64_t n = 1;
    for (int i = 0; i < rank_; ++i) {
      if (__builtin_mul_overflow(n, dims_[static_cast<size_t>(i)], &n)) overflow();
    }
    return n;
  }

  const int64_t* begin() const { return dims_.data(); }
  const int64_t* end() const { return dims_.data() + rank_; }
  int64_t* begin() { return dims_.data(); }
  int64_t* end() { return dims_.data() + rank_; }

  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }
  bool operator<(const Shape& o) const;
  std::string str() const;  // "[1, 5, 768]"

 private:
  [[noreturn]] void overflow() const;  // the error naming this shape
  std::array<int64_t, kMaxRank> dims_{};
  int rank_ = 0;
};

}  // namespace lightcode::ir
