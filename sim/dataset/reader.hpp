#pragma once
// Reading a dataset file back (tests, tools, the Python module): a table as packed rows of the
// schema (schema.hpp; read by column name, so a file with more columns reads too) and the root
// attributes as text. Throws lightcode::Error naming the file and what is wrong (not a dataset,
// another schema version, a missing table or column). Not thread-safe (HDF5 is not).
#include <string>
#include <utility>
#include <vector>

#include "sim/dataset/rows.hpp"

namespace lightcode::dataset {

Rows read_table(const std::string& path, Table table);
// Every root attribute in creation order, integers spelled as numbers.
std::vector<std::pair<std::string, std::string>> read_attributes(const std::string& path);

}  // namespace lightcode::dataset
