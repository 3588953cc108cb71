#pragma once
// Default-profile transfers over a system's links. Per hop: latency + bytes / bandwidth
// (bandwidth 0 = unlimited), energy = bits x energy_per_bit. A pair without a direct link
// routes through the relay unit (the system's relay memory, an SRAM: roles.hpp): two hops,
// store-and-forward, times and energies add.
// Times come from link_timing() (link_timing.hpp), which the event engine's link channels
// call too; a route is timed as one chain, rounded once.
// from == to (two tasks on one unit type) uses a self-link when the system declares one, and
// otherwise goes through the relay like the original (CPU core to CPU core crosses the fabric; a
// PHU has no memory of its own). A GPU system wants a free self-link: its data stays in HBM.
// A unit with neither (SRAM to SRAM: the expansion's split reading an operand the SRAM
// already holds) moves nothing: the data is where it is needed.
// A pair with no route is a lightcode::Error naming both units, raised when it is asked for.
// All routes are resolved at construction into a dense table: estimate() is a lookup plus a
// multiply-add.
#include <memory>
#include <string>
#include <vector>

#include "hw_models/link/link_spec.hpp"
#include "hw_models/transfer_model.hpp"

namespace lightcode::hw {

// unit_names[t] is the name of unit type t; `relay` the relay's unit type, -1 for none.
// Throws lightcode::Error when a link names a unit that is not in the list.
std::unique_ptr<TransferModel> make_link_transfer_model(const std::vector<std::string>& unit_names,
                                                        const std::vector<LinkSpec>& links, UnitType relay);

}  // namespace lightcode::hw
