#include "sim/app/registry_listing.hpp"

#include "frontend/models/model_config.hpp"
#include "hw_models/registry.hpp"
#include "sim/ir/fusion.hpp"
#include "sim/opt/objective.hpp"
#include "sim/opt/partition.hpp"
#include "sim/sched/policy.hpp"
#include "sim/serve/register_policies.hpp"
#include "sim/stages/stage.hpp"

namespace lightcode::app {
namespace {

std::string describe(const frontend::ModelConfig& m) {
  std::string d = std::to_string(m.num_hidden_layers) + " layers, hidden " + std::to_string(m.hidden_size) + ", " +
                  std::to_string(m.num_attention_heads) + " heads";
  if (m.num_key_value_heads != m.num_attention_heads) d += " (" + std::to_string(m.num_key_value_heads) + " KV)";
  if (m.vocab_size > 0) d += ", vocabulary " + std::to_string(m.vocab_size);
  if (!m.source.empty()) d += " (" + m.source + ")";
  return d;
}

template <class Made>
ListedRegistry policies(std::string key, std::string title, const serve::PolicyList<Made>& list) {
  ListedRegistry r{std::move(key), std::move(title), {}};
  for (const auto& p : list) r.entries.push_back({p.name, p.description, p.params, {}});
  return r;
}

std::vector<ListedRegistry> build() {
  std::vector<ListedRegistry> out;
  ListedRegistry families{"families", "hardware families (`family:` in configs/hardware/*.yaml) and their algorithms", {}};
  for (const auto& f : hw::default_registry().families()) {
    ListedEntry e{f.name, f.description, f.section == hw::Section::internal ? nullptr : f.params, {}};
    for (const auto& a : f.algorithms) e.children.push_back({a.name, a.description, nullptr, {}});
    families.entries.push_back(std::move(e));
  }
  out.push_back(std::move(families));
  ListedRegistry profiles{"profiles", "profiles (`profile:`)", {}};
  for (const auto& p : hw::default_registry().profiles()) {
    profiles.entries.push_back({std::string(p->name()), std::string(p->description()), nullptr, {}});
  }
  out.push_back(std::move(profiles));
  ListedRegistry schedulers{"schedulers", "scheduling policies (`scheduler:`; default: the profile's)", {}};
  for (const auto& p : sched::default_policies().all()) {
    schedulers.entries.push_back({std::string(p->name()), std::string(p->description()), nullptr, {}});
  }
  out.push_back(std::move(schedulers));
  ListedRegistry objectives{"objectives", "objectives (`objective:`)", {}};
  for (const auto& o : opt::objectives()) {
    objectives.entries.push_back(
        {std::string(o.name), std::string(o.description) + " [" + std::string(o.unit) + "]", nullptr, {}});
  }
  out.push_back(std::move(objectives));
  ListedRegistry fusion{"fusion", "fusion rules (fused-kernel candidates; a unit's `fusion:` names those it runs)", {}};
  for (const auto& r : ir::fusion_rules()) {
    fusion.entries.push_back(
        {std::string(r.name), std::string(r.description) + " [" + std::string(ir::kernel_class_name(r.cls)) + "]",
         nullptr, {}});
  }
  out.push_back(std::move(fusion));
  ListedRegistry partitions{"partitions", "partition rules (how a graph is cut into subgraphs; a profile names its rule)", {}};
  for (const auto& r : opt::partition_rules()) {
    partitions.entries.push_back({std::string(r.name), std::string(r.description), nullptr, {}});
  }
  out.push_back(std::move(partitions));
  ListedRegistry stages{"stages", "stages (`stage:` in a scenario) and the keys each reads", {}};
  for (const auto& s : sweep::stages()) stages.entries.push_back({s.name, s.description, s.params, {}});
  out.push_back(std::move(stages));
  const serve::ServePolicies& serving = serve::policies();
  out.push_back(policies("batching", "batching policies (`batching: {policy: ...}` in a serve scenario)", serving.batching));
  out.push_back(policies("dispatch", "dispatch policies (`dispatch:` in a serve scenario)", serving.dispatch));
  out.push_back(policies("arrivals", "arrival processes (`requests: {arrival: ...}`)", serving.arrival));
  out.push_back(policies("lengths", "length distributions (`prompt:` / `output:` `{distribution: ...}`)", serving.length));
  ListedRegistry models{"models", "built-in models (`model:`; configs/models/*.yaml)", {}};
  for (const std::string& name : frontend::builtin_model_names()) {
    models.entries.push_back({name, describe(frontend::builtin_model(name)), nullptr, {}});
  }
  out.push_back(std::move(models));
  return out;
}

}  // namespace

const std::vector<ListedRegistry>& registry_listing() {
  static const std::vector<ListedRegistry> listing = build();
  return listing;
}

}  // namespace lightcode::app
