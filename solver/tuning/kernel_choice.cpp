// Kernel choice: nearest-size look-up, the tune cache's format and validation, the decision.
#include "kernel_choice.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fdsolve {

// The built-in tables (kernel_tables.cpp).
const std::vector<BuiltinTable>& builtin_tables();

namespace {

constexpr const char* kCacheFormat = "fdsolve-tune 1";

double cells_of(int dims, std::int64_t size) {
  // Updated nodes of an all-Dirichlet grid of `size` nodes per axis.
  const double inner = static_cast<double>(std::max<std::int64_t>(size - 2, 1));
  return dims == 2 ? inner * inner : inner * inner * inner;
}

std::string points_text(int points) { return fmt::format("{}-point", points); }

}  // namespace

int stencil_class(int dims, int points) {
  if (dims == 2) return 5;
  return points == 7 ? 7 : 27;
}

std::vector<std::int64_t> size_ladder(int dims, bool quick) {
  std::vector<std::int64_t> sizes = dims == 2 ? std::vector<std::int64_t>{257, 1025, 4097, 16384}
                                              : std::vector<std::int64_t>{65, 129, 257, 512};
  if (quick) sizes.resize(2);
  return sizes;
}

std::string size_text(int dims, std::int64_t size) { return fmt::format("{}^{}", size, dims); }

std::optional<ChoiceEntry> nearest_entry(const std::vector<ChoiceEntry>& entries,
                                         const ChoiceKey& key) {
  std::optional<ChoiceEntry> best;
  double best_distance = 0;
  const double want = std::log(std::max(1.0, static_cast<double>(key.cells)));
  for (const ChoiceEntry& e : entries) {
    if (e.dims != key.dims || e.points != stencil_class(key.dims, key.points) ||
        e.precision != key.precision)
      continue;
    const double distance = std::fabs(std::log(cells_of(e.dims, e.size)) - want);
    if (!best || distance < best_distance || (distance == best_distance && e.size < best->size)) {
      best = e;
      best_distance = distance;
    }
  }
  return best;
}

const BuiltinTable* builtin_table(const std::string& model) {
  // Whole words only: "H100" must not match "H1000".
  std::istringstream words(model);
  for (std::string w; words >> w;)
    for (const BuiltinTable& t : builtin_tables())
      if (w == t.gpu) return &t;
  return nullptr;
}

std::string format_tune_cache(const TuneCache& cache) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "format" << YAML::Value << kCacheFormat;
  y << YAML::Key << "backend" << YAML::Value << cache.backend;
  y << YAML::Key << "device" << YAML::Value << cache.device.model;
  y << YAML::Key << "driver" << YAML::Value << YAML::DoubleQuoted << cache.device.driver;
  y << YAML::Key << "fdsolve" << YAML::Value << YAML::DoubleQuoted << cache.version;
  y << YAML::Key << "entries" << YAML::Value << YAML::BeginSeq;
  for (const ChoiceEntry& e : cache.entries) {
    y << YAML::Flow << YAML::BeginMap;
    y << YAML::Key << "dims" << YAML::Value << e.dims;
    y << YAML::Key << "points" << YAML::Value << e.points;
    y << YAML::Key << "precision" << YAML::Value << e.precision;
    y << YAML::Key << "size" << YAML::Value << e.size;
    y << YAML::Key << "kernel" << YAML::Value << e.kernel;
    y << YAML::Key << "us_per_sweep" << YAML::Value << e.us_per_sweep;
    y << YAML::EndMap;
  }
  y << YAML::EndSeq << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

TuneCache parse_tune_cache(const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(std::string("not YAML: ") + e.what());
  }
  if (!root.IsMap()) throw std::runtime_error("not a mapping");
  const auto scalar = [&](const YAML::Node& n, const char* key) {
    const YAML::Node v = n[key];
    if (!v || !v.IsScalar()) throw std::runtime_error(std::string("no '") + key + "'");
    return v.as<std::string>();
  };
  if (scalar(root, "format") != kCacheFormat)
    throw std::runtime_error("format is not '" + std::string(kCacheFormat) + "'");
  TuneCache c;
  c.backend = scalar(root, "backend");
  c.device.model = scalar(root, "device");
  c.device.driver = root["driver"] && root["driver"].IsScalar() ? root["driver"].as<std::string>()
                                                                : std::string();
  c.version = scalar(root, "fdsolve");
  const YAML::Node entries = root["entries"];
  if (!entries || !entries.IsSequence()) throw std::runtime_error("no 'entries' list");
  for (const YAML::Node& n : entries) {
    if (!n.IsMap()) throw std::runtime_error("an entry is not a mapping");
    ChoiceEntry e;
    try {
      e.dims = n["dims"].as<int>();
      e.points = n["points"].as<int>();
      e.size = n["size"].as<std::int64_t>();
      e.us_per_sweep = n["us_per_sweep"] ? n["us_per_sweep"].as<double>() : 0.0;
    } catch (const YAML::Exception&) {
      throw std::runtime_error("an entry lacks a number (dims, points, size)");
    }
    e.precision = scalar(n, "precision");
    e.kernel = scalar(n, "kernel");
    if (e.dims != 2 && e.dims != 3) throw std::runtime_error("an entry's dims is not 2 or 3");
    if (e.points != stencil_class(e.dims, e.points))
      throw std::runtime_error(
          fmt::format("an entry's points {} is not a stencil class", e.points));
    if (e.precision != "float" && e.precision != "double")
      throw std::runtime_error("an entry's precision is not float or double");
    if (e.size < 3) throw std::runtime_error("an entry's size is below 3");
    c.entries.push_back(e);
  }
  return c;
}

std::filesystem::path tune_cache_directory() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::filesystem::path(xdg) / "fdsolve";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::filesystem::path(home) / ".cache" / "fdsolve";
  return {};
}

std::filesystem::path tune_cache_path(const std::filesystem::path& directory,
                                      const std::string& backend, const std::string& model) {
  std::string name = "tune-" + backend + "-" + model + ".yaml";
  for (char& ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-'))
      ch = '_';
  return directory / name;
}

CacheLookup load_tune_cache(const std::filesystem::path& path, const std::string& backend,
                            const DeviceIdentity& device, const std::string& version,
                            const std::vector<std::string>& kernels2d,
                            const std::vector<std::string>& kernels3d) {
  CacheLookup r;
  r.path = path;
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return r;
  const auto ignored = [&](const std::string& why) {
    r.warning = fmt::format("tune cache {} ignored: {}", path.string(), why);
    return r;
  };
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return ignored("unreadable");
  TuneCache c;
  try {
    c = parse_tune_cache(text.str());
  } catch (const std::exception& e) {
    return ignored(std::string("malformed (") + e.what() + ")");
  }
  if (c.backend != backend) return ignored("made for backend " + c.backend);
  if (c.device.model != device.model) return ignored("made on " + c.device.model);
  if (c.device.driver != device.driver)
    return ignored("made with driver " + c.device.driver + " (now " + device.driver + ")");
  if (c.version != version)
    return ignored("made by fdsolve " + c.version + " (now " + version + ")");
  for (const ChoiceEntry& e : c.entries) {
    const auto& names = e.dims == 2 ? kernels2d : kernels3d;
    if (std::find(names.begin(), names.end(), e.kernel) == names.end())
      return ignored(fmt::format("names the unknown {}D kernel '{}'", e.dims, e.kernel));
  }
  r.cache = std::move(c);
  return r;
}

KernelChoice choose_variant(const std::string& requested, const ChoiceKey& key,
                            const std::string& backend, const DeviceIdentity& device,
                            const std::vector<std::string>& kernels, const std::string& fallback,
                            const CacheLookup& cache) {
  if (!requested.empty()) return {requested, "tuning.kernel", {}};
  const auto known = [&](const std::string& k) {
    return std::find(kernels.begin(), kernels.end(), k) != kernels.end();
  };
  const std::string what =
      fmt::format("{}, {}", key.precision, points_text(stencil_class(key.dims, key.points)));
  if (cache.cache)
    if (const auto e = nearest_entry(cache.cache->entries, key); e && known(e->kernel))
      return {e->kernel, fmt::format("tune cache {}, size class {} ({})", cache.path.string(),
                                     size_text(e->dims, e->size), what),
              {}};
  if (backend == "cuda")
    if (const BuiltinTable* t = builtin_table(device.model))
      if (const auto e = nearest_entry(t->entries, key); e && known(e->kernel))
        return {e->kernel, fmt::format("built-in table for {}, size class {} ({})", t->gpu,
                                       size_text(e->dims, e->size), what),
                {}};
  return {fallback,
          backend == "cuda" ? fmt::format("fallback (no table for {})", device.model)
                            : std::string("fallback (the backend's only variant)"),
          {}};
}

std::string fdsolve_version() { return FDSOLVE_VERSION; }

KernelChoice choose_with_cache(const std::string& requested, const ChoiceKey& key,
                               const std::string& backend, const DeviceIdentity& device,
                               const std::vector<std::string>& kernels2d,
                               const std::vector<std::string>& kernels3d,
                               const std::string& fallback) {
  if (!requested.empty()) return {requested, "tuning.kernel", ""};
  const std::filesystem::path dir = tune_cache_directory();
  const CacheLookup cache =
      dir.empty() ? CacheLookup{}
                  : load_tune_cache(tune_cache_path(dir, backend, device.model), backend, device,
                                    fdsolve_version(), kernels2d, kernels3d);
  KernelChoice choice = choose_variant(requested, key, backend, device,
                                       key.dims == 2 ? kernels2d : kernels3d, fallback, cache);
  choice.warning = cache.warning;
  return choice;
}

}  // namespace fdsolve
