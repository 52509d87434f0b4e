// The validated description of one run, as read from a case file: plain values only, every
// default filled in, no YAML types. See docs/case-file.md for the meaning of each field.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fdsolve {

enum class Precision { Float, Double };
enum class BackendChoice { Auto, Cuda, Cpu };
enum class Equation { Laplace, Poisson, Heat, Custom };
/// Robin: the convective face -beta du/dn = h (u - ambient) (docs/numerics.md, "Robin faces").
enum class BoundaryType { Dirichlet, Neumann, Periodic, Robin };
enum class NormKind { L2, Linf };
/// How a steady case is solved: auto picks multigrid where it applies (laplace/poisson, a
/// grid that coarsens at least twice) and Jacobi otherwise.
enum class SolveMethod { Auto, Jacobi, Multigrid };
enum class CycleKind { V, W };
/// What the norms of a steady solve measure: the update u' - u of a sweep, or the residual
/// f - A u. Auto: update for Jacobi, residual for multigrid.
enum class Criterion { Auto, Update, Residual };
/// problem.sampling: where the coefficient (or diffusivity) is evaluated. Nodes: at the nodes,
/// a face taking the harmonic mean of its two nodes. Cells: at cell centres (one value per
/// cell), a face taking the harmonic mean of the cells beside it, so that a material interface
/// lies on cell faces whatever the rounding of node coordinates.
enum class Sampling { Nodes, Cells };

/// Heat: explicit steps, backward Euler, or Crank-Nicolson (the implicit ones by multigrid).
enum class TimeScheme { Explicit, Implicit, CrankNicolson };

/// A value given as a number, an expression in x, y, z, t (muparser syntax), or a dataset of
/// an HDF5 file (`initial` and `problem.source` only). Exactly one form is set: `expression`
/// and `file` are empty for a plain number, which is then `constant`.
struct Value {
  double constant = 0;
  std::string expression;
  std::string file;          // as written in the case file
  std::string file_path;     // resolved against the case file's directory (not written back)
  std::string dataset;       // absolute path inside the file, e.g. /u
  bool uses_time = false;    // the expression mentions t (re-evaluated as heat steps advance)

  bool is_constant() const { return expression.empty() && file.empty(); }
  bool is_expression() const { return !expression.empty(); }
  bool is_file() const { return !file.empty(); }
  bool operator==(const Value& o) const {
    return constant == o.constant && expression == o.expression && file == o.file &&
           dataset == o.dataset;
  }
};

/// The six faces in their documented order, which is also the order in which Dirichlet values of
/// shared edges and corners are applied (the later face wins).
enum Face { XMin = 0, XMax, YMin, YMax, ZMin, ZMax };
inline constexpr std::array<const char*, 6> kFaceNames{"x_min", "x_max", "y_min",
                                                       "y_max", "z_min", "z_max"};

struct BoundaryCondition {
  BoundaryType type = BoundaryType::Dirichlet;
  Value value;     // dirichlet: the node values
  Value gradient;  // neumann: the outward normal derivative du/dn
  double h = 0;    // robin: the transfer coefficient (>= 0) of -beta du/dn = h (u - ambient)
  Value ambient;   // robin: the ambient value (a number or an expression in x, y, z(, t))

  bool operator==(const BoundaryCondition&) const = default;
};

struct GridSpec {
  int dims = 2;                                 // 2 or 3: the number of entries of points
  std::array<std::int64_t, 3> points{1, 1, 1};  // nodes per axis, boundary nodes included
  std::array<double, 3> extent{0, 0, 0};        // physical size (default points - 1)
  std::array<double, 3> origin{0, 0, 0};
  std::array<bool, 3> periodic{false, false, false};  // set from the boundary section

  /// extent/(points-1), or extent/points on a periodic axis (its last node's right neighbour
  /// is node 0, one spacing further on).
  double spacing(int axis) const {
    const auto intervals = periodic[axis] ? points[axis] : points[axis] - 1;
    return intervals > 0 ? extent[axis] / static_cast<double>(intervals) : 1.0;
  }
  bool operator==(const GridSpec&) const = default;
};

/// One region of problem.fixed: the nodes where `where` is non-zero are held at `value`.
/// `where` (x, y, z only) is an expression or a {file, dataset} mask; `value` may use t for
/// equation heat (each step writes it at the new time level).
struct FixedRegion {
  Value where;
  Value value;

  bool operator==(const FixedRegion&) const = default;
};

struct ProblemSpec {
  Equation equation = Equation::Laplace;
  Value source;  // poisson: f of -div(beta grad u) = f; heat: q of c u_t = div(k grad u) + q
  /// heat: k when problem.diffusivity is a number (the constant operator); 1 when it is a
  /// field, which is then `coefficient`.
  double diffusivity = 1.0;
  /// The operator's coefficient: beta of laplace/poisson (problem.coefficient), or k of heat
  /// when problem.diffusivity is an expression or a dataset. For heat with a number it stays
  /// the number 1 and `diffusivity` holds k. Expressions use x, y, z only.
  Value coefficient = [] {
    Value v;
    v.constant = 1.0;
    return v;
  }();
  /// problem.fixed: held nodes; the first region that holds a node gives its value.
  std::vector<FixedRegion> fixed;
  /// problem.sampling of the coefficient; held regions are always node-sampled (they hold
  /// nodes).
  Sampling sampling = Sampling::Nodes;
  /// heat: c of c u_t = div(k grad u) + q (problem.capacity): a number (the constant stencils
  /// take it as k / c and q / c), an expression in x, y, z or a dataset (the flux form). 1
  /// unless given.
  Value capacity = [] {
    Value v;
    v.constant = 1.0;
    return v;
  }();

  bool operator==(const ProblemSpec&) const = default;
};

/// `points` is 5 in 2D and 7, 19 or 27 in 3D. For the custom equation the weights are the
/// user's: 5 points use center, face[0] (x), face[1] (y); 27 points use center, face[0] (all
/// faces), edge, corner. For other equations the weights are derived by the solver.
struct StencilSpec {
  int points = 5;
  bool custom = false;
  double center = 0;
  std::array<double, 3> face{0, 0, 0};
  double edge = 0;
  double corner = 0;

  bool operator==(const StencilSpec&) const = default;
};

/// solve.multigrid: the cycle, the smoothing sweeps before and after the coarse-grid
/// correction, and whether to start by full multigrid (coarsest grid first, interpolated up).
/// solve.multigrid.smoother: weighted Jacobi with one relaxation weight, or Chebyshev: the sweeps
/// of one smoothing step take the weights whose product is the Chebyshev polynomial of that
/// degree over the high frequencies (docs/numerics.md). Auto: the measured choice per case.
enum class Smoother { Auto, Jacobi, Chebyshev };

struct MultigridSpec {
  CycleKind cycle = CycleKind::V;
  Smoother smoother = Smoother::Auto;
  int pre_smooth = 2;   // at least 1
  int post_smooth = 2;  // at least 1
  bool fmg = true;
  /// precision: float: the cycles run in float on the correction equation of a double
  /// defect correction (the residual and the solution stay double). Steady solves.
  bool float_cycles = false;

  bool operator==(const MultigridSpec&) const = default;
};

/// solve.krylov: multigrid as the preconditioner of conjugate gradients. Auto: CG where the
/// coefficient varies or nodes are held.
enum class KrylovChoice { Auto, None, Cg };

struct SolveSpec {
  SolveMethod method = SolveMethod::Auto;
  MultigridSpec multigrid;
  KrylovChoice krylov = KrylovChoice::Auto;
  Criterion criterion = Criterion::Auto;
  std::int64_t max_iterations = 1000000;
  double tolerance = 1.0e-6;  // relative to the norm of iteration 1
  /// solve.tolerance: discretization (multigrid): stop once the estimated algebraic error is
  /// a fraction of the estimated discretization error; `tolerance` is then 0.
  bool tolerance_discretization = false;
  double absolute_tolerance = 0;
  NormKind norm = NormKind::L2;
  std::int64_t check_every = 100;
  double divergence_factor = 1.0e6;
  /// Full diagnostics at every check (range, mean, non-finite values, |update| percentiles,
  /// linf location); false: only the sweep's own norms and range over the updated nodes.
  bool diagnostics = true;
  /// Warn once when the norm has not fallen by 1% over this many checks; 0 = never. Not
  /// for heat, whose update norm need not fall.
  std::int64_t stagnation_checks = 10;
  /// Seconds of wall time one run session may take before it stops with a checkpoint and
  /// exit 3 (`run --time-limit` overrides it); 0 = no limit. Applies to every equation.
  double max_wall_time = 0;

  bool operator==(const SolveSpec&) const = default;
};

/// One entry of output.probes: a point of the grid's physical coordinates where u is sampled
/// (multilinear interpolation of the nodes around it) into probes.csv.
struct ProbeSpec {
  std::string name;           // the probes.csv column
  std::array<double, 3> at{};  // x, y(, z); the unused z is 0

  bool operator==(const ProbeSpec&) const = default;
};

struct OutputSpec {
  std::string directory;                 // default out/<name>
  std::int64_t every = 0;                // iterations between snapshots; 0 = final state only
  /// Heat only: snapshots at t = 0 and every `interval` of physical time (0: not set), or at
  /// t = 0 and each of `times` (increasing, in (0, time.end]; empty: not set). The steps are
  /// shortened to land on each; exclusive with `every` and with each other.
  double interval = 0;
  std::vector<double> times;
  std::vector<ProbeSpec> probes;
  std::vector<std::string> fields{"u"};  // any of u, update, source, coefficient, fixed, capacity
  bool float_precision = false;          // output.precision: float (snapshots only)
  int gzip_level = 0;                    // output.compression: 0 = none, 1-9 = gzip level
  /// output.queue: snapshots and checkpoints the background writer may hold at once; -1 (auto)
  /// sizes it by the host's available memory, 0 writes on the loop's thread.
  std::int64_t queue = -1;

  bool operator==(const OutputSpec&) const = default;
};

/// Heat only: steps from t = 0 to `end` with the chosen scheme.
struct TimeSpec {
  TimeScheme scheme = TimeScheme::Explicit;
  double end = 1.0;
  bool dt_auto = true;  // dt = safety * stability limit (explicit scheme only)
  double dt = 0;        // the given dt when !dt_auto
  double safety = 0.9;
  /// Crank-Nicolson only: backward-Euler steps of dt/2 before the first Crank-Nicolson step
  /// (Rannacher start), which damp the highest modes of a jump in the initial or boundary data
  /// that Crank-Nicolson alone would leave ringing. 0 = none.
  std::int64_t startup_steps = 2;
  /// Implicit schemes: start each step's solve from the extrapolation of the last two steps,
  /// u + (dt / dt_last) (u - u_last), instead of the old u; the cycles then only remove the
  /// extrapolation's error.
  bool extrapolate = true;

  bool operator==(const TimeSpec&) const = default;
};

struct CheckpointSpec {
  std::int64_t every = 0;  // iterations (or steps) between checkpoints; 0 = none

  bool operator==(const CheckpointSpec&) const = default;
};

/// Optional kernel choice by variant name (as `fdsolve bench` lists them); empty means the
/// backend's measured default. Checked against the backend when the run starts.
struct TuningSpec {
  std::string kernel;
  /// A temporally blocked variant (Backend::step_kernels) for the sweeps between checks, or
  /// empty: single sweeps. Used only when nothing changes between those sweeps (jacobi.cpp).
  std::string blocked_kernel;

  bool operator==(const TuningSpec&) const = default;
};

/// parallel: the Cartesian split of the nodes over MPI ranks; 0 on an axis = chosen by
/// MPI_Dims_create (`ranks: auto` is all zeros). `overlap`: sweep each rank's interior while
/// its halo travels (ignored on one rank).
enum class CoarseLevels { Auto, Gather, Redundant };

/// parallel.gather_below's defaults in nodes per rank. On CPU ranks and the staged path a split
/// level pays two messages per split axis of a few microseconds, about a sweep of 4096 nodes; on
/// GPU ranks through NCCL every level below about a million nodes per GPU is launch- and
/// latency-bound, and solving it whole on every rank wins (docs/parallel.md, "Gathering").
inline constexpr std::int64_t kGatherBelowHost = 4096;
inline constexpr std::int64_t kGatherBelowDevice = 1048576;

struct ParallelSpec {
  std::array<int, 3> ranks{0, 0, 0};
  /// Multigrid: a coarse level on which some rank would keep fewer nodes than this is gathered
  /// (docs/parallel.md, "Gathering"). Unset: kGatherBelowHost, or kGatherBelowDevice where the
  /// gathered levels run on every GPU rank through NCCL (parallel::gather_threshold decides).
  std::optional<std::int64_t> gather_below;
  /// Multigrid: how the gathered levels run (docs/parallel.md, "Gathering"). Gather: rank 0
  /// gathers their right-hand side, runs them alone and scatters the correction back.
  /// Redundant: every rank gathers the whole right-hand side (an allgather) and runs them itself,
  /// so nothing is scattered back and no rank waits for another's coarse levels. Auto: redundant
  /// where the halo travels device to device (NCCL), gather otherwise.
  CoarseLevels coarse_levels = CoarseLevels::Auto;
  bool overlap = true;

  bool operator==(const ParallelSpec&) const = default;
};

struct Case {
  std::string name;         // default: the case file's stem
  std::string source_path;  // the case file as given on the command line
  Precision precision = Precision::Double;
  BackendChoice backend = BackendChoice::Auto;
  GridSpec grid;
  ProblemSpec problem;
  StencilSpec stencil;
  std::array<BoundaryCondition, 6> boundary;  // indexed by Face; z faces unused in 2D
  Value initial;
  SolveSpec solve;
  TimeSpec time;
  OutputSpec output;
  CheckpointSpec checkpoint;
  TuningSpec tuning;
  ParallelSpec parallel;

  /// "file:line:col" of every key read from the file (or the --set that gave it), by key
  /// path such as "grid.points", so that checks made later still point into the file.
  std::map<std::string, std::string> locations;

  /// The location prefix "file:line:col: " of `key_path`, or "file: " when it was defaulted.
  std::string where(const std::string& key_path) const {
    const auto it = locations.find(key_path);
    return (it != locations.end() ? it->second : source_path) + ": ";
  }
};

}  // namespace fdsolve
