// Formats summary.json: every Summary field, the grid as an object with per-axis arrays.
#include "summary_json.hpp"

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

}  // namespace

std::string format_summary_json(const Summary& summary) {
  JsonWriter json;
  json.begin_object();
  json.value("name", summary.name);
  json.value("case_file", summary.case_file);
  json.value("backend", summary.backend);
  json.value("device", summary.device);
  json.value("precision", summary.precision);
  json.value("kernel", summary.kernel);
  write_grid(json, summary.grid);
  json.value("iterations", summary.iterations);
  json.value("converged", summary.converged);
  json.value("status", summary.status);
  json.value("norm_l2", summary.norm_l2);
  json.value("norm_linf", summary.norm_linf);
  json.value("first_norm", summary.first_norm);
  json.value("wall_seconds", summary.wall_seconds);
  json.value("cells_per_second", summary.cells_per_second);
  json.value("config", summary.config_yaml);
  json.end_object();
  return json.str();
}

}  // namespace fdsolve::output
