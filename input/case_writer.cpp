// to_yaml: the resolved Case as a case file with every key written out, so `fdsolve check` shows
// what a run will do and snapshots can store it; parse_case reads it back to an equal Case.
#include <yaml-cpp/yaml.h>

#include "case_reader.hpp"
#include "number_text.hpp"

namespace fdsolve {

namespace {
// Numbers go out as the shortest text that reads back to the same double; expressions are
// always quoted so that one never reads back as a number or a YAML structure.
void emit_number(YAML::Emitter& out, double value) { out << format_number(value); }

void emit_value(YAML::Emitter& out, const Value& value) {
  if (value.is_file()) {
    // The file as the case gave it: the reader resolves it against the case file again.
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "file" << YAML::Value << YAML::DoubleQuoted << value.file;
    out << YAML::Key << "dataset" << YAML::Value << YAML::DoubleQuoted << value.dataset;
    out << YAML::EndMap;
  } else if (value.is_constant()) {
    emit_number(out, value.constant);
  } else {
    out << YAML::DoubleQuoted << value.expression;
  }
}

// A flow list of one value per axis, under `key` (or, when it is null, as the value of a key
// already written).
void emit_axes(YAML::Emitter& out, const char* key, const auto& values, int dims) {
  if (key) out << YAML::Key << key << YAML::Value;
  out << YAML::Flow << YAML::BeginSeq;
  for (int axis = 0; axis < dims; ++axis) {
    if constexpr (std::is_floating_point_v<std::decay_t<decltype(values[0])>>) {
      emit_number(out, values[axis]);
    } else {
      out << values[axis];
    }
  }
  out << YAML::EndSeq;
}

void emit_stencil(YAML::Emitter& out, const StencilSpec& s) {
  out << YAML::Key << "stencil" << YAML::Value;
  if (!s.custom) {
    out << s.points;
    return;
  }
  out << YAML::BeginMap << YAML::Key << "points" << YAML::Value << s.points;
  out << YAML::Key << "weights" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "center" << YAML::Value;
  emit_number(out, s.center);
  const auto weight = [&out](const char* name, double w) {
    out << YAML::Key << name << YAML::Value;
    emit_number(out, w);
  };
  if (s.points == 5) {
    weight("x", s.face[0]);
    weight("y", s.face[1]);
  } else {
    weight("face", s.face[0]);
    weight("edge", s.edge);
    weight("corner", s.corner);
  }
  out << YAML::EndMap << YAML::EndMap;
}

const char* method_name(SolveMethod m) {
  switch (m) {
    case SolveMethod::Jacobi:
      return "jacobi";
    case SolveMethod::Multigrid:
      return "multigrid";
    default:
      return "auto";
  }
}

const char* krylov_name(KrylovChoice k) {
  switch (k) {
    case KrylovChoice::None:
      return "none";
    case KrylovChoice::Cg:
      return "cg";
    default:
      return "auto";
  }
}

const char* criterion_name(Criterion k) {
  switch (k) {
    case Criterion::Update:
      return "update";
    case Criterion::Residual:
      return "residual";
    default:
      return "auto";
  }
}

void emit_multigrid(YAML::Emitter& out, const MultigridSpec& m) {
  out << YAML::Key << "multigrid" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "cycle" << YAML::Value << (m.cycle == CycleKind::V ? "v" : "w");
  if (m.smoother != Smoother::Auto)
    out << YAML::Key << "smoother" << YAML::Value
        << (m.smoother == Smoother::Jacobi ? "jacobi" : "chebyshev");
  out << YAML::Key << "pre_smooth" << YAML::Value << m.pre_smooth;
  out << YAML::Key << "post_smooth" << YAML::Value << m.post_smooth;
  out << YAML::Key << "fmg" << YAML::Value << m.fmg;
  if (m.float_cycles) out << YAML::Key << "precision" << YAML::Value << "float";
  out << YAML::EndMap;
}

// Only the keys that apply are written (the others are errors on reading), so that the text
// reads back. Steady cases: all but multigrid, which needs laplace or poisson and a method other
// than jacobi. Heat runs to time.end: the explicit scheme takes none of the method and stopping
// keys; the implicit ones solve each step by multigrid and take its method, settings and
// per-step stopping keys. The criterion and the stagnation warning are for steady solves.
void emit_solve(YAML::Emitter& out, const Case& c) {
  const SolveSpec& s = c.solve;
  const Equation eq = c.problem.equation;
  const bool heat = eq == Equation::Heat;
  const bool implicit_heat = heat && c.time.scheme != TimeScheme::Explicit;
  const bool multigrid = implicit_heat || ((eq == Equation::Laplace || eq == Equation::Poisson) &&
                                           s.method != SolveMethod::Jacobi);
  out << YAML::Key << "solve" << YAML::Value << YAML::BeginMap;
  if (!heat || implicit_heat) out << YAML::Key << "method" << YAML::Value << method_name(s.method);
  if (multigrid) emit_multigrid(out, s.multigrid);
  // Only when set: the default leaves the text (and the checkpoint hash) of other cases as it was.
  if (multigrid && s.krylov != KrylovChoice::Auto)
    out << YAML::Key << "krylov" << YAML::Value << krylov_name(s.krylov);
  if (!heat) out << YAML::Key << "criterion" << YAML::Value << criterion_name(s.criterion);
  if (!heat || implicit_heat) {
    out << YAML::Key << "max_iterations" << YAML::Value << s.max_iterations;
    out << YAML::Key << "tolerance" << YAML::Value;
    if (s.tolerance_discretization)
      out << "discretization";
    else
      emit_number(out, s.tolerance);
    out << YAML::Key << "absolute_tolerance" << YAML::Value;
    emit_number(out, s.absolute_tolerance);
  }
  out << YAML::Key << "norm" << YAML::Value << (s.norm == NormKind::L2 ? "l2" : "linf");
  out << YAML::Key << "check_every" << YAML::Value << s.check_every;
  out << YAML::Key << "divergence_factor" << YAML::Value;
  emit_number(out, s.divergence_factor);
  out << YAML::Key << "diagnostics" << YAML::Value << s.diagnostics;
  if (!heat) out << YAML::Key << "stagnation_checks" << YAML::Value << s.stagnation_checks;
  out << YAML::Key << "max_wall_time" << YAML::Value;
  emit_number(out, s.max_wall_time);
  out << YAML::EndMap;
}

// The implicit schemes take a dt of any size and no safety factor.
// Written only when set, so that the text (and the checkpoint's case hash) of a case without
// them stays what it was before these keys existed.
void emit_output_marks(YAML::Emitter& out, const OutputSpec& o, int dims) {
  if (o.interval > 0) {
    out << YAML::Key << "interval" << YAML::Value;
    emit_number(out, o.interval);
  }
  if (!o.times.empty()) {
    out << YAML::Key << "times" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const double t : o.times) emit_number(out, t);
    out << YAML::EndSeq;
  }
  if (o.probes.empty()) return;
  out << YAML::Key << "probes" << YAML::Value << YAML::BeginSeq;
  for (const ProbeSpec& p : o.probes) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value
        << YAML::DoubleQuoted << p.name << YAML::Key << "at" << YAML::Value << YAML::Flow
        << YAML::BeginSeq;
    for (int a = 0; a < dims; ++a) emit_number(out, p.at[static_cast<std::size_t>(a)]);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emit_time(YAML::Emitter& out, const TimeSpec& t) {
  out << YAML::Key << "time" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "scheme" << YAML::Value << time_scheme_name(t.scheme);
  out << YAML::Key << "end" << YAML::Value;
  emit_number(out, t.end);
  out << YAML::Key << "dt" << YAML::Value;
  if (t.dt_auto) {
    out << "auto";
  } else {
    emit_number(out, t.dt);
  }
  if (t.scheme == TimeScheme::Explicit) {
    out << YAML::Key << "safety" << YAML::Value;
    emit_number(out, t.safety);
  }
  if (t.scheme == TimeScheme::CrankNicolson)
    out << YAML::Key << "startup_steps" << YAML::Value << t.startup_steps;
  if (t.scheme != TimeScheme::Explicit)
    out << YAML::Key << "extrapolate" << YAML::Value << t.extrapolate;
  out << YAML::EndMap;
}

// The coefficient (laplace, poisson: problem.coefficient; heat: problem.diffusivity, a number
// or the field), heat's capacity and the held regions. The coefficient and the regions are written only when
// set, so that the text of a case without them is what it was before they existed.
void emit_problem(YAML::Emitter& out, const ProblemSpec& p) {
  const Equation eq = p.equation;
  out << YAML::Key << "problem" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "equation" << YAML::Value << equation_name(eq);
  if (eq == Equation::Poisson || eq == Equation::Heat) {
    out << YAML::Key << "source" << YAML::Value;
    emit_value(out, p.source);
  }
  const bool unit_coefficient = p.coefficient.is_constant() && p.coefficient.constant == 1.0;
  if (eq == Equation::Heat) {
    out << YAML::Key << "diffusivity" << YAML::Value;
    if (p.coefficient.is_constant()) {
      emit_number(out, p.diffusivity);
    } else {
      emit_value(out, p.coefficient);
    }
  } else if (eq != Equation::Custom && !unit_coefficient) {
    out << YAML::Key << "coefficient" << YAML::Value;
    emit_value(out, p.coefficient);
  }
  // Only cells: the text of a case sampled at the nodes stays what it was before the key.
  if (p.sampling == Sampling::Cells) out << YAML::Key << "sampling" << YAML::Value << "cells";
  // Written only when it is not the number 1, as the coefficient.
  if (eq == Equation::Heat && !(p.capacity.is_constant() && p.capacity.constant == 1.0)) {
    out << YAML::Key << "capacity" << YAML::Value;
    emit_value(out, p.capacity);
  }
  if (!p.fixed.empty()) {
    out << YAML::Key << "fixed" << YAML::Value << YAML::BeginSeq;
    for (const FixedRegion& region : p.fixed) {
      out << YAML::Flow << YAML::BeginMap;
      out << YAML::Key << "where" << YAML::Value;
      emit_value(out, region.where);
      out << YAML::Key << "value" << YAML::Value;
      emit_value(out, region.value);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

// auto, or the ranks per axis of the grid.
void emit_parallel(YAML::Emitter& out, const Case& c) {
  out << YAML::Key << "parallel" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "ranks" << YAML::Value;
  if (c.parallel.ranks == std::array<int, 3>{0, 0, 0}) {
    out << "auto";
  } else {
    emit_axes(out, nullptr, c.parallel.ranks, c.grid.dims);
  }
  // Only when set: the default leaves the text of every other case as it was.
  if (c.parallel.gather_below)
    out << YAML::Key << "gather_below" << YAML::Value << *c.parallel.gather_below;
  if (c.parallel.coarse_levels != CoarseLevels::Auto)
    out << YAML::Key << "coarse_levels" << YAML::Value
        << (c.parallel.coarse_levels == CoarseLevels::Gather ? "gather" : "redundant");
  if (!c.parallel.overlap) out << YAML::Key << "overlap" << YAML::Value << false;
  out << YAML::EndMap;
}

void emit_boundary(YAML::Emitter& out, const Case& c) {
  out << YAML::Key << "boundary" << YAML::Value << YAML::BeginMap;
  const int faces = 2 * c.grid.dims;  // a 2D case has no z faces to list
  for (int face = 0; face < faces; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    out << YAML::Key << kFaceNames[face] << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "type" << YAML::Value;
    switch (bc.type) {
      case BoundaryType::Dirichlet:
        out << "dirichlet" << YAML::Key << "value" << YAML::Value;
        emit_value(out, bc.value);
        break;
      case BoundaryType::Neumann:
        out << "neumann" << YAML::Key << "gradient" << YAML::Value;
        emit_value(out, bc.gradient);
        break;
      case BoundaryType::Periodic:
        out << "periodic";
        break;
      case BoundaryType::Robin:
        out << "robin" << YAML::Key << "h" << YAML::Value;
        emit_number(out, bc.h);
        out << YAML::Key << "ambient" << YAML::Value;
        emit_value(out, bc.ambient);
        break;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

const char* backend_name(BackendChoice b) {
  switch (b) {
    case BackendChoice::Auto:
      return "auto";
    case BackendChoice::Cuda:
      return "cuda";
    case BackendChoice::Cpu:
      return "cpu";
  }
  return "auto";
}
}  // namespace

const char* equation_name(Equation e) {
  switch (e) {
    case Equation::Laplace:
      return "laplace";
    case Equation::Poisson:
      return "poisson";
    case Equation::Heat:
      return "heat";
    case Equation::Custom:
      return "custom";
  }
  return "laplace";
}

const char* time_scheme_name(TimeScheme s) {
  switch (s) {
    case TimeScheme::Implicit:
      return "implicit";
    case TimeScheme::CrankNicolson:
      return "crank-nicolson";
    default:
      return "explicit";
  }
}

std::string to_yaml(const Case& c) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << c.name;
  out << YAML::Key << "precision" << YAML::Value
      << (c.precision == Precision::Float ? "float" : "double");
  out << YAML::Key << "backend" << YAML::Value << backend_name(c.backend);

  out << YAML::Key << "grid" << YAML::Value << YAML::BeginMap;
  emit_axes(out, "points", c.grid.points, c.grid.dims);
  emit_axes(out, "extent", c.grid.extent, c.grid.dims);
  emit_axes(out, "origin", c.grid.origin, c.grid.dims);
  out << YAML::EndMap;

  const Equation eq = c.problem.equation;
  emit_problem(out, c.problem);

  emit_stencil(out, c.stencil);
  emit_boundary(out, c);
  out << YAML::Key << "initial" << YAML::Value;
  emit_value(out, c.initial);

  emit_solve(out, c);
  if (eq == Equation::Heat) emit_time(out, c.time);

  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "directory" << YAML::Value << c.output.directory;
  // output.every and the output times exclude each other: only the one in use is written.
  if (c.output.interval == 0 && c.output.times.empty())
    out << YAML::Key << "every" << YAML::Value << c.output.every;
  emit_output_marks(out, c.output, c.grid.dims);
  out << YAML::Key << "fields" << YAML::Value << YAML::Flow << c.output.fields;
  out << YAML::Key << "precision" << YAML::Value << (c.output.float_precision ? "float" : "same");
  if (c.output.gzip_level == 0) {
    out << YAML::Key << "compression" << YAML::Value << "none";
  } else {
    out << YAML::Key << "compression" << YAML::Value << YAML::Flow << YAML::BeginMap
        << YAML::Key << "gzip" << YAML::Value << c.output.gzip_level << YAML::EndMap;
  }
  if (c.output.queue < 0) {
    out << YAML::Key << "queue" << YAML::Value << "auto";
  } else {
    out << YAML::Key << "queue" << YAML::Value << c.output.queue;
  }
  out << YAML::EndMap;

  out << YAML::Key << "checkpoint" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "every" << YAML::Value << c.checkpoint.every << YAML::EndMap;

  out << YAML::Key << "tuning" << YAML::Value << YAML::Flow << YAML::BeginMap;
  if (!c.tuning.kernel.empty()) out << YAML::Key << "kernel" << YAML::Value << c.tuning.kernel;
  if (!c.tuning.blocked_kernel.empty())
    out << YAML::Key << "blocked_kernel" << YAML::Value << c.tuning.blocked_kernel;
  out << YAML::EndMap;
  emit_parallel(out, c);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace fdsolve
