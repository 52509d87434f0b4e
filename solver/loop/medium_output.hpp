// The medium's output fields (output.fields `coefficient`, `fixed`, `capacity`) of a run on one
// rank, handed to the run's output as soon as the medium is known, to be written into each
// snapshot's file ahead of its state (output/snapshot_ahead.hpp): on a large grid their
// gigabytes then reach the disk while the operator is built and the solve runs.
#pragma once

#include "case.hpp"
#include "run_output.hpp"

namespace fdsolve {

/// Forms the medium's fields that `c` writes and hands them to `out` (RunOutput::write_ahead);
/// nothing when it writes none. FieldWriter then leaves them to `out`.
template <typename T>
void write_medium_fields_ahead(const Case& c, output::RunOutput& out);

}  // namespace fdsolve
