#!/usr/bin/env bash
# The include rules of the project's layering (layers depend downwards only), checked on the
# sources (usage: check_layers.sh <source dir>). Each rule names what a folder may not include.
#   - SystemC (<systemc>, <tlm>) only in sim/engine/ and the hw_models/**/sc_* files
#   - sim/core includes nothing above sim/core
#   - sim/engine includes no layer above it (results, sweep, app); sim/serve, sim/results and
#     sim/point none of stages, sweep, app; sim/stages neither sweep nor app
#   - decisions by registered objects: no comparison with a hardware-family name outside
#     hw_models/ registration, no `Profile::` branch outside the profile objects, no unit
#     looked up by the name of the role it plays (System::role_unit answers that)
set -uo pipefail
cd "${1:?usage: check_layers.sh <source dir>}" || exit 2
status=0
report() {  # <rule> <grep output>
  if [[ -n "$2" ]]; then
    echo "layering: $1:"
    echo "$2"
    status=1
  fi
}
report "SystemC outside sim/engine and hw_models/**/sc_*" \
  "$(grep -rnE '#include <(systemc|tlm)' sim hw_models frontend | grep -vE '^(sim/engine/|hw_models/([^:]*/)?sc_[^/:]*:)')"
report "sim/core includes a layer above it" \
  "$(grep -rn '#include "' sim/core | grep -v '#include "sim/core/')"
report "sim/serve, sim/results or sim/point includes a layer above it (stages, sweep, app)" \
  "$(grep -rnE '#include "sim/(stages|sweep|app)/' sim/serve sim/results sim/point)"
report "sim/serve or sim/results includes the point pipeline" \
  "$(grep -rnE '#include "sim/point/' sim/serve sim/results)"
report "sim/stages includes a layer above it (sweep, app)" \
  "$(grep -rnE '#include "sim/(sweep|app)/' sim/stages)"
report "sim/dataset includes the command line (sim/app)" \
  "$(grep -rnE '#include "sim/app/' sim/dataset)"
report "a layer below sim/dataset includes it" \
  "$(grep -rnE '#include "sim/dataset/' sim frontend hw_models | grep -vE '^sim/(dataset|app)/')"
report "sim/engine includes a layer above it" \
  "$(grep -rnE '#include "sim/(results|sweep|app)/' sim/engine)"
report "a hardware-family name compared outside hw_models/ registration" \
  "$(grep -rnE '(family|name)[^;]*[!=]= *"(cpu|gpu|phu|memory|start)"' sim frontend hw_models --include=*.cpp --include=*.hpp | grep -v '^hw_models/register_all.cpp:')"
report "a Profile:: branch outside the profile objects" \
  "$(grep -rnE 'Profile::[a-z_]+' sim frontend hw_models --include=*.cpp --include=*.hpp | grep -vE '^hw_models/(profile\.hpp|default_profile\.cpp|lightcode/lightcode_profile\.cpp|system\.hpp):')"
report "a unit looked up by a role's name (ask System::role_unit)" \
  "$(grep -rnE 'find\((names_, *)?"(sram|hbm|start)"\)' sim frontend hw_models --include=*.cpp --include=*.hpp)"
[[ $status -eq 0 ]] && echo "layering: all rules hold"
exit $status
