#pragma once
// The roles a unit plays in a system, so that code above hw_models/ asks for a role
// (System::role_unit) and never for a unit's name:
//   staging   the memory that stages a photonic product's operands: the expansion's split and
//             merge run on it, each 2-D product reads its operands from it and writes its
//             result back (sim/opt/photonic_expansion.hpp); its capacity bounds what stays on
//             chip (the event engine's memory accounting)
//   relay     the memory a transfer between two units without a direct link is stored in and
//             forwarded from (hw_models/link/link_topology.hpp)
//   resident  the memory the graph's inputs (weights, tokens, KV cache) stay resident in
//   start     the unit each subgraph's start task runs on (a profile with start tasks adds it)
// Which units can play a role is a capability of their model (Capabilities::roles: a memory
// by its level); which one does is resolved once, when the system loads (hw_models/system.hpp).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace lightcode::hw {

enum class Role : uint8_t { staging, relay, resident, start };
inline constexpr std::array<Role, 4> kRoles{Role::staging, Role::relay, Role::resident, Role::start};

// The role's key under a system file's `role:` ("staging", ...).
constexpr std::string_view role_key(Role r) {
  switch (r) {
    case Role::staging: return "staging";
    case Role::relay: return "relay";
    case Role::resident: return "resident";
    case Role::start: return "start";
  }
  return "";
}

// A set of roles: the ones a unit can play.
class RoleSet {
 public:
  constexpr RoleSet() = default;
  constexpr RoleSet(std::initializer_list<Role> roles) {
    for (Role r : roles) add(r);
  }
  constexpr void add(Role r) { bits_ = static_cast<uint8_t>(bits_ | bit(r)); }
  constexpr bool has(Role r) const { return (bits_ & bit(r)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(RoleSet o) const { return bits_ == o.bits_; }

 private:
  static constexpr uint8_t bit(Role r) { return static_cast<uint8_t>(1u << static_cast<unsigned>(r)); }
  uint8_t bits_ = 0;
};

}  // namespace lightcode::hw
