// Checkpoints: the complete state of a run (the field and every counter the loop needs, the
// snapshot index and history so far) in <output>/checkpoint.h5, so that `run --resume`
// continues bit-identically. Tied to the case by a hash of what determines the solution.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "case.hpp"
#include "parallel/subdomain.hpp"
#include "run_output.hpp"

namespace fdsolve {

/// The loop counters a resumed run continues from.
struct LoopState {
  std::int64_t iteration = 0;  // iterations (steps) done
  double time = 0;             // physical time reached (heat; the iteration for steady runs)
  double first_norm = 0;       // norm of iteration 1: the relative tolerance's reference
  double wall_seconds = 0;     // wall time spent so far
  std::string backend;         // where the state was computed
  std::string kernel;
};

/// The nodes `sub` owns, as the box of the global grid that snapshots and checkpoints read and
/// write for one rank.
inline output::Hyperslab hyperslab_of(const Subdomain& sub) {
  output::Hyperslab box;
  for (int a = 0; a < 3; ++a) {
    box.offset[a] = sub.offset[a];
    box.count[a] = sub.n[a];
  }
  return box;
}

/// A checkpoint read back; `u` holds the owned nodes, dense and C-ordered.
struct Checkpoint {
  LoopState state;
  std::vector<double> u;  // the nodes read: the whole grid, or a rank's owned box (x fastest)
  /// The same nodes of u one, two and three steps earlier, where the loop needs them (the
  /// implicit schemes' extrapolated start): none to three fields.
  std::vector<std::vector<double>> u_previous;
  bool single_precision = false;
  std::vector<output::XdmfEntry> index;
  std::vector<output::HistoryRow> history;
  std::vector<output::ProbeRow> probes;  // probes.csv's rows so far (output.probes)
};

/// 16 hex digits identifying what determines the sequence of fields: grid, precision, problem,
/// stencil, boundaries, initial state, time step settings and the output times the steps land
/// on (output.interval, output.times). Keys that only decide when to stop or what to write
/// (max_iterations, tolerances, time.end, the rest of output, checkpoint, backend, tuning) are
/// left out, so a run can be resumed with more iterations or a later end time.
std::string case_hash(const Case& c);

/// Where a case's checkpoint lives.
std::string checkpoint_path(const Case& c);

/// Writes the checkpoint atomically (a crash keeps the previous one). `u` is dense; `index`,
/// `history` and `probes` are the output so far that a resumed run continues; `previous`
/// (dense) u one to three steps earlier where the loop keeps them (datasets u_previous,
/// u_previous_2, _3).
template <typename T>
void write_checkpoint(const Case& c, const LoopState& state, const std::vector<T>& u,
                      const std::vector<output::XdmfEntry>& index,
                      const std::vector<output::HistoryRow>& history,
                      const output::ProbeTable& probes,
                      const std::vector<const std::vector<T>*>& previous = {});
/// The checkpoint written by every rank at once (parallel HDF5, output/snapshot_parallel.hpp):
/// every rank writes its owned nodes `u` (dense, at `mine`), then, once the ranks have agreed
/// that it went well, rank 0 finishes it (the loop state, index and history; the rename).
template <typename T>
void write_checkpoint_fields(const Case& c, const std::vector<T>& u, const output::Hyperslab& mine,
                             const std::vector<const std::vector<T>*>& previous = {});
void finish_checkpoint(const Case& c, const LoopState& state, const output::RunOutput& out);

/// The resolved case a checkpoint was written with (its /config: every key, --set overrides
/// applied) and the case file the run was started from ("" for checkpoints older than that).
struct StoredCase {
  std::string yaml;
  std::string case_file;
};

/// The stored case of <directory>/checkpoint.h5, for `run --resume OUTDIR`. Throws InputError
/// when the directory holds no checkpoint, or not one of this version.
StoredCase read_checkpoint_case(const std::string& directory);

/// Reads the case's checkpoint for `run --resume`. Throws InputError when there is none, or it
/// belongs to another case or precision, or to other probes (output.probes).
Checkpoint read_checkpoint(const Case& c);
/// The same with only the nodes `sub` owns of u (its owned box, x fastest): what one rank of
/// any rank count resumes from, without holding the whole grid.
Checkpoint read_checkpoint(const Case& c, const Subdomain& sub);

}  // namespace fdsolve
