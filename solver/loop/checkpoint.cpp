// Checkpoint files: a snapshot-format HDF5 file (field /u, grid attributes, /config) plus text
// datasets for the loop state, the snapshot index and the history.
#include "checkpoint.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "case_reader.hpp"
#include "format_number.hpp"
#include "history_csv.hpp"
#include "number_text.hpp"
#include "probes_csv.hpp"
#include "problem/problem_setup.hpp"
#include "snapshot.hpp"

namespace fdsolve {
namespace {

constexpr const char* kFormat = "fdsolve-checkpoint 1";

std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

/// The probes as "name x y[ z]; ...": the checkpoint's probe rows belong to these.
std::string probe_signature(const Case& c) {
  std::string text;
  for (const ProbeSpec& p : c.output.probes) {
    text += (text.empty() ? "" : "; ") + p.name;
    for (int a = 0; a < c.grid.dims; ++a) text += ' ' + format_number(p.at[a]);
  }
  return text;
}

std::string format_state(const Case& c, const LoopState& s) {
  using output::format_double;
  std::string state = fmt::format(
      "format: {}\ncase_hash: {}\niteration: {}\ntime: {}\nfirst_norm: {}\nwall_seconds: {}\n"
      "backend: {}\nkernel: {}\ncase_file: {}\n",
      kFormat, case_hash(c), s.iteration, format_double(s.time), format_double(s.first_norm),
      format_double(s.wall_seconds), s.backend, s.kernel, c.source_path);
  if (!c.output.probes.empty()) state += "probes: " + probe_signature(c) + "\n";
  return state;
}

/// "file iteration time precision field,field" per snapshot.
std::string format_index(const std::vector<output::XdmfEntry>& index) {
  std::string text;
  for (const auto& e : index)
    text += fmt::format("{} {} {} {} {}\n", e.file, e.iteration, output::format_double(e.time),
                        e.precision_bytes, fmt::join(e.fields, ","));
  return text;
}

std::vector<output::XdmfEntry> parse_index(const std::string& text) {
  std::vector<output::XdmfEntry> index;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::istringstream words(line);
    output::XdmfEntry e;
    std::string time, fields;
    words >> e.file >> e.iteration >> time >> e.precision_bytes >> fields;
    e.time = std::strtod(time.c_str(), nullptr);
    std::istringstream names(fields);
    for (std::string name; std::getline(names, name, ',');) e.fields.push_back(name);
    index.push_back(std::move(e));
  }
  return index;
}

std::string state_value(const std::string& state, const std::string& key) {
  std::istringstream lines(state);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(key + ": ", 0) == 0) return line.substr(key.size() + 2);
  return {};
}

}  // namespace

std::string case_hash(const Case& c) {
  Case k;  // defaults for everything that does not shape the solution
  k.name = "case";
  k.precision = c.precision;
  k.grid = c.grid;
  k.problem = c.problem;
  k.stencil = c.stencil;
  k.boundary = c.boundary;
  k.initial = c.initial;
  k.solve.method = c.solve.method;  // Jacobi sweeps and multigrid cycles are different sequences
  k.solve.multigrid = c.solve.multigrid;
  k.time.scheme = c.time.scheme;
  k.time.dt_auto = c.time.dt_auto;
  k.time.dt = c.time.dt;
  k.time.safety = c.time.safety;
  k.time.startup_steps = c.time.startup_steps;
  k.output.directory = "out";
  // Output times are marks the steps land on: they shape the sequence of fields.
  k.output.interval = c.output.interval;
  k.output.times = c.output.times;
  return fnv1a_hex(to_yaml(k));
}

std::string checkpoint_path(const Case& c) {
  return (std::filesystem::path(c.output.directory) / "checkpoint.h5").string();
}

namespace {

/// Everything of a checkpoint but its field.
output::SnapshotInfo checkpoint_info(const Case& c, const LoopState& state,
                                     const std::vector<output::XdmfEntry>& index,
                                     const std::vector<output::HistoryRow>& history,
                                     const output::ProbeTable& probes) {
  output::SnapshotInfo info;
  info.iteration = state.iteration;
  info.time = state.time;
  info.grid = grid_meta(c);
  info.config_yaml = to_yaml(c);
  info.texts["checkpoint"] = format_state(c, state);
  info.texts["snapshot_index"] = format_index(index);
  info.texts["history"] = output::format_history_csv(history);
  if (!probes.names.empty()) info.texts["probes"] = output::format_probes_csv(probes);
  return info;
}

}  // namespace

/// The datasets of a checkpoint: u, and u one to three steps earlier where the loop keeps
/// them. The names sort in this order, which is the order read_snapshot lists them in.
const char* const kPreviousNames[] = {"u_previous", "u_previous_2", "u_previous_3"};

template <typename T>
std::vector<output::FieldRef<T>> checkpoint_fields(
    const std::vector<T>& u, const std::vector<const std::vector<T>*>& previous) {
  if (previous.size() > std::size(kPreviousNames))
    throw std::logic_error("a checkpoint holds at most three earlier fields");
  std::vector<output::FieldRef<T>> fields{{"u", u.data()}};
  for (std::size_t i = 0; i < previous.size(); ++i)
    fields.push_back({kPreviousNames[i], previous[i]->data()});
  return fields;
}

template <typename T>
void write_checkpoint(const Case& c, const LoopState& state, const std::vector<T>& u,
                      const std::vector<output::XdmfEntry>& index,
                      const std::vector<output::HistoryRow>& history,
                      const output::ProbeTable& probes,
                      const std::vector<const std::vector<T>*>& previous) {
  output::write_snapshot<T>(checkpoint_path(c), checkpoint_info(c, state, index, history, probes),
                            checkpoint_fields(u, previous));
}

template <typename T>
void write_checkpoint_fields(const Case& c, const std::vector<T>& u, const output::Hyperslab& mine,
                             const std::vector<const std::vector<T>*>& previous) {
  const std::string path = checkpoint_path(c);
  output::write_fields_collective<T>(output::collective_temp_path(path), path, grid_meta(c),
                                     checkpoint_fields(u, previous), mine);
}

void finish_checkpoint(const Case& c, const LoopState& state, const output::RunOutput& out) {
  const std::string path = checkpoint_path(c);
  output::finish_collective(output::collective_temp_path(path), path,
                            checkpoint_info(c, state, out.index(), out.history(), out.probes()));
}

Checkpoint read_checkpoint(const Case& c) { return read_checkpoint(c, Subdomain::whole(c)); }

Checkpoint read_checkpoint(const Case& c, const Subdomain& sub) {
  const std::string path = checkpoint_path(c);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError("--resume: no checkpoint at " + path +
                     " (checkpoint.every writes one; run without --resume to start over)");
  const output::SnapshotData data = output::read_snapshot(path, hyperslab_of(sub));
  const auto state = data.info.texts.find("checkpoint");
  if (state == data.info.texts.end() || state_value(state->second, "format") != kFormat)
    throw InputError("--resume: " + path + " is not an fdsolve checkpoint of this version");
  const std::string theirs = state_value(state->second, "case_hash");
  if (theirs != case_hash(c))
    throw InputError(fmt::format(
        "--resume: {} was written for a different case (hash {}, this case {}): the grid, "
        "precision, problem, stencil, boundaries, initial state or time step differ; run "
        "without --resume to start over",
        path, theirs, case_hash(c)));
  const bool want_single = c.precision == Precision::Float;
  bool known = !data.names.empty() && data.names[0] == "u" &&
               data.names.size() <= 1 + std::size(kPreviousNames);
  for (std::size_t i = 1; known && i < data.names.size(); ++i)
    known = data.names[i] == kPreviousNames[i - 1];
  if (!known || data.single_precision != want_single)
    throw InputError("--resume: " + path + " does not hold the field u in this case's precision");

  Checkpoint k;
  k.u = data.fields[0];
  k.u_previous.assign(data.fields.begin() + 1, data.fields.end());
  k.single_precision = data.single_precision;
  k.state.iteration = data.info.iteration;
  k.state.time = data.info.time;
  k.state.first_norm = std::strtod(state_value(state->second, "first_norm").c_str(), nullptr);
  k.state.wall_seconds = std::strtod(state_value(state->second, "wall_seconds").c_str(), nullptr);
  k.state.backend = state_value(state->second, "backend");
  k.state.kernel = state_value(state->second, "kernel");
  const auto index = data.info.texts.find("snapshot_index");
  if (index != data.info.texts.end()) k.index = parse_index(index->second);
  const auto history = data.info.texts.find("history");
  if (history != data.info.texts.end()) k.history = output::parse_history_csv(history->second);
  // probes.csv continues only with the probes its rows were sampled at.
  if (state_value(state->second, "probes") != probe_signature(c))
    throw InputError(fmt::format(
        "{}output.probes: the checkpoint {} was written with the probes [{}], this case has "
        "[{}]; probes.csv would not be one table. Resume with the probes the run started with, "
        "or run without --resume to start over",
        c.where("output.probes"), path, state_value(state->second, "probes"), probe_signature(c)));
  if (const auto probes = data.info.texts.find("probes"); probes != data.info.texts.end())
    k.probes = output::parse_probes_csv(probes->second).rows;
  return k;
}

StoredCase read_checkpoint_case(const std::string& directory) {
  const std::string path = (std::filesystem::path(directory) / "checkpoint.h5").string();
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error))
    throw InputError("--resume " + directory + ": not a directory (give the output directory of "
                     "the run, which holds checkpoint.h5, or CASE.yaml --resume)");
  if (!std::filesystem::is_regular_file(path, error))
    throw InputError("--resume " + directory + ": no checkpoint at " + path +
                     " (checkpoint.every, an interrupt or a time limit writes one)");
  std::map<std::string, std::string> texts;
  try {
    texts = output::read_snapshot_texts(path);
  } catch (const std::exception& e) {
    throw InputError("--resume " + directory + ": " + e.what());
  }
  const auto state = texts.find("checkpoint");
  const auto config = texts.find("config");
  if (state == texts.end() || state_value(state->second, "format") != kFormat ||
      config == texts.end() || config->second.empty())
    throw InputError("--resume: " + path + " is not an fdsolve checkpoint of this version");
  StoredCase stored;
  stored.yaml = config->second;
  stored.case_file = state_value(state->second, "case_file");
  return stored;
}

template void write_checkpoint_fields<float>(const Case&, const std::vector<float>&,
                                             const output::Hyperslab&,
                                             const std::vector<const std::vector<float>*>&);
template void write_checkpoint_fields<double>(const Case&, const std::vector<double>&,
                                              const output::Hyperslab&,
                                              const std::vector<const std::vector<double>*>&);
template void write_checkpoint<float>(const Case&, const LoopState&, const std::vector<float>&,
                                      const std::vector<output::XdmfEntry>&,
                                      const std::vector<output::HistoryRow>&,
                                      const output::ProbeTable&,
                                      const std::vector<const std::vector<float>*>&);
template void write_checkpoint<double>(const Case&, const LoopState&, const std::vector<double>&,
                                       const std::vector<output::XdmfEntry>&,
                                       const std::vector<output::HistoryRow>&,
                                       const output::ProbeTable&,
                                       const std::vector<const std::vector<double>*>&);

}  // namespace fdsolve
