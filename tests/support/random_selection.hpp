#pragma once
// Random selection problems (sim/opt/selection.hpp) for the selector's tests: stacked DAGs
// narrow like a transformer, with residual-like far edges.
#include <algorithm>
#include <random>
#include <vector>

#include "sim/opt/selection.hpp"

namespace lightcode::test {

inline opt::SelectionProblem random_problem(std::mt19937& rng, int n) {
  opt::SelectionProblem p;
  std::uniform_int_distribution<int> cands(1, 3);
  std::uniform_int_distribution<int64_t> time(1, 1000);
  std::uniform_real_distribution<double> energy(0.5, 500.0);
  for (int v = 0; v < n; ++v) {
    std::vector<opt::PairCost> c(static_cast<size_t>(cands(rng)));
    for (auto& x : c) x = {Time::ps(time(rng)), energy(rng)};
    p.node_cost.push_back(std::move(c));
  }
  // Each node reads 1-3 earlier nodes, mostly recent ones (narrow like a transformer),
  // sometimes far back (residuals): branches and merges both appear.
  for (int v = 1; v < n; ++v) {
    const int parents = std::min(v, std::uniform_int_distribution<int>(1, 3)(rng));
    std::vector<int> chosen;
    for (int k = 0; k < parents; ++k) {
      const bool far = std::uniform_int_distribution<int>(0, 4)(rng) == 0;
      const int back = far ? std::uniform_int_distribution<int>(1, v)(rng)
                           : std::uniform_int_distribution<int>(1, std::min(v, 2))(rng);
      const int from = v - back;
      if (std::find(chosen.begin(), chosen.end(), from) != chosen.end()) continue;
      chosen.push_back(from);
      opt::SelectionProblem::Edge e;
      e.from = from;
      e.to = v;
      const size_t pairs = p.node_cost[static_cast<size_t>(from)].size() * p.node_cost[static_cast<size_t>(v)].size();
      for (size_t i = 0; i < pairs; ++i) e.cost.push_back({Time::ps(time(rng)), energy(rng)});
      p.edges.push_back(std::move(e));
    }
  }
  return p;
}


}  // namespace lightcode::test
