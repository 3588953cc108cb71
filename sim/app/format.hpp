#pragma once
// Console formatting shared by the commands: grouped integers, engineering notation, bytes.
#include <cstdint>
#include <string>

namespace lightcode::app {

std::string grouped(int64_t v);             // 618120960 -> "618,120,960"
std::string engineering(double v);          // 6.18e8 -> "618.1 M"
std::string human_bytes(int64_t bytes);     // 497025024 -> "474.0 MiB"

}  // namespace lightcode::app
