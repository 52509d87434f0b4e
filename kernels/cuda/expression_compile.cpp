// See expression_compile.hpp.
#include "expression_compile.hpp"

#include <nvrtc.h>

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formula_cache.hpp"

namespace fdsolve::cuda {
namespace {

constexpr const char* kExpressionArgs = R"(
struct ExpressionArgs {
  long long origin, pitch, plane;
  long long lo[3], n[3], offset[3];
  double x0[3], h[3];
  double t, scale;
  long long cells;
  int dims;
};
)";

// One thread per node (grid-stride), the coordinate computed as on the host, the first
// non-finite node (smallest linear index in the box) kept by atomicMin.
constexpr const char* kKernels = R"(
template <typename T>
__device__ void fdx_eval(T* out, const ExpressionArgs a, unsigned long long* bad) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < a.cells; q += stride) {
    const long long i = a.lo[0] + q % a.n[0];
    const long long j = a.lo[1] + q / a.n[0] % a.n[1];
    const long long k = a.lo[2] + q / (a.n[0] * a.n[1]);
    const double x = a.x0[0] + (double)(i + a.offset[0]) * a.h[0];
    const double y = a.x0[1] + (double)(j + a.offset[1]) * a.h[1];
    const double z = a.dims == 3 ? a.x0[2] + (double)(k + a.offset[2]) * a.h[2] : 0.0;
    const double v = fdx_formula(x, y, z, a.t);
    if (!isfinite(v)) atomicMin(bad, (unsigned long long)q);
    out[a.origin + k * a.plane + j * a.pitch + i] = (T)(a.scale * v);
  }
}
extern "C" __global__ void fdx_eval_f32(float* out, const ExpressionArgs a,
                                        unsigned long long* bad) { fdx_eval(out, a, bad); }
extern "C" __global__ void fdx_eval_f64(double* out, const ExpressionArgs a,
                                        unsigned long long* bad) { fdx_eval(out, a, bad); }
)";

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS)
    throw ExpressionCompileError(std::string(what) + ": " + nvrtcGetErrorString(r));
}

}  // namespace

std::string expression_source(const FieldProgram& p) {
  return std::string("#define FDX_FN __device__ __forceinline__\n") + p.cuda_helpers +
         "\nFDX_FN double fdx_formula(double x, double y, double z, double t) {\n"
         "  (void)x; (void)y; (void)z; (void)t;\n  return " +
         p.cuda_body + ";\n}\n" + kExpressionArgs + kKernels;
}

namespace {

// --fmad=false: a*b + c must round twice, as muparser's does on the host.
constexpr const char* kOptions[] = {"--fmad=false", "--std=c++17"};

std::string compile_now(const std::string& source, int arch) {
  nvrtcProgram prog = nullptr;
  check(nvrtcCreateProgram(&prog, source.c_str(), "fdsolve_expression.cu", 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  const std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> owner(
      &prog, [](nvrtcProgram* q) { nvrtcDestroyProgram(q); });
  const std::string gpu = "--gpu-architecture=sm_" + std::to_string(arch);
  const char* options[] = {gpu.c_str(), kOptions[0], kOptions[1]};
  const nvrtcResult compiled = nvrtcCompileProgram(prog, 3, options);
  if (compiled != NVRTC_SUCCESS) {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    if (size > 0) nvrtcGetProgramLog(prog, log.data());
    throw ExpressionCompileError(std::string("NVRTC: ") + nvrtcGetErrorString(compiled) + "\n" +
                                 log);
  }
  std::size_t size = 0;
  check(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  check(nvrtcGetCUBIN(prog, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

/// What decides a cubin besides its source: NVRTC's version, the architecture, the options.
std::string cache_key(const std::string& source, int arch) {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  std::string key = "nvrtc " + std::to_string(major) + "." + std::to_string(minor) + " sm_" +
                    std::to_string(arch);
  for (const char* o : kOptions) key += std::string(" ") + o;
  return key + "\n" + source;
}

/// The process's formula cache's cubin for `source`, else NVRTC's, then kept there.
std::string cached_or_compiled(const std::string& source, int arch) {
  const std::optional<FormulaCache> cache = formula_cache();
  if (!cache) return compile_now(source, arch);
  const std::string key = cache_key(source, arch);
  if (std::optional<std::string> cubin = cache->find(key)) return std::move(*cubin);
  std::string cubin = compile_now(source, arch);
  cache->store(key, cubin);
  return cubin;
}

/// Compilations started ahead, by source and architecture: each taken once.
std::mutex ahead_mutex;
std::map<std::pair<std::string, int>, std::future<std::string>> ahead;

}  // namespace

void compile_expression_ahead(const std::string& source, int arch) {
  std::lock_guard lock(ahead_mutex);
  auto key = std::make_pair(source, arch);
  if (ahead.count(key) == 0)
    ahead.emplace(std::move(key), std::async(std::launch::async, cached_or_compiled, source, arch));
}

std::string compile_expression(const std::string& source, int arch) {
  std::future<std::string> started;
  {
    std::lock_guard lock(ahead_mutex);
    const auto found = ahead.find({source, arch});
    if (found != ahead.end()) {
      started = std::move(found->second);
      ahead.erase(found);
    }
  }
  return started.valid() ? started.get() : cached_or_compiled(source, arch);
}

}  // namespace fdsolve::cuda
