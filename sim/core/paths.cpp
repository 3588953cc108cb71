#include "sim/core/paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace lightcode {

std::string config_root() {
  if (const char* env = std::getenv("LIGHTCODE_CONFIG_DIR"); env && *env) return env;
#ifdef LIGHTCODE_SOURCE_CONFIG_DIR
  if (std::filesystem::is_directory(LIGHTCODE_SOURCE_CONFIG_DIR)) return LIGHTCODE_SOURCE_CONFIG_DIR;
#endif
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return (exe.parent_path().parent_path() / "configs").string();
  return "configs";
}

}  // namespace lightcode
