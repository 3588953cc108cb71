#include "sim/dataset/records.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <mutex>

#include "hw_models/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/stages/stage.hpp"

namespace lightcode::dataset {
namespace {

// Stage serve memoises its iteration costs in one process-wide table (sim/stages/serve): its
// points run one at a time here. The figures do not depend on which ran first.
std::mutex g_serve_mutex;

std::string parameters_text(const sweep::PointSpec& p) {
  std::string s;
  for (const auto& [name, value] : p.parameters) s += (s.empty() ? "" : "; ") + name + "=" + value;
  return s;
}

// The /points row every point has, ok or failed; figures NaN until the run fills them.
void add_point_row(const sweep::PointSpec& p, size_t index, const detail::PointLabels& l,
                   const RecordContext& c, PointRecords& out) {
  namespace k = points_col;
  Rows& rows = out.at(Table::points);
  const size_t r = rows.add();
  rows.set_i64(r, k::point, static_cast<int64_t>(index));
  rows.set_text(r, k::point_id, p.id);
  rows.set_text(r, k::status, "failed");
  rows.set_text(r, k::stage, stage_name(p.stage));
  rows.set_text_cut(r, k::model, detail::shown_path(p.model, c.scenario_dir));
  rows.set_text_cut(r, k::family, l.family);  // a row a failed point must have: cut, never refused
  rows.set_text(r, k::split, l.split);
  std::string file = p.system;
  if (p.stage == Stage::serve) {
    file.clear();
    for (const sweep::ServeReplica& replica : p.serve.replicas) {
      file += (file.empty() ? "" : " + ") + detail::shown_path(replica.system, c.scenario_dir);
    }
  } else {
    file = detail::shown_path(file, c.scenario_dir);
  }
  rows.set_text_cut(r, k::system_file, file);
  rows.set_text(r, k::objective, p.objective);
  rows.set_text(r, k::profile, p.profile);
  rows.set_text(r, k::scheduler, p.scheduler);
  rows.set_text(r, k::fidelity, fidelity_name(p.fidelity));
  rows.set_i64(r, k::sequence_length, p.sequence_length);
  rows.set_f64(r, k::new_tokens,
               p.stage == Stage::generate ? static_cast<double>(p.new_tokens) : kNaN);
  rows.set_text_cut(r, k::parameters, parameters_text(p));
  if (p.stage == Stage::serve && p.serve.generated)
    rows.set_text(r, k::seed, std::to_string(p.serve.generator.seed));
  for (size_t col : {k::makespan_s, k::energy_pj, k::ttft_s, k::tpot_s, k::energy_per_token_pj,
                     k::requests, k::throughput_tokens_per_s}) {
    rows.set_f64(r, col, kNaN);
  }
}

void fill_point_figures(const sweep::PointSpec& p, const results::PointSummary& s,
                        PointRecords& out) {
  namespace k = points_col;
  Rows& rows = out.at(Table::points);
  rows.set_text(0, k::status, "ok");
  rows.set_text_cut(0, k::system, s.system);
  rows.set_text(0, k::scheduler, s.scheduler);
  rows.set_text(0, k::fidelity, s.fidelity);
  rows.set_i64(0, k::graphs, static_cast<int64_t>(out.at(Table::graphs).size()));
  rows.set_i64(0, k::ops, static_cast<int64_t>(out.at(Table::ops).size()));
  rows.set_i64(0, k::iterations, static_cast<int64_t>(out.at(Table::iterations).size()));
  rows.set_f64(0, k::makespan_s, s.makespan_s);
  rows.set_f64(0, k::energy_pj, s.energy_pj);
  if (s.parts & results::kGenerationFigures) {
    rows.set_f64(0, k::ttft_s, s.ttft_s);
    rows.set_f64(0, k::tpot_s, s.tpot_s);
  }
  if (s.parts & results::kPerTokenEnergy)
    rows.set_f64(0, k::energy_per_token_pj, s.energy_per_token_pj);
  if (p.stage == Stage::serve) {
    rows.set_f64(0, k::requests, static_cast<double>(s.requests));
    rows.set_f64(0, k::throughput_tokens_per_s, s.throughput_tokens_per_s);
  }
}

void add_iteration_records(const sweep::PointSpec& p, size_t index, const sweep::PointRun& run,
                           const detail::PointLabels& l, const RecordContext& c,
                           PointRecords& out) {
  // Each replica's system (its overrides: the point's when it is the point's system).
  std::vector<const SystemEntry*> replicas;
  for (const sweep::ServeReplica& r : p.serve.replicas) {
    static const std::vector<std::pair<std::string, std::string>> none;
    const SystemEntry& e = c.systems->get(p.profile, r.system, r.point_system ? p.overrides : none,
                                          detail::shown_path(r.system, c.scenario_dir));
    replicas.push_back(&e);
    add_hardware_rows(e.descriptor, out.at(Table::hardware), out.at(Table::hardware_parameters));
  }
  namespace k = iterations_col;
  Rows& rows = out.at(Table::iterations);
  rows.reserve(run.iterations.size());
  for (size_t i = 0; i < run.iterations.size(); ++i) {
    const serve::IterationRecord& it = run.iterations[i];
    const SystemDescriptor& system = replicas.at(it.replica)->descriptor;
    int64_t prefill = 0, decode = 0, prefill_tokens = 0, decode_tokens = 0, produced = 0,
            context = 0, longest = 0;
    for (const serve::SlotRecord& s : it.slots) {
      (s.decode ? decode : prefill) += 1;
      (s.decode ? decode_tokens : prefill_tokens) += s.new_tokens;
      produced += s.produced_token ? 1 : 0;
      context += s.context;
      longest = std::max(longest, s.context);
    }
    const size_t r = rows.add();
    rows.set_i64(r, k::point, static_cast<int64_t>(index));
    rows.set_i64(r, k::iteration, static_cast<int64_t>(i));
    rows.set_i32(r, k::replica, static_cast<int32_t>(it.replica));
    rows.set_text_cut(r, k::system, system.name);
    rows.set_text(r, k::hardware_ids, system.ids);
    rows.set_i64(r, k::start_ps, it.start.count_ps());
    rows.set_i64(r, k::end_ps, it.end.count_ps());
    rows.set_i64(r, k::duration_ps, (it.end - it.start).count_ps());
    rows.set_i64(r, k::batch, static_cast<int64_t>(it.slots.size()));
    rows.set_i64(r, k::prefill_sequences, prefill);
    rows.set_i64(r, k::decode_sequences, decode);
    rows.set_i64(r, k::prefill_tokens, prefill_tokens);
    rows.set_i64(r, k::decode_tokens, decode_tokens);
    rows.set_i64(r, k::tokens_produced, produced);
    rows.set_i64(r, k::context_tokens, context);
    rows.set_i64(r, k::max_context, longest);
    rows.set_i64(r, k::kv_used_tokens, it.kv_used);
    rows.set_f64(r, k::energy_pj, it.energy.picojoules());
    rows.set_text(r, k::model, l.model_name);
    rows.set_text(r, k::family, l.family);
    rows.set_text(r, k::split, l.split);
  }
}

}  // namespace

PointRecords::PointRecords() {
  tables.reserve(kStreamedTables);
  for (size_t t = 0; t < kStreamedTables; ++t) tables.emplace_back(static_cast<Table>(t));
}

namespace detail {

std::string shown_path(const std::string& path, const std::string& dir) {
  namespace fs = std::filesystem;
  if (path.empty() || dir.empty() || !fs::path(path).has_parent_path()) return path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec).lexically_normal();
  const fs::path base = fs::absolute(dir, ec).lexically_normal();
  const fs::path relative = absolute.lexically_relative(base);
  return relative.empty() ? path : relative.string();
}

PointLabels labels(const sweep::PointSpec& point, const RecordContext& context) {
  const ModelFamily m = model_family(point.model);
  return {m.name, m.family, std::string(split_name(split_of(m.family, context.split)))};
}

}  // namespace detail

PointRecords records_of_run(const sweep::PointSpec& point, size_t index, const sweep::PointRun& run,
                            const RecordContext& context) {
  PointRecords out;
  out.point = index;
  const detail::PointLabels l = detail::labels(point, context);
  add_point_row(point, index, l, context, out);
  if (point.stage == Stage::serve) {
    add_iteration_records(point, index, run, l, context, out);
  } else {
    const SystemEntry& system =
        context.systems->get(point.profile, point.system, point.overrides,
                             detail::shown_path(point.system, context.scenario_dir));
    add_hardware_rows(system.descriptor, out.at(Table::hardware),
                      out.at(Table::hardware_parameters));
    detail::add_graph_records(point, run, system, l, context, out);
  }
  fill_point_figures(point, run.result.summary, out);
  out.ok = true;
  return out;
}

PointRecords failed_records(const sweep::PointSpec& point, size_t index,
                            const RecordContext& context, const std::string& error) {
  PointRecords out;
  out.point = index;
  detail::PointLabels l;
  try {
    l = detail::labels(point, context);
  } catch (const Error&) {
    // An unknown model has no family: its row says why it failed.
  }
  add_point_row(point, index, l, context, out);
  out.at(Table::points).set_text_cut(0, points_col::error, error);
  return out;
}

PointRecords point_records(const sweep::PointSpec& point, size_t index,
                           const RecordContext& context) {
  try {
    sweep::PointSpec spec = point;
    // The joint search's archive is what /alternatives records; asking for it changes no figure.
    if (hw::profile_named(spec.profile).places_with_schedule()) spec.pareto = true;
    sweep::PointOptions options;
    options.every_task = true;  // every step's tasks: the graphs' rows
    options.keep_iterations = true;
    options.threads = std::max(1, context.threads);
    sweep::PointRun run;
    if (spec.stage == Stage::serve) {
      const std::lock_guard<std::mutex> lock(g_serve_mutex);
      run = sweep::run_point(spec, options);
    } else {
      run = sweep::run_point(spec, options);
    }
    return records_of_run(point, index, run, context);
  } catch (const Error& e) {
    return failed_records(point, index, context, e.what());
  } catch (const std::exception& e) {
    // A fault of this point alone (an arithmetic limit, memory): recorded, the others go on.
    return failed_records(point, index, context, std::string("internal error: ") + e.what());
  }
}

}  // namespace lightcode::dataset
