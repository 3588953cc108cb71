#include "hw_models/phu/sc_phu_core.hpp"

#include "hw_models/phu/phu_model.hpp"

namespace lightcode::hw {

std::unique_ptr<UnitModules> make_phu_modules(const ModuleContext& context) {
  return std::make_unique<ServiceModules<PhuCore>>(context);
}

}  // namespace lightcode::hw
