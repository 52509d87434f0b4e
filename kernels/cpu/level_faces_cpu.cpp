// See level_faces_cpu.hpp. Each operation's index range runs on all threads (static schedule);
// dense arrays the caller passes from the host are used in place.
#include "level_faces_cpu.hpp"

#include <cstdlib>
#include <cstring>

namespace fdsolve::cpu {
namespace {

template <typename V>
void free_host_array(V* p) {
  std::free(p);
}

template <typename V>
Buffer<V> host_array(index_t n, const V* host) {
  if (host) return Buffer<V>(const_cast<V*>(host), n, nullptr);  // a view: the caller owns it
  const std::size_t bytes = (static_cast<std::size_t>(n) * sizeof(V) + 127) / 128 * 128;
  V* p = static_cast<V*>(std::aligned_alloc(128, bytes == 0 ? 128 : bytes));
  if (!p) throw BackendError("out of host memory: " + std::to_string(bytes) + " bytes needed");
  return Buffer<V>(p, n, &free_host_array<V>);
}

template <typename Op>
void each(const Op& op) {
  const index_t n = op.count();
#pragma omp parallel for schedule(static)
  for (index_t q = 0; q < n; ++q) op(q);
}

template <typename T>
index_t count_marked(const MarkHeld<T>& op) {
  const index_t n = op.count();
  index_t marked = 0;
#pragma omp parallel for schedule(static) reduction(+ : marked)
  for (index_t q = 0; q < n; ++q) marked += op(q) ? 1 : 0;
  return marked;
}

template <typename T>
void fill_values(T* out, index_t n, T value) {
#pragma omp parallel for schedule(static)
  for (index_t q = 0; q < n; ++q) out[q] = value;
}

class HostLevelFaces final : public LevelFaceBuilder {
 public:
  Buffer<double> dense(index_t n, const double* host) override { return host_array(n, host); }
  Buffer<std::uint8_t> marks(index_t n, const std::uint8_t* host) override {
    return host_array(n, host);
  }
  void run(const CoarseNodes& op) override { each(op); }
  void run(const AveragedFaces& op) override { each(op); }
  void run(const LayoutFaces<float>& op) override { each(op); }
  void run(const LayoutFaces<double>& op) override { each(op); }
  void run(const NodeTerms<float>& op) override { each(op); }
  void run(const NodeTerms<double>& op) override { each(op); }
  void run(const WriteHeld<float>& op) override { each(op); }
  void run(const WriteHeld<double>& op) override { each(op); }
  index_t run(const MarkHeld<float>& op) override { return count_marked(op); }
  index_t run(const MarkHeld<double>& op) override { return count_marked(op); }
  void fill(float* out, index_t n, float value) override { fill_values(out, n, value); }
  void fill(double* out, index_t n, double value) override { fill_values(out, n, value); }
  void run(const NonzeroMarks& op) override { each(op); }
  void download(std::uint8_t* host, const Buffer<std::uint8_t>& marks, index_t n) override {
    if (n > 0 && host != marks.data()) std::memcpy(host, marks.data(), static_cast<std::size_t>(n));
  }
  void keep(const double*, Buffer<double>&&) override {}  // dense(n, host) is host itself
  std::size_t kept_bytes() const override { return 0; }
};

}  // namespace

std::unique_ptr<LevelFaceBuilder> make_host_level_faces() {
  return std::make_unique<HostLevelFaces>();
}

}  // namespace fdsolve::cpu
