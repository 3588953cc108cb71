#include "sim/core/checked.hpp"

namespace lightcode {

void throw_overflow(std::string_view what) {
  throw Error(std::string(what) + " exceeds the representable 9,223,372,036,854,775,807");
}

void throw_time_overflow(std::string_view what) {
  throw Error(std::string(what) + " exceeds " + std::string(kTimeLimitText));
}

}  // namespace lightcode
