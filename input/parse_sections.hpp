// The per-section readers behind parse_case. Each fills its part of the Case from the checked
// top-level map; later sections rely on earlier ones (grid before stencil and boundary).
#pragma once

#include <string>

#include "case.hpp"
#include "case_reader.hpp"
#include "yaml_fields.hpp"

namespace fdsolve {

void parse_grid(const FieldMap& root, Case& c);
/// problem and initial; also rejects the heat-only `time` section.
void parse_problem(const FieldMap& root, Case& c);
void parse_stencil(const FieldMap& root, Case& c);
void parse_boundary(const FieldMap& root, Case& c);
/// solve, output, checkpoint and tuning.
void parse_run_settings(const FieldMap& root, Case& c);

/// An error about a combination of keys, placed at `path` as recorded in c.locations (the file
/// itself when `path` was defaulted).
[[noreturn]] inline void fail_at_key(const Case& c, const std::string& path,
                                     const std::string& reason) {
  throw InputError(c.where(path) + path + ": " + reason);
}

}  // namespace fdsolve
