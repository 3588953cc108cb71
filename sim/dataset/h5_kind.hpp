#pragma once
// A schema column type (schema.hpp) as the HDF5 table kind the writer lays it out with and the
// reader asks for: one mapping for both sides of the file.
#include "sim/dataset/schema.hpp"
#include "sim/results/hdf5_table.hpp"

namespace lightcode::dataset {

inline results::h5::Kind h5_kind(Type t) {
  switch (t) {
    case Type::text:
      return results::h5::Kind::str;
    case Type::i32:
      return results::h5::Kind::i32;
    case Type::i64:
      return results::h5::Kind::i64;
    case Type::f64:
      return results::h5::Kind::f64;
  }
  return results::h5::Kind::str;
}

}  // namespace lightcode::dataset
