#pragma once
// Strict YAML configs. yaml-cpp stays inside config.cpp: callers see ConfigNode, a view of
// an immutable tree in which every value remembers its file, line and key path, so every error
// ("missing key", "unknown key", "not a positive integer", "no unit") names all three.
// A mapping may start with `from: other.yaml` (relative to its own file): the other file is
// loaded first and this one's keys override it, maps merged key by key, lists replaced.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/units.hpp"

namespace lightcode {

struct ConfigValue;  // defined in config.cpp

class ConfigNode {
 public:
  ConfigNode();  // an empty mapping that belongs to no file
  // Reads through read_input_file (a regular file within limits::kConfigFileBytes); `what`
  // names the file in errors ("cannot open <what>"). Nesting, `from:` chains and aliases are
  // bounded by limits::kConfigDepth and limits::kConfigValues.
  static ConfigNode load_file(const std::string& path, std::string_view what = "config file");
  // `name` stands in for the file in error messages; `from:` resolves against `base_dir`.
  static ConfigNode parse(std::string_view text, const std::string& name,
                          const std::string& base_dir = ".");
  // A YAML (or JSON) document that is data, not a config: `from` is an ordinary key there
  // (a dispatch table's ranges have one), so nothing is inherited.
  static ConfigNode parse_data(std::string_view text, const std::string& name);
  // A value given on the command line (`--set key=value`): YAML text, no `from:`, its places
  // named `origin` without line or column, relative paths against the working directory.
  static ConfigNode parse_override(std::string_view text, const std::string& origin);

  bool is_map() const;
  bool is_list() const;
  bool is_scalar() const;
  bool is_null() const;
  const SourcePlace& place() const;  // file, line, column and key path of this value
  const std::string& file() const { return place().file; }
  // Identity of the value as parsed from its file: a copy (a point's tree, a mapping merged
  // over another) has its original's, so that reading the copy reads the original
  // (ConfigUsage records what was read by it).
  const void* identity() const;
  // The directory relative paths in this value resolve against: its file's (a scenario parsed
  // from text: the directory given; a command-line value: the working directory, ".").
  const std::string& base_dir() const;

  // Mappings.
  bool has(std::string_view key) const;
  ConfigNode at(std::string_view key) const;  // missing key -> Error
  std::optional<ConfigNode> find(std::string_view key) const;
  std::vector<std::string> keys() const;  // in file order
  // Rejects any key not listed (typos are the commonest config bug); suggests the closest.
  void allow_only(std::initializer_list<std::string_view> allowed) const;
  void allow_only(const std::vector<std::string>& allowed) const;

  // Sequences.
  size_t size() const;
  ConfigNode operator[](size_t i) const;

  // Scalars (on this node).
  std::string as_string() const;
  int64_t as_int() const;
  double as_double() const;
  bool as_bool() const;
  double as_quantity(Dimension d) const;  // "9.7 GHz" -> 9.7e9
  // An integer in [1, limit.value]; the error names the limit (sim/core/limits.hpp).
  int64_t as_count(const Limit& limit) const;

  // Common checked reads of a child key.
  std::string string(std::string_view key) const { return at(key).as_string(); }
  int64_t positive_int(std::string_view key) const;     // >= 1
  int64_t non_negative_int(std::string_view key) const; // >= 0
  int64_t count(std::string_view key, const Limit& limit) const { return at(key).as_count(limit); }
  double positive_quantity(std::string_view key, Dimension d) const;      // > 0
  double non_negative_quantity(std::string_view key, Dimension d) const;  // >= 0
  double non_negative_quantity_or(std::string_view key, Dimension d, double fallback) const;
  double positive_double(std::string_view key) const;
  bool boolean(std::string_view key) const { return at(key).as_bool(); }

  [[noreturn]] void fail(const std::string& message) const;
  // A copy of the whole tree with the scalar at `dotted_path` (relative to this node, e.g.
  // "units.phu.cores") set to `value`; missing maps on the way are created. `origin` stands
  // in for the file in errors about the new value ("sweep axis phu.cores").
  ConfigNode with_value(const std::string& dotted_path, const std::string& value,
                        const std::string& origin) const;
  // The same with a whole value (a scalar, list or mapping, copied with its places and
  // origins): a point's tree is its scenario's with each axis value put at the axis's path.
  ConfigNode with_node(const std::string& dotted_path, const ConfigNode& value) const;
  // This mapping without `key` (a copy rooted here).
  ConfigNode without(std::string_view key) const;
  // This mapping's keys over `base`'s (maps merged key by key, as `from:` merges): a replica's
  // own batching keys over the scenario's. A copy rooted here.
  ConfigNode merged_over(const ConfigNode& base) const;
  // A scalar `text` at this value's place, with its origin: a range's values stand for the
  // range (reading one reads the range).
  ConfigNode scalar_copy(const std::string& text) const;
  // The value as one line of flow YAML ("[{system: a.yaml}]"), for parameter columns.
  std::string to_flow() const;
  // The resolved tree (inheritance applied) as block YAML, indented by `indent` spaces.
  std::string to_yaml(int indent = 0) const;

 private:
  ConfigNode(std::shared_ptr<const ConfigValue> root, const ConfigValue* value, std::string path);
  std::string child_path(std::string_view key) const;
  ConfigNode replaced(const std::string& dotted_path, ConfigValue value, const std::string& origin) const;

  std::shared_ptr<const ConfigValue> root_;  // keeps the tree alive
  const ConfigValue* value_ = nullptr;
  std::string path_;
  mutable std::optional<SourcePlace> place_;
};

}  // namespace lightcode
