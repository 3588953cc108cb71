// merge_results (contract in sweep_runner.hpp): shards of one scenario into one file, or
// serving studies (any one stage) of different scenarios side by side.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/provenance.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace lightcode::sweep {
namespace {

// Point ids are "p" and the point's index ("p0042", "p10000"): order by the index, so that
// past 10,000 points "p10000" comes after "p9999", not before "p2000".
struct IdKey {
  std::string prefix;
  std::string number;  // the trailing digits without leading zeros
};

IdKey id_key(const std::string& id) {
  size_t start = id.size();
  while (start > 0 && id[start - 1] >= '0' && id[start - 1] <= '9') --start;
  size_t first = start;
  while (first < id.size() && id[first] == '0') ++first;
  return IdKey{id.substr(0, start), id.substr(first)};
}

bool id_before(const std::string& a, const std::string& b) {
  const IdKey ka = id_key(a), kb = id_key(b);
  if (ka.prefix != kb.prefix) return ka.prefix < kb.prefix;
  if (ka.number.size() != kb.number.size()) return ka.number.size() < kb.number.size();
  if (ka.number != kb.number) return ka.number < kb.number;
  return a < b;  // "p7" and "p007": distinct ids, a fixed order
}

using PointMap = std::map<std::string, results::PointResult, bool (*)(const std::string&, const std::string&)>;

// The files of one scenario (or of one earlier merge of several scenarios).
struct Group {
  std::string file;             // its first file, for messages
  results::ResultsFile header;  // its provenance, without points
  bool digests_complete = true; // every file of it recorded its digest
  PointMap points{id_before};
};

// Shards share the scenario text; an earlier merge of several is known by its sources' digest.
std::string group_key(const results::ResultsFile& f) {
  return f.sources.empty() ? "scenario\n" + f.scenario_text : "merge\n" + f.scenario_digest;
}

// A point ran beats a point that failed; otherwise the first file's stays.
void add_points(PointMap& points, std::vector<results::PointResult>& from) {
  for (auto& p : from) {
    const std::string id = p.summary.id;
    auto it = points.find(id);
    if (it == points.end() || (it->second.summary.status != results::Status::ok && p.summary.status == results::Status::ok)) points[id] = std::move(p);
  }
}

// A scenario's name as an id prefix: no '/', never empty.
std::string prefix_name(const Group& g) {
  std::string name = g.header.scenario_name.empty() ? std::filesystem::path(g.file).stem().string()
                                                    : g.header.scenario_name;
  std::replace(name.begin(), name.end(), '/', '_');
  return name.empty() || name == "." || name == ".." ? "scenario" : name;
}

// Files of different scenarios: every point has one stage, or the merge would put side by side
// figures that do not compare (a prefill's makespan beside a serving run's).
void check_one_stage(const std::vector<std::pair<std::string, std::string>>& file_stages,
                     const std::map<std::string, std::string>& scenario_of) {
  for (const auto& [file, stage] : file_stages) {
    const auto& [first_file, first_stage] = file_stages.front();
    if (stage == first_stage) continue;
    throw Error(SourcePlace{file, 0, 0, ""},
                "merge: '" + first_file + "' (scenario '" + scenario_of.at(first_file) + "') has " + first_stage +
                    " points and this file (scenario '" + scenario_of.at(file) + "') " + stage +
                    " points: results of different scenarios merge only when every point has the same stage "
                    "(shards of one scenario merge whatever their stages)");
  }
}

}  // namespace

results::ResultsFile merge_results(const std::vector<std::string>& files) {
  if (files.empty()) throw Error("merge: no input files");
  std::vector<Group> groups;
  std::map<std::string, size_t> group_of;  // group_key -> index
  std::vector<std::pair<std::string, std::string>> file_stages;  // each file's distinct stages
  std::map<std::string, std::string> scenario_of;                 // file -> its scenario's name
  for (const std::string& file : files) {
    check_input_file(file, "results file");  // a FIFO would block HDF5's open
    note_input_file(file);                   // the merged file may not replace one of them
    results::ResultsFile f = results::read_results(file);
    std::set<std::string> stages;
    for (const auto& p : f.points) {
      if (stages.insert(p.summary.stage).second) file_stages.emplace_back(file, p.summary.stage);
    }
    auto [at, fresh] = group_of.emplace(group_key(f), groups.size());
    if (fresh) {
      groups.push_back(Group{file, {}, !f.scenario_digest.empty(), PointMap(id_before)});
      std::vector<results::PointResult> points = std::move(f.points);
      f.points.clear();
      groups.back().header = std::move(f);
      add_points(groups.back().points, points);
    } else {
      Group& g = groups[at->second];
      if (f.scenario_digest.empty()) {
        g.digests_complete = false;
      } else if (g.digests_complete && f.scenario_digest != g.header.scenario_digest) {
        throw Error(SourcePlace{file, 0, 0, ""},
                    "merge: the same scenario as '" + g.file + "' but not the same inputs: " +
                        provenance_change(g.header, f, "", "'" + g.file + "' was written") +
                        " (input paths are relative to the scenario's folder)");
      }
      add_points(g.points, f.points);
    }
    scenario_of[file] = prefix_name(groups[at->second]);
  }

  results::ResultsFile out;
  out.tool_version = groups.front().header.tool_version;
  if (groups.size() == 1) {  // shards of one scenario
    Group& g = groups.front();
    out = std::move(g.header);
    if (!g.digests_complete) {
      out.scenario_digest.clear();
      out.inputs.clear();
    }
    for (auto& [id, p] : g.points) out.points.push_back(std::move(p));  // in point order
    return out;
  }

  check_one_stage(file_stages, scenario_of);
  std::set<std::string> taken;
  for (const Group& g : groups) {
    for (const auto& s : g.header.sources) taken.insert(s.name);
  }
  PointMap points(id_before);
  for (Group& g : groups) {
    if (!g.header.sources.empty()) {  // an earlier merge: its ids are prefixed already
      for (auto& s : g.header.sources) out.sources.push_back(std::move(s));
    } else {
      const std::string base = prefix_name(g);
      std::string name = base;
      for (int n = 2; taken.count(name); ++n) name = base + "-" + std::to_string(n);
      taken.insert(name);
      out.sources.push_back(results::ScenarioSource{name, g.digests_complete ? g.header.scenario_digest : "",
                                                    g.header.scenario_text});
      PointMap renamed(id_before);
      for (auto& [id, p] : g.points) {
        p.summary.id = name + "." + id;
        p.summary.parameters.insert(p.summary.parameters.begin(), {"scenario", name});
        renamed.emplace(p.summary.id, std::move(p));
      }
      g.points = std::move(renamed);
    }
    for (auto& [id, p] : g.points) {
      if (!points.emplace(id, std::move(p)).second) {
        throw Error(SourcePlace{g.file, 0, 0, ""}, "merge: point '" + id + "' appears in two merged scenarios");
      }
    }
  }
  std::sort(out.sources.begin(), out.sources.end(),
            [](const results::ScenarioSource& a, const results::ScenarioSource& b) { return a.name < b.name; });
  std::string names;
  for (const auto& s : out.sources) names += (names.empty() ? "" : ", ") + s.name;
  out.scenario_text = "# merged from " + std::to_string(out.sources.size()) + " scenarios (" + names +
                      "); their texts and digests are in /sources\n";
  out.scenario_digest = sources_digest(out.sources);
  for (auto& [id, p] : points) out.points.push_back(std::move(p));
  return out;
}

}  // namespace lightcode::sweep
