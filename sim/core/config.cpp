#include "sim/core/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>

#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/numbers.hpp"
#include "sim/core/suggest.hpp"

namespace lightcode {

struct ConfigValue {
  enum class Kind { null, scalar, map, list };
  Kind kind = Kind::null;
  std::string scalar;
  std::vector<std::pair<std::string, ConfigValue>> entries;  // map, in file order
  std::vector<ConfigValue> items;                            // list
  std::shared_ptr<const std::string> file;
  int line = 0;
  int column = 0;
  // The directory relative paths in this value resolve against: its file's, or the one a
  // caller named (a scenario parsed from text, a command-line value: the working directory).
  std::shared_ptr<const std::string> base_dir;
  // The value this one was parsed as: copies (a point's tree, a merged replica) keep it, so
  // that reading a copy counts as reading the value in the file (ConfigUsage).
  const ConfigValue* origin = nullptr;
  // Its key path where it was parsed ("batching.policy"): a copy put elsewhere (an axis value
  // in a point's tree, a scenario key merged under a replica) is still named by where it was
  // written. Empty for values made in code (a sweep override of a system key).
  std::shared_ptr<const std::string> key_path;
};

namespace {

namespace fs = std::filesystem;

// Converting bounds the document: aliases are expanded here (yaml-cpp shares aliased nodes), so
// a budget of values stops an alias bomb, and a depth limit stops runaway nesting.
class Converter {
 public:
  Converter(std::shared_ptr<const std::string> file, std::shared_ptr<const std::string> base_dir)
      : file_(std::move(file)), base_dir_(std::move(base_dir)) {}

  ConfigValue convert(const YAML::Node& node, int depth) {
    const YAML::Mark mark = node.Mark();
    const SourcePlace where{*file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, ""};
    if (++values_ > limits::kConfigValues.value) {
      throw Error(where, "the document expands to more than " + std::to_string(limits::kConfigValues.value) +
                             " values (" + std::string(limits::kConfigValues.name) + "; YAML aliases expand)");
    }
    if (depth > limits::kConfigDepth.value) {
      throw Error(where, "nested more than " + std::to_string(limits::kConfigDepth.value) + " levels deep (" +
                             std::string(limits::kConfigDepth.name) + ")");
    }
    ConfigValue v;
    v.file = file_;
    v.base_dir = base_dir_;
    v.line = where.line;
    v.column = where.column;
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        v.kind = ConfigValue::Kind::scalar;
        v.scalar = node.Scalar();
        break;
      case YAML::NodeType::Sequence:
        v.kind = ConfigValue::Kind::list;
        for (const auto& item : node) v.items.push_back(convert(item, depth + 1));
        break;
      case YAML::NodeType::Map:
        v.kind = ConfigValue::Kind::map;
        for (const auto& kv : node) {
          const YAML::Mark m = kv.first.Mark();
          const SourcePlace key_place{*file_, m.line + 1, m.column + 1, ""};
          if (!kv.first.IsScalar()) throw Error(key_place, "a mapping key must be a plain value");
          std::string key = kv.first.Scalar();
          if (static_cast<int64_t>(key.size()) > limits::kNameBytes.value) {
            throw Error(key_place, "a key of " + std::to_string(key.size()) + " bytes is above the limit of " +
                                       std::to_string(limits::kNameBytes.value) + " (" +
                                       std::string(limits::kNameBytes.name) + ")");
          }
          for (const auto& existing : v.entries) {
            if (existing.first == key) throw Error(SourcePlace{*file_, m.line + 1, m.column + 1, key}, "duplicate key");
          }
          v.entries.emplace_back(std::move(key), convert(kv.second, depth + 1));
        }
        break;
      default:
        v.kind = ConfigValue::Kind::null;
    }
    return v;
  }

 private:
  std::shared_ptr<const std::string> file_;
  std::shared_ptr<const std::string> base_dir_;
  int64_t values_ = 0;
};

// Each value of a freshly parsed tree is its own origin and knows its key path (copies made
// later keep both).
void set_origins(ConfigValue& v, const std::string& path) {
  v.origin = &v;
  v.key_path = std::make_shared<const std::string>(path);
  for (auto& entry : v.entries) set_origins(entry.second, path.empty() ? entry.first : path + "." + entry.first);
  for (size_t i = 0; i < v.items.size(); ++i) set_origins(v.items[i], path + "[" + std::to_string(i) + "]");
}

// A parsed tree as the shared root of ConfigNodes, origins set once its addresses are final.
std::shared_ptr<const ConfigValue> finish_tree(ConfigValue tree) {
  auto root = std::make_shared<ConfigValue>(std::move(tree));
  set_origins(*root, "");
  return root;
}

// Child values override the base; maps merge recursively, anything else replaces.
void merge_into(ConfigValue& base, const ConfigValue& over) {
  if (base.kind != ConfigValue::Kind::map || over.kind != ConfigValue::Kind::map) {
    base = over;
    return;
  }
  for (const auto& entry : over.entries) {
    auto it = std::find_if(base.entries.begin(), base.entries.end(),
                           [&](const auto& e) { return e.first == entry.first; });
    if (it == base.entries.end()) {
      base.entries.push_back(entry);
    } else {
      merge_into(it->second, entry.second);
    }
  }
  base.file = over.file;
  base.line = over.line;
  base.column = over.column;
}

ConfigValue load_tree(std::string_view text, const std::string& name, const fs::path& base_dir,
                      std::vector<std::string>& chain, bool inherit = true);

// `from:` may appear in any mapping; its path is relative to the file that holds it.
ConfigValue resolve_from(ConfigValue v, const fs::path& base_dir, std::vector<std::string>& chain) {
  if (v.kind == ConfigValue::Kind::list) {
    for (ConfigValue& item : v.items) item = resolve_from(std::move(item), base_dir, chain);
    return v;
  }
  if (v.kind != ConfigValue::Kind::map) return v;
  for (auto& entry : v.entries) {
    if (entry.first != "from") entry.second = resolve_from(std::move(entry.second), base_dir, chain);
  }
  auto it = std::find_if(v.entries.begin(), v.entries.end(),
                         [](const auto& e) { return e.first == "from"; });
  if (it == v.entries.end()) return v;
  const ConfigValue from = it->second;
  v.entries.erase(it);
  if (from.kind != ConfigValue::Kind::scalar) {
    throw Error(SourcePlace{*from.file, from.line, from.column, "from"},
                "expected the path of a config file to inherit from");
  }
  const SourcePlace where{*from.file, from.line, from.column, "from"};
  const fs::path base_path = (base_dir / from.scalar).lexically_normal();
  if (std::find(chain.begin(), chain.end(), base_path.string()) != chain.end()) {
    throw Error(where, "inheritance cycle through '" + base_path.string() + "'");
  }
  if (static_cast<int64_t>(chain.size()) >= limits::kConfigDepth.value) {
    throw Error(where, "`from:` chain longer than " + std::to_string(limits::kConfigDepth.value) + " files (" +
                           std::string(limits::kConfigDepth.name) + ")");
  }
  std::string text;
  try {
    text = read_input_file(base_path.string(), "config file", limits::kConfigFileBytes);
  } catch (const Error& e) {
    throw Error(where, e.what());
  }
  ConfigValue base = load_tree(text, base_path.string(), base_path.parent_path(), chain);
  merge_into(base, v);
  return base;
}

ConfigValue load_tree(std::string_view text, const std::string& name, const fs::path& base_dir,
                      std::vector<std::string>& chain, bool inherit) {
  auto file = std::make_shared<const std::string>(name);
  YAML::Node node;
  try {
    node = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw Error(SourcePlace{name, e.mark.line + 1, e.mark.column + 1, ""},
                "YAML syntax error: " + e.msg);
  }
  chain.push_back(name);
  auto dir = std::make_shared<const std::string>(base_dir.string());
  ConfigValue converted = Converter(file, dir).convert(node, 0);
  ConfigValue v = inherit ? resolve_from(std::move(converted), base_dir, chain) : std::move(converted);
  chain.pop_back();
  return v;
}

template <typename Container>
void check_allowed(const ConfigNode& node, const Container& allowed) {
  for (const std::string& key : node.keys()) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || key == a;
    if (ok) continue;
    std::string list;
    std::vector<std::string> names;
    for (const auto& a : allowed) {
      list += (list.empty() ? "" : ", ") + std::string(a);
      names.emplace_back(a);
    }
    const std::string best = closest_name(key, names);
    node.at(key).fail("unknown key '" + excerpt(key) + "'" +
                      (best.empty() ? "" : " (did you mean '" + best + "'?)") +
                      "; allowed keys: " + list);
  }
}

}  // namespace

ConfigNode::ConfigNode() {
  static const auto empty = [] {
    auto v = std::make_shared<ConfigValue>();
    v->kind = ConfigValue::Kind::map;
    return std::shared_ptr<const ConfigValue>(v);
  }();
  root_ = empty;
  value_ = empty.get();
}

ConfigNode::ConfigNode(std::shared_ptr<const ConfigValue> root, const ConfigValue* value,
                       std::string path)
    : root_(std::move(root)), value_(value), path_(std::move(path)) {}

ConfigNode ConfigNode::load_file(const std::string& path, std::string_view what) {
  const std::string text = read_input_file(path, what, limits::kConfigFileBytes);
  return parse(text, path, fs::path(path).parent_path().string());
}

ConfigNode ConfigNode::parse(std::string_view text, const std::string& name,
                             const std::string& base_dir) {
  std::vector<std::string> chain;
  std::shared_ptr<const ConfigValue> root =
      finish_tree(load_tree(text, name, base_dir.empty() ? fs::path(".") : fs::path(base_dir), chain));
  const ConfigValue* v = root.get();
  return ConfigNode(std::move(root), v, "");
}

ConfigNode ConfigNode::parse_data(std::string_view text, const std::string& name) {
  std::vector<std::string> chain;
  std::shared_ptr<const ConfigValue> root = finish_tree(load_tree(text, name, fs::path("."), chain, /*inherit=*/false));
  const ConfigValue* v = root.get();
  return ConfigNode(std::move(root), v, "");
}

ConfigNode ConfigNode::parse_override(std::string_view text, const std::string& origin) {
  std::vector<std::string> chain;
  ConfigValue tree = load_tree(text, origin, fs::path("."), chain, /*inherit=*/false);
  // The value stands for a command-line argument: no line or column of a file to name.
  std::function<void(ConfigValue&)> unplace = [&](ConfigValue& v) {
    v.line = 0;
    v.column = 0;
    for (auto& entry : v.entries) unplace(entry.second);
    for (ConfigValue& item : v.items) unplace(item);
  };
  unplace(tree);
  std::shared_ptr<const ConfigValue> root = finish_tree(std::move(tree));
  const ConfigValue* v = root.get();
  return ConfigNode(std::move(root), v, "");
}

bool ConfigNode::is_map() const { return value_->kind == ConfigValue::Kind::map; }
bool ConfigNode::is_list() const { return value_->kind == ConfigValue::Kind::list; }
bool ConfigNode::is_scalar() const { return value_->kind == ConfigValue::Kind::scalar; }
bool ConfigNode::is_null() const { return value_->kind == ConfigValue::Kind::null; }

const SourcePlace& ConfigNode::place() const {
  if (!place_) {
    place_ = SourcePlace{value_->file ? *value_->file : std::string(), value_->line, value_->column,
                         value_->key_path && !value_->key_path->empty() ? *value_->key_path : path_};
  }
  return *place_;
}

void ConfigNode::fail(const std::string& message) const { throw Error(place(), message); }

std::string ConfigNode::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool ConfigNode::has(std::string_view key) const { return find(key).has_value(); }

std::optional<ConfigNode> ConfigNode::find(std::string_view key) const {
  if (!is_map()) return std::nullopt;
  for (const auto& [k, v] : value_->entries) {
    if (k == key) return ConfigNode(root_, &v, child_path(key));
  }
  return std::nullopt;
}

ConfigNode ConfigNode::at(std::string_view key) const {
  if (!is_map()) fail("expected a mapping with key '" + std::string(key) + "'");
  if (auto n = find(key)) return *n;
  fail("missing key '" + std::string(key) + "'");
}

std::vector<std::string> ConfigNode::keys() const {
  std::vector<std::string> out;
  if (is_map()) {
    for (const auto& e : value_->entries) out.push_back(e.first);
  }
  return out;
}

void ConfigNode::allow_only(std::initializer_list<std::string_view> allowed) const {
  if (!is_map()) fail("expected a mapping");
  check_allowed(*this, allowed);
}

void ConfigNode::allow_only(const std::vector<std::string>& allowed) const {
  if (!is_map()) fail("expected a mapping");
  check_allowed(*this, allowed);
}

size_t ConfigNode::size() const {
  if (is_list()) return value_->items.size();
  if (is_map()) return value_->entries.size();
  return 0;
}

ConfigNode ConfigNode::operator[](size_t i) const {
  if (!is_list()) fail("expected a list");
  if (i >= value_->items.size()) fail("index " + std::to_string(i) + " out of range");
  return ConfigNode(root_, &value_->items[i], path_ + "[" + std::to_string(i) + "]");
}

std::string ConfigNode::as_string() const {
  if (!is_scalar()) fail("expected a single value");
  return value_->scalar;
}

int64_t ConfigNode::as_int() const {
  const std::string s = as_string();
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE) fail("'" + excerpt(s) + "' is not an integer");
  return v;
}

double ConfigNode::as_double() const {
  const std::string s = as_string();
  const std::optional<double> v = parse_decimal(s);  // decimal only: not "0x10", "inf", "nan"
  if (!v) fail("'" + excerpt(s) + "' is not a number (a finite decimal)");
  return *v;
}

bool ConfigNode::as_bool() const {
  const std::string s = as_string();
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  fail("'" + excerpt(s) + "' is not a boolean (expected true or false)");
}

double ConfigNode::as_quantity(Dimension d) const {
  const std::string s = as_string();
  try {
    return parse_quantity(s, d);
  } catch (const Error& e) {
    fail(e.what());
  }
}

namespace {
void emit(const ConfigValue& v, int indent, std::string& out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (v.kind == ConfigValue::Kind::map) {
    for (const auto& [key, child] : v.entries) {
      out += pad + key + ":";
      if (child.kind == ConfigValue::Kind::scalar) {
        out += " " + child.scalar + "\n";
      } else if (child.kind == ConfigValue::Kind::null) {
        out += "\n";
      } else {
        out += "\n";
        emit(child, indent + 2, out);
      }
    }
  } else if (v.kind == ConfigValue::Kind::list) {
    for (const ConfigValue& item : v.items) {
      if (item.kind == ConfigValue::Kind::scalar) {
        out += pad + "- " + item.scalar + "\n";
      } else {
        std::string inner;
        emit(item, indent + 2, inner);
        if (inner.size() >= static_cast<size_t>(indent + 2)) inner.replace(static_cast<size_t>(indent), 2, "- ");
        out += inner;
      }
    }
  } else if (v.kind == ConfigValue::Kind::scalar) {
    out += pad + v.scalar + "\n";
  }
}
}  // namespace

namespace {
std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> keys;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!key.empty()) keys.push_back(key);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return keys;
}
}  // namespace

ConfigNode ConfigNode::replaced(const std::string& dotted_path, ConfigValue value, const std::string& origin) const {
  // Copy the whole tree, then walk this node's path and the new one inside the copy.
  auto copy = std::make_shared<ConfigValue>(*root_);
  std::vector<std::string> keys = split_path(path_);
  for (std::string& k : split_path(dotted_path)) keys.push_back(std::move(k));
  auto file = std::make_shared<const std::string>(origin);
  ConfigValue* at = copy.get();
  for (const std::string& key : keys) {
    if (at->kind != ConfigValue::Kind::map) {
      throw Error(SourcePlace{origin, 0, 0, dotted_path}, "'" + key + "' is inside a value that is not a mapping");
    }
    auto it = std::find_if(at->entries.begin(), at->entries.end(), [&](const auto& e) { return e.first == key; });
    if (it == at->entries.end()) {
      ConfigValue fresh;
      fresh.kind = ConfigValue::Kind::map;
      fresh.file = file;
      fresh.base_dir = at->base_dir;
      at->entries.emplace_back(key, std::move(fresh));
      it = at->entries.end() - 1;
    }
    at = &it->second;
  }
  *at = std::move(value);
  // The mappings made on the way are values of their own from now on (the tree is final).
  std::function<void(ConfigValue&)> own = [&](ConfigValue& v) {
    if (!v.origin) v.origin = &v;
    for (auto& entry : v.entries) own(entry.second);
    for (ConfigValue& item : v.items) own(item);
  };
  own(*copy);
  std::shared_ptr<const ConfigValue> root = copy;
  // The returned node is the root of the new tree; callers re-navigate from it.
  return ConfigNode(root, root.get(), "");
}

ConfigNode ConfigNode::with_value(const std::string& dotted_path, const std::string& value,
                                  const std::string& origin) const {
  ConfigValue v;
  v.kind = ConfigValue::Kind::scalar;
  v.scalar = value;
  v.file = std::make_shared<const std::string>(origin);
  v.base_dir = root_->base_dir;
  return replaced(dotted_path, std::move(v), origin);
}

ConfigNode ConfigNode::with_node(const std::string& dotted_path, const ConfigNode& value) const {
  return replaced(dotted_path, *value.value_, value.file());
}

ConfigNode ConfigNode::without(std::string_view key) const {
  ConfigValue v = *value_;
  v.entries.erase(std::remove_if(v.entries.begin(), v.entries.end(), [&](const auto& e) { return e.first == key; }),
                  v.entries.end());
  auto root = std::make_shared<const ConfigValue>(std::move(v));
  const ConfigValue* r = root.get();
  return ConfigNode(std::move(root), r, path_);
}

ConfigNode ConfigNode::merged_over(const ConfigNode& base) const {
  if (!is_map() || !base.is_map()) fail("expected a mapping");
  ConfigValue v = *base.value_;
  merge_into(v, *value_);
  auto root = std::make_shared<const ConfigValue>(std::move(v));
  const ConfigValue* r = root.get();
  return ConfigNode(std::move(root), r, path_);
}

ConfigNode ConfigNode::scalar_copy(const std::string& text) const {
  ConfigValue v = *value_;
  v.kind = ConfigValue::Kind::scalar;
  v.scalar = text;
  v.entries.clear();
  v.items.clear();
  v.origin = value_->origin ? value_->origin : value_;
  auto root = std::make_shared<const ConfigValue>(std::move(v));
  const ConfigValue* r = root.get();
  return ConfigNode(std::move(root), r, path_);
}

const void* ConfigNode::identity() const { return value_->origin ? value_->origin : value_; }

const std::string& ConfigNode::base_dir() const {
  static const std::string here = ".";
  return value_->base_dir ? *value_->base_dir : here;
}

namespace {
void emit_flow(const ConfigValue& v, std::string& out) {
  switch (v.kind) {
    case ConfigValue::Kind::scalar:
      out += v.scalar;
      break;
    case ConfigValue::Kind::null:
      out += "~";
      break;
    case ConfigValue::Kind::list:
      out += "[";
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ", ";
        emit_flow(v.items[i], out);
      }
      out += "]";
      break;
    case ConfigValue::Kind::map:
      out += "{";
      for (size_t i = 0; i < v.entries.size(); ++i) {
        out += (i ? ", " : "") + v.entries[i].first + ": ";
        emit_flow(v.entries[i].second, out);
      }
      out += "}";
      break;
  }
}
}  // namespace

std::string ConfigNode::to_flow() const {
  std::string out;
  emit_flow(*value_, out);
  return out;
}

std::string ConfigNode::to_yaml(int indent) const {
  std::string out;
  emit(*value_, indent, out);
  return out;
}

int64_t ConfigNode::as_count(const Limit& limit) const {
  const int64_t v = as_int();
  if (v < 1 || v > limit.value) {
    fail("must be an integer from 1 to " + std::to_string(limit.value) + " (" + std::string(limit.name) + "), got " +
         excerpt(as_string()));
  }
  return v;
}

int64_t ConfigNode::positive_int(std::string_view key) const {
  const ConfigNode n = at(key);
  const int64_t v = n.as_int();
  if (v < 1) n.fail("must be a positive integer, got " + std::to_string(v));
  return v;
}

int64_t ConfigNode::non_negative_int(std::string_view key) const {
  const ConfigNode n = at(key);
  const int64_t v = n.as_int();
  if (v < 0) n.fail("must not be negative, got " + std::to_string(v));
  return v;
}

double ConfigNode::positive_quantity(std::string_view key, Dimension d) const {
  const ConfigNode n = at(key);
  const double v = n.as_quantity(d);
  if (!(v > 0.0)) n.fail("must be positive, got '" + excerpt(n.as_string()) + "'");
  return v;
}

double ConfigNode::non_negative_quantity(std::string_view key, Dimension d) const {
  const ConfigNode n = at(key);
  const double v = n.as_quantity(d);
  if (v < 0.0) n.fail("must not be negative, got '" + excerpt(n.as_string()) + "'");
  return v;
}

double ConfigNode::non_negative_quantity_or(std::string_view key, Dimension d,
                                            double fallback) const {
  return has(key) ? non_negative_quantity(key, d) : fallback;
}

double ConfigNode::positive_double(std::string_view key) const {
  const ConfigNode n = at(key);
  const double v = n.as_double();
  if (!(v > 0.0)) n.fail("must be positive, got " + excerpt(n.as_string()));
  return v;
}

}  // namespace lightcode
