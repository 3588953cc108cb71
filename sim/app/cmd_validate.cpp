// `lightcode validate`: the GPU model against measured kernel times, and end-to-end prefill
// predictions on the H100 and the (unseen) A100, written to an HDF5 file that
// tools/validation_report.py turns into docs/VALIDATION.md. `lightcode validate-photonic`:
// the device-built PHUs' peak, power and area with their breakdowns, for the same report.
// `lightcode validate-collectives`: the interconnect family's collective model against measured
// NCCL times (sim/validate/collective_validation.hpp), for the same report.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/app/commands.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/paths.hpp"
#include "sim/validate/collective_validation.hpp"
#include "sim/validate/gpu_validation.hpp"
#include "sim/validate/photonic_designs.hpp"

namespace lightcode::app {
namespace {

struct ValidateOptions {
  validate::ValidationOptions run;
  std::string out = "results/validation.h5";
};

// Mean and max |relative error| per module, on the console.
void print_summary(const results::ValidationFile& f) {
  struct Acc {
    double sum = 0.0, max = 0.0;
    int n = 0;
  };
  std::map<std::string, Acc> by_module;
  for (const auto& r : f.kernels) {
    Acc& a = by_module[r.module];
    const double e = std::fabs(r.fused_model_s / r.measured_s - 1.0);
    a.sum += e;
    a.max = std::max(a.max, e);
    ++a.n;
  }
  std::printf("%-26s %6s %12s %12s\n", "module", "rows", "mean |err|", "max |err|");
  for (const auto& [module, a] : by_module) {
    std::printf("%-26s %6d %11.1f%% %11.1f%%\n", module.c_str(), a.n, 100.0 * a.sum / a.n,
                100.0 * a.max);
  }
  std::printf("\n%-10s %-8s %8s %12s %10s %10s %10s %10s\n", "system", "model", "tokens",
              "makespan ms", "gemm", "attention", "elementw.", "gaps");
  for (const auto& e : f.end_to_end) {
    std::printf("%-10s %-8s %8lld %12.3f %10.3f %10.3f %10.3f %10.3f\n", e.system.c_str(),
                e.model.c_str(), static_cast<long long>(e.tokens), 1e3 * e.makespan_s,
                1e3 * e.gemm_s, 1e3 * e.attention_s, 1e3 * e.elementwise_s, 1e3 * e.gaps_s);
  }
}

int run(const ValidateOptions& o) {
  check_output_path(o.out);
  results::ValidationFile f = validate::run_validation(o.run);
  f.tool_version = "lightcode 0.1.0";
  results::write_validation(o.out, f);
  print_summary(f);
  std::cout << "wrote " << o.out << " (" << f.kernels.size() << " kernel rows, "
            << f.end_to_end.size()
            << " end-to-end rows); report: /usr/bin/python3 tools/validation_report.py " << o.out
            << "\n";
  return 0;
}

struct PhotonicOptions {
  std::vector<std::string> files;
  std::string out = "results/photonic_designs.h5";
};

int run_photonic(const PhotonicOptions& o) {
  check_output_path(o.out);
  results::PhotonicDesignFile f = validate::photonic_designs(o.files);
  f.tool_version = "lightcode 0.1.0";
  results::write_photonic_designs(o.out, f);
  std::printf("%-20s %10s %10s %10s\n", "design", "peak TOPS", "power W", "area mm2");
  for (const results::PhotonicDesignRow& d : f.designs) {
    std::printf("%-20s %10.2f %10.3f %10.2f\n", d.design.c_str(), d.peak_ops_per_s / 1e12,
                d.power_w, d.area_m2 * 1e6);
  }
  std::cout << "wrote " << o.out << "\n";
  return 0;
}

void register_validate_photonic(CLI::App& app, CommandAction& action) {
  auto opts = std::make_shared<PhotonicOptions>();
  opts->files = {config_root() + "/hardware/phu_dota_b.yaml",
                 config_root() + "/hardware/phu_dota_b_8bit.yaml",
                 config_root() + "/hardware/phu_dota_l.yaml"};
  CLI::App* cmd = app.add_subcommand(
      "validate-photonic",
      "Write the figures of device-built PHUs (hardware files with a `core:` table): shape,\n"
      "peak, power at full rate, static power, area, and the power and area breakdowns by\n"
      "the published categories, to an HDF5 file (/designs, /breakdown) that\n"
      "tools/validation_report.py puts, beside the published DOTA figures, in\n"
      "docs/VALIDATION.md:\n"
      "  lightcode validate-photonic --out results/photonic_designs.h5");
  cmd->add_option("files", opts->files,
                  "Device-built PHU hardware files (default: configs/hardware/phu_dota_b.yaml,\n"
                  "phu_dota_b_8bit.yaml, phu_dota_l.yaml)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", opts->out,
                  "HDF5 file to write (default: results/photonic_designs.h5)");
  cmd->callback([opts, &action] { action = [opts] { return run_photonic(*opts); }; });
}

struct CollectivesOptions {
  validate::CollectiveOptions run;
  std::string out = "results/collectives.h5";
};

// Mean |relative error| per configuration, sizes from 1 MB up and below.
void print_collective_summary(const results::CollectiveValidationFile& f) {
  constexpr int64_t kMegabyte = int64_t{1} << 20;
  struct Acc {
    double large = 0.0, small = 0.0;
    int n_large = 0, n_small = 0;
  };
  std::map<std::string, Acc> by_configuration;
  for (const results::CollectiveValidationRow& r : f.rows) {
    Acc& a = by_configuration[r.system + " " + r.collective + " n=" + std::to_string(r.ranks) + " " + r.scope];
    const bool large = r.size_bytes >= kMegabyte;
    (large ? a.large : a.small) += std::fabs(r.error);
    ++(large ? a.n_large : a.n_small);
  }
  std::printf("%-46s %14s %14s\n", "configuration", ">= 1 MB", "< 1 MB");
  for (const auto& [name, a] : by_configuration) {
    std::printf("%-46s %13.1f%% %13.1f%%\n", name.c_str(), a.n_large ? 100.0 * a.large / a.n_large : NAN,
                a.n_small ? 100.0 * a.small / a.n_small : NAN);
  }
}

int run_collectives(const CollectivesOptions& o) {
  check_output_path(o.out);
  results::CollectiveValidationFile f = validate::run_collective_validation(o.run);
  f.tool_version = "lightcode 0.1.0";
  results::write_collectives(o.out, f);
  print_collective_summary(f);
  std::cout << "wrote " << o.out << " (" << f.rows.size() << " rows); report: /usr/bin/python3 "
            << "tools/validation_report.py VALIDATION.h5 --collectives " << o.out << "\n";
  return 0;
}

void register_validate_collectives(CLI::App& app, CommandAction& action) {
  auto opts = std::make_shared<CollectivesOptions>();
  opts->run.reference = config_root() + "/../../shared/reference/network/vidur_h100_collectives.csv";
  opts->run.hardware_dir = config_root() + "/hardware";
  CLI::App* cmd = app.add_subcommand(
      "validate-collectives",
      "Check the interconnect family's collective model against measured NCCL times.\n\n"
      "Each row of --reference (NCCL kernel times on H100: all_reduce on 2/4/8 GPUs of a DGX\n"
      "H100, send_recv within and between DGX nodes, all_reduce on 2/4 H100 NVL cards bridged\n"
      "in pairs; 2 KB-64 MB) is predicted by the collective cost model on the interconnect\n"
      "file that is its hardware, from --hardware-dir:\n"
      "  DGX, intra-node       nvlink4_nvswitch.yaml\n"
      "  DGX, inter-node       infiniband_ndr.yaml\n"
      "  NVL pair (2 ranks)    nvlink4_pairwise_bridge.yaml\n"
      "  NVL, 4 ranks          pcie5_x16.yaml (the ring's PCIe hops bound it)\n"
      "The model chooses, per size, the registered algorithm (ring, tree, nvls, p2p) and\n"
      "protocol (LL, LL128, Simple) with the least predicted time, as NCCL's tuner does; its\n"
      "fitted constants (hw_models/interconnect/interconnect_fit.hpp) were fitted to this CSV.\n\n"
      "Writes an HDF5 table /collectives (collective, system, hardware, topology, ranks, scope,\n"
      "size_bytes, repeat, measured_s, predicted_s, error, algorithm, protocol) and prints the\n"
      "mean |error| per configuration from 1 MB up and below. The report section:\n"
      "  lightcode validate-collectives --out results/collectives.h5\n"
      "  /usr/bin/python3 tools/validation_report.py results/validation.h5 \\\n"
      "      --collectives results/collectives.h5 --out docs/VALIDATION.md");
  cmd->add_option("--reference", opts->run.reference,
                  "Measured collective times (CSV; default:\n"
                  "../shared/reference/network/vidur_h100_collectives.csv beside the checkout)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--hardware-dir", opts->run.hardware_dir,
                  "Folder of the interconnect files named above (default: configs/hardware)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", opts->out, "HDF5 file to write (default: results/collectives.h5)");
  cmd->callback([opts, &action] { action = [opts] { return run_collectives(*opts); }; });
}

}  // namespace

// Registers `validate`, `validate-photonic` and `validate-collectives`.
void register_validate(CLI::App& app, CommandAction& action) {
  auto opts = std::make_shared<ValidateOptions>();
  opts->run.gpu_system = config_root() + "/systems/h100_sxm.yaml";
  opts->run.a100_system = config_root() + "/systems/a100_sxm.yaml";
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Check the GPU model against measured kernel times and predict end-to-end prefill.\n\n"
      "Kernels: each row of REFERENCE (measured H100 fp16 kernel times of Llama-2 modules:\n"
      "fused QKV and gate/up GEMMs, o and down projections, RMSNorm, rotary, SiLU*mul,\n"
      "residual add, embedding, at 1-4096 tokens and tensor-parallel 1-8) becomes a small\n"
      "graph of that module, lowered as the built-in Llama lowers it, and runs through the\n"
      "real pipeline on --gpu-system with launches and kernel gaps set to zero (the reference\n"
      "measured kernel time only). Each row also gets the fused-kernel model's time for the\n"
      "module as one kernel (fused_model_s), which is what production runtimes run.\n"
      "End to end: --model prefill at --tokens on --gpu-system and --a100-system as configured\n"
      "(runtime included): makespan = GEMM + attention + element-wise kernel time + gaps.\n\n"
      "Writes an HDF5 file (/kernels, /end_to_end); tools/validation_report.py makes\n"
      "docs/VALIDATION.md from it:\n"
      "  lightcode validate ../shared/reference/gpu/vidur_h100_llama2_kernels.csv --out v.h5\n"
      "  /usr/bin/python3 tools/validation_report.py v.h5 --out docs/VALIDATION.md");
  cmd->add_option("reference", opts->run.reference, "Measured kernel times (CSV)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", opts->out, "HDF5 file to write (default: results/validation.h5)");
  cmd->add_option("--gpu-system", opts->run.gpu_system,
                  "System of the reference's GPU (default: configs/systems/h100_sxm.yaml)");
  cmd->add_option("--a100-system", opts->run.a100_system,
                  "An unseen GPU's system, end to end only; \"\" for none\n"
                  "(default: configs/systems/a100_sxm.yaml)");
  cmd->add_option("--model", opts->run.model,
                  "Built-in model for end to end (default: llama-2-7b)");
  cmd->add_option("--tokens", opts->run.prompt_tokens,
                  "Prompt lengths end to end (default: 128 512 2048)");
  cmd->callback([opts, &action] { action = [opts] { return run(*opts); }; });
  register_validate_photonic(app, action);
  register_validate_collectives(app, action);
}

}  // namespace lightcode::app
