#pragma once
// `lightcode validate-photonic`: the figures of device-built PHUs (a `core:` table) as rows of
// the HDF5 file tools/validation_report.py turns into docs/VALIDATION.md's photonic section:
// each file's shape, peak operations per second (a MAC is two), power at full rate with no
// activity factor, static power and area, and the power and area breakdowns by the published
// category names (PhotonicCore::power_breakdown / area_breakdown). The published targets are
// not here: the report reads them from ../shared/reference/photonic/designs.yaml.
// A pure function of the files: the same files give the same rows, in the order given.
#include <string>
#include <vector>

#include "sim/results/validation_file.hpp"

namespace lightcode::validate {

// Throws lightcode::Error (file, line, key) for a file that is not a device-built PHU.
results::PhotonicDesignFile photonic_designs(const std::vector<std::string>& hardware_files);

}  // namespace lightcode::validate
