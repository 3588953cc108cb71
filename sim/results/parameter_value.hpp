#pragma once
// Sweep parameter values are text in memory (as the scenario spells them); results files store
// them as what they are, so that pandas and h5py users get numbers without decoding:
//   an integer ("1400", "-3")                     -> int64
//   any other finite number ("0.5", "1e-05")      -> float64
//   anything else ("../configs/systems/cpu.yaml") -> a UTF-8 string
// Read back, numbers are spelled canonically (std::to_string for integers, the shortest text
// that reads back as the same double otherwise), so "1.0" returns as "1".
#include <cstdint>
#include <string>

namespace lightcode::results {

enum class ParameterKind { integer, real, text };

ParameterKind parameter_kind(const std::string& value);
int64_t parameter_integer(const std::string& value);  // precondition: kind integer
double parameter_real(const std::string& value);      // precondition: kind integer or real
std::string canonical_real(double value);             // shortest round-trip spelling

}  // namespace lightcode::results
