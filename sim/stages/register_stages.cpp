// The one place the stages are registered, in the order `lightcode list stages` shows them.
#include "sim/stages/generate/generate_stage.hpp"
#include "sim/stages/graph/graph_stage.hpp"
#include "sim/stages/serve/serve_stage.hpp"
#include "sim/stages/stage.hpp"

namespace lightcode::sweep {

void register_stages(std::vector<StageInfo>& registry) {
  registry.push_back(prefill_stage());
  registry.push_back(decode_stage());
  registry.push_back(generate_stage());
  registry.push_back(serve_stage());
}

}  // namespace lightcode::sweep
