#include "sim/dataset/hardware.hpp"

#include <cmath>
#include <limits>

#include "hw_models/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sha256.hpp"
#include "sim/core/units.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/results/parameter_value.hpp"

namespace lightcode::dataset {
namespace {

// A scalar's value in SI units by its parameter's kind; NaN for what is not a number.
double numeric(const Param& p, const std::string& text) {
  try {
    switch (p.kind) {
      case ParamKind::quantity:
        return parse_quantity(text, p.dimension);
      case ParamKind::count:
      case ParamKind::integer:
      case ParamKind::real:
      case ParamKind::fraction: {
        size_t used = 0;
        const double v = std::stod(text, &used);
        return used == text.size() ? v : kNaN;
      }
      case ParamKind::boolean:
        return text == "true" ? 1.0 : text == "false" ? 0.0 : kNaN;
      default:
        return kNaN;
    }
  } catch (const std::exception&) {
    return kNaN;  // not a number of this kind: the text says what it is
  }
}

std::string one_line(std::string yaml) {
  for (char& c : yaml) {
    if (c == '\n') c = ' ';
  }
  while (!yaml.empty() && yaml.back() == ' ') yaml.pop_back();
  return yaml;
}

void walk(const ConfigNode& node, const ParamTable& table, const std::string& prefix,
          std::vector<HardwareParameter>& out) {
  for (const Param& p : table.params) {
    if (p.kind == ParamKind::meta) continue;  // descriptive: says nothing of the hardware
    const std::string key = prefix + p.key;
    const std::optional<ConfigNode> v = node.find(p.key);
    if (p.kind == ParamKind::table && p.nested) {
      walk(v && v->is_map() ? *v : ConfigNode(), *p.nested, key + ".", out);
      continue;
    }
    HardwareParameter h;
    h.name = key;
    h.unit = p.kind == ParamKind::quantity ? std::string(dimension_base_unit(p.dimension)) : "";
    if (v && v->is_scalar()) {
      h.text = v->as_string();
      h.value = numeric(p, h.text);
    } else if (v) {
      h.text = one_line(v->to_yaml(0));
      h.value = kNaN;
    } else if (p.presence == Presence::defaulted) {
      h.value = numeric(p, p.default_text);
      h.text = p.default_text + " (default)";
    } else {
      h.value = kNaN;  // optional and unset: `text` empty
    }
    out.push_back(std::move(h));
  }
}

std::string hardware_id(const std::string& family,
                        const std::vector<HardwareParameter>& parameters) {
  std::string canonical = "family=" + family + "\n";
  for (const HardwareParameter& p : parameters) {
    std::string text = p.text;
    const std::string mark = " (default)";
    if (text.size() >= mark.size() &&
        text.compare(text.size() - mark.size(), mark.size(), mark) == 0) {
      text.resize(text.size() - mark.size());
    }
    canonical +=
        p.name + "=" + (std::isnan(p.value) ? text : results::canonical_real(p.value)) + "\n";
  }
  return sha256_hex(canonical).substr(0, 16);
}

}  // namespace

SystemDescriptor describe_system(const hw::System& system, const std::string& file) {
  SystemDescriptor d;
  d.name = system.name();
  d.file = file;
  for (size_t t = 0; t < system.unit_count(); ++t) {
    const hw::UnitInfo& u = system.unit(static_cast<hw::UnitType>(t));
    UnitDescriptor unit;
    unit.unit = u.name;
    unit.unit_type = static_cast<int32_t>(t);
    unit.family = u.family ? u.family->name : "";
    unit.compute = u.compute;
    unit.devices = u.count;
    if (u.family && u.family->params)
      walk(u.spec, hw::unit_params(*u.family->params), "", unit.parameters);
    unit.id = hardware_id(unit.family, unit.parameters);
    d.ids += (d.ids.empty() ? "" : ",") + unit.id;
    d.units.push_back(std::move(unit));
  }
  return d;
}

void add_hardware_rows(const SystemDescriptor& system, Rows& hardware, Rows& parameters) {
  for (const UnitDescriptor& u : system.units) {
    namespace h = hardware_col;
    const size_t r = hardware.add();
    hardware.set_text(r, h::hardware_id, u.id);
    hardware.set_text(r, h::system, system.name);
    hardware.set_text(r, h::system_file, system.file);
    hardware.set_text(r, h::unit, u.unit);
    hardware.set_i32(r, h::unit_type, u.unit_type);
    hardware.set_text(r, h::family, u.family);
    hardware.set_i32(r, h::compute, u.compute ? 1 : 0);
    hardware.set_i64(r, h::devices, u.devices);
    hardware.set_i64(r, h::parameters, static_cast<int64_t>(u.parameters.size()));
    for (const HardwareParameter& p : u.parameters) {
      namespace q = hardware_parameters_col;
      const size_t row = parameters.add();
      parameters.set_text(row, q::hardware_id, u.id);
      parameters.set_text(row, q::parameter, p.name);
      parameters.set_f64(row, q::value, p.value);
      parameters.set_text(row, q::unit, p.unit);
      parameters.set_text_cut(row, q::text, p.text);
    }
  }
}

const SystemEntry& SystemCache::get(
    const std::string& profile, const std::string& file,
    const std::vector<std::pair<std::string, std::string>>& overrides, const std::string& shown) {
  std::string key = profile + "\n" + file;
  for (const auto& [path, value] : overrides) key += "\n" + path + "=" + value;
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    auto entry = std::make_unique<SystemEntry>();
    entry->system = std::make_shared<const hw::System>(
        hw::System::from_config(sweep::system_config(file, overrides), hw::profile_named(profile)));
    entry->descriptor = describe_system(*entry->system, shown);
    it = entries_.emplace(key, std::move(entry)).first;
  }
  return *it->second;
}

}  // namespace lightcode::dataset
