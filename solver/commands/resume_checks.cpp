// Checks of `run --resume` against the run's directory and the case's steps (see
// resume_checks.hpp).
#include "resume_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "case_reader.hpp"
#include "loop/stability.hpp"
#include "solve.hpp"

namespace fdsolve {
namespace {

namespace fs = std::filesystem;

fs::path summary_path(const std::string& directory) { return fs::path(directory) / "summary.json"; }

/// What one iteration of the case is called in messages.
const char* counted_unit(const Case& c) {
  if (c.problem.equation == Equation::Heat) return "step";
  return runs_multigrid(c) ? "cycle" : "iteration";
}

/// The text after `"key": ` on the top level of summary.json, whose writer puts each key of the
/// outer object on its own line, indented by two spaces; "" when absent.
std::string top_level_value(const std::string& json, const std::string& key) {
  const std::string marker = "\n  \"" + key + "\": ";
  const auto at = json.find(marker);
  if (at == std::string::npos) return {};
  const auto begin = at + marker.size();
  const auto end = json.find('\n', begin);
  std::string value = json.substr(begin, end == std::string::npos ? end : end - begin);
  if (!value.empty() && value.back() == ',') value.pop_back();
  return value;
}

}  // namespace

std::optional<SessionEnd> read_session_end(const std::string& directory) {
  std::ifstream in(summary_path(directory), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  const std::string iterations = top_level_value(json, "iterations");
  const std::string status = top_level_value(json, "status");
  if (iterations.empty() || status.size() < 2 || status.front() != '"' || status.back() != '"')
    return std::nullopt;
  char* end = nullptr;
  const long long n = std::strtoll(iterations.c_str(), &end, 10);
  if (end == iterations.c_str() || *end != '\0' || n < 0) return std::nullopt;
  return SessionEnd{n, status.substr(1, status.size() - 2)};
}

bool before_completed_last_step(const Case& c, const LoopState& checkpoint,
                                const std::optional<SessionEnd>& end) {
  return c.problem.equation == Equation::Heat && end && end->status == "completed" &&
         end->iterations == checkpoint.iteration + 1;
}

void check_checkpoint_is_latest(const Case& c, const LoopState& checkpoint) {
  const std::optional<SessionEnd> end = read_session_end(c.output.directory);
  if (!end) return;
  // A run that diverged at the checkpoint's own iteration (a time-dependent input that turned
  // non-finite stops before the step) would diverge there again.
  const bool diverged = end->status == "diverged" && end->iterations >= checkpoint.iteration;
  if (!diverged &&
      (end->iterations <= checkpoint.iteration || before_completed_last_step(c, checkpoint, end)))
    return;
  const std::string unit = counted_unit(c);
  const std::string summary = summary_path(c.output.directory).string();
  const std::string holds = fmt::format("--resume {}: {} holds {} {}", c.output.directory,
                                        checkpoint_path(c), unit, checkpoint.iteration);
  if (diverged)
    throw InputError(fmt::format(
        "{}, {} ({}): resuming would take the same {}s again. Start a new run{}, or remove {} to "
        "resume from {} {} anyway (on another backend, say)",
        holds,
        end->iterations == checkpoint.iteration
            ? std::string("where the run then diverged")
            : fmt::format("but the run went on to {} {} and diverged there", unit, end->iterations),
        summary, unit, c.problem.equation == Equation::Heat ? " with a smaller time.dt" : "",
        summary, unit, checkpoint.iteration));
  throw InputError(fmt::format(
      "{}, but the run went on to {} {} ({}, {}) and left no checkpoint of that end (an older "
      "fdsolve keeps none): continuing would repeat {} {}(s) from the older state. Start a new "
      "run, or remove {} to continue from {} {} anyway",
      holds, unit, end->iterations, end->status, summary, end->iterations - checkpoint.iteration,
      unit, summary, unit, checkpoint.iteration));
}

void check_heat_continuation(const Case& c, const LoopState& checkpoint) {
  if (c.problem.equation != Equation::Heat) return;
  const TimePlan plan = heat_time_plan(c);
  const std::int64_t step = checkpoint.iteration;
  if (step < plan.steps && plan.time_after(step) == checkpoint.time) return;
  if (step == plan.steps && checkpoint.time == plan.end) return;  // at time.end: nothing left
  if (step >= plan.steps || checkpoint.time >= c.time.end)
    throw InputError(fmt::format(
        "{}time.end: {} is not after the time of the checkpoint to resume, t = {} (step {}); "
        "give a later time.end",
        c.where("time.end"), c.time.end, checkpoint.time, step));
  throw InputError(fmt::format(
      "--resume: {} holds step {} at t = {}, but this case's step {} ends at t = {} (dt = {}): "
      "it is the state after a last step shortened to land on an earlier time.end (a "
      "checkpoint of an fdsolve that kept that state), and a run to time.end = {} takes a full "
      "step there, so it cannot continue as one run; start a new run",
      checkpoint_path(c), step, checkpoint.time, step, plan.time_after(step), plan.dt, c.time.end));
}

void remove_earlier_summary(const Case& c) {
  std::error_code ignored;
  fs::remove(summary_path(c.output.directory), ignored);
}

std::vector<std::string> unlisted_snapshots(const Case& c,
                                            const std::vector<output::XdmfEntry>& index) {
  const std::regex snapshot(
      std::regex_replace(c.name, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
      "_[0-9]{8,}\\.h5");
  std::vector<std::string> unlisted;
  std::error_code ec;
  for (fs::directory_iterator it(c.output.directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (!std::regex_match(file, snapshot)) continue;
    const bool listed = std::any_of(index.begin(), index.end(),
                                    [&](const output::XdmfEntry& e) { return e.file == file; });
    if (!listed) unlisted.push_back(file);
  }
  std::sort(unlisted.begin(), unlisted.end());
  return unlisted;
}

}  // namespace fdsolve
