#pragma once
// The SystemC side of a hardware family, seen from outside SystemC: the engine elaborates the
// modules of every unit type through its family's registered ModuleFactory (FamilyInfo::
// make_modules) and runs tasks on them through UnitModules. This header includes no SystemC;
// the factories are defined in the families' sc_* files (target lc_hw_sc).
#include <cstdint>
#include <memory>
#include <string>

#include "hw_models/cost.hpp"
#include "hw_models/hardware_model.hpp"
#include "sim/core/config.hpp"
#include "sim/ir/graph.hpp"

namespace sc_core {
class sc_trace_file;
}

namespace lightcode::hw {

// Who hears about finished tasks (the engine's dispatcher).
class TaskSink {
 public:
  virtual ~TaskSink() = default;
  virtual void task_finished(int32_t task, int32_t unit_type, int32_t instance) = 0;
};

// What a factory is given to elaborate the modules of one unit type.
struct ModuleContext {
  std::string name;            // the unit's name in the system ("cpu"); instances add an index
  int32_t unit_type = 0;
  int instances = 1;           // HardwareModel::unit_count()
  const HardwareModel& model;  // the unit's cost model (the one the selector used)
  const ConfigNode& spec;      // its resolved spec
  TaskSink& sink;
};

// The elaborated modules of one unit type: `instances` units that each run one task at a time.
class UnitModules {
 public:
  virtual ~UnitModules() = default;
  // Precondition: `instance` is idle. The task runs for `cost.time` (a family may model it in
  // finer steps, e.g. the GPU's CTA waves, that must add up to it), then the sink hears.
  // `fused` is the kernel of a task that runs a fused group (sim/ir/fusion.hpp), else null;
  // `op` then describes its external operands and results.
  virtual void start(int32_t instance, int32_t task, const ir::Node& op, const ir::FusedKernel* fused,
                     AlgorithmId algorithm, const Cost& cost) = 0;
  // Whether start() reads `op` (a GPU plans its kernel from it); when not, the engine passes an
  // empty node rather than build one per task.
  virtual bool reads_op() const { return true; }
  // Adds busy signals (and whatever else the family shows) to a VCD waveform.
  virtual void trace(sc_core::sc_trace_file* vcd) = 0;
  // Busy time bound by conversion (photonic units), summed over instances.
  virtual Time conversion() const { return Time::zero(); }
};

using ModuleFactory = std::unique_ptr<UnitModules> (*)(const ModuleContext& context);

// Units that each serve one task at a time for its cost's time (CPU cores, memories, the
// lightcode profile's start unit); defined in hw_models/sc_service_unit.cpp.
std::unique_ptr<UnitModules> make_service_modules(const ModuleContext& context);

}  // namespace lightcode::hw
