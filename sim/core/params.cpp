#include "sim/core/params.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/numbers.hpp"
#include "sim/core/quantity.hpp"

namespace lightcode {
namespace {

std::string_view kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::quantity:
      return "quantity";
    case ParamKind::count:
      return "count";
    case ParamKind::integer:
      return "integer";
    case ParamKind::real:
      return "number";
    case ParamKind::fraction:
      return "fraction";
    case ParamKind::boolean:
      return "boolean";
    case ParamKind::text:
      return "text";
    case ParamKind::choice:
      return "choice";
    case ParamKind::table:
      return "table";
    case ParamKind::tables:
      return "list of tables";
    case ParamKind::list:
      return "list";
    case ParamKind::named:
      return "named";
    case ParamKind::meta:
      return "info";
  }
  return "?";
}

Param make(std::string key, ParamKind kind) {
  Param p;
  p.key = std::move(key);
  p.kind = kind;
  return p;
}

// Typed parsing of one scalar's text; throws Error without a place (the caller adds it).
int64_t parse_integer(const std::string& s) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE)
    throw Error("'" + excerpt(s) + "' is not an integer");
  return v;
}

double parse_real(const std::string& s) {
  const std::optional<double> v = parse_decimal(s);  // decimal only: not "0x10", "inf", "nan"
  if (!v) throw Error("'" + excerpt(s) + "' is not a number (a finite decimal)");
  return *v;
}

// The bound as the docs and errors write it: "100", or "9200 PB" for a quantity.
std::string bound_text(const Param& p, double v) {
  if (p.kind == ParamKind::quantity) return format_quantity(v, p.dimension);
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

void check_range(const Param& p, double v, const std::string& s) {
  if (p.sign == Sign::positive && !(v > 0.0)) throw Error("must be positive, got '" + excerpt(s) + "'");
  if (p.sign == Sign::non_negative && v < 0.0) throw Error("must not be negative, got '" + excerpt(s) + "'");
  if (p.most && v > *p.most) {
    throw Error("must be at most " + bound_text(p, *p.most) + ", got '" + excerpt(s) + "'" +
                (p.most_why.empty() ? "" : " (" + p.most_why + ")"));
  }
  // Every duration becomes a Time somewhere (integer picoseconds): one that cannot is refused
  // here, at its key, rather than by whichever model converts it first. A signed duration
  // (a fitted offset) is checked by its size.
  if (p.kind == ParamKind::quantity && p.dimension == Dimension::duration) Time::from_seconds(std::fabs(v));
}

double parse_number(const Param& p, const std::string& s) {
  switch (p.kind) {
    case ParamKind::quantity: {
      const double v = parse_quantity(s, p.dimension);
      check_range(p, v, s);
      return v;
    }
    case ParamKind::real: {
      const double v = parse_real(s);
      check_range(p, v, s);
      return v;
    }
    case ParamKind::fraction: {
      const double v = parse_real(s);
      if (!(v > 0.0) || v > 1.0) throw Error("must be a fraction in (0, 1], got " + excerpt(s));
      return v;
    }
    case ParamKind::count: {
      const int64_t v = parse_integer(s);
      if (v < 1 || v > p.limit->value) {
        throw Error("must be an integer from 1 to " + std::to_string(p.limit->value) + " (" +
                    std::string(p.limit->name) + "), got " + excerpt(s));
      }
      return static_cast<double>(v);
    }
    case ParamKind::integer: {
      const int64_t v = parse_integer(s);
      if (v < 0) throw Error("must not be negative, got " + excerpt(s));
      if (p.limit && v > p.limit->value) {
        throw Error("must be an integer from 0 to " + std::to_string(p.limit->value) + " (" +
                    std::string(p.limit->name) + "), got " + excerpt(s));
      }
      return static_cast<double>(v);
    }
    default:
      throw std::logic_error("parse_number on a non-numeric param");
  }
}

bool parse_boolean(const std::string& s) {
  if (s == "true" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "no" || s == "off") return false;
  throw Error("'" + excerpt(s) + "' is not a boolean (expected true or false)");
}

std::string parse_choice(const Param& p, const std::string& s) {
  if (std::find(p.choices.begin(), p.choices.end(), s) != p.choices.end()) return s;
  std::string list;
  for (const std::string& c : p.choices) list += (list.empty() ? "" : ", ") + c;
  throw Error("expected one of " + list + ", got '" + excerpt(s) + "'");
}

// Checks `text` as a value of `p` would be checked; throws Error.
void parse_any(const Param& p, const std::string& text) {
  switch (p.kind) {
    case ParamKind::boolean:
      parse_boolean(text);
      break;
    case ParamKind::choice:
      parse_choice(p, text);
      break;
    case ParamKind::text:
    case ParamKind::meta:
      break;
    case ParamKind::table:
    case ParamKind::tables:
    case ParamKind::named:
    case ParamKind::list:
      throw Error("a table or list has no default text");
    default:
      parse_number(p, text);
  }
}

void append_row(std::string& out, const Param& p) {
  std::string doc = p.help;
  std::replace(doc.begin(), doc.end(), '|', '/');
  out += "| `" + p.key + "` | " + p.type_text() + " | " + p.default_label() + " | " + doc + " |\n";
}

}  // namespace

Param Param::quantity(std::string key, Dimension d) {
  Param p = make(std::move(key), ParamKind::quantity);
  p.dimension = d;
  return p;
}
Param Param::count(std::string key, const Limit& limit) {
  Param p = make(std::move(key), ParamKind::count);
  p.limit = &limit;
  return p;
}
Param Param::integer(std::string key) {
  return make(std::move(key), ParamKind::integer);
}
Param Param::integer(std::string key, const Limit& limit) {
  Param p = make(std::move(key), ParamKind::integer);
  p.limit = &limit;
  return p;
}
Param Param::real(std::string key) {
  Param p = make(std::move(key), ParamKind::real);
  p.sign = Sign::any;
  return p;
}
Param Param::fraction(std::string key) {
  return make(std::move(key), ParamKind::fraction);
}
Param Param::boolean(std::string key) {
  return make(std::move(key), ParamKind::boolean);
}
Param Param::text(std::string key) {
  return make(std::move(key), ParamKind::text);
}
Param Param::choice(std::string key, std::vector<std::string> choices) {
  Param p = make(std::move(key), ParamKind::choice);
  p.choices = std::move(choices);
  return p;
}
Param Param::table(std::string key, const ParamTable& nested) {
  Param p = make(std::move(key), ParamKind::table);
  p.nested = &nested;
  return p;
}
Param Param::tables(std::string key, const ParamTable& nested) {
  Param p = make(std::move(key), ParamKind::tables);
  p.nested = &nested;
  return p;
}
Param Param::list(std::string key) {
  return make(std::move(key), ParamKind::list);
}
Param Param::named(std::string key, const ParamTable* nested) {
  Param p = make(std::move(key), ParamKind::named);
  p.nested = nested;
  return p;
}
Param Param::meta(std::string key) {
  return make(std::move(key), ParamKind::meta);
}

Param&& Param::positive() && {
  sign = Sign::positive;
  return std::move(*this);
}
Param&& Param::signed_() && {
  sign = Sign::any;
  return std::move(*this);
}
Param&& Param::at_most(double most_value, std::string why) && {
  most = most_value;
  most_why = std::move(why);
  return std::move(*this);
}
Param&& Param::required() && {
  presence = Presence::required;
  return std::move(*this);
}
Param&& Param::fallback(std::string text) && {
  presence = Presence::defaulted;
  default_text = std::move(text);
  return std::move(*this);
}
Param&& Param::doc(std::string text) && {
  help = std::move(text);
  return std::move(*this);
}
Param&& Param::read_when(std::string condition) && {
  when = std::move(condition);
  return std::move(*this);
}

std::string Param::type_text() const {
  switch (kind) {
    case ParamKind::quantity: {
      std::string s = std::string(dimension_name(dimension)) + " (" +
                      std::string(dimension_base_unit(dimension)) + ")";
      if (sign == Sign::positive) s += ", > 0";
      if (sign == Sign::non_negative) s += ", >= 0";
      if (most) s += ", <= " + bound_text(*this, *most);
      return s;
    }
    case ParamKind::count:
      return "integer 1.." + std::to_string(limit->value);
    case ParamKind::integer:
      return limit ? "integer 0.." + std::to_string(limit->value) : "integer >= 0";
    case ParamKind::real:
      return std::string(sign == Sign::positive       ? "number > 0"
                         : sign == Sign::non_negative ? "number >= 0"
                                                      : "number") +
             (most ? ", <= " + bound_text(*this, *most) : "");
    case ParamKind::fraction:
      return "fraction (0, 1]";
    case ParamKind::boolean:
      return "true / false";
    case ParamKind::text:
      return "text";
    case ParamKind::choice: {
      std::string s;
      for (const std::string& c : choices) s += (s.empty() ? "" : " / ") + c;
      return s;
    }
    case ParamKind::table:
      return "mapping: [" + nested->name + "](#" + nested->name + ")";
    case ParamKind::tables:
      return "list of [" + nested->name + "](#" + nested->name + ")";
    case ParamKind::list:
      return "list of values";
    case ParamKind::named:
      return nested ? "name -> [" + nested->name + "](#" + nested->name + ")" : "name -> mapping";
    case ParamKind::meta:
      return "text (informational)";
  }
  return std::string(kind_name(kind));
}

std::string Param::default_label() const {
  if (presence == Presence::required) return "required";
  if (presence == Presence::defaulted) return default_text;
  return "-";
}

const Param* ParamTable::find(std::string_view key) const {
  for (const Param& p : params) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

std::vector<std::string> ParamTable::keys() const {
  std::vector<std::string> out;
  out.reserve(params.size());
  for (const Param& p : params) out.push_back(p.key);
  return out;
}

Params::Params(const ConfigNode& node, const ParamTable& table, ConfigUsage& usage)
    : node_(node), table_(&table), usage_(&usage) {
  node.allow_only(table.keys());  // "expected a mapping" / unknown key with a suggestion
}

bool Params::has(std::string_view key) const {
  return node_.has(key);
}
ConfigNode Params::at(std::string_view key) const {
  return node_.at(key);
}

const Param& Params::param(std::string_view key, std::initializer_list<ParamKind> kinds) const {
  const Param* p = table_->find(key);
  if (!p)
    throw std::logic_error("table '" + table_->name + "' declares no key '" + std::string(key) +
                           "'");
  if (std::find(kinds.begin(), kinds.end(), p->kind) == kinds.end()) {
    throw std::logic_error("key '" + table_->name + "." + p->key + "' is a " +
                           std::string(kind_name(p->kind)) + ", read with another getter");
  }
  return *p;
}

std::optional<ConfigNode> Params::value(const Param& p) const {
  if (auto n = node_.find(p.key)) {
    usage_->mark(*n);
    return n;
  }
  if (p.presence == Presence::required) node_.fail("missing key '" + p.key + "' (" + p.help + ")");
  return std::nullopt;
}

namespace {
// Parses a present value (errors at its place) or the default (a bad default is a bug).
template <class F>
auto parse_at(const std::optional<ConfigNode>& n, const Param& p, F&& parse) {
  if (n) {
    if (!n->is_scalar()) n->fail("expected a single value");
    try {
      return parse(n->as_string());
    } catch (const Error& e) {
      n->fail(e.what());
    }
  }
  try {
    return parse(p.default_text);
  } catch (const Error& e) {
    throw std::logic_error("default of '" + p.key + "': " + e.what());
  }
}
}  // namespace

double Params::quantity(std::string_view key) const {
  if (auto v = quantity_if(key)) return *v;
  throw std::logic_error("key '" + std::string(key) + "' has no default: read it with quantity_if");
}

std::optional<double> Params::quantity_if(std::string_view key) const {
  const Param& p = param(key, {ParamKind::quantity, ParamKind::real, ParamKind::fraction});
  const auto n = value(p);
  if (!n && p.presence == Presence::optional) return std::nullopt;
  return parse_at(n, p, [&](const std::string& s) { return parse_number(p, s); });
}

int64_t Params::count(std::string_view key) const {
  if (auto v = count_if(key)) return *v;
  throw std::logic_error("key '" + std::string(key) + "' has no default: read it with count_if");
}

std::optional<int64_t> Params::count_if(std::string_view key) const {
  const Param& p = param(key, {ParamKind::count, ParamKind::integer});
  const auto n = value(p);
  if (!n && p.presence == Presence::optional) return std::nullopt;
  return parse_at(n, p,
                  [&](const std::string& s) { return static_cast<int64_t>(parse_number(p, s)); });
}

int64_t Params::integer(std::string_view key) const {
  return count(key);
}
double Params::real(std::string_view key) const {
  return quantity(key);
}
double Params::fraction(std::string_view key) const {
  return quantity(key);
}

bool Params::boolean(std::string_view key) const {
  const Param& p = param(key, {ParamKind::boolean});
  const auto n = value(p);
  if (!n && p.presence == Presence::optional)
    throw std::logic_error("boolean '" + p.key + "' needs a default");
  return parse_at(n, p, parse_boolean);
}

std::string Params::text(std::string_view key) const {
  if (auto v = text_if(key)) return *v;
  throw std::logic_error("key '" + std::string(key) + "' has no default: read it with text_if");
}

std::optional<std::string> Params::text_if(std::string_view key) const {
  const Param& p = param(key, {ParamKind::text, ParamKind::meta, ParamKind::choice});
  const auto n = value(p);
  if (!n && p.presence == Presence::optional) return std::nullopt;
  if (p.kind == ParamKind::choice)
    return parse_at(n, p, [&](const std::string& s) { return parse_choice(p, s); });
  return parse_at(n, p, [](const std::string& s) { return s; });
}

std::string Params::path(std::string_view key) const {
  if (auto v = path_if(key)) return *v;
  throw std::logic_error("key '" + std::string(key) + "' has no default: read it with path_if");
}

std::optional<std::string> Params::path_if(std::string_view key) const {
  const std::optional<std::string> text = text_if(key);
  if (!text) return std::nullopt;
  const std::filesystem::path p(*text);
  if (p.is_absolute()) return text;
  const std::optional<ConfigNode> n = node_.find(key);
  return (std::filesystem::path(n ? n->base_dir() : node_.base_dir()) / p).lexically_normal().string();
}

std::string Params::choice(std::string_view key) const {
  return text(key);
}

std::optional<Params> Params::table_if(std::string_view key) const {
  const Param& p = param(key, {ParamKind::table});
  const auto n = value(p);
  if (!n) return std::nullopt;
  return Params(*n, *p.nested, *usage_);
}

std::vector<std::pair<std::string, Params>> Params::named(std::string_view key) const {
  const Param& p = param(key, {ParamKind::named});
  if (!p.nested) throw std::logic_error("'" + p.key + "' has no table: use named_nodes");
  std::vector<std::pair<std::string, Params>> out;
  for (auto& [name, entry] : named_nodes(key)) out.emplace_back(std::move(name), Params(entry, *p.nested, *usage_));
  return out;
}

std::vector<std::pair<std::string, ConfigNode>> Params::named_nodes(std::string_view key) const {
  const Param& p = param(key, {ParamKind::named});
  std::vector<std::pair<std::string, ConfigNode>> out;
  const auto n = value(p);
  if (!n) return out;
  if (!n->is_map()) {
    n->fail(p.nested ? "expected a mapping of names to " + p.nested->name + " mappings" : "expected a mapping: " + p.help);
  }
  for (const std::string& name : n->keys()) {
    const ConfigNode entry = n->at(name);
    usage_->mark(entry);
    out.emplace_back(name, entry);
  }
  return out;
}

std::vector<Params> Params::tables(std::string_view key) const {
  const Param& p = param(key, {ParamKind::tables});
  std::vector<Params> out;
  const auto n = value(p);
  if (!n || n->is_null()) return out;
  if (!n->is_list()) n->fail("expected a list of " + p.nested->name + " mappings");
  for (size_t i = 0; i < n->size(); ++i) {
    const ConfigNode item = (*n)[i];
    usage_->mark(item);
    out.emplace_back(item, *p.nested, *usage_);
  }
  return out;
}

std::vector<ConfigNode> Params::list(std::string_view key) const {
  const Param& p = param(key, {ParamKind::list});
  std::vector<ConfigNode> out;
  const auto n = value(p);
  if (!n) return out;
  if (!n->is_list()) n->fail("expected a list: " + p.help);
  for (size_t i = 0; i < n->size(); ++i) {
    out.push_back((*n)[i]);
    usage_->mark(out.back());
  }
  return out;
}

void Params::mark(std::string_view key) const {
  if (auto n = node_.find(key)) usage_->mark(*n);
}

namespace {
// Keys below a value that was read through a table other than the one at hand (a policy's own
// keys): each must have been read.
void check_read_within(const ConfigNode& value, const ConfigUsage& usage, const std::string& key_path,
                       const ReaderText& reader) {
  if (value.is_list()) {
    for (size_t i = 0; i < value.size(); ++i) check_read_within(value[i], usage, key_path, reader);
    return;
  }
  for (const std::string& key : value.keys()) {
    const ConfigNode child = value.at(key);
    if (!usage.was_read(child)) {
      child.fail("key '" + key + "' is set but not read by " + reader(key_path + "." + key) +
                 "; remove it (a figure nothing reads would be taken for one that counts)");
    }
    check_read_within(child, usage, key_path + "." + key, reader);
  }
}
}  // namespace

void check_all_read(const ConfigNode& node, const ParamTable& table, const ConfigUsage& usage,
                    const std::string& reader) {
  check_all_read(node, table, usage, [&](const std::string&) { return reader; });
}

void check_all_read(const ConfigNode& node, const ParamTable& table, const ConfigUsage& usage,
                    const ReaderText& reader, const std::string& prefix) {
  for (const std::string& key : node.keys()) {
    const Param* p = table.find(key);
    const ConfigNode value = node.at(key);
    const std::string key_path = prefix.empty() ? key : prefix + "." + key;
    if (p && p->kind == ParamKind::meta) continue;
    if (!usage.was_read(value)) {
      value.fail("key '" + key + "' is set but not read by " + reader(key_path) +
                 "; remove it (a figure nothing reads would be taken for one that counts)");
    }
    if (!p) {  // read through another table (a policy chosen in this mapping owns the key)
      check_read_within(value, usage, key_path, reader);
      continue;
    }
    if (p->kind == ParamKind::table) check_all_read(value, *p->nested, usage, reader, key_path);
    if (p->kind == ParamKind::named && p->nested) {
      for (const std::string& name : value.keys()) {
        const ConfigNode entry = value.at(name);
        if (!usage.was_read(entry)) entry.fail("'" + name + "' is set but not read by " + reader(key_path + "." + name));
        check_all_read(entry, *p->nested, usage, reader, key_path + "." + name);
      }
    }
    if (p->kind == ParamKind::tables && value.is_list()) {
      for (size_t i = 0; i < value.size(); ++i) check_all_read(value[i], *p->nested, usage, reader, key_path);
    }
  }
}

void check_value(const Param& p, const ConfigNode& value) {
  if (!value.is_scalar()) value.fail("expected a single value");
  try {
    parse_any(p, value.as_string());
  } catch (const Error& e) {
    value.fail(e.what());
  }
}

std::vector<std::string> check_defaults(const ParamTable& table) {
  std::vector<std::string> problems;
  for (const Param& p : table.params) {
    if (p.nested) {
      for (std::string& s : check_defaults(*p.nested)) problems.push_back(std::move(s));
    }
    if (p.help.empty()) problems.push_back(table.name + "." + p.key + ": no doc");
    if (p.presence != Presence::defaulted) continue;
    try {
      parse_any(p, p.default_text);
    } catch (const Error& e) {
      problems.push_back(table.name + "." + p.key + ": default '" + p.default_text +
                         "': " + e.what());
    }
  }
  return problems;
}

std::string table_markdown(const ParamTable& table, std::vector<std::string>& seen) {
  seen.push_back(table.name);
  std::string out =
      "<a id=\"" + table.name + "\"></a>\n\n### `" + table.name + "`\n\n" + table.doc + "\n\n";
  out += "| key | type | default | meaning |\n|---|---|---|---|\n";
  for (const Param& p : table.params) append_row(out, p);
  out += "\n";
  for (const Param& p : table.params) {
    if (p.nested && std::find(seen.begin(), seen.end(), p.nested->name) == seen.end()) {
      out += table_markdown(*p.nested, seen);
    }
  }
  return out;
}

std::string table_text(const ConfigNode& node, const ParamTable& table, int indent) {
  size_t width = 0;
  for (const Param& p : table.params) width = std::max(width, p.key.size());
  std::string out;
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const Param& p : table.params) {
    std::string key = p.key;
    key.resize(width + 2, ' ');
    const auto v = node.find(p.key);
    if (v && p.kind == ParamKind::table && v->is_map()) {
      out += pad + key + "# " + p.help + "\n" + table_text(*v, *p.nested, indent + 2);
    } else if (v && !v->is_scalar()) {
      out += pad + key + "# " + p.help + "\n" + v->to_yaml(indent + 2);
    } else {
      const std::string value = v                                   ? v->as_string()
                                : p.presence == Presence::defaulted ? p.default_text + " (default)"
                                                                    : "-";
      out += pad + key + value + "  # " + p.help + "\n";
    }
  }
  return out;
}

}  // namespace lightcode
