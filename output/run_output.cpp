// RunOutput: owns a run's output directory and keeps the .xmf index, history.csv and
// summary.json consistent with the snapshots written so far.
#include "run_output.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <type_traits>

#include "atomic_file.hpp"
#include "history_csv.hpp"
#include "summary_json.hpp"
#include "xdmf.hpp"

namespace fdsolve::output {
namespace {

std::string snapshot_file_name(const std::string& name, std::int64_t iteration) {
  char number[32];
  std::snprintf(number, sizeof number, "%08lld", static_cast<long long>(iteration));
  return name + "_" + number + ".h5";
}

}  // namespace

NodeAt node_at(const GridMeta& grid, const std::array<std::int64_t, 3>& node) {
  NodeAt at;
  at.node = node;
  for (int a = 0; a < 3; ++a)
    at.x[a] = a < grid.dims ? grid.origin[a] + static_cast<double>(node[a]) * grid.spacing[a] : 0;
  return at;
}

RunOutput::RunOutput(std::string directory, std::string name, GridMeta grid,
                     std::string config_yaml, bool writes)
    : directory_(std::move(directory)),
      name_(std::move(name)),
      grid_(grid),
      config_yaml_(std::move(config_yaml)),
      writes_(writes) {
  if (name_.empty() || name_.find('/') != std::string::npos) {
    throw OutputError("invalid output name '" + name_ + "'");
  }
  if (!writes_) return;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (!error && !std::filesystem::is_directory(directory_, error)) {
    error = std::make_error_code(std::errc::not_a_directory);
  }
  if (error) {
    throw OutputError("cannot create output directory '" + directory_ + "': " + error.message());
  }
  check_directory_writable(directory_);
}

std::string RunOutput::snapshot_path(std::int64_t iteration) const {
  return (std::filesystem::path(directory_) / snapshot_file_name(name_, iteration)).string();
}

std::string RunOutput::snapshot_file(std::int64_t iteration) const {
  return snapshot_file_name(name_, iteration);
}

SnapshotInfo RunOutput::snapshot_info(std::int64_t iteration, double time,
                                      const std::map<std::string, std::string>& texts) const {
  SnapshotInfo info;
  info.iteration = iteration;
  info.time = time;
  info.grid = grid_;
  info.config_yaml = config_yaml_;
  info.texts = texts;
  info.format = format_;
  return info;
}

template <typename T>
void RunOutput::snapshot(std::int64_t iteration, double time,
                         const std::vector<FieldRef<T>>& fields,
                         const std::map<std::string, std::string>& texts) {
  const std::string path = snapshot_path(iteration);
  XdmfEntry entry{snapshot_file_name(name_, iteration), iteration, time, {},
                  format_.as_float ? 4 : static_cast<int>(sizeof(T))};
  for (const auto& field : fields) entry.fields.push_back(field.name);
  if (ahead_) {
    finish_snapshot_file(ahead_->take(), path, snapshot_info(iteration, time, texts), fields);
    for (const std::string& name : ahead_->names()) entry.fields.push_back(name);
    const auto rank = [&](const std::string& name) {
      return std::find(field_order_.begin(), field_order_.end(), name) - field_order_.begin();
    };
    std::stable_sort(entry.fields.begin(), entry.fields.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  } else if (writes_) {
    write_snapshot(path, snapshot_info(iteration, time, texts), fields);
  }
  index_snapshot(path, std::move(entry));
}

template <typename T>
void RunOutput::write_ahead(std::vector<FieldRef<T>> fields, std::shared_ptr<const void> owner,
                            std::vector<std::string> order) {
  if (!writes_ || fields.empty()) return;
  field_order_ = std::move(order);
  ahead_ = std::make_shared<SnapshotAhead>(directory_, name_, grid_, format_, std::move(fields),
                                           std::move(owner));
}

template <typename T>
void RunOutput::snapshot_fields(std::int64_t iteration, const std::vector<FieldRef<T>>& fields,
                                const Hyperslab& mine) const {
  const std::string path = snapshot_path(iteration);
  write_fields_collective(collective_temp_path(path), path, grid_, fields, mine);
}

template <typename T>
void RunOutput::snapshot_finish(std::int64_t iteration, double time,
                                const std::vector<std::string>& names,
                                const std::map<std::string, std::string>& texts) {
  const std::string path = snapshot_path(iteration);
  if (writes_) finish_collective(collective_temp_path(path), path, snapshot_info(iteration, time, texts));
  index_snapshot(path, XdmfEntry{snapshot_file_name(name_, iteration), iteration, time, names,
                                 static_cast<int>(sizeof(T))});
}

void RunOutput::index_snapshot(const std::string& path, XdmfEntry entry) {
  const auto found = std::find(snapshots_.begin(), snapshots_.end(), path);
  if (found == snapshots_.end()) {
    snapshots_.push_back(path);
    index_.push_back(std::move(entry));
  } else {
    index_[static_cast<size_t>(found - snapshots_.begin())] = std::move(entry);
  }
  // Only now, with the .h5 renamed into place, may the index mention it.
  write_index();
}

void RunOutput::write_index() const {
  if (!writes_) return;
  write_text_atomic(std::filesystem::path(directory_) / (name_ + ".xmf"),
                    make_xdmf(name_, grid_, index_));
}

void RunOutput::restore(std::vector<XdmfEntry> index, std::vector<HistoryRow> history) {
  std::vector<std::string> paths;
  for (const XdmfEntry& entry : index) {
    const std::string path = (std::filesystem::path(directory_) / entry.file).string();
    std::error_code error;
    if (writes_ && !std::filesystem::is_regular_file(path, error)) {
      throw OutputError("cannot continue the output in " + directory_ + ": snapshot " + path +
                        ", listed in the checkpoint, is missing");
    }
    paths.push_back(path);
  }
  snapshots_ = std::move(paths);
  index_ = std::move(index);
  history_ = std::move(history);
  write_index();
  flush_history();
}

template void RunOutput::snapshot_fields<float>(std::int64_t,
                                                const std::vector<FieldRef<float>>&,
                                                const Hyperslab&) const;
template void RunOutput::snapshot_fields<double>(std::int64_t,
                                                 const std::vector<FieldRef<double>>&,
                                                 const Hyperslab&) const;
template void RunOutput::snapshot_finish<float>(std::int64_t, double,
                                                const std::vector<std::string>&,
                                                const std::map<std::string, std::string>&);
template void RunOutput::snapshot_finish<double>(std::int64_t, double,
                                                 const std::vector<std::string>&,
                                                 const std::map<std::string, std::string>&);
template void RunOutput::snapshot<float>(std::int64_t, double, const std::vector<FieldRef<float>>&,
                                         const std::map<std::string, std::string>&);
template void RunOutput::snapshot<double>(std::int64_t, double,
                                          const std::vector<FieldRef<double>>&,
                                          const std::map<std::string, std::string>&);
template void RunOutput::write_ahead<float>(std::vector<FieldRef<float>>,
                                            std::shared_ptr<const void>, std::vector<std::string>);
template void RunOutput::write_ahead<double>(std::vector<FieldRef<double>>,
                                             std::shared_ptr<const void>,
                                             std::vector<std::string>);

void RunOutput::add_history(const HistoryRow& row) { history_.push_back(row); }

void RunOutput::replace_last_history(const HistoryRow& row) {
  if (history_.empty()) throw OutputError("replace_last_history: no history row yet");
  history_.back() = row;
}

void RunOutput::flush_history() const { write_history(history_); }

void RunOutput::write_history(const std::vector<HistoryRow>& rows) const {
  if (!writes_) return;
  const auto start = std::chrono::steady_clock::now();
  write_text_atomic(std::filesystem::path(directory_) / "history.csv", format_history_csv(rows));
  if (time_sink_)
    time_sink_(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

void RunOutput::write_probes(const ProbeTable& table) const {
  if (!writes_ || table.names.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  write_text_atomic(std::filesystem::path(directory_) / "probes.csv", format_probes_csv(table));
  if (time_sink_)
    time_sink_(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

void RunOutput::restore_probes(std::vector<ProbeRow> rows) {
  probes_.rows = std::move(rows);
  write_probes(probes_);
}

void RunOutput::write_summary(const Summary& summary) const {
  if (!writes_) return;
  write_text_atomic(std::filesystem::path(directory_) / "summary.json",
                    format_summary_json(summary));
}

}  // namespace fdsolve::output
