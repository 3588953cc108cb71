#include "hw_models/system_diagnosis.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::hw {
namespace {

namespace fs = std::filesystem;

// Whether the unit spec `spec` of a system file in `dir`, read as data, inherits `hardware`
// directly (`from:` that file; a file the hardware file itself inherits does not count).
bool uses(const ConfigNode& spec, const fs::path& dir, const fs::path& hardware) {
  if (!spec.is_map() || !spec.has("from") || !spec.at("from").is_scalar()) return false;
  std::error_code ec;
  return fs::equivalent(dir / spec.at("from").as_string(), hardware, ec) && !ec;
}

// The system files in `dir` and its subfolders (one level), sorted.
std::vector<fs::path> system_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  auto add_yaml = [&](const fs::path& folder) {
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      if (e.is_regular_file(ec) && e.path().extension() == ".yaml") out.push_back(e.path());
    }
  };
  if (!fs::is_directory(dir, ec)) return out;
  add_yaml(dir);
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory(ec)) add_yaml(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The simplest system beside a hardware file (in ../systems/) that uses it: top folder first,
// then the fewest units; "" when none does.
std::string system_using(const std::string& hardware_file) {
  const fs::path hardware(hardware_file);
  const fs::path dir = (hardware.parent_path().empty() ? fs::path(".") : hardware.parent_path()) / ".." / "systems";
  using Rank = std::tuple<bool, size_t, std::string>;  // in a subfolder, units, path
  std::optional<Rank> best;
  for (const fs::path& file : system_files(dir)) {
    try {
      const ConfigNode sys = ConfigNode::parse_data(
          read_input_file(file.string(), "system file", limits::kConfigFileBytes), file.string());
      size_t units = 0;
      bool found = false;
      for (const char* section : {"units", "memory"}) {
        if (!sys.is_map() || !sys.has(section) || !sys.at(section).is_map()) continue;
        for (const std::string& key : sys.at(section).keys()) {
          ++units;
          found = found || uses(sys.at(section).at(key), file.parent_path(), hardware);
        }
      }
      const Rank rank{file.parent_path() != dir, units, file.lexically_normal().string()};
      if (found && (!best || rank < *best)) best = rank;
    } catch (const Error&) {
      continue;  // a broken neighbour is not this file's business
    }
  }
  return best ? std::get<2>(*best) : "";
}

// The folder of `profile`'s system files beside `root_folder` (configs/systems/).
fs::path folder_of(const fs::path& root_folder, const Profile& profile) {
  const std::string_view sub = profile.systems_folder();
  return sub.empty() ? root_folder : root_folder / std::string(sub);
}

}  // namespace

void reject_hardware_file(const ConfigNode& root, const Registry& registry) {
  if (!root.is_map() || !root.has("family") || root.has("units")) return;
  const ConfigNode family = root.at("family");
  const std::string name = family.is_scalar() ? family.as_string() : "?";
  // How a system would take this file: a memory under `memory:` keyed by its level, a compute
  // unit under `units:` keyed by its family.
  const FamilyInfo* info = registry.find(name);
  const bool memory = info && info->section == Section::memory;
  const std::string key = memory && root.has("level") && root.at("level").is_scalar() ? root.at("level").as_string() : name;
  const std::string entry = std::string(memory ? "memory" : "units") + ": {" + key +
                            ": {from: ../hardware/" + fs::path(root.file()).filename().string() + "}}";
  const std::string example = system_using(root.file());
  family.fail("this is a hardware file (family: " + name +
              "), not a system file; a system file lists its compute units under `units:` and its "
              "memories under `memory:`, each taken from a hardware file (`" + entry +
              "`), and the `links:` between them; " +
              (example.empty() ? "see configs/systems/*.yaml" : "see " + example + ", which uses this one"));
}

Error made_for_other_profile(const ConfigNode& root, const Profile& used, const Profile& made_for,
                             const Error& error) {
  const fs::path file = fs::path(root.file()).lexically_normal();
  const std::string u(used.name()), m(made_for.name());
  // The folder the file's profile keeps its systems in is a subfolder of configs/systems/,
  // or that folder itself: the counterpart has the same name in `used`'s folder.
  fs::path dir = file.parent_path();
  const std::string_view sub = made_for.systems_folder();
  const bool known_layout = sub.empty() || dir.filename() == std::string(sub);
  if (!sub.empty() && known_layout) dir = dir.parent_path();
  std::string advice;
  if (known_layout) {
    const fs::path counterpart = (folder_of(dir, used) / file.filename()).lexically_normal();
    std::error_code ec;
    advice = fs::is_regular_file(counterpart, ec)
                 ? "use " + counterpart.string() + ", the same system made for it"
                 : "write " + counterpart.string() + ", the same system made for it (there is none yet)";
  } else {
    advice = "use a system file made for it (configs/systems/" +
             (used.systems_folder().empty() ? "" : std::string(used.systems_folder()) + "/") + "*.yaml)";
  }
  return Error(SourcePlace{file.string(), 0, 0, ""},
               "this system file is made for profile '" + m + "' (it loads under that profile, not under '" + u +
                   "' used here): for profile '" + u + "' " + advice + "; or run profile '" + m +
                   "'. Under profile '" + u + "' it fails: " + error.what());
}

}  // namespace lightcode::hw
