// The key table of case_keys.hpp.
#include "case_keys.hpp"

#include <stdexcept>
#include <utility>

namespace fdsolve::case_keys {

namespace {

struct Section {
  std::string_view name;
  std::vector<std::string> keys;
};

const std::vector<Section>& table() {
  static const std::vector<Section> sections{
      {"",
       {"name", "precision", "backend", "grid", "problem", "stencil", "boundary", "initial",
        "solve", "time", "output", "checkpoint", "tuning", "parallel"}},
      {"grid", {"points", "extent", "origin"}},
      {"problem",
       {"equation", "source", "diffusivity", "capacity", "coefficient", "fixed", "sampling"}},
      {"problem.fixed", {"where", "value"}},
      {"field_file", {"file", "dataset"}},
      {"boundary", {"default", "x_min", "x_max", "y_min", "y_max", "z_min", "z_max"}},
      {"boundary.face", {"type", "value", "gradient", "h", "ambient"}},
      {"stencil", {"points", "weights"}},
      {"stencil.weights.5", {"center", "x", "y"}},
      {"stencil.weights.27", {"center", "face", "edge", "corner"}},
      {"time", {"scheme", "end", "dt", "safety", "startup_steps", "extrapolate"}},
      {"solve",
       {"method", "multigrid", "krylov", "criterion", "max_iterations", "tolerance",
        "absolute_tolerance", "norm", "check_every", "divergence_factor", "diagnostics",
        "stagnation_checks", "max_wall_time"}},
      {"solve.multigrid", {"cycle", "smoother", "pre_smooth", "post_smooth", "fmg", "precision"}},
      {"output",
       {"directory", "every", "interval", "times", "fields", "precision", "compression", "queue",
        "probes"}},
      {"output.probes", {"name", "at"}},
      {"checkpoint", {"every"}},
      {"tuning", {"kernel", "blocked_kernel"}},
      {"parallel", {"ranks", "gather_below", "coarse_levels", "overlap"}},
  };
  return sections;
}

void add_under(std::vector<std::string>& paths, const std::string& prefix, std::string_view name) {
  for (const std::string& key : section(name)) paths.push_back(prefix + "." + key);
}

}  // namespace

const std::vector<std::string>& section(std::string_view name) {
  for (const Section& s : table()) {
    if (s.name == name) return s.keys;
  }
  throw std::logic_error("case_keys: no section '" + std::string(name) + "'");
}

std::vector<std::string> all_paths() {
  std::vector<std::string> paths;
  for (const Section& s : table()) {
    if (s.name == "boundary.face" || s.name == "field_file" || s.name == "problem.fixed" ||
        s.name == "output.probes" || s.name.starts_with("stencil.weights"))
      continue;  // added below, under the keys that hold them
    if (s.name.empty()) {
      paths.insert(paths.end(), s.keys.begin(), s.keys.end());
    } else {
      add_under(paths, std::string(s.name), s.name);
    }
    if (s.name == "boundary") add_under(paths, "boundary.<face>", "boundary.face");
    if (s.name == "problem") add_under(paths, "problem.fixed[i]", "problem.fixed");
    if (s.name == "output") add_under(paths, "output.probes[i]", "output.probes");
    if (s.name == "stencil") {
      add_under(paths, "stencil.weights", "stencil.weights.5");
      for (const std::string& key : section("stencil.weights.27")) {
        if (key != "center") paths.push_back("stencil.weights." + key);
      }
    }
  }
  add_under(paths, "initial", "field_file");
  for (const char* key : {"problem.source", "problem.coefficient", "problem.diffusivity",
                          "problem.capacity",
                          "problem.fixed[i].where", "problem.fixed[i].value"}) {
    add_under(paths, key, "field_file");
  }
  return paths;
}

}  // namespace fdsolve::case_keys
