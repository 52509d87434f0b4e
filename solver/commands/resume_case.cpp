// The case of `run --resume OUTDIR` (see resume_case.hpp).
#include "resume_case.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "case_reader.hpp"
#include "loop/checkpoint.hpp"

namespace fdsolve {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// A YAML single-quoted scalar, so that any path survives the --set route.
std::string yaml_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("''") : std::string(1, ch);
  return q + "'";
}

}  // namespace

const std::vector<std::string>& resume_override_keys() {
  static const std::vector<std::string> keys{
      "solve.max_iterations", "solve.tolerance", "solve.absolute_tolerance",
      "solve.max_wall_time",  "time.end",        "output.every",
      "output.queue",         "checkpoint.every", "backend"};
  return keys;
}

Case read_resumed_case(const std::string& directory, const std::vector<std::string>& overrides) {
  const auto& allowed = resume_override_keys();
  for (const std::string& text : overrides) {
    const std::string key = trim(text.substr(0, text.find('=')));
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(fmt::format(
          "--set {}: --resume {} continues the run with the case stored in its checkpoint; only "
          "{} may change (the others would change the solution; start a new run instead)",
          key, directory, fmt::join(allowed, ", ")));
  }
  const StoredCase stored = read_checkpoint_case(directory);
  // Relative data files resolve against the case file, as when the run started.
  const std::string label = !stored.case_file.empty()
                                ? stored.case_file
                                : (std::filesystem::path(directory) / "checkpoint.h5").string();
  std::vector<std::string> all = overrides;
  all.push_back("output.directory=" + yaml_quote(directory));
  return parse_case(stored.yaml, label, all);
}

}  // namespace fdsolve
