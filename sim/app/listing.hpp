#pragma once
// What is registered, as `lightcode list` and `lightcode hw list` print it: one section per
// registry of registry_listing.hpp, a line per entry with its description (and a policy's or
// stage's own keys).
#include <ostream>
#include <string>

namespace lightcode::app {

// `what`: a registry's key ("families", "batching", ...) or "" for every section.
// Throws lightcode::Error for another name.
void print_registries(std::ostream& out, const std::string& what = "");

}  // namespace lightcode::app
