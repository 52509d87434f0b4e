// Formats summary.json: every Summary field, the grid as an object with per-axis arrays, the
// last check's diagnostics, the divergence (or null) and every check's row, one per line.
#include "summary_json.hpp"

#include <cmath>

#include "history_csv.hpp"
#include "json_writer.hpp"

namespace fdsolve::output {
namespace {

void write_grid(JsonWriter& json, const GridMeta& grid) {
  json.begin_object("grid");
  json.value("dims", grid.dims);
  json.begin_array("points");
  for (int axis = 0; axis < grid.dims; ++axis) json.value({}, grid.points[axis]);
  json.end_array();
  json.begin_array("origin");
  for (int axis = 0; axis < grid.dims; ++axis) json.value({}, grid.origin[axis]);
  json.end_array();
  json.begin_array("spacing");
  for (int axis = 0; axis < grid.dims; ++axis) json.value({}, grid.spacing[axis]);
  json.end_array();
  json.end_object();
}

/// [i, j(, k)] of a node.
void write_node(JsonWriter& json, std::string_view key, const std::array<std::int64_t, 3>& node,
                int dims) {
  json.begin_array(key, true);
  for (int axis = 0; axis < dims; ++axis) json.value({}, node[axis]);
  json.end_array();
}

/// {"node": [i, j(, k)], "x": [x, y(, z)]}
void write_node_at(JsonWriter& json, std::string_view key, const NodeAt& at, int dims) {
  json.begin_object(key, true);
  write_node(json, "node", at.node, dims);
  json.begin_array("x");
  for (int axis = 0; axis < dims; ++axis) json.value({}, at.x[axis]);
  json.end_array();
  json.end_object();
}

/// The numbers of one check; the diagnostics of a check without them are null. A `compact` row
/// (of the history array) is one line with linf_at as node indices; otherwise linf_at also has
/// its coordinates.
void write_row(JsonWriter& json, std::string_view key, const HistoryRow& row, const GridMeta& grid,
               bool compact) {
  json.begin_object(key, compact);
  json.value("iteration", row.iteration);
  json.value("time", row.time);
  json.value("norm_l2", row.norm_l2);
  json.value("norm_linf", row.norm_linf);
  json.value("min", row.min);
  json.value("max", row.max);
  json.value("mean", row.mean);
  if (row.diagnosed) {
    json.value("nonfinite", row.nonfinite);
    json.value("p50", row.p50);
    json.value("p90", row.p90);
    json.value("p99", row.p99);
  } else {
    for (const char* name : {"nonfinite", "p50", "p90", "p99"}) json.null_value(name);
  }
  if (!row.diagnosed || row.linf_at[0] < 0)
    json.null_value("linf_at");
  else if (compact)
    write_node(json, "linf_at", row.linf_at, grid.dims);
  else
    write_node_at(json, "linf_at", node_at(grid, row.linf_at), grid.dims);
  if (std::isnan(row.factor))
    json.null_value("factor");
  else
    json.value("factor", row.factor);
  if (row.cycles >= 0) json.value("cycles", row.cycles);  // implicit heat steps only
  const std::vector<std::string> names = balance_columns(row.balance_faces, row.balance.size());
  for (std::size_t b = 0; b < names.size(); ++b) json.value(names[b], row.balance[b]);
  json.value("wall_seconds", row.wall_seconds);
  json.end_object();
}

void write_divergence(JsonWriter& json, const Divergence& d, int dims) {
  json.begin_object("divergence");
  json.value("iteration", d.iteration);
  json.value("time", d.time);
  json.value("reason", d.reason);
  json.value("norm", d.norm);
  json.value("limit", d.limit);
  json.value("nonfinite", d.nonfinite);
  if (d.nonfinite == 0) json.value("largest_update", d.largest_update);
  json.begin_array("nodes");
  for (const NodeAt& at : d.nodes) write_node_at(json, {}, at, dims);
  json.end_array();
  json.value("snapshot", d.snapshot);
  if (!d.input.empty()) json.value("input", d.input);
  json.end_object();
}

}  // namespace

namespace {

void write_times(JsonWriter& json, const char* key, const LoopTimes& t) {
  json.begin_object(key, true);
  json.value("loop", t.loop);
  json.value("sweep", t.sweep);
  json.value("exchange", t.exchange);
  json.value("reductions", t.reductions);
  json.end_object();
}

void write_parallel(JsonWriter& json, const ParallelSummary& p, int dims) {
  json.begin_object("parallel");
  json.value("ranks", p.ranks);
  json.begin_array("rank_grid", true);
  for (int axis = 0; axis < dims; ++axis) json.value({}, p.rank_grid[axis]);
  json.end_array();
  json.value("overlap", p.overlap);
  json.value("exchange", p.exchange);
  json.value("transport", p.transport);
  // Host seconds of the solve loop: rank 0's, and each figure's largest over the ranks.
  write_times(json, "seconds_rank0", p.rank0);
  write_times(json, "seconds_max", p.max);
  if (!p.levels_rank0.empty()) {
    json.begin_array("levels");
    for (std::size_t l = 0; l < p.levels_rank0.size(); ++l) {
      json.begin_object({}, true);
      json.value("level", static_cast<std::int64_t>(l));
      json.begin_array("points", true);
      for (int axis = 0; axis < dims; ++axis) json.value({}, p.level_points[l][static_cast<std::size_t>(axis)]);
      json.end_array();
      for (const auto& [key, t] : {std::pair{"rank0", &p.levels_rank0[l]}, std::pair{"max", &p.levels_max[l]}}) {
        json.begin_object(key, true);
        json.value("sweep", t->sweep);
        json.value("transfer", t->transfer);
        json.value("exchange", t->exchange);
        json.value("bottom", t->bottom);
        json.end_object();
      }
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
}

}  // namespace

std::string format_summary_json(const Summary& summary) {
  JsonWriter json;
  json.begin_object();
  json.value("name", summary.name);
  json.value("case_file", summary.case_file);
  json.value("backend", summary.backend);
  json.value("device", summary.device);
  if (summary.threads > 0) json.value("threads", summary.threads);
  json.value("precision", summary.precision);
  json.value("kernel", summary.kernel);
  json.value("kernel_reason", summary.kernel_reason);
  json.value("method", summary.method);
  if (!summary.criterion.empty()) json.value("criterion", summary.criterion);
  write_grid(json, summary.grid);
  json.value("iterations", summary.iterations);
  json.value("converged", summary.converged);
  json.value("status", summary.status);
  if (!summary.stop_reason.empty()) json.value("stop_reason", summary.stop_reason);
  json.value("norm_l2", summary.norm_l2);
  json.value("norm_linf", summary.norm_linf);
  json.value("first_norm", summary.first_norm);
  json.value("at_rounding_floor", summary.at_rounding_floor);
  if (const auto& f = summary.rounding_floor) {
    json.begin_object("rounding_floor", true);
    json.value("norm", f->norm);
    json.value("residual", f->residual);
    json.value("target", f->target);
    json.value("residual_linf", f->residual_linf);
    json.value("floor", f->floor);
    json.end_object();
  } else {
    json.null_value("rounding_floor");
  }
  json.value("wall_seconds", summary.wall_seconds);
  json.value("cells_per_second", summary.cells_per_second);
  json.value("diagnostics", summary.diagnostics);
  if (summary.history.empty())
    json.null_value("last_check");
  else
    write_row(json, "last_check", summary.history.back(), summary.grid, false);
  if (summary.diverged)
    write_divergence(json, summary.divergence, summary.grid.dims);
  else
    json.null_value("divergence");
  if (summary.estimated) {
    json.begin_object("error_estimate", true);
    json.value("norm", summary.estimate.norm);
    json.value("discretization", summary.estimate.discretization);
    json.value("algebraic", summary.estimate.algebraic);
    json.value("coarse_seconds", summary.estimate.coarse_seconds);
    json.end_object();
  }
  if (summary.mixed) {
    json.begin_object("mixed_precision", true);
    json.value("cycles", std::string("float"));
    if (summary.mixed->fallback_cycle > 0)
      json.value("double_from_cycle", summary.mixed->fallback_cycle);
    else
      json.null_value("double_from_cycle");
    json.end_object();
  }
  if (summary.distributed) write_parallel(json, summary.parallel, summary.grid.dims);
  if (summary.memory_peak_bytes > 0) {
    json.begin_object("memory", true);
    json.value("backend_peak_bytes", summary.memory_peak_bytes);
    json.value("backend_estimate_bytes", summary.memory_estimate_bytes);
    json.end_object();
  }
  if (summary.timings.measured) {
    const RunTimings& t = summary.timings;
    json.begin_object("timings", true);
    json.value("setup", t.setup);
    json.value("solve", t.solve);
    json.value("output", t.output);
    json.value("output_wait", t.output_wait);
    json.value("total", t.total);
    json.begin_array("setup_stages", true);
    for (const SetupStage& s : t.setup_stages) {
      json.begin_object({}, true);
      json.value("stage", s.stage);
      json.value("seconds", s.seconds);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.begin_array("history");
  for (const HistoryRow& row : summary.history) write_row(json, {}, row, summary.grid, true);
  json.end_array();
  json.value("config", summary.config_yaml);
  json.end_object();
  return json.str();
}

}  // namespace fdsolve::output
