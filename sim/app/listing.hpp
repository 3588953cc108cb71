#pragma once
// What is registered, as `lightcode list` and `lightcode hw list` print it: one section per
// registry (hardware families and their algorithms, profiles, scheduling policies,
// objectives), a line per entry with its description.
#include <ostream>
#include <string>

namespace lightcode::app {

// `what`: "families", "profiles", "schedulers", "objectives" or "" for every section.
// Throws lightcode::Error for another name.
void print_registries(std::ostream& out, const std::string& what = "");

}  // namespace lightcode::app
