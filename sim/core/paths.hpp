#pragma once
// Where shipped configs live: $LIGHTCODE_CONFIG_DIR if set, else the source tree's configs/
// (compiled in), else configs/ beside the executable's parent. Built-in model and hardware
// names resolve against it, so `lightcode inspect gpt2` works from any directory.
#include <string>

namespace lightcode {

std::string config_root();

}  // namespace lightcode
