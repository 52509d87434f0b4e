// See field_programs.hpp.
#include "field_programs.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "expression.hpp"
#include "expression_translate.hpp"
#include "case_reader.hpp"
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

template <typename T>
void evaluate_value(const Case& c, Backend<T>& backend, const Value& value, const Layout& L,
                    const Box& box, const Subdomain& sub, double scale, double t, Buffer<T>& out) {
  const NonFiniteNode bad =
      backend.evaluate_field(field_program(value), field_args(c, L, box, sub, t, scale), out);
  if (bad.found)
    throw NonFiniteValue(bad.value, {bad.node[0] + sub.offset[0], bad.node[1] + sub.offset[1],
                                     bad.node[2] + sub.offset[2]});
}

std::vector<FieldProgram> case_formula_programs(const Case& c) {
  std::vector<FieldProgram> programs;
  for (const CheckedInput& input : checked_inputs(c))
    if (input.value->is_expression()) programs.push_back(field_program(*input.value));
  return programs;
}

template <typename T>
void check_finite_inputs(const Case& c, Backend<T>& backend) {
  constexpr index_t kSlabCells = index_t{1} << 22;  // the scratch buffer: 32 MiB of doubles
  Buffer<T> scratch;
  for (const CheckedInput& input : checked_inputs(c)) {
    if (!input.value->is_expression()) {
      check_finite(c, input, Coverage::Every);
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
    return;
  }
  backend.zero(out);  // the halo, as source_values leaves it
  evaluate_value(c, backend, q, L, L.owned_box(), sub, scale, t, out);
}

template <typename T>
bool load_initial_on_backend(const Case& c, Backend<T>& backend, const Layout& L,
                             const Subdomain& sub, Buffer<T>& out) {
  if (c.initial.is_file() || !c.problem.fixed.empty()) return false;
  backend.zero(out);  // the halo, as initial_field leaves it
  evaluate_value(c, backend, c.initial, L, L.owned_box(), sub, 1.0, 0.0, out);
  // Face by face in face order: shared edges and corners take the later face's value.
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Dirichlet && sub.physical(face))
      evaluate_value(c, backend, c.boundary[face].value, L, face_box(L, face), sub, 1.0, 0.0, out);
  return true;
}

#define FDSOLVE_FIELD_PROGRAMS(T)                                                                 \
  template void check_finite_inputs<T>(const Case&, Backend<T>&);                                 \
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
