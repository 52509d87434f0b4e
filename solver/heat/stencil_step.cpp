// See stencil_step.hpp.
#include "stencil_step.hpp"

#include "problem/problem_setup.hpp"
#include "problem/weights.hpp"

namespace fdsolve::heat {

using namespace multigrid;

namespace {

/// A cycle that reduces the residual by less than this factor has reached the rounding level
/// of the precision (multigrid's own factor is about 0.1): more cycles would not help.
constexpr double kStallFactor = 0.9;
/// Cycles run unchecked at most: their probes, the start's and the old u's fill the
/// backend's eight statistics slots.
constexpr int kMaxUnchecked = 6;

template <typename T>
class StencilStep final : public StepOperator<T> {
 public:
  StencilStep(const Case& c, Backend<T>& backend, KernelId kernel,
              std::vector<LevelGeometry> levels, const StepFields<T>& f, const LevelRanks& ranks)
      : c_(c),
        backend_(backend),
        f_(f),
        kernel_(kernel),
        cycles_(std::move(levels),
                CycleSettings{c.solve.multigrid, 1.0, 0.0, CycleSettings{}.bottom_reduction,
                              fused_restriction_pays(backend.traits(), c.grid.dims)},
                backend, kernel, [this](Buffer<T>& x) { f_.fill_ghosts(x); }, ranks) {
    g_ = backend.allocate(f_.layout.size);
    backend.zero(g_);
    cycles_.set_fine_rhs(g_.data(), 0.0);
  }

  double coefficient() const override { return c_.problem.diffusivity; }

  void set_shift(double beta) override {
    cycles_.set_shift(1.0, beta);
    if (!cycles_.bottom_by_cg() && cycles_.bottom_sweeps() >= 1000000000)
      throw BackendError("multigrid: the bottom solve on the coarsest grid does not converge");
    record();
  }

  double rhs_scale() const override { return cycles_.op(0).rhs_scale; }

  void set_rhs(const StepScheme& s) override {
    const double scale = rhs_scale();
    // g = rhs_scale (I + dt/2 k L) u for CN: the explicit step's weights of dt/2, scaled; BE
    // keeps only the centre. A source that varies comes as a field; a number goes in here.
    StencilWeights w;
    if (!s.backward_euler) {
      w = heat_step_weights(c_, 0.5 * s.dt).weights;
      w.center *= scale;
      for (double& f : w.face) f *= scale;
      w.edge *= scale;
      w.corner *= scale;
    } else {
      w.points = heat_step_weights(c_, s.dt).weights.points;
      w.center = scale;
    }
    w.source = c_.problem.source.is_constant() ? scale * s.step * c_.problem.source.constant : 0.0;
    rhs_weights_ = w;
  }

  bool source_field() const override { return has_source_field(c_); }

  void build_rhs(const T* source) override {
    SweepArgs<T> a = f_.sweep_of_u(g_, source);
    a.weights = rhs_weights_;
    backend_.sweep(a, kernel_);
  }

  SweepStats probe() override { return cycles_.probe(f_.cur, f_.next); }
  double residual_scale() const override { return cycles_.residual_scale(); }
  // Queued probes are one rank's.
  int max_unchecked() const override { return f_.comm.several() ? 0 : kMaxUnchecked; }
  void enqueue_probe() override { cycles_.enqueue_probe(f_.cur, f_.next); }
  std::vector<SweepStats> collect_probes() override { return cycles_.collect_probes(); }

  void cycle(std::int64_t done) override {
    if (done == 0 && fmg_)
      fmg_->run();  // the correction equation, coarsest grid first
    else if (done == 0 && c_.solve.multigrid.fmg)
      cycles_.full_multigrid(f_.cur, f_.next);
    else if (rest_of_cycle_)
      rest_of_cycle_->run();
    else
      cycles_.finish_cycle(f_.cur, f_.next);
  }

  // Every cycle must reduce the residual by kStallFactor.
  bool stalled(std::int64_t /*cycles*/, double norm, double before) override {
    return norm > kStallFactor * before;
  }

  bool time_levels() override {
    cycles_.time_levels();
    return true;
  }
  const std::vector<output::LevelSeconds>* level_seconds() const override {
    return &cycles_.level_seconds();
  }

 private:
  /// The rest of a cycle after its probe as one recording (a CUDA graph), as the steady loop
  /// does; it must leave the fine buffers as it found them: an even number of fine sweeps.
  void record() {
    rest_of_cycle_.reset();
    fmg_.reset();
    if (!cycles_.recordable()) return;
    rest_of_cycle_ = backend_.record([this] { cycles_.finish_cycle(f_.cur, f_.next); });
    if (c_.solve.multigrid.fmg)
      fmg_ = backend_.record([this] { cycles_.full_multigrid(f_.cur, f_.next); });
  }

  const Case& c_;
  Backend<T>& backend_;
  StepFields<T> f_;
  KernelId kernel_;
  StencilHierarchy<T> cycles_;
  StencilWeights rhs_weights_;  // of the sweep that builds g from the old u
  Buffer<T> g_;                 // the fine right-hand side g = rhs_scale * f
  std::unique_ptr<Replay> rest_of_cycle_;
  std::unique_ptr<Replay> fmg_;  // full multigrid, recorded likewise
};

}  // namespace

template <typename T>
std::unique_ptr<StepOperator<T>> stencil_step(const Case& c, Backend<T>& backend, KernelId kernel,
                                              std::vector<LevelGeometry> levels,
                                              const StepFields<T>& fields,
                                              const LevelRanks& ranks) {
  return std::make_unique<StencilStep<T>>(c, backend, kernel, std::move(levels), fields, ranks);
}

template std::unique_ptr<StepOperator<float>> stencil_step(const Case&, Backend<float>&, KernelId,
                                                           std::vector<LevelGeometry>,
                                                           const StepFields<float>&,
                                                           const LevelRanks&);
template std::unique_ptr<StepOperator<double>> stencil_step(const Case&, Backend<double>&,
                                                            KernelId, std::vector<LevelGeometry>,
                                                            const StepFields<double>&,
                                                            const LevelRanks&);

}  // namespace fdsolve::heat
