#pragma once
// Hardware descriptors: every unit of a system with every parameter of its family's table
// (hw_models' ParamTables: nested tables as dotted names, defaults resolved, quantities in SI
// units), and a stable id: the first 16 hexadecimal digits of the SHA-256 of the family's name
// and each parameter as "key=value" in table order (numbers in their shortest round-trip
// spelling, SI units; text as written). The same hardware has the same id in every system,
// file and spelling ("9.7 GHz" or "9700 MHz"); a swept parameter gives another id. The
// descriptive keys (`meta`: name, description, a fit's provenance) are neither rows nor hashed.
//
// SystemCache builds each distinct system (file, overrides, profile) once per process and is
// safe to use from several threads.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/dataset/rows.hpp"

namespace lightcode::dataset {

struct HardwareParameter {
  std::string name;
  double value = 0.0;  // SI units; NaN for text, lists and unset keys
  std::string unit;
  std::string text;
};

struct UnitDescriptor {
  std::string id;
  std::string unit;
  int32_t unit_type = 0;
  std::string family;
  bool compute = true;
  int64_t devices = 1;
  std::vector<HardwareParameter> parameters;
};

struct SystemDescriptor {
  std::string name;
  std::string file;
  std::vector<UnitDescriptor> units;  // by unit type
  std::string ids;                    // the units' ids, comma-separated
};

SystemDescriptor describe_system(const hw::System& system, const std::string& file);

// Rows for /hardware and /hardware_parameters (the writer keeps the first of equal rows).
void add_hardware_rows(const SystemDescriptor& system, Rows& hardware, Rows& parameters);

struct SystemEntry {
  std::shared_ptr<const hw::System> system;
  SystemDescriptor descriptor;
};

class SystemCache {
 public:
  // The system of `file` with `overrides` under `profile`, built on first use; its descriptor
  // names the file `shown` (relative to the scenario, so that files do not depend on where the
  // checkout is).
  const SystemEntry& get(const std::string& profile, const std::string& file,
                         const std::vector<std::pair<std::string, std::string>>& overrides,
                         const std::string& shown);

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<SystemEntry>> entries_;
};

}  // namespace lightcode::dataset
