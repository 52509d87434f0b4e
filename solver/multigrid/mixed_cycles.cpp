// Float cycles inside a double defect correction (mixed_cycles.hpp).
#include "mixed_cycles.hpp"

#include <spdlog/spdlog.h>

#include "cycles_detail.hpp"
#include "parallel/transport.hpp"

namespace fdsolve::multigrid {

MixedCycles::MixedCycles(std::vector<LevelGeometry> levels, const CycleSettings& settings,
                         Backend<double>& backend, KernelId fine_kernel,
                         StencilHierarchy<double>::FineHalo fine_halo, const Layout& layout,
                         const Box& box, const LevelRanks& ranks)
    : levels_(std::move(levels)),
      settings_(settings),
      ranks_(ranks),
      backend_(backend),
      fine_kernel_(fine_kernel),
      fine_halo_(std::move(fine_halo)),
      layout_(layout),
      box_(box),
      fine_op_(level_operator(levels_[0], settings.alpha, settings.beta)),
      float_backend_(require_mixed_precision(backend).float_companion()) {
  const LevelGeometry& fine = levels_[0];
  Backend<float>& fb = *float_backend_;
  // The float cycles' own layout of this rank's fine box (StencilHierarchy's layout_of), so that their
  // sweeps see the alignment they are tuned for; narrow_difference and add_widened translate.
  const bool several = ranks_.comm.several() && ranks_.split;
  const Subdomain sub = several ? ranks_.split->level[0].sub : detail::whole_of(fine);
  float_layout_ = detail::layout_of(fine.dims, sub.n, sizeof(float));
  for (auto* b : {&e_, &e_next_, &g_}) {
    *b = fb.allocate(float_layout_.size);
    fb.zero(*b);  // Dirichlet nodes and the halo of g stay zero: only the box is written
  }
  const HaloFillArgs<float> rules = detail::homogeneous_rules<float>(fine, float_layout_, sub);
  // The float cycles' exchanges take the run's transport: their backend has a communicator of
  // its own (a collective, as `several` is the same on every rank).
  if (several) parallel::connect_transport(fb, ranks_.comm, "float cycles' halo exchange");
  if (several)
    float_halo_ = std::make_unique<HaloExchange<float>>(float_layout_, fb, ranks_.comm,
                                                        ranks_.split->level[0]);
  const KernelId float_kernel = fb.find_kernel(fine.dims, fb.default_kernel(fine.dims));
  // The correction's faces: zero values, zero gradients, wraps; between ranks, the exchange.
  HaloExchange<float>* halo = float_halo_.get();
  float_cycles_ = std::make_unique<StencilHierarchy<float>>(
      levels_, settings_, fb, float_kernel,
      [&fb, rules, halo](Buffer<float>& x) { detail::fill_and_exchange(fb, rules, halo, x); },
      ranks_);
  float_cycles_->set_fine_rhs(g_.data(), 0.0);
  if (float_cycles_->recordable())
    float_cycle_ = fb.record([this] { run_float_cycle(); });
  fb.synchronize();
}

void MixedCycles::run_float_cycle() {
  float_backend_->zero(e_);
  float_cycles_->cycle(e_, e_next_);
}

MixedCycles::~MixedCycles() = default;

std::size_t MixedCycles::extra_bytes(const std::vector<LevelGeometry>& levels) {
  const LevelGeometry& fine = levels[0];
  const Layout L = detail::layout_of(fine.dims, fine.n, sizeof(float));
  return 3 * static_cast<std::size_t>(L.size) * sizeof(float) +
         StencilHierarchy<float>::coarse_bytes(levels);
}

void MixedCycles::set_fine_rhs(const double* g_field, double g_constant) {
  g_field_ = g_field;
  g_constant_ = g_field ? 0.0 : g_constant;
  if (double_) double_->set_fine_rhs(g_field, g_constant);
}

SweepArgs<double> MixedCycles::fine_sweep(const Buffer<double>& u, Buffer<double>& next) const {
  SweepArgs<double> a;
  a.in = u.data();
  a.out = next.data();
  a.source_field = g_field_;
  a.layout = layout_;
  a.box = box_;
  a.weights = fine_op_.smooth;
  if (!g_field_) a.weights.source = g_constant_;
  return a;
}

void MixedCycles::time_levels() {
  timed_ = true;
  if (float_cycles_) float_cycles_->time_levels();
  if (double_) double_->time_levels();
}

const std::vector<output::LevelSeconds>& MixedCycles::level_seconds() const {
  return double_ ? double_->level_seconds() : float_cycles_->level_seconds();
}

double MixedCycles::residual_scale() const { return fine_op_.diag / fine_op_.omega; }

void MixedCycles::set_interrupt(std::function<bool()> requested) {
  interrupt_ = requested;
  if (float_cycles_) float_cycles_->set_interrupt(requested);
  if (double_) double_->set_interrupt(std::move(requested));
}

SweepStats MixedCycles::probe(Buffer<double>& u, Buffer<double>& next) {
  if (double_) return double_->probe(u, next);
  fine_halo_(u);
  const SweepStats stats = backend_.sweep_with_stats(fine_sweep(u, next), fine_kernel_);
  const double norm = stats.l2();
  ++probes_;
  // A cycle ran since the last probe: its factor decides whether float still pays.
  if (correction_pending_ && last_norm_ > 0 && norm > kFallbackFactor * last_norm_) {
    fall_back(norm / last_norm_);
    return double_->probe(u, next);
  }
  last_norm_ = norm;
  correction_pending_ = false;
  return stats;
}

std::unique_ptr<StencilHierarchy<double>> MixedCycles::make_double() const {
  auto cycles = std::make_unique<StencilHierarchy<double>>(levels_, settings_, backend_, fine_kernel_,
                                                 fine_halo_, ranks_);
  cycles->set_fine_rhs(g_field_, g_constant_);
  return cycles;
}

void MixedCycles::fall_back(double factor) {
  spdlog::warn(
      "solve.multigrid.precision: float: cycle {} reduced the residual only by a factor {:.3f}: "
      "float's rounding of the correction (or, at tolerances near 1e-13, double's own rounding "
      "floor) holds it up; the rest of the solve runs double cycles",
      probes_ - 1, factor);
  fallback_probe_ = probes_;
  start_replay_.reset();
  double_ = start_ ? std::move(start_) : make_double();  // full multigrid's hierarchy, if made
  if (timed_) double_->time_levels();
  if (interrupt_) double_->set_interrupt(interrupt_);
  float_cycle_.reset();
  float_cycles_.reset();  // its memory back: the double hierarchy replaces it
  float_halo_.reset();
  e_ = Buffer<float>();
  e_next_ = Buffer<float>();
  g_ = Buffer<float>();
}

void MixedCycles::correct(Buffer<double>& u, Buffer<double>& next,
                          const std::function<void()>& solve) {
  Backend<float>& fb = *float_backend_;
  require_mixed_precision(backend_).narrow_difference(next, u, layout_, g_.data(), float_layout_, box_);
  backend_.synchronize();  // g is read on the float backend's queue
  solve();
  fb.synchronize();  // e is read on the double backend's queue
  require_mixed_precision(backend_).add_widened(u, layout_, e_.data(), float_layout_, box_);
}

void MixedCycles::finish_cycle(Buffer<double>& u, Buffer<double>& next) {
  if (double_) return double_->finish_cycle(u, next);
  correct(u, next, [&] {
    if (float_cycle_ && !interrupt_ && !timed_)
      float_cycle_->run();
    else
      run_float_cycle();
  });
  correction_pending_ = true;
}

void MixedCycles::prepare_start(Buffer<double>& u, Buffer<double>& next) {
  if (double_ || start_) return;
  start_ = make_double();
  if (start_->recordable())
    start_replay_ = backend_.record([this, &u, &next] { start_->full_multigrid(u, next); });
}

void MixedCycles::full_multigrid(Buffer<double>& u, Buffer<double>& next) {
  if (double_) return double_->full_multigrid(u, next);
  // In double: in float, full multigrid's correction is u itself, whose rounding (6e-8 |u|)
  // leaves a residual of about 6e-8 |u| |A|, which on a 4097^2 grid is a tenth of the initial
  // one (a factor 0.14 for the start, against 0.002 in double). The V-cycles' corrections
  // that follow are a thousandth of u and smaller.
  if (!start_) start_ = make_double();
  if (start_replay_ && !interrupt_ && !timed_) {
    start_replay_->run();
  } else {
    if (interrupt_) start_->set_interrupt(interrupt_);
    start_->full_multigrid(u, next);
    start_->set_interrupt({});
  }
  correction_pending_ = true;
}

}  // namespace fdsolve::multigrid
