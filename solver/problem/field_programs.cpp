// See field_programs.hpp.
#include "field_programs.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>

#include "expression.hpp"
#include "robin_faces.hpp"
#include "expression_translate.hpp"
#include "case_reader.hpp"
#include "elapsed.hpp"
#include "finite_inputs.hpp"
#include "problem_setup.hpp"

namespace fdsolve {
namespace {

class ExpressionAtPoint final : public PointFunction {
 public:
  explicit ExpressionAtPoint(const std::string& text) : e_(text) {}
  double operator()(double x, double y, double z, double t) override { return e_(x, y, z, t); }

 private:
  Expression e_;
};

class NumberAtPoint final : public PointFunction {
 public:
  explicit NumberAtPoint(double v) : v_(v) {}
  double operator()(double, double, double, double) override { return v_; }

 private:
  double v_;
};

}  // namespace

FieldProgram field_program(const std::string& text) {
  FieldProgram p;
  p.text = text;
  std::string why;
  if (const auto translated = translate_expression(text, &why)) {
    p.cuda_body = translated->body;
    p.cuda_helpers = expression_helpers();
  } else {
    spdlog::debug("expression '{}' has no GPU translation ({}): evaluated on the host", text, why);
  }
  p.host = [text] { return std::make_unique<ExpressionAtPoint>(text); };
  p.on_fallback = [](const std::string& why_not) { spdlog::debug("{}", why_not); };
  return p;
}

FieldProgram constant_program(double v) {
  FieldProgram p;
  p.text = fmt::format("{}", v);
  if (const auto translated = translate_expression(fmt::format("{:.17g}", v));
      std::isfinite(v) && translated) {
    p.cuda_body = translated->body;
    p.cuda_helpers = expression_helpers();
  }
  p.host = [v] { return std::make_unique<NumberAtPoint>(v); };
  // A finite number needs no compiled formula (NVRTC's first compile costs about 0.16 s).
  p.is_constant = std::isfinite(v);
  p.constant = v;
  return p;
}

FieldProgram field_program(const Value& value) {
  return value.is_constant() ? constant_program(value.constant) : field_program(value.expression);
}

FieldEvalArgs field_args(const Case& c, const Layout& L, const Box& box, const Subdomain& sub,
                         double t, double scale) {
  FieldEvalArgs a;
  a.layout = L;
  a.box = box;
  for (int d = 0; d < c.grid.dims; ++d) {
    a.origin[d] = c.grid.origin[d];
    a.spacing[d] = c.grid.spacing(d);
    a.offset[d] = sub.offset[d];
  }
  a.t = t;
  a.scale = scale;
  return a;
}

namespace {

/// The source formula's values over the whole grid (double, dense, C order) that the check
/// before a run evaluated on the host, kept for the set-up's evaluation of the same formula at
/// the same time: on the CPU backend the formula is evaluated once instead of twice (each pass
/// 1.6 s at 513^3 on 16 threads). Used once, then released.
struct KeptValues {
  std::string text;
  double t = 0;
  std::array<index_t, 3> n{1, 1, 1};
  std::vector<double> v;
};
std::mutex kept_mutex;
std::unique_ptr<KeptValues> kept;

/// Whether `sub` is the whole grid (one rank): the kept values cover it node for node.
bool whole_grid(const Case& c, const Subdomain& sub) {
  for (int d = 0; d < c.grid.dims; ++d)
    if (sub.offset[d] != 0 || sub.n[d] != c.grid.points[d]) return false;
  return true;
}

/// Fills `out` over the owned nodes of `L` with scale * the kept values of `value` at t, the
/// rounding of an evaluation (static_cast<T>(scale * v)); false when none are kept for them.
template <typename T>
bool fill_from_kept(const Case& c, const Value& value, const Layout& L, const Box& box,
                    const Subdomain& sub, double scale, double t, Buffer<T>& out) {
  std::unique_ptr<KeptValues> k;
  {
    std::lock_guard lock(kept_mutex);
    if (!kept || !value.is_expression() || kept->text != value.expression || kept->t != t)
      return false;
    const Box owned = L.owned_box();
    if (box.lo != owned.lo || box.hi != owned.hi || !whole_grid(c, sub) || kept->n != L.n)
      return false;
    k = std::move(kept);
  }
  const index_t nx = L.n[0], ny = L.n[1];
  T* field = out.data();
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t kz = 0; kz < L.n[2]; ++kz)
    for (index_t j = 0; j < ny; ++j) {
      const double* v = k->v.data() + (kz * ny + j) * nx;
      T* row = field + L.at(0, j, kz);
      for (index_t i = 0; i < nx; ++i) row[i] = static_cast<T>(scale * v[i]);
    }
  return true;
}

}  // namespace

bool source_values_kept() {
  std::lock_guard lock(kept_mutex);
  return kept != nullptr;
}

template <typename T>
void evaluate_value(const Case& c, Backend<T>& backend, const Value& value, const Layout& L,
                    const Box& box, const Subdomain& sub, double scale, double t, Buffer<T>& out) {
  if (backend.host_memory() && fill_from_kept(c, value, L, box, sub, scale, t, out)) return;
  const NonFiniteNode bad =
      backend.evaluate_field(field_program(value), field_args(c, L, box, sub, t, scale), out);
  if (bad.found)
    throw NonFiniteValue(bad.value, {bad.node[0] + sub.offset[0], bad.node[1] + sub.offset[1],
                                     bad.node[2] + sub.offset[2]});
}

namespace {

/// A formula as the debug log names it: its first 40 characters.
std::string formula_text(const Value& value) {
  return value.expression.size() > 40 ? value.expression.substr(0, 40) + "..." : value.expression;
}

/// `value` at every node of the whole grid at t = 0, in a dense buffer of the backend (a
/// layout without halo or padding: the buffer is the dense array itself).
Buffer<double> dense_values(const Case& c, Backend<double>& backend, const Value& value) {
  const Subdomain whole = Subdomain::whole(c);
  Layout dense;
  dense.dims = c.grid.dims;
  dense.n = whole.n;
  dense.pitch = dense.n[0];
  dense.plane = dense.n[0] * dense.n[1];
  dense.origin = 0;
  dense.size = dense.plane * dense.n[2];
  Buffer<double> out = backend.allocate(dense.size);
  evaluate_value(c, backend, value, dense, dense.owned_box(), whole, 1.0, 0.0, out);
  return out;
}

}  // namespace

op::HostArray<double> node_values_on_backend(const Case& c, Backend<double>& backend,
                                             const Value& value, Buffer<double>* on_backend) {
  auto start = std::chrono::steady_clock::now();
  Buffer<double> out = dense_values(c, backend, value);  // its finiteness checked: synced
  const double evaluated = seconds_since(start);
  start = std::chrono::steady_clock::now();
  // No zero fill: the download writes every element, into pages all threads touched first.
  op::HostArray<double> values = op::touched<double>(out.size());
  const double touched = seconds_since(start);
  start = std::chrono::steady_clock::now();
  backend.download(values.data(), out, out.size());
  spdlog::debug("{} evaluated on the device in {:.1f} ms, host pages touched in {:.1f} ms, "
                "brought back in {:.1f} ms",
                formula_text(value), 1e3 * evaluated, 1e3 * touched, 1e3 * seconds_since(start));
  if (on_backend) *on_backend = std::move(out);
  return values;
}

op::HostArray<std::uint8_t> nonzero_on_backend(const Case& c, Backend<double>& backend,
                                               const Value& value) {
  const auto t0 = std::chrono::steady_clock::now();
  const Buffer<double> values = dense_values(c, backend, value);
  LevelFaceBuilder& build = backend.level_faces();
  Buffer<std::uint8_t> marks = build.marks(values.size());
  build.run(NonzeroMarks{values.data(), marks.data(), values.size()});
  op::HostArray<std::uint8_t> host = op::touched<std::uint8_t>(values.size());
  build.download(host.data(), marks, values.size());
  spdlog::debug("{} evaluated and marked on the device, brought back in {:.1f} ms",
                formula_text(value), 1e3 * seconds_since(t0));
  return host;
}

std::vector<FieldProgram> case_formula_programs(const Case& c) {
  std::vector<FieldProgram> programs;
  for (const CheckedInput& input : checked_inputs(c))
    if (input.value->is_expression()) programs.push_back(field_program(*input.value));
  return programs;
}

template <typename T>
void check_finite_inputs(const Case& c, Backend<T>& backend, bool keep_source) {
  constexpr index_t kSlabCells = index_t{1} << 22;  // the scratch buffer: 32 MiB of doubles
  Buffer<T> scratch;
  for (const CheckedInput& input : checked_inputs(c)) {
    if (!input.value->is_expression()) {
      check_finite(c, input, Coverage::Every);
      continue;
    }
    // The CPU backend's source over the whole grid: evaluated once here, in double, and kept
    // for the set-up (fill_from_kept), when a quarter of the available memory holds it.
    if (keep_source && backend.host_memory() && input.key == "problem.source" &&
        static_cast<std::size_t>(input.box.cells()) * sizeof(double) <
            backend.free_memory() / 4) {
      auto k = std::make_unique<KeptValues>();
      k->text = input.value->expression;
      for (int d = 0; d < 3; ++d) k->n[d] = input.box.extent(d);
      k->v.resize(static_cast<std::size_t>(input.box.cells()));
      const Layout dense = Layout::make(c.grid.dims, k->n, 128 / sizeof(double));
      const NonFiniteNode bad = evaluate_field_host<double>(
          field_program(*input.value),
          field_args(c, dense, input.box, Subdomain::whole(c), 0.0), k->v.data(), true);
      if (bad.found)
        throw InputError(c.where(input.key) +
                         describe_nonfinite(c, input.key, bad.value, bad.node, false));
      std::lock_guard lock(kept_mutex);
      kept = std::move(k);
      continue;
    }
    // Slabs along the slowest axis in order, so the first node found is the first in C order.
    const Box& b = input.box;
    const int slow = c.grid.dims - 1;
    const index_t across = b.cells() / std::max<index_t>(b.extent(slow), 1);
    const index_t thick = std::max<index_t>(1, kSlabCells / std::max<index_t>(across, 1));
    const FieldProgram program = field_program(*input.value);
    for (index_t lo = b.lo[slow]; lo < b.hi[slow]; lo += thick) {
      std::array<index_t, 3> n{b.extent(0), b.extent(1), b.extent(2)};
      n[slow] = std::min(thick, b.hi[slow] - lo);
      FieldEvalArgs a = field_args(c, Layout::make(c.grid.dims, n, 128 / sizeof(T)),
                                   Box{{0, 0, 0}, n}, Subdomain::whole(c), 0.0);
      for (int d = 0; d < 3; ++d) a.offset[d] = d == slow ? lo : b.lo[d];
      if (scratch.size() < a.layout.size) scratch = backend.allocate(a.layout.size);
      const NonFiniteNode bad = backend.evaluate_field(program, a, scratch);
      if (bad.found) {
        const std::array<index_t, 3> node{bad.node[0] + a.offset[0], bad.node[1] + a.offset[1],
                                          bad.node[2] + a.offset[2]};
        throw InputError(c.where(input.key) +
                         describe_nonfinite(c, input.key, bad.value, node, false));
      }
    }
  }
}

template <typename T>
void load_source(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub,
                 double scale, double t, Buffer<T>& out) {
  const Value& q = c.problem.source;
  const bool has = c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat;
  if (!has || q.is_file()) {
    backend.upload(out, source_values<T>(c, L, sub, scale, t).data(), L.size);
  } else {
    backend.zero(out);  // the halo, as source_values leaves it
    evaluate_value(c, backend, q, L, L.owned_box(), sub, scale, t, out);
  }
  add_robin_source(c, backend, L, sub, scale, t, out);
}

template <typename T>
bool load_initial_on_backend(const Case& c, Backend<T>& backend, const Layout& L,
                             const Subdomain& sub, Buffer<T>& out) {
  if (c.initial.is_file()) return false;
  backend.zero(out);  // the halo, as initial_field leaves it
  evaluate_value(c, backend, c.initial, L, L.owned_box(), sub, 1.0, 0.0, out);
  // Face by face in face order: shared edges and corners take the later face's value.
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Dirichlet && sub.physical(face))
      evaluate_value(c, backend, c.boundary[face].value, L, face_box(L, face), sub, 1.0, 0.0, out);
  return true;
}

#define FDSOLVE_FIELD_PROGRAMS(T)                                                                 \
  template void check_finite_inputs<T>(const Case&, Backend<T>&, bool);                                 \
  template void evaluate_value<T>(const Case&, Backend<T>&, const Value&, const Layout&,          \
                                  const Box&, const Subdomain&, double, double, Buffer<T>&);      \
  template void load_source<T>(const Case&, Backend<T>&, const Layout&, const Subdomain&, double, \
                               double, Buffer<T>&);                                               \
  template bool load_initial_on_backend<T>(const Case&, Backend<T>&, const Layout&,               \
                                           const Subdomain&, Buffer<T>&);
FDSOLVE_FIELD_PROGRAMS(float)
FDSOLVE_FIELD_PROGRAMS(double)
#undef FDSOLVE_FIELD_PROGRAMS

}  // namespace fdsolve
