// See field_kernels.cuh.
#include <vector>

#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "expression_compile.hpp"
#include "field_kernels.cuh"
#include "halo_fill.cuh"

namespace fdsolve::cuda {
namespace {

// A number over a box: the compiled formula's indexing and rounding ((T)(scale * v)), without
// a formula to compile.
template <typename T>
__global__ void fill_constant(T* out, const ExpressionArgs a, double v) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < a.cells; q += stride) {
    const long long i = a.lo[0] + q % a.n[0];
    const long long j = a.lo[1] + q / a.n[0] % a.n[1];
    const long long k = a.lo[2] + q / (a.n[0] * a.n[1]);
    out[a.origin + k * a.plane + j * a.pitch + i] = (T)(a.scale * v);
  }
}

}  // namespace

FieldKernels::FieldKernels(int, const cudaDeviceProp& props)
    : arch_(props.major * 10 + props.minor), blocks_(props.multiProcessorCount * 8) {
  bad_ = static_cast<unsigned long long*>(
      device_malloc(sizeof(unsigned long long), "the formulas' checks"));
  FDSOLVE_CUDA_CHECK(cudaMallocHost(&host_bad_, sizeof(unsigned long long)));
}

FieldKernels::~FieldKernels() {
  // Destructors must not throw: a failure here surfaces at the next checked call, if any.
  for (auto& [body, m] : modules_)
    if (m.library) cudaLibraryUnload(m.library);
  cudaFree(bad_);
  cudaFreeHost(host_bad_);
}

const FieldKernels::Module& FieldKernels::module(const FieldProgram& p) {
  const auto found = modules_.find(p.cuda_body);
  if (found != modules_.end()) return found->second;
  Module m;
  try {
    const std::string cubin = compile_expression(expression_source(p), arch_);
    FDSOLVE_CUDA_CHECK(
        cudaLibraryLoadData(&m.library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    FDSOLVE_CUDA_CHECK(cudaLibraryGetKernel(&m.f32, m.library, "fdx_eval_f32"));
    FDSOLVE_CUDA_CHECK(cudaLibraryGetKernel(&m.f64, m.library, "fdx_eval_f64"));
  } catch (const std::exception& e) {
    // NVRTC refused the text (a function the translator knows but this NVRTC does not), or
    // the driver refused the cubin: the host evaluates the formula instead, never a wrong
    // answer. A failed load is not a sticky error; clear it so later checks do not see it.
    (void)cudaGetLastError();
    if (m.library) cudaLibraryUnload(m.library);
    if (p.on_fallback)
      p.on_fallback("'" + p.text + "' not compiled for the GPU (" + e.what() +
                    "): evaluated on the host");
    m = Module{};
  }
  return modules_.emplace(p.cuda_body, m).first->second;
}

template <typename T>
NonFiniteNode FieldKernels::evaluate(const FieldProgram& p, const FieldEvalArgs& a, T* field,
                                     cudaStream_t stream) {
  const Box& b = a.box;
  if (b.empty()) return {};
  const Module* m = p.cuda_body.empty() || p.is_constant ? nullptr : &module(p);
  const cudaKernel_t kernel = m ? (sizeof(T) == 4 ? m->f32 : m->f64) : nullptr;
  if (!kernel && !p.is_constant) {  // not translated or not compiled: host values, one upload
    std::vector<T> values(static_cast<std::size_t>(b.cells()));
    const NonFiniteNode bad = evaluate_field_host(p, a, values.data(), true);
    write_box(field, a.layout, b, values.data(), stream);
    return bad;
  }
  ExpressionArgs args{};
  args.origin = a.layout.origin;
  args.pitch = a.layout.pitch;
  args.plane = a.layout.plane;
  for (int d = 0; d < 3; ++d) {
    args.lo[d] = b.lo[d];
    args.n[d] = b.extent(d);
    args.offset[d] = a.offset[d];
    args.x0[d] = a.origin[d];
    args.h[d] = a.spacing[d];
  }
  args.t = a.t;
  args.scale = a.scale;
  args.cells = b.cells();
  args.dims = a.layout.dims;
  const long long wanted = (args.cells + 255) / 256;
  const unsigned grid = static_cast<unsigned>(wanted < blocks_ ? wanted : blocks_);
  if (p.is_constant) {  // finite: nothing to look for
    fill_constant<T><<<grid, 256, 0, stream>>>(field, args, p.constant);
    FDSOLVE_CUDA_CHECK_LAUNCH();
    return {};
  }
  FDSOLVE_CUDA_CHECK(cudaMemsetAsync(bad_, 0xff, sizeof(unsigned long long), stream));
  void* params[] = {&field, &args, &bad_};
  FDSOLVE_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(grid), dim3(256),
                                      params, 0, stream));
  FDSOLVE_CUDA_CHECK_LAUNCH();
  FDSOLVE_CUDA_CHECK(
      cudaMemcpyAsync(host_bad_, bad_, sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (*host_bad_ == ~0ull) return {};
  const long long q = static_cast<long long>(*host_bad_);
  NonFiniteNode n;
  n.found = true;
  n.node = {b.lo[0] + q % args.n[0], b.lo[1] + q / args.n[0] % args.n[1],
            b.lo[2] + q / (args.n[0] * args.n[1])};
  // The value in the message is the host's (the same formula, to a few ulps).
  n.value = (*p.host())(field_coordinate(a, 0, n.node[0]), field_coordinate(a, 1, n.node[1]),
                        field_coordinate(a, 2, n.node[2]), a.t);
  return n;
}

template NonFiniteNode FieldKernels::evaluate<float>(const FieldProgram&, const FieldEvalArgs&,
                                                     float*, cudaStream_t);
template NonFiniteNode FieldKernels::evaluate<double>(const FieldProgram&, const FieldEvalArgs&,
                                                      double*, cudaStream_t);

}  // namespace fdsolve::cuda
