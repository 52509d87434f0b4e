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

/// The distance in a level's dense arrays between neighbours along axis a.
index_t axis_stride(const FaceGrid& g, int a) {
  return a == 0 ? 1 : a == 1 ? g.n[0] : g.n[0] * g.n[1];
}

/// Whether every fine face that averaged_face reads for coarse node `at` along axis a lies
/// inside the fine grid as it stands, so that no face rule folds an index (averaged_face's
/// fine_face then reads the fine face array at the index itself).
bool unfolded(const FaceGrid& f, const FaceGrid& c, int a, const index_t at[3]) {
  for (int b = 0; b < c.dims; ++b) {
    const index_t lo = c.halves(b) ? 2 * at[b] - (b == a ? 0 : 1) : at[b];
    const index_t hi = c.halves(b) ? 2 * at[b] + 1 : at[b];
    // A face index must lie in 0..n-2 (fold_face's range), a node index in 0..n-1.
    if (lo < 0 || hi > f.n[b] - (b == a ? 2 : 1)) return false;
  }
  return true;
}

/// AveragedFaces row by row along x, without the per-node index division of `each`: where
/// nothing folds (unfolded) the fine faces are read straight from the fine level's face array,
/// or formed from its node values, with averaged_face's and source_face's operations in their
/// order (the same bits: this file does not contract multiply-adds); elsewhere, and for a
/// constant source, by averaged_face itself.
void averaged_faces_rows(const AveragedFaces& op) {
  const FaceGrid& f = op.fine;
  const FaceGrid& c = op.coarse;
  for (int a = 0; a < c.dims; ++a) {
    const double* src = op.fine_faces.face[a];
    const double* beta = op.fine_faces.beta;
    const index_t stride = axis_stride(f, a);
    // source_face's value of the fine face at dense index i, unfolded: the face array's, or
    // the harmonic mean of the node values on either side.
    const auto face = [&](index_t i) {
      return src ? src[i] : harmonic_mean(beta[i], beta[i + stride]);
    };
    double* out = op.out[a];
    const index_t rows = c.n[1] * c.n[2];
#pragma omp parallel for schedule(static)
    for (index_t row = 0; row < rows; ++row) {
      index_t at[3] = {0, row % c.n[1], row / c.n[1]};
      for (at[0] = 0; at[0] < c.n[0]; ++at[0]) {
        const index_t p = c.at(at[0], at[1], at[2]);
        if ((!src && !beta) || !unfolded(f, c, a, at)) {
          out[p] = averaged_face(f, op.fine_faces, c, a, at);
          continue;
        }
        out[p] = averaged_face_of(c, a, at, [&](const index_t q[3]) {
          return face(f.at(q[0], q[1], q[2]));
        });
      }
    }
  }
}

/// LayoutFaces row by row along x, without `each`'s per-face index divisions: where no rule
/// folds the face or its far node (the face's index along the axis within 0..n-2, no
/// fold_last) it is read or formed straight with source_face's operations (the same bits);
/// elsewhere by the operation itself.
template <typename T>
void layout_faces_rows(const LayoutFaces<T>& op) {
  const int a = op.axis;
  const FaceGrid& g = op.g;
  const FaceSource& s = op.source;
  const index_t e0 = op.extent(0), e1 = op.extent(1), rows = e1 * op.extent(2);
  const index_t stride = axis_stride(g, a);
  const double constant = harmonic_mean(s.beta_constant, s.beta_constant);
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < rows; ++row) {
    for (index_t i = 0; i < e0; ++i) {
      index_t local[3] = {i, row % e1, row / e1};
      local[a] -= 1;  // from the face below the first node, as the operation counts
      const index_t along = local[a] + op.part.offset[a];
      if (op.fold_last || along < 0 || along > g.n[a] - 2) {
        op(i + e0 * row);
        continue;
      }
      const index_t p =
          g.at(local[0] + op.part.offset[0], local[1] + op.part.offset[1],
               local[2] + op.part.offset[2]);
      const double v = s.face[a] ? s.face[a][p]
                       : s.beta  ? harmonic_mean(s.beta[p], s.beta[p + stride])
                                 : constant;
      op.out[op.part.layout.at(local[0], local[1], local[2])] = static_cast<T>(v);
    }
  }
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
  void run(const AveragedFaces& op) override { averaged_faces_rows(op); }
  void run(const LayoutFaces<float>& op) override { layout_faces_rows(op); }
  void run(const LayoutFaces<double>& op) override { layout_faces_rows(op); }
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
