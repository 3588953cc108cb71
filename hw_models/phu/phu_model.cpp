#include "hw_models/phu/phu_model.hpp"

#include <algorithm>

#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {


// Seconds to convert `samples` with `cores` cores' `count` converters each; 0 = unlimited.
double conversion_seconds(const ConverterSpec& c, int64_t samples, int cores) {
  if (c.sample_rate <= 0.0) return 0.0;
  return static_cast<double>(samples) / (c.sample_rate * c.count * cores);
}

}  // namespace

Capabilities phu_capabilities(double clock_hz) {
  Capabilities c;
  c.photonic = true;
  c.residence = Residence::sram;  // a PHU has no memory of its own
  c.role = TransferRole::phu;
  c.clock_hz = clock_hz;
  return c;
}

AlgorithmList phu_algorithms_for(const ir::Node& op) {
  AlgorithmList list;
  if (ir::is_matrix_product(op.kind)) list.add(kPhuTaskParallel);
  return list;
}

namespace {

class PhuModel final : public HardwareModel {
 public:
  explicit PhuModel(const PhuSpec& spec) : spec_(spec) {}

  Capabilities capabilities() const override { return phu_capabilities(spec_.clock_hz); }
  int unit_count() const override { return 1; }  // its cores share each product

  AlgorithmList algorithms(const ir::Node& op) const override { return phu_algorithms_for(op); }
  std::string_view algorithm_name(AlgorithmId) const override { return "task_parallel"; }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    Cost c;
    const ir::Shape& out = op.output().shape;
    const int64_t n_out = out.elements();
    const int64_t k = op.input_types.empty() ? 0 : op.input_type(0).shape.back();
    const int64_t per_product = out.from_back(2) * out.back();
    const int64_t batch = per_product > 0 ? std::max<int64_t>(1, n_out / per_product) : 1;
    const int64_t in_samples = ir::total_elements(op.input_types);
    const int64_t out_samples = ir::total_elements(op.outputs);
    // The cores share one product: its dot products spread over cores x multiplex lanes.
    const int64_t lanes = static_cast<int64_t>(spec_.multiplex) * spec_.cores;
    const double compute_s = static_cast<double>(ceil_div(per_product, lanes) * k) / spec_.clock_hz;
    const double dac_s = conversion_seconds(spec_.dac, in_samples / batch, spec_.cores);
    const double adc_s = conversion_seconds(spec_.adc, out_samples / batch, spec_.cores);
    const double convert_s = std::max(dac_s, adc_s);
    c.time = Time::from_seconds(static_cast<double>(batch) * std::max(compute_s, convert_s) + spec_.dac.latency_s +
                                spec_.adc.latency_s);
    c.bound = compute_s >= convert_s ? Bound::compute : Bound::conversion;
    const auto macs = static_cast<double>(ir::node_macs(op));
    const double dac_j = static_cast<double>(in_samples) * spec_.dac.energy_per_sample_j;
    const double adc_j = static_cast<double>(out_samples) * spec_.adc.energy_per_sample_j;
    // Summed left to right, as the published arithmetic does, so the total is bit-exact.
    c.energy = Energy::from_joules(macs * spec_.energy_per_mac_j + dac_j + adc_j);
    c.conversion_energy = Energy::from_joules(dac_j + adc_j);
    c.bytes_read = ir::total_bytes(op.input_types);
    c.bytes_written = ir::total_bytes(op.outputs);
    return c;
  }

  double static_power_watts() const override { return spec_.static_power_w; }

 private:
  PhuSpec spec_;
};

}  // namespace

std::unique_ptr<HardwareModel> make_phu_model(const PhuSpec& spec) {
  if (spec.core) return make_device_phu_model(*spec.core);
  return std::make_unique<PhuModel>(spec);
}

std::vector<AlgorithmInfo> phu_algorithms() {
  return {
      {"task_parallel",
       "matrix products, DAC in, ADC out: the cores share each product (its dot products over cores x "
       "WDM wavelengths; a device-built PHU's tiles and cores from its event counts); under the "
       "lightcode profile each core runs its own products, as the original"}};
}

}  // namespace lightcode::hw
