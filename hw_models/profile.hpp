#pragma once
// A profile: the rules a simulation follows beyond the hardware's own cost models, as one
// registered object (`lightcode list profiles`; a scenario's `profile:`). `default` is
// physically sound (hw_models/default_profile.cpp); `lightcode` reproduces the original
// LightCode (hw_models/lightcode/lightcode_profile.cpp, docs/LIGHTCODE_PROFILE.md). Which cost
// model a family uses under a profile is the family's registration (FamilyInfo::
// profile_models); everything else a profile changes is asked of it here. Code above
// hw_models/ asks these questions and never compares a profile's name.
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "hw_models/capabilities.hpp"
#include "hw_models/link/link_spec.hpp"
#include "hw_models/transfer_model.hpp"
#include "sim/core/params.hpp"
#include "sim/core/quantity.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::hw {

class Registry;
struct UnitInfo;

class Profile {
 public:
  virtual ~Profile() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;

  // Graphs: the input type a consumer of a multi-output producer reads (and what a transfer
  // of that input moves); entry0 is the original's shortcut, every input reading output 0.
  virtual ir::InputTypeRule input_rule() const { return ir::InputTypeRule::own_entry; }

  // Systems: where the system files made for it live, under configs/systems/ ("": that
  // folder itself; else a subfolder). A system file used under the wrong profile names its
  // counterpart there.
  virtual std::string_view systems_folder() const { return ""; }
  // Units every system gets besides its own (the lightcode profile's `start`).
  virtual void add_units(std::vector<UnitInfo>& /*units*/, const Registry& /*registry*/) const {}
  // Whether the system's `links:` are read (a profile with a fixed transfer table has no use
  // for them, and a key no one reads is an error).
  virtual bool reads_links() const { return true; }
  // How tensors move between the units' types, from the system's links. A profile that takes
  // figures from the units' specs reads them through `usage` (the unread-key check).
  virtual std::unique_ptr<TransferModel> make_transfers(const std::vector<UnitInfo>& units,
                                                        const std::vector<LinkSpec>& links,
                                                        ConfigUsage& usage) const = 0;
  // Whether the links are channels transfers queue on (event fidelity, contention on);
  // otherwise transfers take their model time.
  virtual bool links_queue() const { return true; }

  // Optimizer: each subgraph begins with a task on the `start` unit, the producer of every
  // task without a producer inside the subgraph (the original's per-subgraph `start` node).
  virtual bool start_tasks() const { return false; }
  // Expansion of a photonic product: whether the SRAM split -> product and product -> SRAM
  // merge edges move the operands and the result (the original charges them nothing).
  virtual bool expansion_edges_move_data() const { return true; }
  // Whether placement is decided with the schedule (sim/joint: every placement tried is
  // expanded, scheduled and charged as the report charges it); else the sum selection alone
  // (opt::place: the original's sum of op and edge costs per subgraph).
  virtual bool places_with_schedule() const { return true; }
  // The partition rule (sim/opt/partition.hpp's registry) the optimizer cuts graphs with.
  virtual std::string_view partition_rule() const { return "articulation"; }

  // Scheduling: the policy used unless a scenario names one (sim/sched/policy.hpp).
  virtual std::string_view default_scheduler() const { return "list"; }
  // Built-in models: whether prefill projects every prompt token to logits (the original's
  // TVM graphs do) unless a scenario says `logits:`; else the last token only.
  virtual bool logits_for_every_token() const { return false; }
  // Whether units may run fused kernels (sim/ir/fusion.hpp) where their models offer them; the
  // original ran every op as its own kernel.
  virtual bool fuses_kernels() const { return true; }
};

std::unique_ptr<Profile> make_default_profile();

}  // namespace lightcode::hw
