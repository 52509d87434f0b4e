// Input values that are not finite (issue 11): an expression or data file for `initial`,
// `problem.source`, a Dirichlet `value` or a Neumann `gradient` that is NaN or Inf at a node.
// Before the run they are bad input (exit 2, nothing written); a time-dependent expression
// that turns non-finite later stops the run as diverged (exit 4) naming key, time and node.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "case.hpp"
#include "layout.hpp"

namespace fdsolve {

/// A value evaluated to NaN or Inf at `node` while the run was going (time-dependent inputs).
class NonFiniteValue : public std::runtime_error {
 public:
  NonFiniteValue(double value, std::array<index_t, 3> node)
      : std::runtime_error("non-finite value"), value(value), node(node) {}
  double value;
  std::array<index_t, 3> node;
};

/// An input that turned non-finite during the run: what() names the key, the time and the node.
class NonFiniteInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "key: evaluates to inf at node (i, j) = (3, 4), (x, y) = (0.3, 0.4)": the message body for `value` at `node`.
std::string describe_nonfinite(const Case& c, const std::string& key, double value,
                               const std::array<index_t, 3>& node, bool from_file);

/// The case key a face's value or gradient came from: its own, or boundary.default's.
std::string face_key(const Case& c, int face, const char* what);

/// Where check_finite_inputs evaluates an expression: at every node of its box (run, and
/// `check --full`), or at samples (`check`: cheap at any size). A box of at most
/// kSampleEveryNode nodes is always evaluated everywhere.
enum class Coverage { Every, Sampled };
constexpr index_t kSampleEveryNode = index_t{1} << 16;

/// The nodes of `box` a sampled check evaluates (C order): a lattice of about 4096 nodes whose
/// per-axis indices include both ends and the middle, so every corner, face centre and the
/// centre are among them; every node of a box of at most kSampleEveryNode nodes.
std::vector<std::array<index_t, 3>> sample_nodes(const Box& box);

/// Throws InputError ("file:line:col: key: evaluates to inf at node (i, j) = ..., (x, y) = ...", the
/// first such node in C order) when an input is not finite at some node, at t = 0. Reads data
/// files; evaluates each expression at the nodes `coverage` says.
void check_finite_inputs(const Case& c, Coverage coverage = Coverage::Every);

/// The inputs check_finite_inputs checks: key, value and the box of nodes it covers (the
/// owned box of the whole grid, or a face).
struct CheckedInput {
  std::string key;
  const Value* value;
  Box box;
};
std::vector<CheckedInput> checked_inputs(const Case& c);
/// check_finite_inputs for one of them.
void check_finite(const Case& c, const CheckedInput& input, Coverage coverage);

}  // namespace fdsolve
