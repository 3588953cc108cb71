#include "sim/point/point_spec.hpp"

#include <array>

#include "sim/core/error.hpp"

namespace lightcode {
namespace {

template <class Enum, size_t N>
Enum parse_enum(std::string_view name, const std::array<std::pair<Enum, std::string_view>, N>& names,
                std::string_view what) {
  std::string known;
  for (const auto& [value, text] : names) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(text);
  }
  throw Error("unknown " + std::string(what) + " '" + excerpt(std::string(name)) + "' (known: " + known + ")");
}

template <class Enum, size_t N>
std::string_view name_of(Enum e, const std::array<std::pair<Enum, std::string_view>, N>& names) {
  for (const auto& [value, text] : names) {
    if (value == e) return text;
  }
  return "?";
}

constexpr std::array<std::pair<Stage, std::string_view>, 4> kStages{
    {{Stage::prefill, "prefill"}, {Stage::decode, "decode"}, {Stage::generate, "generate"}, {Stage::serve, "serve"}}};
constexpr std::array<std::pair<Fidelity, std::string_view>, 2> kFidelities{
    {{Fidelity::analytical, "analytical"}, {Fidelity::event, "event"}}};
constexpr std::array<std::pair<IterationCostKind, std::string_view>, 2> kIterationCosts{
    {{IterationCostKind::composed, "composed"}, {IterationCostKind::exact, "exact"}}};

}  // namespace

std::string_view stage_name(Stage s) { return name_of(s, kStages); }
std::string_view fidelity_name(Fidelity f) { return name_of(f, kFidelities); }
std::string_view iteration_cost_name(IterationCostKind k) { return name_of(k, kIterationCosts); }
Stage parse_stage(std::string_view name) { return parse_enum(name, kStages, "stage"); }
Fidelity parse_fidelity(std::string_view name) { return parse_enum(name, kFidelities, "fidelity"); }
IterationCostKind parse_iteration_cost(std::string_view name) {
  return parse_enum(name, kIterationCosts, "iteration cost");
}

}  // namespace lightcode
