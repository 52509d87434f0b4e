// The medium of a case: its coefficient (beta of -div(beta grad u) = f, or k of heat) and heat's
// capacity (c of c u_t = div(k grad u) + q) at every node and the nodes held by problem.fixed,
// evaluated once and checked (finite, > 0) before anything runs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "case.hpp"
#include "host_array.hpp"
#include "layout.hpp"
#include "medium_sample.hpp"

namespace fdsolve::op {

struct Medium {
  int dims = 2;
  std::array<index_t, 3> n{1, 1, 1};  // the grid's nodes per axis
  /// The coefficient at every node (dense, C order, x fastest) when it varies; empty when
  /// it is one number, which is then `constant`. With problem.sampling: cells the mean of the
  /// node's cells (the `coefficient` output field, the nodes of multigrid levels that do not
  /// nest); the fine faces come from `cell_beta` then.
  HostArray<double> beta;
  /// problem.sampling: cells with a coefficient that varies: its value per cell of `cell_grid`
  /// (dense); empty otherwise.
  std::vector<double> cell_beta;
  CellGrid cell_grid;
  double constant = 1.0;
  /// The coefficient's smallest and largest value (both `constant` when it is one number).
  double beta_min = 1.0, beta_max = 1.0;
  /// Held nodes (dense: 0 free, else the number of the region that holds it plus 1, capped at
  /// 255 so that regions from the 255th on share one mark) and their values; empty when none
  /// is held. The region's number names its flux column (flux_fixed_<r>).
  HostArray<std::uint8_t> held;
  /// The held values, dense (0 on free nodes), where a region's value is a formula or data or
  /// regions share a mark; otherwise empty and `held_number` gives each mark's value (0 for
  /// mark 0): a grid of copies of a few numbers would cost 8 bytes a node to write and upload.
  HostArray<double> held_value;
  std::array<double, 256> held_number{};
  index_t held_count = 0;
  /// Robin faces (boundary type robin): per face in Face order, whether it is one and its
  /// transfer coefficient h. Their term 2 h / h_a sits on the boundary nodes' diagonal
  /// (flux_levels: FluxLevel::diagonal), so a case with one runs the flux operator.
  std::array<bool, 6> robin_face{};
  std::array<double, 6> robin_h{};
  /// Heat's capacity at every node (dense, as beta) when it varies; empty when it is one number,
  /// `capacity_constant` (1 for the other equations), with its range. Under sampling: cells a
  /// node's capacity is the mean of its cells (sampled_node_values).
  HostArray<double> capacity;
  double capacity_constant = 1.0;
  double capacity_min = 1.0, capacity_max = 1.0;

  static std::uint8_t held_mark(std::size_t region) {
    return static_cast<std::uint8_t>(region < 254 ? region + 1 : 255);
  }
  /// The flux columns of the held regions: one per region of problem.fixed, the regions from
  /// the 255th on together in the last.
  static std::size_t held_columns(std::size_t regions) { return regions < 255 ? regions : 255; }

  bool varies() const { return !beta.empty(); }
  bool holds() const { return held_count > 0; }
  bool robin() const {
    for (bool r : robin_face)
      if (r) return true;
    return false;
  }
  bool capacity_varies() const { return !capacity.empty(); }
  /// Whether the case needs the variable-coefficient operator (a coefficient or a capacity that
  /// varies, held nodes, or a Robin face); otherwise the constant stencils run with `constant`
  /// (and the capacity's number).
  bool needs_flux() const { return varies() || holds() || robin() || capacity_varies(); }
  index_t index(index_t i, index_t j, index_t k) const { return (k * n[1] + j) * n[0] + i; }
  double beta_at(index_t node) const { return varies() ? beta[node] : constant; }
  double capacity_at(index_t node) const {
    return capacity_varies() ? capacity[node] : capacity_constant;
  }
  bool by_cells() const { return !cell_beta.empty(); }
  /// The fine grid's coefficient of the face between node (i, j, k) and its +a neighbour
  /// (node[a] up to n_a - 2, or n_a - 1 on a periodic axis, whose face wraps): the harmonic mean
  /// of the two node values, or of the cells beside the face (cell_face).
  double face_beta(int a, const std::array<index_t, 3>& node) const;
};

/// The key the operator's coefficient comes from: problem.diffusivity for heat, else
/// problem.coefficient.
std::string coefficient_key(const Case& c);

/// Where a backend evaluates the medium's expressions (not numbers, not data files) at every
/// node of the whole grid at t = 0, running the compiled formula where the fields live
/// (field_programs.hpp: node_values_on_backend, nonzero_on_backend); empty: on the host, all
/// threads. Each throws NonFiniteValue at the first node (C order) where the value is not
/// finite.
struct NodeEvaluator {
  /// The values: dense, C order, x fastest.
  std::function<HostArray<double>(const Value&)> values;
  /// 1 where the value is non-zero, else 0 (a held region's `where`): an eighth of the bytes
  /// to bring back. Empty: `values` serves.
  std::function<HostArray<std::uint8_t>(const Value&)> nonzero;

  explicit operator bool() const { return static_cast<bool>(values); }
};

/// Evaluates the coefficient, the capacity and the fixed regions of `c` on the whole grid. Throws
/// InputError naming the key and the node where the coefficient or the capacity is not finite or
/// not > 0, where a held value is not finite, or when the regions hold every node a sweep would
/// update; warns for a region that holds no node. A coefficient equal at every node becomes
/// `constant`, a capacity equal at every node `capacity_constant`. Every pass over the grid runs
/// on all threads, and the threads that fill the arrays touch their pages first; the result and
/// the node an error names (the first in C order, of the first region in order) are those of a
/// walk of the nodes in C order on one thread, whatever the thread count.
Medium resolve_medium(const Case& c, const NodeEvaluator& evaluate = {});
/// resolve_medium evaluated once per case: the validation before a run, the solver, the
/// stability limit, the method's description and the snapshot fields share one result (a
/// coefficient formula on a large grid takes seconds to evaluate on the host). The media of the
/// two latest cases are kept, keyed by the case's resolved YAML.
std::shared_ptr<const Medium> resolved_medium(const Case& c);
/// The same, a case not kept yet being resolved with `evaluate`: a run calls this first, with
/// its backend's evaluator, and every later resolved_medium(c) finds the result.
std::shared_ptr<const Medium> resolved_medium(const Case& c, const NodeEvaluator& evaluate);

/// Whether the case has a face of type robin.
bool has_robin_face(const Case& c);

/// Whether the case can need the variable-coefficient operator at all (a coefficient or a
/// capacity given as an expression or data, fixed regions, or a Robin face), without evaluating
/// anything.
bool may_need_flux(const Case& c);

/// `c` with a capacity equal at every node of `m` written as its number (what the constant
/// scaling by c takes, on the flux form too).
Case with_constant_capacity(const Case& c, const Medium& m);

/// `c` with the coefficient and the capacity of a medium that needs no flux operator written as
/// numbers, so that a uniform field runs exactly as that number does.
Case with_constant_coefficient(const Case& c, const Medium& m);

}  // namespace fdsolve::op
