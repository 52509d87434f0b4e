// `fdsolve run --resume OUTDIR`: the case comes from the checkpoint in OUTDIR (the resolved
// case the run was started with, its --set overrides included), so resuming needs no memory of
// the command line. Only the keys that decide when to stop or what to write may still change.
#pragma once

#include <string>
#include <vector>

#include "case.hpp"

namespace fdsolve {

/// The --set keys `run --resume OUTDIR` accepts: none of them changes the sequence of fields
/// (backend, which --backend sets, resumes with a warning that the result is not
/// bit-identical).
const std::vector<std::string>& resume_override_keys();

/// The case stored in <directory>/checkpoint.h5 with `overrides` applied and output.directory
/// set to `directory`. Throws InputError for a --set key outside resume_override_keys(), and
/// when the directory holds no checkpoint of this version.
Case read_resumed_case(const std::string& directory, const std::vector<std::string>& overrides);

}  // namespace fdsolve
