// Writes the bench rows (and bench --io's rows) as a JSON array (docs/commands.md, "bench"),
// through a temporary file and a rename so that a reader never sees a partial file.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"

namespace fdsolve {

namespace {

std::string quoted(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace

void write_bench_json(const std::vector<BenchRow>& rows, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error("cannot write " + tmp);
    f << "[\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const BenchRow& r = rows[i];
      f << "  {\"backend\": " << quoted(r.backend) << ", \"kernel\": " << quoted(r.kernel)
        << ", \"dims\": " << r.dims << ", \"precision\": " << quoted(r.precision)
        << ", \"size\": " << r.size << ", \"iterations\": " << r.iterations
        << ", \"Gcell/s\": " << number(r.gcells_per_s) << ", \"GB/s\": " << number(r.gb_per_s)
        << ", \"%copy\": " << number(r.pct_copy) << ", \"norm_every\": " << r.norm_every
        << ", \"copy_GB/s\": " << number(r.copy_gb_per_s);
      if (r.points > 0)
        f << ", \"points\": " << r.points << ", \"role\": " << quoted(r.role)
          << ", \"us/sweep\": " << number(r.us_per_sweep) << ", \"reason\": " << quoted(r.reason);
      f << "}"
        << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    f << "]\n";
    if (!f.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

void write_io_json(const std::vector<IoRow>& rows, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error("cannot write " + tmp);
    f << "[\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const IoRow& r = rows[i];
      f << "  {\"bench\": \"io\", \"variant\": " << quoted(r.variant)
        << ", \"precision\": " << quoted(r.precision) << ", \"dims\": " << r.dims
        << ", \"points\": [" << r.points[0] << ", " << r.points[1];
      if (r.dims == 3) f << ", " << r.points[2];
      f << "], \"field_bytes\": " << r.field_bytes << ", \"file_bytes\": " << r.file_bytes
        << ", \"repeats\": " << r.repeats << ", \"median_ms\": " << number(r.median_ms)
        << ", \"best_ms\": " << number(r.best_ms) << ", \"GB/s\": " << number(r.gb_per_s)
        << ", \"%dd\": " << number(r.pct_dd) << ", \"dd_GB/s\": " << number(r.dd_gb_per_s)
        << "}" << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    f << "]\n";
    if (!f.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace fdsolve
