#pragma once
// Numbers in input text are decimal: [+-] digits [. digits] [(e|E) [+-] digits], with digits on
// at least one side of the point. strtod alone would also take hexadecimal ("0x10" is 16),
// hex floats, "inf", "nan" and leading blanks; a config value "0x10" is a typo to report, not a
// figure. The conversion itself stays strtod's (C locale), so accepted spellings give the bits
// they always gave.
#include <optional>
#include <string_view>

namespace lightcode {

// Length of the longest prefix of `text` that is a decimal number as above (0: none).
size_t decimal_prefix(std::string_view text);

// `text` as a double when all of it is a decimal number whose value is finite; nullopt when it
// is not decimal, or is out of the double range (1e400).
std::optional<double> parse_decimal(std::string_view text);

}  // namespace lightcode
