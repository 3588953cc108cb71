#include "sim/dataset/schema.hpp"

#include <algorithm>
#include <stdexcept>

namespace lightcode::dataset {
namespace {

constexpr Type T = Type::text, I32 = Type::i32, I64 = Type::i64, F64 = Type::f64;

// Widths of text that several tables share.
constexpr uint32_t kId = 16, kHardwareId = 16, kModel = 192, kModelName = 64, kFamily = 48, kSplit = 12,
                   kStage = 12, kSystem = 128, kFile = 192, kHardware = 16, kShort = 16;

// As results::h5::Layout lays a row out in memory (hdf5_table.cpp): fixed-width text at byte
// alignment, numbers at their size; the row rounded up to 8 bytes.
void lay_out(TableSchema& t) {
  size_t at = 0;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    const Column& c = t.columns[i];
    if (c.index != i) throw std::logic_error("dataset table '" + std::string(t.name) + "': column '" + std::string(c.name) + "' out of place");
    if ((c.type == Type::text) != (c.width > 0)) throw std::logic_error("dataset column '" + std::string(c.name) + "': width");
    const size_t size = c.type == Type::text ? c.width : c.type == Type::i32 ? 4 : 8;
    const size_t align = c.type == Type::text ? 1 : size;
    at = (at + align - 1) / align * align;
    t.offsets.push_back(at);
    at += size;
  }
  t.row_size = std::max<size_t>((at + 7) / 8 * 8, 8);
}

TableSchema make(std::string_view name, std::string_view doc, std::vector<Column> columns, size_t count) {
  if (columns.size() != count) throw std::logic_error("dataset table '" + std::string(name) + "': column count");
  TableSchema t{name, doc, std::move(columns), {}, 0};
  lay_out(t);
  return t;
}

TableSchema points_table() {
  namespace c = points_col;
  return make(
      "points",
      "One row per point of the scenario, in scenario order, whether it ran or failed: the status table. A failed "
      "point has its error and no record in the other tables; the others go on.",
      {{c::point, "point", I64, 0, "", "index of the point in the scenario (0-based); the key of the other tables' `point`"},
       {c::point_id, "point_id", T, kId, "", "its id, p0000 ..."},
       {c::status, "status", T, 8, "", "ok or failed"},
       {c::error, "error", T, 512, "", "why it failed (cut to 512 bytes, ending in '...'); empty when ok"},
       {c::stage, "stage", T, kStage, "", "prefill, decode, generate or serve"},
       {c::model, "model", T, kModel, "", "built-in model name or TVM graph file, relative to the scenario (cut to 192 bytes)"},
       {c::family, "family", T, kFamily, "", "model family: the config's model_type (gpt2, llama, opt, bert, vit); a graph file's stem"},
       {c::split, "split", T, kSplit, "", "train, validation or test: the family's (see `split_rule`)"},
       {c::system, "system", T, kSystem, "", "the system's name (serve: the replicas' names joined by ' + '; cut to 128 bytes)"},
       {c::system_file, "system_file", T, kFile, "", "the system file relative to the scenario (serve: the replicas', joined by ' + '; cut to 192 bytes)"},
       {c::objective, "objective", T, 8, "", "time, energy or edp"},
       {c::profile, "profile", T, kShort, "", "default or lightcode"},
       {c::scheduler, "scheduler", T, kShort, "", "the scheduling policy that timed it"},
       {c::fidelity, "fidelity", T, kStage, "", "analytical or event"},
       {c::sequence_length, "sequence_length", I64, 0, "tokens", "the scenario's sequence_length (0 for serve)"},
       {c::new_tokens, "new_tokens", F64, 0, "tokens", "stage generate: tokens generated; NaN otherwise"},
       {c::parameters, "parameters", T, 512, "", "the sweep axes' values, 'name=value; ...' (cut to 512 bytes)"},
       {c::seed, "seed", T, 24, "", "serve points with generated requests: the generator's seed; empty otherwise"},
       {c::graphs, "graphs", I64, 0, "", "rows it has in /graphs"},
       {c::ops, "ops", I64, 0, "", "rows it has in /ops"},
       {c::iterations, "iterations", I64, 0, "", "rows it has in /iterations"},
       {c::makespan_s, "makespan_s", F64, 0, "s", "the point's makespan (generate: every step; serve: the run); NaN when failed"},
       {c::energy_pj, "energy_pj", F64, 0, "pJ", "the point's energy, static power included; NaN when failed"},
       {c::ttft_s, "ttft_s", F64, 0, "s", "generate: time to first token; NaN otherwise"},
       {c::tpot_s, "tpot_s", F64, 0, "s", "generate: mean time per output token after the first; NaN otherwise"},
       {c::energy_per_token_pj, "energy_per_token_pj", F64, 0, "pJ", "generate and serve: energy per output token; NaN otherwise"},
       {c::requests, "requests", F64, 0, "", "serve: requests; NaN otherwise"},
       {c::throughput_tokens_per_s, "throughput_tokens_per_s", F64, 0, "tokens/s", "serve: output tokens per second of the run; NaN otherwise"}},
      c::count);
}

TableSchema graphs_table() {
  namespace c = graphs_col;
  return make(
      "graphs",
      "One row per placed graph: a prefill or decode point's graph; each step of a generate point (step 0 the "
      "prompt's prefill, step t the decode step that feeds token t); each stage of a pipeline-parallel point. Serve "
      "points have no row here (their iterations are priced from graphs that are not recorded).",
      {{c::graph_id, "graph_id", I64, 0, "", "row number: the key of /ops, /edges, /placement and /alternatives"},
       {c::point, "point", I64, 0, "", "its point (/points.point)"},
       {c::point_id, "point_id", T, kId, "", "its point's id"},
       {c::step, "step", I32, 0, "", "its index in the point: generate step, pipeline stage; 0 otherwise"},
       {c::model, "model", T, kModel, "", "as /points.model"},
       {c::family, "family", T, kFamily, "", "model family"},
       {c::split, "split", T, kSplit, "", "train, validation or test"},
       {c::stage, "stage", T, kStage, "", "prefill or decode: what this graph computes (a generate point's steps too)"},
       {c::batch, "batch", I64, 0, "sequences", "sequences in the graph (1: the built-in graphs of a point are one sequence)"},
       {c::tokens, "tokens", I64, 0, "tokens", "tokens fed: the prompt's for prefill, 1 for decode"},
       {c::context_length, "context_length", I64, 0, "tokens", "KV-cache tokens attended before these (0 for prefill)"},
       {c::sequence_length, "sequence_length", I64, 0, "tokens", "the point's sequence_length"},
       {c::tensor_parallel, "tensor_parallel", I64, 0, "", "devices a layer is split over (the graph is rank 0's share)"},
       {c::pipeline_parallel, "pipeline_parallel", I64, 0, "", "pipeline stages of the point"},
       {c::system, "system", T, kSystem, "", "the system's name"},
       {c::system_file, "system_file", T, kFile, "", "its file"},
       {c::hardware_ids, "hardware_ids", T, 256, "", "the system's units' /hardware ids, in unit order, comma-separated"},
       {c::objective, "objective", T, 8, "", "what the placement minimised: time, energy or edp"},
       {c::profile, "profile", T, kShort, "", "default or lightcode"},
       {c::scheduler, "scheduler", T, kShort, "", "scheduling policy"},
       {c::fidelity, "fidelity", T, kStage, "", "analytical or event: the timeline the ops' start/end are from"},
       {c::makespan_ps, "makespan_ps", I64, 0, "ps", "the graph's makespan on that timeline: the regression target"},
       {c::makespan_s, "makespan_s", F64, 0, "s", "the same in seconds"},
       {c::energy_pj, "energy_pj", F64, 0, "pJ", "dynamic energy plus every unit's static power over the makespan (the report's total for a one-graph point)"},
       {c::dynamic_energy_pj, "dynamic_energy_pj", F64, 0, "pJ", "the ops' energy and their input transfers'"},
       {c::static_energy_pj, "static_energy_pj", F64, 0, "pJ", "the system's static power x the makespan"},
       {c::tasks, "tasks", I64, 0, "", "rows in /ops"},
       {c::nodes, "nodes", I64, 0, "", "ops placed (tasks less start tasks and repeated cut ops)"},
       {c::macs, "macs", I64, 0, "MAC", "sum of /ops.macs (repeated cut ops once)"},
       {c::flops, "flops", I64, 0, "FLOP", "sum of /ops.flops (repeated cut ops once)"},
       {c::placement, "placement", T, 256, "", "tasks per unit type, 'cpu=812 hbm=488 ...' (details in /placement)"},
       {c::lower_bound, "lower_bound", F64, 0, "objective's", "the joint search's bound on the objective (s, pJ or s*pJ); NaN when not searched or a step of a longer point"},
       {c::gap, "gap", F64, 0, "", "answer / lower_bound - 1; NaN as lower_bound"},
       {c::placement_evaluations, "placement_evaluations", F64, 0, "", "placements the search scheduled and charged; NaN as lower_bound"},
       {c::photonic_selected, "photonic_selected", F64, 0, "", "matrix products placed on a photonic unit; NaN for a step of a longer point"},
       {c::photonic_possible, "photonic_possible", F64, 0, "", "matrix products a photonic unit could run; NaN as above"},
       {c::split_product, "split_product", T, kFile, "", "a product the search split across two units: '<name>: rows ...'; empty when none"},
       {c::alternatives, "alternatives", I64, 0, "", "rows in /alternatives"}},
      c::count);
}

TableSchema ops_table() {
  namespace c = ops_col;
  return make(
      "ops",
      "One row per task of every placed graph, in the graph's task order (topological): an op, a fused kernel, a "
      "photonic product's part or its split/merge on SRAM, a graph input read from memory, a collective, or a "
      "`start` task (lightcode profile). `time_ps` is the cost model's prediction for the task on its unit; "
      "`start_ps`/`end_ps` are where the timeline put it (queueing and dependences included).",
      {{c::record_id, "record_id", I64, 0, "", "row number"},
       {c::graph_id, "graph_id", I64, 0, "", "its graph (/graphs.graph_id)"},
       {c::point, "point", I64, 0, "", "its point (/points.point)"},
       {c::task, "task", I32, 0, "", "its index in the graph (/edges.src and dst)"},
       {c::step, "step", I32, 0, "", "its graph's step (/graphs.step)"},
       {c::name, "name", T, 128, "", "stable readable name: the IR node's, '<node>/mm3' for a product's part"},
       {c::kind, "kind", T, 64, "", "op kind as the graph spells it (dense, matmul, softmax, split_sram, memory, start ...)"},
       {c::node, "node", I32, 0, "", "IR node it implements (a fused kernel: its anchor's); -1 for start tasks"},
       {c::fused, "fused", I32, 0, "", "1 when a fused kernel (several IR ops as one kernel), else 0"},
       {c::covers, "covers", I32, 0, "", "IR ops it runs: a fused kernel's members, else 1 (0 for start tasks)"},
       {c::kernel_class, "kernel_class", T, kStage, "", "fused kernels: gemm, attention, norm, rope or activation; empty otherwise"},
       {c::fusion_rule, "fusion_rule", T, kShort, "", "fused kernels: the rule that proposed it; empty otherwise"},
       {c::inputs, "inputs", I32, 0, "", "operands it reads (a fused kernel: its external operands)"},
       {c::input_shapes, "input_shapes", T, 256, "", "operand shapes, space-separated: '[1, 150, 768] [768, 768]'"},
       {c::output_shapes, "output_shapes", T, 128, "", "result shapes, space-separated"},
       {c::dtype, "dtype", T, kStage, "", "operand 0's dtype (the result's when it has no operand)"},
       {c::output_dtype, "output_dtype", T, kStage, "", "result 0's dtype (empty when none)"},
       {c::input_elements, "input_elements", I64, 0, "", "elements of every operand"},
       {c::output_elements, "output_elements", I64, 0, "", "elements of every result"},
       {c::input_bytes, "input_bytes", I64, 0, "B", "bytes of every operand"},
       {c::output_bytes, "output_bytes", I64, 0, "B", "bytes of every result"},
       {c::batch, "batch", F64, 0, "", "matrix products: batch of [m, k] x [k, n] (a product's output elements / (m n)); NaN otherwise"},
       {c::m, "m", F64, 0, "", "matrix products: rows (attention kernels: queries); NaN otherwise"},
       {c::n, "n", F64, 0, "", "matrix products: columns (attention: keys; horizontal GEMMs: summed); NaN otherwise"},
       {c::k, "k", F64, 0, "", "matrix products: the reduced dimension (attention: head dim); NaN otherwise"},
       {c::macs, "macs", I64, 0, "MAC", "multiply-accumulates (attention kernels: both products, full, as the unfused graph counts them)"},
       {c::flops, "flops", I64, 0, "FLOP", "2 per MAC plus element-wise work as sim/ir/metrics.hpp counts it (a fused norm's reduction: one per element read)"},
       {c::hardware, "hardware", T, kHardware, "", "unit type it ran on, the system's name for it: cpu, gpu, phu, hbm, sram, start ..."},
       {c::hardware_family, "hardware_family", T, kHardware, "", "that unit's registered family (cpu, gpu, phu, memory, interconnect, start)"},
       {c::hardware_id, "hardware_id", T, kHardwareId, "", "that unit's /hardware id: join /hardware_parameters for its every parameter"},
       {c::instance, "instance", I32, 0, "", "core or instance of the unit type"},
       {c::algorithm, "algorithm", T, 24, "", "the family's algorithm that runs it (tensor_core, vector, task_parallel ...)"},
       {c::bound, "bound", T, kStage, "", "what limits its time: compute, memory, conversion, latency or power"},
       {c::time_ps, "time_ps", I64, 0, "ps", "predicted time on its unit (the cost model's; the regression target)"},
       {c::time_s, "time_s", F64, 0, "s", "the same in seconds"},
       {c::start_ps, "start_ps", I64, 0, "ps", "start on the graph's timeline (from the graph's start)"},
       {c::end_ps, "end_ps", I64, 0, "ps", "end on the graph's timeline"},
       {c::energy_pj, "energy_pj", F64, 0, "pJ", "its own energy (not its input transfers')"},
       {c::conversion_energy_pj, "conversion_energy_pj", F64, 0, "pJ", "of which DAC/ADC conversion (photonic units)"},
       {c::bytes_read, "bytes_read", I64, 0, "B", "bytes the cost model has it read"},
       {c::bytes_written, "bytes_written", I64, 0, "B", "bytes the cost model has it write"},
       {c::input_transfer_ps, "input_transfer_ps", I64, 0, "ps", "its input transfers' predicted times, summed"},
       {c::input_transfer_energy_pj, "input_transfer_energy_pj", F64, 0, "pJ", "their energy, summed"},
       {c::input_transfer_bytes, "input_transfer_bytes", I64, 0, "B", "bytes they move, summed"},
       {c::subgraph, "subgraph", I32, 0, "", "the partition's subgraph"},
       {c::repeat, "repeat", I32, 0, "", "1: a cut op run again at the start of the next subgraph (lightcode profile)"},
       {c::off_unit, "off_unit", I32, 0, "", "1: a graph output that occupies no unit (lightcode profile)"},
       {c::split_part, "split_part", I32, 0, "", "1: part of a product the search split across two units (/graphs.split_product)"},
       {c::model, "model", T, kModelName, "", "its graph's model: the built-in name or the graph file's stem"},
       {c::family, "family", T, kFamily, "", "its model's family"},
       {c::split, "split", T, kSplit, "", "train, validation or test"}},
      c::count);
}

TableSchema edges_table() {
  namespace c = edges_col;
  return make("edges",
              "One row per operand a task reads from another task of its graph: the dependence graph (ops "
              "`task` ids), with the transfer the placement implies.",
              {{c::graph_id, "graph_id", I64, 0, "", "the graph"},
               {c::src, "src", I32, 0, "", "producer task (/ops.task)"},
               {c::dst, "dst", I32, 0, "", "consumer task"},
               {c::src_hardware, "src_hardware", T, kHardware, "", "producer's unit type"},
               {c::dst_hardware, "dst_hardware", T, kHardware, "", "consumer's unit type"},
               {c::bytes, "bytes", I64, 0, "B", "bytes the transfer moves (0: none, the data stays where it is)"},
               {c::transfer_ps, "transfer_ps", I64, 0, "ps", "predicted transfer time (contention-free)"},
               {c::transfer_energy_pj, "transfer_energy_pj", F64, 0, "pJ", "transfer energy"}},
              c::count);
}

TableSchema placement_table() {
  namespace c = placement_col;
  return make("placement",
              "The placement summary: one row per unit type that runs a task of a graph.",
              {{c::graph_id, "graph_id", I64, 0, "", "the graph"},
               {c::hardware, "hardware", T, kHardware, "", "unit type"},
               {c::hardware_family, "hardware_family", T, kHardware, "", "its family"},
               {c::hardware_id, "hardware_id", T, kHardwareId, "", "its /hardware id"},
               {c::instances, "instances", I64, 0, "", "instances (cores) of it that ran a task"},
               {c::tasks, "tasks", I64, 0, "", "tasks it ran"},
               {c::busy_ps, "busy_ps", I64, 0, "ps", "their timeline durations summed over its instances"},
               {c::utilisation, "utilisation", F64, 0, "", "busy / (makespan x instances that ran a task)"},
               {c::energy_pj, "energy_pj", F64, 0, "pJ", "its tasks' own energy"}},
              c::count);
}

TableSchema alternatives_table() {
  namespace c = alternatives_col;
  return make("alternatives",
              "The alternatives the placement search priced and kept: its archive of non-dominated (makespan, energy) "
              "placements, each expanded, scheduled and charged as the report charges (sim/joint/joint_placement.hpp; "
              "dominated placements it tried are counted in /graphs.placement_evaluations, not kept). Profiles that do "
              "not search (lightcode) have none; a generate point has its prefill step's.",
              {{c::graph_id, "graph_id", I64, 0, "", "the graph"},
               {c::rank, "rank", I32, 0, "", "order by makespan (0: fastest)"},
               {c::origin, "origin", T, 24, "", "how the search found it: sum:time, heft:time, move, exhaustive ..."},
               {c::makespan_ps, "makespan_ps", I64, 0, "ps", "its makespan (analytical)"},
               {c::energy_pj, "energy_pj", F64, 0, "pJ", "its total energy, static power included"},
               {c::edp_s_pj, "edp_s_pj", F64, 0, "s*pJ", "makespan x energy"},
               {c::chosen, "chosen", I32, 0, "", "1 for the archive's minimum of the graph's objective: the answer"}},
              c::count);
}

TableSchema iterations_table() {
  namespace c = iterations_col;
  return make("iterations",
              "Stage serve: one row per serving iteration (a batch step of one replica), in start order.",
              {{c::point, "point", I64, 0, "", "its point"},
               {c::iteration, "iteration", I64, 0, "", "its index in the point"},
               {c::replica, "replica", I32, 0, "", "the replica that ran it"},
               {c::system, "system", T, kSystem, "", "the replica's system name"},
               {c::hardware_ids, "hardware_ids", T, 256, "", "its units' /hardware ids, comma-separated"},
               {c::start_ps, "start_ps", I64, 0, "ps", "start, from the run's start"},
               {c::end_ps, "end_ps", I64, 0, "ps", "end"},
               {c::duration_ps, "duration_ps", I64, 0, "ps", "end - start (host overheads included)"},
               {c::batch, "batch", I64, 0, "sequences", "sequences in the batch"},
               {c::prefill_sequences, "prefill_sequences", I64, 0, "", "of which prefilling (a whole prompt or a chunk)"},
               {c::decode_sequences, "decode_sequences", I64, 0, "", "of which decoding one token"},
               {c::prefill_tokens, "prefill_tokens", I64, 0, "tokens", "prompt tokens fed"},
               {c::decode_tokens, "decode_tokens", I64, 0, "tokens", "decode tokens fed"},
               {c::tokens_produced, "tokens_produced", I64, 0, "tokens", "output tokens it produced"},
               {c::context_tokens, "context_tokens", I64, 0, "tokens", "KV-cache tokens its sequences attended before, summed"},
               {c::max_context, "max_context", I64, 0, "tokens", "the longest of them"},
               {c::kv_used_tokens, "kv_used_tokens", I64, 0, "tokens", "KV cache the replica held during it"},
               {c::energy_pj, "energy_pj", F64, 0, "pJ", "its dynamic energy (host overhead power included; static power is the point's)"},
               {c::model, "model", T, kModelName, "", "the model"},
               {c::family, "family", T, kFamily, "", "its family"},
               {c::split, "split", T, kSplit, "", "train, validation or test"}},
              c::count);
}

TableSchema hardware_table() {
  namespace c = hardware_col;
  return make("hardware",
              "The hardware descriptor table: one row per unit of each system the dataset used (the same unit in two "
              "systems: two rows, one id). `hardware_id` is the first 16 hexadecimal digits of the SHA-256 of the unit's "
              "family and resolved parameters in its table's order (quantities in SI units): equal ids, equal hardware.",
              {{c::hardware_id, "hardware_id", T, kHardwareId, "", "stable id"},
               {c::system, "system", T, kSystem, "", "a system it is a unit of"},
               {c::system_file, "system_file", T, kFile, "", "that system's file"},
               {c::unit, "unit", T, kHardware, "", "its name in the system (cpu, gpu, phu, hbm ...)"},
               {c::unit_type, "unit_type", I32, 0, "", "its index among the system's units"},
               {c::family, "family", T, kHardware, "", "registered family"},
               {c::compute, "compute", I32, 0, "", "1: a compute unit (`units:`), 0: memory or the profile's"},
               {c::devices, "devices", I64, 0, "", "instances of it in the system (`count`)"},
               {c::parameters, "parameters", I64, 0, "", "its rows in /hardware_parameters"}},
              c::count);
}

TableSchema hardware_parameters_table() {
  namespace c = hardware_parameters_col;
  return make("hardware_parameters",
              "Every parameter of every hardware descriptor, long format: one row per (hardware_id, parameter), "
              "nested tables as dotted names, defaults resolved.",
              {{c::hardware_id, "hardware_id", T, kHardwareId, "", "the descriptor"},
               {c::parameter, "parameter", T, 64, "", "key in the family's table (docs/CONFIG.md)"},
               {c::value, "value", F64, 0, "", "the value in SI units (`unit`); NaN for text and lists"},
               {c::unit, "unit", T, kShort, "", "its SI unit (Hz, s, J, W, B, B/s ...); empty for counts and numbers"},
               {c::text, "text", T, 192, "", "the value as the config resolves it (lists as YAML; cut to 192 bytes); ' (default)' marks a default, empty an unset optional key"}},
              c::count);
}

TableSchema families_table() {
  namespace c = families_col;
  return make("families", "One row per model family in the dataset, by name: its split and how it was decided.",
              {{c::family, "family", T, kFamily, "", "model family"},
               {c::split, "split", T, kSplit, "", "train, validation or test"},
               {c::rule, "rule", T, kShort, "", "hash or explicit (--validation-families, --test-families)"},
               {c::hash, "hash", F64, 0, "", "u: the first 8 bytes of SHA-256(family), big-endian, / 2^64"},
               {c::models, "models", T, 512, "", "its models in the dataset as /points.model gives them, comma-separated (cut to 512 bytes)"},
               {c::points, "points", I64, 0, "", "its points"}},
              c::count);
}

TableSchema inputs_table() {
  namespace c = inputs_col;
  return make("inputs",
              "Every file the points were computed from (systems, hardware, device libraries, models, traces), "
              "relative to the scenario's directory, with the SHA-256 of its bytes (sim/sweep/provenance.hpp).",
              {{c::path, "path", T, 256, "", "relative to the scenario's directory (absolute where it has none)"},
               {c::sha256, "sha256", T, 64, "", "SHA-256 of its bytes, hexadecimal"}},
              c::count);
}

// In Table's order.
const std::vector<TableSchema>& tables() {
  static const std::vector<TableSchema> all = {
      points_table(),     graphs_table(),   ops_table(),
      edges_table(),      placement_table(), alternatives_table(),
      iterations_table(), hardware_table(),  hardware_parameters_table(),
      families_table(),   inputs_table()};
  return all;
}

std::string type_text(const Column& c) {
  switch (c.type) {
    case Type::text: return "text[" + std::to_string(c.width) + "]";
    case Type::i32: return "int32";
    case Type::i64: return "int64";
    case Type::f64: return "float64";
  }
  return "";
}

void markdown(std::string& out, const TableSchema& t) {
  out += "### /" + std::string(t.name) + "\n\n" + std::string(t.doc) + "\n\n";
  out += "| column | type | unit | meaning |\n| --- | --- | --- | --- |\n";
  for (const Column& c : t.columns) {
    out += "| `" + std::string(c.name) + "` | " + type_text(c) + " | " + std::string(c.unit) + " | " + std::string(c.doc) + " |\n";
  }
  out += "\n";
}

void markdown_attributes(std::string& out) {
  out += "### Root attributes (provenance)\n\n| attribute | type | meaning |\n| --- | --- | --- |\n";
  for (const Attribute& a : root_attributes()) {
    out += "| `" + std::string(a.name) + "` | " + (a.type == Type::text ? "text" : "int64") + " | " + std::string(a.doc) + " |\n";
  }
  out += "\n";
}

}  // namespace

const std::vector<Attribute>& root_attributes() {
  static const std::vector<Attribute> all = {
      {attr::format, Type::text, "\"lightcode-dataset\": what the file is"},
      {attr::schema_version, Type::i64, "this schema's version"},
      {attr::tool_version, Type::text, "the simulator that wrote it, \"lightcode 0.1.0\""},
      {attr::scenario_name, Type::text, "the scenario's `name`"},
      {attr::scenario, Type::text, "the scenario's YAML text as read"},
      {attr::settings, Type::text, "its command-line settings (`--set key=value`), one per line, in order"},
      {attr::scenario_digest, Type::text,
       "SHA-256 of the scenario text, the settings and every input file's path and SHA-256 (/inputs; "
       "sim/sweep/provenance.hpp): equal digests, equal inputs"},
      {attr::fidelity, Type::text, "the points' fidelities, comma-separated (analytical, event)"},
      {attr::seeds, Type::text, "the seeds of points that draw random numbers (serve's request generator), comma-separated; empty: none does"},
      {attr::split_rule, Type::text, "how a family's split is decided (/families)"},
      {attr::validation_families, Type::text, "families put in validation explicitly, comma-separated"},
      {attr::test_families, Type::text, "families put in test explicitly, comma-separated"},
      {attr::points, Type::i64, "points in the scenario (rows of /points)"},
      {attr::failed_points, Type::i64, "of which failed"},
  };
  return all;
}

const TableSchema& schema(Table t) { return tables().at(static_cast<size_t>(t)); }

std::string schema_markdown() {
  std::string out = "Schema version " + std::to_string(kSchemaVersion) +
                    ". Every table is a one-dimensional HDF5 compound dataset at the file's root; "
                    "`pandas.DataFrame(h5py.File(path)[\"ops\"][:])` loads one (text columns as bytes).\n\n";
  markdown_attributes(out);
  for (const TableSchema& t : tables()) markdown(out, t);
  return out;
}

}  // namespace lightcode::dataset
