#pragma once
// What one simulation point produced, as plain data: the headline summary (the seed table's
// columns and more), the schedule (one row per task), per-unit statistics, the energy
// breakdown and the memory profile. Writers (HDF5, console, trace, listing) read only this.
// Units: times are Time (integer picoseconds; written as *_ps columns), seconds where a field
// says _s, energy in pJ.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/quantity.hpp"

namespace lightcode::results {

struct TaskRecord {
  int64_t id = 0;            // task id after expansion (dense, in schedule order of creation)
  std::string name;          // stable, readable: "<node name>" or "<node name>/mm3"
  std::string op;            // kind name: dense, matmul, matrix_matrix, split_sram, ...
  std::string hardware;      // unit type name in the system: cpu, gpu, phu, hbm, sram, start
  int32_t unit = 0;          // core / instance index within the unit type
  int64_t node = -1;         // ir node it came from (-1 for start nodes)
  int32_t subgraph = -1;
  Time start;
  Time end;
  double energy_pj = 0.0;    // the task's own energy (not its input transfers)
  std::string inputs;        // producer task ids, comma-separated
  std::string outputs;       // shapes of its outputs, e.g. "[1, 150, 768]"
  std::string covers;        // a fused kernel's ir nodes, comma-separated ("" for one op)
  int32_t step = 0;          // stage generate: 0 = the prefill, t = decode step t; else 0
};

struct UnitRecord {
  std::string name;          // "cpu", "phu", ... or a link channel "sram->cpu"
  std::string kind = "unit"; // unit | link
  int32_t index = 0;         // instance
  Time busy;
  double utilisation = 0.0;  // busy / makespan
  double energy_pj = 0.0;    // tasks that ran on it (units) or transfers it carried (links)
  double static_energy_pj = 0.0;  // static power x makespan
  int64_t tasks = 0;         // tasks run, or transfers carried
  int64_t bytes = 0;         // links: bytes carried
  Time queue_delay;          // links: total time transfers waited for the channel
  Time conversion;           // PHU cores: time bound by DAC/ADC conversion
};

struct EnergyRow {
  std::string hardware;      // unit type, or "link" for data movement
  std::string category;      // compute | data_movement | memory | conversion | static
  double energy_pj = 0.0;
};

struct MemorySample {
  Time time;
  int64_t sram_bytes = 0;
  int64_t hbm_bytes = 0;
};

// stage serve: one request as served (sim/serve/simulator.hpp RequestRecord). Times are from the
// start of the run; ttft/tpot/latency repeat what the times say, in seconds, for plotting.
struct RequestRow {
  int64_t id = 0;       // the request's row in the trace, or its order when generated
  int32_t replica = 0;  // the replica it was dispatched to
  int64_t prompt_tokens = 0;
  int64_t output_tokens = 0;
  Time arrival;
  Time first_service;  // start of the first iteration it was part of
  Time first_token;    // end of the iteration that produced its first output token
  Time finish;         // end of the iteration that produced its last one
  double ttft_s = 0.0;
  double tpot_s = 0.0;  // (finish - first token) / (output tokens - 1); 0 for one output token
  double latency_s = 0.0;
  int64_t preemptions = 0;
  // "served", or "rejected" at arrival (its KV peak never fits the replica it was sent to:
  // `reason` says so); a rejected request's first_service, first_token and finish are -1 ps
  // (never) and its ttft_s, tpot_s and latency_s NaN.
  std::string status = "served";
  std::string reason;
};

// stage serve: a replica's queue (dispatched, waiting for admission) and running sequences
// (admitted, holding KV cache) from `time` on; one sample per event that changed either.
struct ServeSample {
  int32_t replica = 0;
  Time time;
  int64_t queue = 0;
  int64_t running = 0;
};

// A point ran (ok) or not (failed: `error` says why). Written as "ok" / "failed".
enum class Status { ok, failed };
const char* status_name(Status s);
Status parse_status(const std::string& text);  // lightcode::Error for another text

// Groups of summary figures a point's stage reports (sim/stages: StageInfo::summary_parts);
// the figures of the other groups do not apply to it: NaN in results files, absent from
// console tables, 0 in memory.
enum SummaryPart : uint32_t {
  kGraphFigures = 1,       // one placed graph or more: sequence_length .. subgraphs_reused
  kGenerationFigures = 2,  // generation: new_tokens, ttft_s, tpot_s
  kServingFigures = 4,     // serving: requests .. preemptions
  kPerTokenEnergy = 8,     // energy_per_token_pj (generation and serving)
};

struct PointSummary {
  std::string id;            // "p0000" ...
  Status status = Status::ok;
  std::string error;         // failure message when status == failed
  uint32_t parts = kGraphFigures;  // SummaryPart bits that apply
  std::vector<std::pair<std::string, std::string>> parameters;  // sweep axes and values
  std::string model;         // model name or graph path
  std::string stage;         // prefill | decode | generate
  int64_t sequence_length = 0;
  std::string system;        // the system's name, e.g. "CPU/PHU"
  std::string objective;
  std::string profile;
  std::string scheduler;     // the scheduling policy that timed it
  std::string fidelity;      // analytical | event
  Time makespan;
  double makespan_s = 0.0;
  Time analytical_makespan;  // the analytical scheduler's, also when fidelity = event
  double energy_pj = 0.0;
  int64_t nodes = 0;         // after expansion
  int64_t photonic_selected = 0;
  int64_t photonic_possible = 0;
  int64_t precision_bits = 0;  // the scenario's `precision:`; 0: none set or no unit models it
  // Matrix products a photonic unit runs only at fewer bits than they require (not candidates).
  int64_t photonic_refused_precision = 0;
  // Matrix products a photonic unit ran at fewer bits than their dtype holds (a bfloat16
  // product at 4 bits), and what the first of them was ("bfloat16 at 4 bits on phu").
  int64_t reduced_precision_products = 0;
  std::string reduced_precision;
  // The default profile's joint placement (sim/joint): a lower bound on the objective's
  // metric, in its reported unit (s, pJ, s*pJ), the gap answer / bound - 1, and the placements
  // expanded, scheduled and charged; 0 under the lightcode profile's sum selection.
  double lower_bound = 0.0;
  double gap = 0.0;
  int64_t placement_evaluations = 0;
  // A product the joint search split across two units (sim/joint/split_search.hpp): "<name>:
  // rows 0..k on <unit>, k+1..M-1 on <unit>"; "" when none.
  std::string split;
  int64_t subgraphs = 0;
  int64_t subgraphs_solved = 0;
  int64_t subgraphs_reused = 0;
  // Several devices (frontend/models/parallelism.hpp): the tasks, units and energy rows are the
  // simulated device's (tensor rank 0; with pipeline stages, each stage's device in turn); the
  // time its collectives took (communication_s, over the makespan: the communication share), and
  // the energy of every device of the group: the per-device units' (count > 1 in the system,
  // and the data they move) dynamic energy x tensor_parallel and static energy x every device,
  // the shared units' once. One device: group_energy_pj = energy_pj.
  int64_t tensor_parallel = 1;
  int64_t pipeline_parallel = 1;
  double communication_s = 0.0;
  double group_energy_pj = 0.0;
  // stage generate: prefill(P) then one decode step per further token (run_generation.hpp);
  // the figures above then cover every step
  int64_t new_tokens = 0;
  double ttft_s = 0.0;               // time to first token: the prefill's makespan
  double tpot_s = 0.0;               // per-token latency: mean decode-step makespan
  double energy_per_token_pj = 0.0;  // (prefill + decode energy) / new tokens; serve: per output token
  // stage serve (sim/serve): the run from time 0 to the last finish is the makespan; energy
  // includes every replica's static power over it. Percentiles are nearest-rank.
  int64_t requests = 0;
  int64_t replicas = 0;
  std::string dispatch;             // the dispatch policy
  double arrival_rate_per_s = 0.0;  // generated requests: the arrival process's rate; trace: 0
  int64_t iterations = 0;           // iterations run, all replicas
  int64_t iteration_graphs = 0;     // batch graphs built, placed and scheduled to price them (a
                                    // process's earlier points may have built others it reused)
  int64_t output_tokens = 0;
  double ttft_p50_s = 0.0, ttft_p90_s = 0.0, ttft_p99_s = 0.0;
  double tpot_p50_s = 0.0, tpot_p90_s = 0.0, tpot_p99_s = 0.0;
  double latency_p50_s = 0.0, latency_p90_s = 0.0, latency_p99_s = 0.0;
  double throughput_tokens_per_s = 0.0;  // output tokens per second of the run
  double goodput_requests_per_s = 0.0;   // requests meeting the scenario's latency targets
  int64_t preemptions = 0;
  int64_t rejected = 0;  // requests rejected at arrival (RequestRow::status), in none of the figures above
  double average_power_w = 0.0;  // the run's energy (dynamic and static) / its time
  // The steady state (sim/serve/simulator.hpp: until the waiting queue first empties once every
  // request has arrived), as ML.ENERGY's benchmark measures: its length, the output tokens its
  // iterations produced, and per second / per token / average power over it (NaN: no steady state).
  double steady_state_s = 0.0;
  int64_t steady_output_tokens = 0;
  double steady_throughput_tokens_per_s = 0.0;
  double steady_energy_per_token_pj = 0.0;
  double steady_power_w = 0.0;
  // Its iterations, and their sequences summed (what per-iteration and per-sequence host
  // overheads multiply: a fit of them to measured serving is linear in these).
  int64_t steady_iterations = 0;
  int64_t steady_sequence_iterations = 0;
};

// A non-dominated (makespan, energy) placement the joint search found (`pareto: true`).
struct ParetoRow {
  Time makespan;
  double energy_pj = 0.0;
  std::string origin;  // how it was found (sim/joint/joint_placement.hpp)
};

struct PointResult {
  PointSummary summary;
  std::vector<ParetoRow> pareto;  // by makespan; empty unless the scenario asks
  std::vector<TaskRecord> tasks;
  std::vector<UnitRecord> units;
  std::vector<EnergyRow> energy;
  std::vector<MemorySample> memory_profile;
  std::vector<RequestRow> requests;       // stage serve
  std::vector<ServeSample> serve_series;  // stage serve, replica by replica
};

// An input file the points were computed from: its path relative to the scenario's directory
// (absolute where it has none) and the SHA-256 of its bytes (sim/sweep/provenance.hpp).
struct InputDigest {
  std::string path;
  std::string sha256;
};

// A scenario whose points a merged file holds (merges of different scenarios).
struct ScenarioSource {
  std::string name;
  std::string digest;
  std::string text;
};

// One results file: a scenario's points.
struct ResultsFile {
  std::string tool_version;   // "lightcode 0.1.0"
  std::string scenario_text;  // the scenario YAML as given
  std::string scenario_name;  // "" in files written before it was recorded
  // SHA-256 of the scenario text, its command-line settings and its inputs; "" when not
  // recorded (older files, `lightcode run`).
  std::string scenario_digest;
  std::vector<InputDigest> inputs;       // sorted by path
  std::vector<ScenarioSource> sources;   // a merge of different scenarios: each one
  std::vector<PointResult> points;
};

}  // namespace lightcode::results
