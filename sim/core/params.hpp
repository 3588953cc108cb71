#pragma once
// Parameters declared once. Every key of every config file kind (a hardware family, a link,
// a system, a model, a scenario) is one `Param` of a `ParamTable`: key, type (a physical
// dimension with its sign rule and an optional upper bound, a count with its limit, a number, a
// choice, a nested table), default or "required", one-line doc. A duration must also fit a Time
// (integer picoseconds, 106 days): one that does not is an error at its key, for every table.
// The same declaration drives
//   - parsing: `Params` reads a mapping through its table (unknown keys rejected with a
//     suggestion; each value checked against its type; absent keys take the default, which is
//     parsed by the same parser, so a default can never be malformed unnoticed);
//   - usage: every value read is recorded in a `ConfigUsage`; `check_all_read` then reports a
//     key that is set but that the model and profile in use never read, naming file, line and
//     key (as VCML's property broker reports unused properties);
//   - documentation: `table_markdown` renders docs/CONFIG.md and `hw show` prints the keys.
// A `meta` param (name, description, provenance of a fit) is informational: never "unread".
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/units.hpp"

namespace lightcode {

struct ParamTable;

enum class ParamKind {
  quantity,  // a number with a unit of `dimension`
  count,     // an integer from 1 to `limit`
  integer,   // an integer >= 0
  real,      // a plain number
  fraction,  // a number in (0, 1]
  boolean,   // true / false
  text,      // a string
  choice,    // one of `choices`
  table,     // a mapping read through `nested`
  tables,    // a list of mappings, each read through `nested`
  list,      // a list of plain values (file paths, names), parsed by the caller
  named,     // a mapping of user-chosen names to mappings read through `nested` (nullptr: any)
  meta,      // informational text or number: parsed by no model, never reported unread
};

enum class Sign { positive, non_negative, any };
enum class Presence { required, defaulted, optional };  // optional: absent means what `doc` says

struct Param {
  std::string key;
  ParamKind kind = ParamKind::text;
  Presence presence = Presence::optional;
  std::string default_text;  // for Presence::defaulted, in the file's own syntax ("20 GB/s")
  std::string help;          // the one-line doc
  Dimension dimension = Dimension::duration;  // quantity
  Sign sign = Sign::non_negative;             // quantity, real
  std::optional<double> most;                 // quantity, real: the largest value (SI units)
  std::string most_why;                       // why, for the error
  const Limit* limit = nullptr;               // count; integer (when bounded)
  std::vector<std::string> choices;           // choice
  const ParamTable* nested = nullptr;         // table, tables, named
  // When a reader reads the key only in some cases ("a TVM graph file for model"): said when
  // the key is set but nothing read it. Whether it was read is ConfigUsage's to decide.
  std::string when;

  // Declarations, one line each: Param::quantity("clock", Dimension::frequency).positive()
  //   .required().doc("core clock").
  static Param quantity(std::string key, Dimension d);
  static Param count(std::string key, const Limit& limit);
  static Param integer(std::string key);
  static Param integer(std::string key, const Limit& limit);  // 0 .. limit.value
  static Param real(std::string key);
  static Param fraction(std::string key);
  static Param boolean(std::string key);
  static Param text(std::string key);
  static Param choice(std::string key, std::vector<std::string> choices);
  static Param table(std::string key, const ParamTable& nested);
  static Param tables(std::string key, const ParamTable& nested);
  static Param list(std::string key);
  static Param named(std::string key, const ParamTable* nested);
  static Param meta(std::string key);

  Param&& positive() &&;
  Param&& signed_() &&;  // any sign (a fitted offset)
  // An upper bound (SI units), shown in the docs' type column; `why` is added to the error
  // (".at_most(100, \"beyond it ...\")").
  Param&& at_most(double most, std::string why = "") &&;
  Param&& required() &&;
  Param&& fallback(std::string default_text) &&;  // the default, parsed as a value would be
  Param&& doc(std::string text) &&;
  Param&& read_when(std::string condition) &&;

  std::string type_text() const;      // "frequency (Hz)", "count (1..65536)", "table cpu.fit"
  std::string default_label() const;  // "required", "20 GB/s", "none"
};

struct ParamTable {
  std::string name;  // "cpu", "link", "cpu.fit" ... (anchors in docs/CONFIG.md)
  std::string doc;   // a paragraph for docs/CONFIG.md
  std::vector<Param> params;

  const Param* find(std::string_view key) const;
  std::vector<std::string> keys() const;
};

// Which values of config trees were read (by identity of the value, so `from:`-merged trees
// and sweep copies are told apart).
class ConfigUsage {
 public:
  void mark(const ConfigNode& n) { read_.insert(n.identity()); }
  bool was_read(const ConfigNode& n) const { return read_.count(n.identity()) > 0; }

 private:
  std::unordered_set<const void*> read_;
};

// A mapping read through its table. Construction checks it is a mapping with only declared
// keys. Typed getters check the value, record it as read and return it in SI units; an absent
// key yields the default (required: an error naming the key). Asking for a key the table does
// not declare, or with the wrong getter, is a programming error (std::logic_error).
class Params {
 public:
  Params(const ConfigNode& node, const ParamTable& table, ConfigUsage& usage);

  const ConfigNode& node() const { return node_; }
  const ParamTable& table() const { return *table_; }
  ConfigUsage& usage() const { return *usage_; }
  bool has(std::string_view key) const;
  ConfigNode at(std::string_view key) const;  // the value, for an error about it (not a read)

  double quantity(std::string_view key) const;
  std::optional<double> quantity_if(std::string_view key) const;  // optional params
  int64_t count(std::string_view key) const;
  std::optional<int64_t> count_if(std::string_view key) const;
  int64_t integer(std::string_view key) const;
  double real(std::string_view key) const;
  double fraction(std::string_view key) const;
  bool boolean(std::string_view key) const;
  std::string text(std::string_view key) const;
  std::optional<std::string> text_if(std::string_view key) const;
  // A text value naming a file, resolved against the directory of the file it was written in
  // (ConfigNode::base_dir; the table's default against this mapping's).
  std::string path(std::string_view key) const;
  std::optional<std::string> path_if(std::string_view key) const;
  std::string choice(std::string_view key) const;
  std::optional<Params> table_if(std::string_view key) const;
  // Entries of a `named` param in file order (an absent key: none).
  std::vector<std::pair<std::string, Params>> named(std::string_view key) const;
  // Entries (each recorded as read), for a caller that parses the values itself.
  std::vector<std::pair<std::string, ConfigNode>> named_nodes(std::string_view key) const;
  std::vector<Params> tables(std::string_view key) const;
  // The items of a `list` param (each recorded as read); absent: none, required: an error.
  std::vector<ConfigNode> list(std::string_view key) const;
  // Records a value as read that the caller interprets itself (e.g. a `none` marker).
  void mark(std::string_view key) const;

 private:
  const Param& param(std::string_view key, std::initializer_list<ParamKind> kinds) const;
  // The value to parse: the node's, or the default parsed from text; nullopt for optional.
  std::optional<ConfigNode> value(const Param& p) const;

  ConfigNode node_;
  const ParamTable* table_;
  ConfigUsage* usage_;
};

// Every key of `node` that is set but was not read, as an Error at its file and line:
// "key 'l2' is set but not read by <reader>". Nested tables are walked.
// A key that is absent from `table` but was read (through the table of a policy that the
// mapping chooses) passes, and so must every key below it.
void check_all_read(const ConfigNode& node, const ParamTable& table, const ConfigUsage& usage,
                    const std::string& reader);
// The same with the reader named per key: `reader("batching.timeout")` says who would read it
// ("this scenario (no point has stage: serve)").
using ReaderText = std::function<std::string(const std::string& key_path)>;
void check_all_read(const ConfigNode& node, const ParamTable& table, const ConfigUsage& usage,
                    const ReaderText& reader, const std::string& prefix = "");

// Checks `value`, a scalar that stands for a value of `p` outside the mapping Params reads (an
// item of a sweep axis's list), as Params checks a value of `p`; errors at the value's place.
// Whether it counts as read is the caller's to record (ConfigUsage::mark).
void check_value(const Param& p, const ConfigNode& value);

// Checks every default of the table (and the tables nested in it) parses as its type;
// returns the problems, one line each ("cpu.gemm_efficiency: default '2' is not ...").
std::vector<std::string> check_defaults(const ParamTable& table);

// A Markdown section for docs/CONFIG.md: one row per key (type and unit, default, meaning),
// then a subsection per nested table not yet rendered (`seen` holds their names).
std::string table_markdown(const ParamTable& table, std::vector<std::string>& seen);
// For `lightcode hw show`: one line per key of the table, its value in `node` (or the default),
// and its doc.
std::string table_text(const ConfigNode& node, const ParamTable& table, int indent);

}  // namespace lightcode
