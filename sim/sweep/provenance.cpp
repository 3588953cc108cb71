#include "sim/sweep/provenance.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "sim/core/sha256.hpp"

namespace lightcode::sweep {
namespace {

namespace fs = std::filesystem;

constexpr const char* kToolVersion = "lightcode 0.1.0";
// Changes when what the digest covers changes: digests of another scheme never match.
constexpr const char* kDigestScheme = "lightcode scenario digest 1";

fs::path absolute_normal(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path.empty() ? "." : path, ec);
  return (ec ? fs::path(path) : p).lexically_normal();
}

// Each field as "<tag> <bytes>\n<value>\n": no two different field lists hash the same text.
void field(Sha256& h, const char* tag, const std::string& value) {
  h.update(tag);
  h.update(" " + std::to_string(value.size()) + "\n");
  h.update(value);
  h.update("\n");
}

// How a recorded input path reads from the working directory: through the scenario's directory.
std::string shown(const std::string& recorded, const std::string& scenario_file) {
  const fs::path p(recorded);
  if (p.is_absolute()) return recorded;
  return (fs::path(scenario_file).parent_path() / p).lexically_normal().string();
}

}  // namespace

results::ResultsFile results_header(const Scenario& scenario, const std::vector<std::string>& settings,
                                    const std::vector<RecordedInput>& read) {
  results::ResultsFile f;
  f.tool_version = kToolVersion;
  f.scenario_text = scenario.text;
  f.scenario_name = scenario.name;
  const fs::path file = absolute_normal(scenario.file);
  const fs::path dir = file.parent_path();
  for (const RecordedInput& input : read) {
    const fs::path path(input.path);
    if (path == file) continue;  // the scenario: hashed as its text
    const fs::path relative = path.lexically_relative(dir);
    f.inputs.push_back(results::InputDigest{relative.empty() ? input.path : relative.string(), input.sha256});
  }
  std::sort(f.inputs.begin(), f.inputs.end(),
            [](const results::InputDigest& a, const results::InputDigest& b) { return a.path < b.path; });
  Sha256 h;
  field(h, "scheme", kDigestScheme);
  field(h, "scenario", scenario.text);
  for (const std::string& s : settings) field(h, "set", s);
  for (const results::InputDigest& input : f.inputs) {
    field(h, "input", input.path);
    field(h, "sha256", input.sha256);
  }
  f.scenario_digest = h.finish_hex();
  return f;
}

std::string sources_digest(const std::vector<results::ScenarioSource>& sources) {
  Sha256 h;
  field(h, "scheme", kDigestScheme);
  for (const results::ScenarioSource& s : sources) {
    if (s.digest.empty()) return "";
    field(h, "source", s.name);
    field(h, "digest", s.digest);
  }
  return h.finish_hex();
}

std::string provenance_change(const results::ResultsFile& recorded, const results::ResultsFile& current,
                              const std::string& scenario_file, const std::string& written) {
  if (recorded.scenario_digest == current.scenario_digest) return "";
  if (recorded.scenario_digest.empty()) {
    return written + " without input digests (by an older LightCode or `lightcode run`), so nothing tells "
                     "whether they belong to this scenario";
  }
  std::vector<std::string> clauses;
  if (recorded.scenario_text != current.scenario_text) clauses.push_back(scenario_file + " changed since " + written);
  std::map<std::string, std::pair<const std::string*, const std::string*>> inputs;  // path -> (then, now)
  for (const auto& i : recorded.inputs) inputs[i.path].first = &i.sha256;
  for (const auto& i : current.inputs) inputs[i.path].second = &i.sha256;
  for (const auto& [path, digests] : inputs) {
    const std::string input = "input " + shown(path, scenario_file);
    if (!digests.first) {
      clauses.push_back(input + " is new: " + written + " without it");
    } else if (!digests.second) {
      clauses.push_back(input + " is gone: " + written + " with it");
    } else if (*digests.first != *digests.second) {
      clauses.push_back(input + " changed since " + written);
    }
  }
  if (clauses.empty()) {
    clauses.push_back("the command-line settings (--fidelity, --no-contention, --set) differ from those " + written +
                      " with");
  }
  std::string out;
  for (const std::string& c : clauses) out += (out.empty() ? "" : "; ") + c;
  return out;
}

}  // namespace lightcode::sweep
