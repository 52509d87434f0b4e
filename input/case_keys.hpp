// Every key a case file may hold, section by section: the one table the parser checks each map
// against (an unknown key is an error with a suggestion) and docs/case-file.md is tested against.
// A new key is one entry here plus its reading code in the section's parse_*.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fdsolve::case_keys {

/// The keys allowed in one map of the case file, by the map's section name:
///   ""                  the top level
///   "grid", "problem", "time", "solve", "solve.multigrid", "output", "checkpoint", "tuning",
///   "parallel"          the sections of those names
///   "boundary"          default and the six faces
///   "boundary.face"     one face, or boundary.default
///   "problem.fixed"     one region of the problem.fixed list: {where, value}
///   "field_file"        a value given as {file, dataset}: initial, problem.source,
///                       problem.coefficient, problem.diffusivity, problem.fixed[i].where/value
///   "stencil"           a custom stencil: {points, weights}
///   "stencil.weights.5", "stencil.weights.27"  its weights in 2D and in 3D
/// Throws std::logic_error for a name not in the table (a programming error).
const std::vector<std::string>& section(std::string_view name);

/// Every accepted key as a full dotted path ("solve.multigrid.cycle", "initial.file", ...); the
/// keys of a face once, as "boundary.<face>.type" and so on, <face> standing for `default` and
/// each face name; the keys of a problem.fixed region once, as "problem.fixed[i].where".
std::vector<std::string> all_paths();

}  // namespace fdsolve::case_keys
