// Writes the bench rows (and bench --io's rows) as a JSON array (docs/commands.md, "bench"), one
// compact object per row, through output::write_text_atomic so that a reader never sees a
// partial file.
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "bench.hpp"
#include "json_writer.hpp"

namespace fdsolve {

void write_bench_json(const std::vector<BenchRow>& rows, const std::string& path) {
  output::JsonWriter json;
  json.begin_array();
  for (const BenchRow& r : rows) {
    json.begin_object({}, true);
    json.value("backend", r.backend);
    json.value("kernel", r.kernel);
    json.value("dims", r.dims);
    json.value("precision", r.precision);
    json.value("size", r.size);
    json.value("iterations", r.iterations);
    json.value("Gcell/s", r.gcells_per_s);
    json.value("GB/s", r.gb_per_s);
    json.value("%copy", r.pct_copy);
    json.value("norm_every", r.norm_every);
    json.value("copy_GB/s", r.copy_gb_per_s);
    if (r.points > 0) {
      json.value("points", r.points);
      json.value("role", r.role);
      json.value("us/sweep", r.us_per_sweep);
      json.value("reason", r.reason);
    }
    json.end_object();
  }
  json.end_array();
  output::write_text_atomic(path, json.str());
}

void write_io_json(const std::vector<IoRow>& rows, const std::string& path) {
  output::JsonWriter json;
  json.begin_array();
  for (const IoRow& r : rows) {
    json.begin_object({}, true);
    json.value("bench", "io");
    json.value("variant", r.variant);
    json.value("precision", r.precision);
    json.value("dims", r.dims);
    json.begin_array("points", true);
    for (int a = 0; a < r.dims; ++a) json.value({}, r.points[static_cast<std::size_t>(a)]);
    json.end_array();
    json.value("field_bytes", r.field_bytes);
    json.value("file_bytes", r.file_bytes);
    json.value("repeats", r.repeats);
    json.value("median_ms", r.median_ms);
    json.value("best_ms", r.best_ms);
    json.value("GB/s", r.gb_per_s);
    json.value("%dd", r.pct_dd);
    json.value("dd_GB/s", r.dd_gb_per_s);
    json.end_object();
  }
  json.end_array();
  output::write_text_atomic(path, json.str());
}

}  // namespace fdsolve
