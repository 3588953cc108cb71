#include "sim/core/quantity.hpp"

#include <cstdio>
#include <string>

namespace lightcode {

void Time::reject_seconds(double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%g s", seconds);
  if (std::isnan(seconds)) throw Error("a duration is not a number (NaN)");
  if (seconds < 0.0) throw Error(std::string("a duration is negative (") + text + ")");
  throw Error(std::string("a duration of ") + text + " exceeds " + std::string(kTimeLimitText));
}

void Energy::reject_energy_value(double picojoules) {
  char text[64];
  std::snprintf(text, sizeof text, "%g pJ", picojoules);
  throw Error(std::string("an energy of ") + text +
              " is not representable as a finite double (check energy and power parameters)");
}

void reject_energy(double picojoules, std::string_view what) {
  char text[64];
  std::snprintf(text, sizeof text, "%g pJ", picojoules);
  throw Error(std::string(what) + ": energy " + text +
              " is not representable as a finite double (check energy and power parameters)");
}

}  // namespace lightcode
