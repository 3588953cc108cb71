// `lightcode hw list` and `lightcode hw show <system.yaml>`: what hardware exists, and what a
// system resolves to with its derived peak rates.
#include <iomanip>
#include <iostream>
#include <memory>

#include "hw_models/cpu/cpu_spec.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "hw_models/memory/memory_spec.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/listing.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace lightcode::app {
namespace {

std::string q(double v, Dimension d) { return format_quantity(v, d); }

void print_peaks(std::ostream& out, const hw::UnitInfo& u) {
  const std::string pad = "    ";
  if (u.family == "cpu") {
    const hw::CpuSpec s = hw::parse_cpu_spec(u.spec);
    out << pad << "peak FP32      " << q(s.cores * s.clock_hz * s.vector_flops_per_cycle, Dimension::flop_rate)
        << " (" << s.cores << " cores x " << q(s.clock_hz, Dimension::frequency) << " x "
        << s.vector_flops_per_cycle << " FLOP/cycle)\n";
    out << pad << "memory         " << q(s.memory_bandwidth, Dimension::bandwidth) << "\n";
    for (const auto& [kind, fit] : s.fits) {
      out << pad << "fit " << std::left << std::setw(11) << kind << fit.per_work_s << " s/"
          << (fit.work == hw::LinearFit::Work::macs ? "MAC" : "element") << " + " << fit.offset_s << " s\n";
    }
  } else if (u.family == "gpu") {
    const hw::GpuSpec s = hw::parse_gpu_spec(u.spec);
    out << pad << "SMs            " << s.sms() << " (" << s.gpcs << " GPCs x " << s.tpcs_per_gpc
        << " TPCs x " << s.sms_per_tpc << " SMs)\n";
    out << pad << "CUDA FP32      "
        << q(2.0 * s.sms() * s.fp32_cores_per_sm * s.clock_hz, Dimension::flop_rate) << " (FMA)\n";
    for (const auto& [dtype, rate] : s.tensor_flops) {
      out << pad << "tensor " << std::left << std::setw(9) << ir::dtype_name(dtype) << q(rate, Dimension::flop_rate) << "\n";
    }
    out << pad << "HBM            " << q(s.hbm_bandwidth, Dimension::bandwidth) << ", "
        << q(s.hbm_capacity, Dimension::data) << "; L2 " << q(s.l2_bytes, Dimension::data) << "\n";
  } else if (u.family == "phu") {
    const hw::PhuSpec s = hw::parse_phu_spec(u.spec);
    out << pad << "photonic MAC/s " << q(s.cores * s.multiplex * s.clock_hz, Dimension::mac_rate)
        << " (" << s.cores << " cores x " << s.multiplex << " wavelengths x "
        << q(s.clock_hz, Dimension::frequency) << ")\n";
    auto conv = [&](const char* name, const hw::ConverterSpec& c) {
      out << pad << name << "            "
          << (c.sample_rate > 0 ? q(c.sample_rate * c.count, Dimension::sample_rate) : std::string("unlimited rate"))
          << ", " << q(c.energy_per_sample_j, Dimension::energy) << "/sample, latency "
          << q(c.latency_s, Dimension::duration) << "\n";
    };
    conv("DAC", s.dac);
    conv("ADC", s.adc);
  } else if (u.family == "memory") {
    const hw::MemorySpec s = hw::parse_memory_spec(u.spec);
    out << pad << "bandwidth      " << (s.bandwidth > 0 ? q(s.bandwidth, Dimension::bandwidth) : "unlimited")
        << ", capacity " << (s.capacity_bytes > 0 ? q(s.capacity_bytes, Dimension::data) : "unlimited") << "\n";
  }
}

void print_system(std::ostream& out, const hw::System& sys) {
  out << "system   " << sys.name() << "  (profile " << profile_name(sys.profile()) << ")\n";
  for (size_t t = 0; t < sys.unit_count(); ++t) {
    const hw::UnitInfo& u = sys.unit(static_cast<hw::UnitType>(t));
    out << "\n" << u.name << "  [" << u.family << ", " << sys.model(static_cast<hw::UnitType>(t)).unit_count()
        << (u.compute ? " unit(s)" : "") << "]\n";
    if (u.family == "start") {
      out << "    pseudo-unit of the lightcode profile: each subgraph's start node\n";
      continue;
    }
    print_peaks(out, u);
    out << "  resolved spec\n" << u.spec.to_yaml(4);
  }
  if (sys.config().has("links")) out << "\nlinks\n" << sys.config().at("links").to_yaml(2);
}

}  // namespace

void register_hw(CLI::App& app, CommandAction& action) {
  CLI::App* hw = app.add_subcommand("hw", "List hardware families, or show a system's resolved spec");
  hw->require_subcommand(1);
  CLI::App* list = hw->add_subcommand("list", "Every registered hardware family and its algorithms");
  list->callback([&action] {
    action = [] {
      print_registries(std::cout, "families");
      return 0;
    };
  });
  auto path = std::make_shared<std::string>();
  auto profile = std::make_shared<std::string>("default");
  CLI::App* show = hw->add_subcommand(
      "show",
      "A system's units with derived peaks (FLOP/s per dtype, bandwidths, photonic MAC/s)\n"
      "and the spec each resolves to after `from:` inheritance:\n"
      "  lightcode hw show configs/systems/gpu_phu.yaml --profile lightcode");
  show->add_option("system", *path, "System YAML (configs/systems/*.yaml)")->required();
  show->add_option("--profile", *profile, "default or lightcode")->check(CLI::IsMember({"default", "lightcode"}));
  show->callback([&action, path, profile] {
    action = [path, profile] {
      const hw::System sys = hw::System::load(*path, *parse_profile(*profile));
      print_system(std::cout, sys);
      return 0;
    };
  });
}

}  // namespace lightcode::app
