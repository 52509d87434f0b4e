// --set overrides: "key.path=VALUE" with VALUE in YAML syntax, applied to the tree before it is
// validated.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "yaml_fields.hpp"

namespace fdsolve {

/// Applies `overrides` to `root` in order (a later one wins), creating intermediate maps, and
/// records in `sources` that the keys they set come from "--set <override>". A malformed
/// override (no '=', an empty key or key part, a VALUE that is not YAML, a path through a
/// non-map value) is an InputError "--set <override>: <key>: <reason>".
void apply_overrides(YAML::Node& root, const std::vector<std::string>& overrides,
                     SourceMap& sources);

}  // namespace fdsolve
