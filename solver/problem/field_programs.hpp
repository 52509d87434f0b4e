// The case's values as backend field programs: an expression translated for the GPU (with
// host evaluators of the same text for the CPU and for fallback), evaluated straight into a
// backend buffer with its non-finite check in the same pass.
#pragma once

#include "backend.hpp"
#include "case.hpp"
#include "field_expression.hpp"
#include "operator/host_array.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

/// The program of expression `text`; the GPU translation is left empty where the translator
/// cannot write one (a debug line says why), and the backend then evaluates on the host.
FieldProgram field_program(const std::string& text);
/// A program that is the number `v` everywhere.
FieldProgram constant_program(double v);
/// The program of `value` (an expression or a number; not a data file).
FieldProgram field_program(const Value& value);
/// The programs of every formula of the case (sources, initial and boundary values,
/// coefficients): what compile_formulas_ahead starts compiling before the backend exists.
std::vector<FieldProgram> case_formula_programs(const Case& c);

/// Whether check_finite_inputs kept the source's values (CPU backend) and the set-up has not
/// used them yet: the set-up's load_source then fills the field from them instead of
/// evaluating the formula a second time.
bool source_values_kept();

/// Where to evaluate: `box` of layout L of the nodes `sub` owns, at time t, times `scale`.
FieldEvalArgs field_args(const Case& c, const Layout& L, const Box& box, const Subdomain& sub,
                         double t, double scale = 1.0);

/// Writes scale * value(t) onto the nodes of `box` of `out` on the backend. `value` must not
/// be a data file. Throws NonFiniteValue (node in global indices) where it is not finite.
template <typename T>
void evaluate_value(const Case& c, Backend<T>& backend, const Value& value, const Layout& L,
                    const Box& box, const Subdomain& sub, double scale, double t, Buffer<T>& out);

/// `value` (an expression) at every node of the whole grid at t = 0, evaluated on the backend
/// (on CUDA: compiled, on the device) and copied to the host: dense, C order (the medium's
/// op::NodeEvaluator), into an array whose pages all threads touched first (op::touched), with
/// no zero fill before the copy. Throws NonFiniteValue at the first node where it is not
/// finite. Double backends only: the medium is kept in double. `on_backend`, where given,
/// receives the backend's array of the values (LevelFaceBuilder::keep takes such a copy).
op::HostArray<double> node_values_on_backend(const Case& c, Backend<double>& backend,
                                             const Value& value,
                                             Buffer<double>* on_backend = nullptr);
/// The same brought back as 1 where `value` is non-zero, else 0 (op::NodeEvaluator::nonzero):
/// one byte a node, the marks formed where the values were evaluated.
op::HostArray<std::uint8_t> nonzero_on_backend(const Case& c, Backend<double>& backend,
                                               const Value& value);

/// check_finite_inputs (every node) with the expressions evaluated on the backend (on CUDA:
/// compiled and run on the device, slab by slab into a scratch buffer; only the first
/// non-finite node comes back); numbers and data files are checked on the host (check_finite,
/// finite_inputs.hpp).
template <typename T>
/// With `keep_source` (a run on one rank) the CPU backend keeps the source formula's values for
/// the set-up (source_values_kept); over several ranks each rank evaluates its own nodes later,
/// so nothing is kept.
void check_finite_inputs(const Case& c, Backend<T>& backend, bool keep_source = false);

/// The source (as source_values) written into `out` on the backend: an expression is
/// evaluated there, anything else is built on the host and uploaded.
template <typename T>
void load_source(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub,
                 double scale, double t, Buffer<T>& out);

/// The initial field (as initial_field) written into `out` on the backend without a host copy
/// of the grid when it can be (no data file); returns false, writing nothing, when it cannot.
/// The held values of problem.fixed are the caller's to write (op::write_held_values).
template <typename T>
bool load_initial_on_backend(const Case& c, Backend<T>& backend, const Layout& L,
                             const Subdomain& sub, Buffer<T>& out);

}  // namespace fdsolve
